// FMI 2.0 FMUs: the modelDescription.xml of a compiled model and the zip archive around it.
#pragma once

#include "backend/ObjectFile.h"
#include "middle/FlatSystem.h"
#include "middle/OdeModel.h"

#include <string>
#include <utility>
#include <vector>

namespace eqc {

/// A GUID derived from everything the description says (same model, same GUID).
std::string fmuGuid(const ModelDescription &d);

/// modelDescription.xml (FMI 2.0, Model Exchange and Co-Simulation) for the value-reference
/// layout of runtime/fmi2/Fmi2.cpp: states 0..n-1 (local, continuous, initial exact), the
/// derivative of state i at n + i (a variable of its own, or the state it is copied from for
/// der(der(x)) chains), the algebraic variables at 2n + i (outputs), the parameters at 2n + m + i
/// (fixed). Requires d.fmuGuid.
std::string fmuModelDescription(const ModelDescription &d, const FlatSystem &flat, const OdeModel &model);

/// Writes a zip archive (entries deflated, by Debian's libzip) to `path` via a temporary file
/// renamed into place; false with `error` set on failure, and nothing left behind.
bool writeZip(const std::string &path, const std::vector<std::pair<std::string, std::string>> &entries,
              std::string &error);

} // namespace eqc

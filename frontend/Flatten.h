// Checking and flattening: AST → FlatSystem with every name resolved and every type checked.
#pragma once

#include "frontend/Ast.h"
#include "middle/FlatSystem.h"
#include "support/Diagnostics.h"

#include <optional>
#include <string>

namespace eqc {

/// Flattens the model `modelName` of `file` (the last model when empty).
/// Requires: an AST from parseBuffer. Ensures: on success, a FlatSystem whose expressions only
/// reference its variables, with constants folded, types checked and as many equations as
/// unknowns; otherwise every error found is in `diags` and the result is nullopt.
std::optional<FlatSystem> flattenModel(const ast::File &file, const std::string &modelName,
                                       Diagnostics &diags);

} // namespace eqc

// Checking and flattening: AST → FlatSystem with every name resolved and every type checked.
#pragma once

#include "frontend/Ast.h"
#include "middle/FlatSystem.h"
#include "support/Diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace eqc {

/// Flattens the model `modelName` (a dotted class name; empty: the last model or block of the
/// first file) of the classes of `files` (the model's file first, then libraries).
/// Requires: ASTs from parseBuffer. Ensures: on success, a FlatSystem of scalar variables and
/// equations: components instantiated with their modifications, arrays and for-equations
/// expanded, connections turned into equations, functions specialized, constants folded, types
/// checked and as many continuous equations as unknowns; otherwise every error found is in
/// `diags` and the result is nullopt.
std::optional<FlatSystem> flattenModel(const std::vector<const ast::File *> &files, const std::string &modelName,
                                       Diagnostics &diags);

/// A single file.
inline std::optional<FlatSystem> flattenModel(const ast::File &file, const std::string &modelName, Diagnostics &diags) {
  return flattenModel(std::vector<const ast::File *>{&file}, modelName, diags);
}

} // namespace eqc

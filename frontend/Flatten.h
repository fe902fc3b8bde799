// Checking and flattening: AST → FlatSystem with every name resolved and every type checked.
#pragma once

#include "frontend/Ast.h"
#include "middle/FlatSystem.h"
#include "support/Diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace eqc {

class ExternalCode;

/// Supplies classes that no file given to flattenModel defines, when they are first named: a
/// library path read lazily (MLS 3.5, 13.4). The syntax trees it returns live as long as it does.
class ClassSource {
public:
  virtual ~ClassSource() = default;
  /// The top-level class `name`, or null when there is none.
  virtual const ast::ClassDef *topLevel(const std::string &name) = 0;
  /// The class `name` stored in the directory of `package` (qualified name `qualifiedPackage`)
  /// rather than in its package.mo, or null when there is none.
  virtual const ast::ClassDef *member(const ast::ClassDef &package, const std::string &qualifiedPackage,
                                      const std::string &name) = 0;
};

/// Flattens the model `modelName` (a dotted class name; empty: the last model or block of the
/// first file) of the classes of `files` (the model's file first, then libraries).
/// Requires: ASTs from parseBuffer. Ensures: on success, a FlatSystem of scalar variables and
/// equations: components instantiated with their modifications, arrays and for-equations
/// expanded, connections turned into equations, functions specialized, constants folded, types
/// checked and as many continuous equations as unknowns; otherwise every error found is in
/// `diags` and the result is nullopt.
/// Classes the files do not define come from `library` (when given), read as they are named; a
/// file's `within P;` makes its classes members of package P. External functions (MLS 3.5, 12.9)
/// are loaded by `external`; without it they are an error.
std::optional<FlatSystem> flattenModel(const std::vector<const ast::File *> &files, const std::string &modelName,
                                       Diagnostics &diags, ClassSource *library = nullptr,
                                       ExternalCode *external = nullptr);

/// A single file.
inline std::optional<FlatSystem> flattenModel(const ast::File &file, const std::string &modelName, Diagnostics &diags) {
  return flattenModel(std::vector<const ast::File *>{&file}, modelName, diags);
}

} // namespace eqc

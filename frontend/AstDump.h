// A complete textual dump of the AST (every field, every source range), for comparing the two
// parsers (frontend/FastParser.h) in tests and in the parser fuzz target.
#pragma once

#include "frontend/Ast.h"

#include <string>

namespace eqc {

/// Ensures: two files dump to the same text exactly when they are equal field by field.
std::string dumpAst(const ast::File &file);

} // namespace eqc

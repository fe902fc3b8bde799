// A complete textual dump of the AST (every field, every source range), for comparing the two
// parsers (frontend/FastParser.h) in tests and in the parser fuzz target.
#pragma once

#include "frontend/Ast.h"

#include <string>

namespace eqc {

/// Ensures: two files dump to the same text exactly when they are equal field by field.
std::string dumpAst(const ast::File &file);

/// The text of one component of a declaration (prefixes, type, dimensions, modifiers, binding),
/// without source places or its description: equal for declarations written alike (MLS 3.5,
/// 7.3.3: identical inherited elements).
std::string dumpComponent(const ast::Declaration &declaration, const ast::Component &component,
                          bool withModifiers = true);

/// The text of what modifier `m` gives (its prefixes, nested modifiers and value; not its name),
/// without source places: equal for modifications written alike.
std::string dumpModification(const ast::Modifier &m);

} // namespace eqc

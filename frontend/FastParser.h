// A hand-written recursive-descent parser for the grammar (grammar/Eqc.g4) that builds the AST
// directly from the hand-written lexer's tokens. ANTLR 4.9's C++ parser costs about 2 µs per token
// (a context object and a tree node per rule, prediction, dynamic_casts in the generated
// accessors) and its tree was the peak of memory at 10^5 equations. This parser makes the same AST
// as the ANTLR parse lowered by TreeLowering (frontend/Parser.cpp), ranges included, for every input
// it accepts; on anything else (any syntax error, any construct it is not sure to parse as ANTLR
// does) it declines and the caller parses with ANTLR, which reports the errors as before. The
// grammar stays the specification: the two are compared on every model of the repository, on
// random inputs and by the parser fuzz target (parseFastDifference in frontend/Parser.h).
#pragma once

#include "frontend/Ast.h"
#include "frontend/FastLexer.h"

#include <optional>
#include <string>
#include <vector>

namespace eqc {

/// Requires: `tokens` from lexFast of `text` with the generated lexer's vocabulary. Ensures: the
/// AST whose ranges point into `buffer`, or nullopt (declined: the caller runs ANTLR's parser).
/// Expressions nested deeper than `maxDepth` (counted as ANTLR's expression contexts) are declined.
std::optional<ast::File> parseFast(const std::string &text, const std::vector<LexToken> &tokens,
                                   uint32_t buffer, size_t maxDepth);

/// The text of a STRING token without its quotes, escapes resolved (\n, \t, \x for any other x).
std::string unquoteString(const std::string &quoted);

} // namespace eqc

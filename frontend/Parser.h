// Parsing: source text → AST, with every syntax error reported (not just the first).
#pragma once

#include "frontend/Ast.h"
#include "support/Diagnostics.h"

#include <optional>

namespace eqc {

/// Parses one buffer of the source manager.
/// Ensures: on success an AST whose ranges point into `buffer`; on any syntax error, all of them
/// are reported to `diags` and nullopt is returned.
std::optional<ast::File> parseBuffer(const SourceManager &sources, uint32_t buffer,
                                     Diagnostics &diags);

/// The check of the hand-written lexer (frontend/FastLexer.h), for the tests and the parser fuzz
/// target: lexes valid UTF-8 `text` with it and with ANTLR's generated lexer. nullopt when they
/// agree (the same tokens, or it declines and ANTLR's lexer reports an error); else what differs.
/// `*accepted` (if given) tells whether the hand-written lexer accepted the text.
std::optional<std::string> fastLexerDifference(const std::string &text, bool *accepted = nullptr);

} // namespace eqc

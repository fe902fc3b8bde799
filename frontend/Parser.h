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

/// The position of the first byte of `text` that is not valid UTF-8 as ANTLR's decoder sees it
/// (overlong forms, surrogates and code points above U+10FFFF are invalid), or npos.
size_t firstInvalidUtf8Byte(const std::string &text);

/// The check of the hand-written lexer (frontend/FastLexer.h), for the tests and the parser fuzz
/// target: lexes valid UTF-8 `text` with it and with ANTLR's generated lexer. nullopt when they
/// agree (the same tokens, or it declines and ANTLR's lexer reports an error, or the text is not
/// valid UTF-8, which the parser rejects before lexing); else what differs.
/// `*accepted` (if given) tells whether the hand-written lexer accepted the text.
std::optional<std::string> fastLexerDifference(const std::string &text, bool *accepted = nullptr);

/// The check of the hand-written parser (frontend/FastParser.h), for the tests and the parser fuzz
/// target: nullopt when it declines `text` or makes the same AST as ANTLR's parser lowered by
/// TreeLowering (ranges included); else what differs. `*accepted` (if given) tells
/// whether it accepted the text.
std::optional<std::string> fastParserDifference(const std::string &text, bool *accepted = nullptr);

} // namespace eqc

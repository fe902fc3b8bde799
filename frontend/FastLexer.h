// A hand-written lexer for the grammar's tokens (grammar/Eqc.g4), feeding ANTLR's parser through
// antlr4::TokenSource. ANTLR 4.9's C++ lexer simulates the lexer ATN one code point at a time and
// takes a lock per code point; it was a third of the parse time (14% of `eqc check` on a
// 10^4-equation model). This one makes the same tokens for every input it accepts: the same
// types (looked up in the generated lexer's vocabulary), the same code-point start/stop indices,
// lines and columns. Anything it does not accept (a character that is no token, an unterminated
// string or comment, a character outside ASCII other than in a string or comment) makes it decline
// the whole input, and the caller runs ANTLR's lexer, which reports the error as before.
#pragma once

#include <antlr4-runtime.h>

#include <memory>
#include <string>
#include <vector>

namespace eqc {

/// One token as the hand-written lexer makes it: ANTLR's type, where its text is (bytes), and
/// ANTLR's code-point indices, line and column (from 0), without an object per token.
struct LexToken {
  uint32_t type;
  uint32_t byte, bytes; ///< the text: text.substr(byte, bytes)
  uint32_t start, stop; ///< code-point indices of the first and last character (ANTLR's)
  uint32_t line, column;
};

/// Requires: `text` is valid UTF-8; `vocabulary` is the generated lexer's. Ensures: true and every
/// token of the text in `out` (EOF last), or false (declined).
bool lexFast(const std::string &text, const antlr4::dfa::Vocabulary &vocabulary, std::vector<LexToken> &out);

class FastTokenSource : public antlr4::TokenSource {
public:
  /// lexFast into this source. The ANTLR tokens are made when the parser asks for them, each
  /// holding its own text (so no ANTLR input stream, a UTF-32 copy of the file, is needed).
  /// Requires: `text` outlives this source.
  bool lex(const std::string &text, const antlr4::dfa::Vocabulary &vocabulary);
  const std::vector<LexToken> &tokens() const { return tokens_; }

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return line_; }
  size_t getCharPositionInLine() override { return column_; }
  antlr4::CharStream *getInputStream() override { return nullptr; }
  std::string getSourceName() override { return "<model>"; }
  antlr4::TokenFactory<antlr4::CommonToken> *getTokenFactory() override;

private:
  const std::string *text_ = nullptr;
  std::vector<LexToken> tokens_;
  size_t next_ = 0;
  size_t line_ = 1, column_ = 0;
};

/// The generated lexer's vocabulary (token types and literal names).
const antlr4::dfa::Vocabulary &lexerVocabulary();

/// The text of a literal token type ("model", ":="), ANTLR's escapes resolved; "" for a token
/// that is no literal (IDENT, NUMBER, ...).
std::string literalText(const antlr4::dfa::Vocabulary &vocabulary, size_t type);

} // namespace eqc

// The hand-written lexer (frontend/FastLexer.h) against ANTLR's generated lexer: the same tokens
// whenever it accepts an input, and it declines only inputs that ANTLR's lexer reports errors on.
#include "frontend/Parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace eqc {
namespace {

/// Lexes `text` both ways; returns whether the fast lexer accepted it. Any difference fails.
bool compareLexers(const std::string &text) {
  bool accepted = false;
  if (std::optional<std::string> difference = fastLexerDifference(text, &accepted))
    ADD_FAILURE() << "the fast lexer " << *difference << "\nin:\n" << text;
  return accepted;
}

TEST(FastLexer, SameTokensAsAntlrOnEveryModelOfTheRepository) {
  int files = 0, accepted = 0;
  for (const char *dir : {"examples", "tests"})
    for (const auto &e : std::filesystem::recursive_directory_iterator(std::string(EQC_SOURCE_DIR) + "/" + dir)) {
      if (e.path().extension() != ".eq")
        continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      // ANTLR needs valid UTF-8 (the parser checks it first); the corpus has one file that is not.
      if (e.path().filename() == "not_utf8.eq")
        continue;
      ++files;
      accepted += compareLexers(text);
    }
  EXPECT_GT(files, 60);
  // Only the models with lexical errors are declined.
  EXPECT_GE(accepted, files - 3) << accepted << " of " << files;
}

// The parser fuzz target's finding: a byte-order mark, which ANTLR's input stream drops (the fast
// lexer declined it, while ANTLR's lexer had no error).
TEST(FastLexer, ByteOrderMarkIsSkippedAsAntlrDoes) {
  EXPECT_TRUE(compareLexers("\xef\xbb\xbfRUNTol scarrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr"
                            "rrrrrr// RUN: check\nmrrleodel TooFew\n\n    in"));
  EXPECT_TRUE(compareLexers("\xef\xbb\xbfmodel M\n  Real x;\nequation\n  x = 1;\nend M;\n"));
}

// The parser fuzz target's second finding, in its own harness: text that is not UTF-8 for ANTLR's
// decoder (a surrogate, an overlong form, a code point above U+10FFFF) made ANTLR's input stream
// throw; the comparison now leaves such text to the parser, which reports it before lexing.
TEST(FastLexer, TextThatIsNotUtf8IsLeftToTheParser) {
  for (const char *text : {"model M \xed\xa0\x80 end M;", "x = \xc0\xaf;", "\xf4\x90\x80\x80"}) {
    bool accepted = true;
    EXPECT_EQ(fastLexerDifference(text, &accepted), std::nullopt);
    EXPECT_FALSE(accepted);
  }
}

// The parser fuzz target's finding after the lexer kept its tokens compact: in an empty text
// EOF's stop index is -1 (as a size_t), not 2^32 - 1.
TEST(FastLexer, EmptyTextHasAntlrsEof) {
  EXPECT_TRUE(compareLexers(""));
  EXPECT_TRUE(compareLexers("// only a comment"));
}

TEST(FastLexer, SameTokensAsAntlrOnRandomFragments) {
  const std::vector<std::string> pieces = {
      "model", "end", "x", "x1", "_a", "A_9", "1", "12", "1.", "1.5", ".5", "1e", "1e+", "1e-3", "2E5", "3.e2",
      ".e", ".", "..", ".*", "./", ".^", ".+", ".-", "+", "-", "*", "/", "^", "(", ")", "[", "]", "{", "}", ",",
      ";", ":", ":=", "=", "==", "<", "<=", "<>", ">", ">=", "\"", "\\", "\"a\\\"b\"", "\"x\ny\"", "\"\xc3\xa9\"",
      "//c\n", "// \xe2\x82\xac\r", "/*", "*/", "/* \xc3\xa9 */", " ", "\t", "\n", "\r", "\xc3\xa9", "#", "@",
      "der", "and", "or", "not", "initial", "'", "equation", "parameter", "elseif", "elsewhen", "true", "\x01",
      "'a b'", "'x\\'y'", "''", "'\\", "'\n'", "'\\\n'", "class", "operator", "pure", "impure", "expandable"};
  std::mt19937 gen(12345);
  std::uniform_int_distribution<size_t> pick(0, pieces.size() - 1), count(1, 24);
  int accepted = 0;
  for (int k = 0; k < 20000 && !HasFailure(); ++k) {
    std::string text = k % 7 == 0 ? "\xef\xbb\xbf" : ""; // a byte-order mark, which ANTLR drops
    for (size_t n = count(gen); n > 0; --n)
      text += pieces[pick(gen)];
    accepted += compareLexers(text);
  }
  // Both outcomes are exercised.
  EXPECT_GT(accepted, 1000);
  EXPECT_LT(accepted, 19000);
}

} // namespace
} // namespace eqc

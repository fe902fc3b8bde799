// The hand-written lexer (frontend/FastLexer.h) against ANTLR's generated lexer: the same tokens
// whenever it accepts an input, and it declines only inputs that ANTLR's lexer reports errors on.
#include "frontend/FastLexer.h"

#include "EqcLexer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace eqc {
namespace {

struct CountErrors : antlr4::BaseErrorListener {
  int errors = 0;
  void syntaxError(antlr4::Recognizer *, antlr4::Token *, size_t, size_t, const std::string &,
                   std::exception_ptr) override {
    ++errors;
  }
};

std::string describe(antlr4::Token *t) {
  std::ostringstream s;
  s << "type " << t->getType() << " [" << t->getStartIndex() << "," << t->getStopIndex() << "] " << t->getLine()
    << ":" << t->getCharPositionInLine() << " channel " << t->getChannel() << " '"
    << (t->getType() == antlr4::Token::EOF ? std::string("<EOF>") : t->getText()) << "'";
  return s.str();
}

/// Lexes `text` both ways. Returns whether the fast lexer accepted it; when it did, the tokens
/// must be equal; when it did not, ANTLR's lexer must have reported an error.
bool compareLexers(const std::string &text) {
  antlr4::ANTLRInputStream input(text);
  eqcgrammar::EqcLexer lexer(&input);
  CountErrors errors;
  lexer.removeErrorListeners();
  lexer.addErrorListener(&errors);
  antlr4::CommonTokenStream reference(&lexer);
  reference.fill();
  antlr4::ANTLRInputStream input2(text);
  FastTokenSource fast;
  if (!fast.lex(text, &input2, lexer.getVocabulary())) {
    EXPECT_GT(errors.errors, 0) << "the fast lexer declined an input that ANTLR lexes without error:\n" << text;
    return false;
  }
  EXPECT_EQ(errors.errors, 0) << "the fast lexer accepted an input that ANTLR reports errors on:\n" << text;
  antlr4::CommonTokenStream ours(&fast);
  ours.fill();
  std::vector<antlr4::Token *> a = reference.getTokens(), b = ours.getTokens();
  EXPECT_EQ(a.size(), b.size()) << text;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    std::string da = describe(a[i]), db = describe(b[i]);
    if (da != db) {
      ADD_FAILURE() << "token " << i << ": ANTLR " << da << ", fast " << db << "\nin:\n" << text;
      break;
    }
  }
  return true;
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

TEST(FastLexer, SameTokensAsAntlrOnRandomFragments) {
  const std::vector<std::string> pieces = {
      "model", "end", "x", "x1", "_a", "A_9", "1", "12", "1.", "1.5", ".5", "1e", "1e+", "1e-3", "2E5", "3.e2",
      ".e", ".", "..", ".*", "./", ".^", ".+", ".-", "+", "-", "*", "/", "^", "(", ")", "[", "]", "{", "}", ",",
      ";", ":", ":=", "=", "==", "<", "<=", "<>", ">", ">=", "\"", "\\", "\"a\\\"b\"", "\"x\ny\"", "\"\xc3\xa9\"",
      "//c\n", "// \xe2\x82\xac\r", "/*", "*/", "/* \xc3\xa9 */", " ", "\t", "\n", "\r", "\xc3\xa9", "#", "@",
      "der", "and", "or", "not", "initial", "'", "equation", "parameter", "elseif", "elsewhen", "true", "\x01"};
  std::mt19937 gen(12345);
  std::uniform_int_distribution<size_t> pick(0, pieces.size() - 1), count(1, 24);
  int accepted = 0;
  for (int k = 0; k < 20000 && !HasFailure(); ++k) {
    std::string text;
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

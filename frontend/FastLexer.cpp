// The hand-written lexer (frontend/FastLexer.h).
#include "frontend/FastLexer.h"
#include "frontend/Parser.h"

#include "EqcLexer.h"

#include <array>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace eqc {

namespace {

/// The grammar's literal tokens ('model', ':=', '(' ...) by text, from the generated vocabulary, so
/// that a token added to the grammar is known here without a change.
struct Literals {
  std::unordered_map<std::string_view, size_t> words;     ///< keywords
  std::unordered_map<std::string_view, size_t> operators; ///< punctuation, one or two characters
  std::vector<std::string> storage;                       ///< by type; the maps view into it
  explicit Literals(const antlr4::dfa::Vocabulary &v) : storage(v.getMaxTokenType() + 1) {
    for (size_t type = 1; type <= v.getMaxTokenType(); ++type) {
      storage[type] = literalText(v, type);
      std::string_view s = storage[type];
      if (s.empty())
        continue;
      bool word = (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_';
      (word ? words : operators).emplace(s, type);
    }
  }
};

bool identStart(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool identPart(unsigned char c) { return identStart(c) || (c >= '0' && c <= '9'); }
bool digit(unsigned char c) { return c >= '0' && c <= '9'; }

} // namespace

std::string literalText(const antlr4::dfa::Vocabulary &vocabulary, size_t type) {
  const std::string name = vocabulary.getLiteralName(type);
  if (name.size() < 3 || name.front() != '\'' || name.back() != '\'')
    return "";
  std::string text; // ANTLR escapes backslashes and quotes in literal names
  for (size_t i = 1; i + 1 < name.size(); ++i)
    text += (name[i] == '\\' && i + 2 < name.size()) ? name[++i] : name[i];
  return text;
}

antlr4::TokenFactory<antlr4::CommonToken> *FastTokenSource::getTokenFactory() {
  return antlr4::CommonTokenFactory::DEFAULT.get();
}

bool lexFast(const std::string &text, const antlr4::dfa::Vocabulary &vocabulary, std::vector<LexToken> &tokens) {
  static const Literals literals(vocabulary);
  tokens.clear();
  if (text.size() >= UINT32_MAX)
    return false;
  // ~ one token per 4 bytes in typical models
  tokens.reserve(text.size() / 4 + 16);
  const size_t n = text.size();
  const unsigned char *s = reinterpret_cast<const unsigned char *>(text.data());
  size_t i = 0, cp = 0, line = 1, column = 0;
  // ANTLR's input stream drops a UTF-8 byte-order mark at the start: positions count from after it.
  if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
    i = 3;
  // Consumes one code point at i (any byte sequence of valid UTF-8), keeping line and column.
  auto consume = [&]() {
    unsigned char c = s[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : 4;
    i += len;
    ++cp;
    if (c == '\n') {
      ++line;
      column = 0;
    } else {
      ++column;
    }
  };
  auto emit = [&](size_t type, size_t startI, size_t startCp, size_t tokenLine, size_t tokenColumn) {
    tokens.push_back(LexToken{static_cast<uint32_t>(type), static_cast<uint32_t>(startI), static_cast<uint32_t>(i - startI),
                              static_cast<uint32_t>(startCp), static_cast<uint32_t>(cp - 1),
                              static_cast<uint32_t>(tokenLine), static_cast<uint32_t>(tokenColumn)});
  };
  // The first "*/" at or after a position; searched again only past the last one found, so that
  // many unterminated "/*" cost one scan, not one each.
  size_t knownClose = 0;
  bool searched = false;
  auto closingAfter = [&](size_t from) {
    if (!searched || (knownClose != std::string::npos && knownClose < from)) {
      knownClose = text.find("*/", from);
      searched = true;
    }
    return knownClose;
  };
  while (i < n) {
    unsigned char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      consume();
      continue;
    }
    const size_t startI = i, startCp = cp, tokenLine = line, tokenColumn = column;
    unsigned char d = i + 1 < n ? s[i + 1] : 0;
    if (c == '/' && d == '/') { // LINE_COMMENT: up to the end of the line
      while (i < n && s[i] != '\n' && s[i] != '\r')
        consume();
    } else if (c == '/' && d == '*' && closingAfter(i + 2) != std::string::npos) {
      // BLOCK_COMMENT: to the first */ (unterminated, it is no comment: ANTLR's longest match is
      // then the '/' token, handled below)
      const size_t close = closingAfter(i + 2) + 2;
      while (i < close)
        consume();
    } else if (identStart(c)) {
      while (i < n && identPart(s[i]))
        consume();
      auto it = literals.words.find(std::string_view(text.data() + startI, i - startI));
      emit(it != literals.words.end() ? it->second : static_cast<size_t>(eqcgrammar::EqcLexer::IDENT), startI, startCp, tokenLine, tokenColumn);
    } else if (digit(c) || (c == '.' && digit(d))) { // NUMBER, the longest match of its two forms
      while (i < n && digit(s[i]))
        consume();
      if (i < n && s[i] == '.') {
        consume();
        while (i < n && digit(s[i]))
          consume();
      }
      if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-'))
          ++j;
        if (j < n && digit(s[j])) {
          while (i < j)
            consume();
          while (i < n && digit(s[i]))
            consume();
        }
      }
      emit(eqcgrammar::EqcLexer::NUMBER, startI, startCp, tokenLine, tokenColumn);
    } else if (c == '\'') { // IDENT, quoted (MLS 3.5, 2.3.1): no line break inside; escapes take one code point
      consume();
      size_t chars = 0;
      while (i < n && s[i] != '\'') {
        if (s[i] == '\r' || s[i] == '\n')
          return false;
        if (s[i] == '\\') {
          consume();
          if (i >= n)
            return false;
        }
        consume();
        ++chars;
      }
      if (i >= n || chars == 0)
        return false; // unterminated or empty: ANTLR reports it
      consume();
      emit(eqcgrammar::EqcLexer::IDENT, startI, startCp, tokenLine, tokenColumn);
    } else if (c == '"') { // STRING: escapes take any one code point
      consume();
      while (i < n && s[i] != '"') {
        if (s[i] == '\\') {
          consume();
          if (i >= n)
            return false;
        }
        consume();
      }
      if (i >= n)
        return false; // unterminated
      consume();
      emit(eqcgrammar::EqcLexer::STRING, startI, startCp, tokenLine, tokenColumn);
    } else {
      size_t type = 0;
      if (d) {
        auto two = literals.operators.find(std::string_view(text.data() + i, 2));
        if (two != literals.operators.end()) {
          type = two->second;
          consume();
          consume();
        }
      }
      if (!type) {
        auto one = literals.operators.find(std::string_view(text.data() + i, 1));
        if (one == literals.operators.end())
          return false; // no token starts here (or outside ASCII): ANTLR reports it
        type = one->second;
        consume();
      }
      emit(type, startI, startCp, tokenLine, tokenColumn);
    }
  }
  tokens.push_back(LexToken{static_cast<uint32_t>(antlr4::Token::EOF), static_cast<uint32_t>(i), 0,
                            static_cast<uint32_t>(cp), static_cast<uint32_t>(cp - 1), static_cast<uint32_t>(line),
                            static_cast<uint32_t>(column)});
  return true;
}

bool FastTokenSource::lex(const std::string &text, const antlr4::dfa::Vocabulary &vocabulary) {
  text_ = &text;
  next_ = 0;
  if (!lexFast(text, vocabulary, tokens_))
    return false;
  line_ = tokens_.back().line;
  column_ = tokens_.back().column;
  return true;
}

std::unique_ptr<antlr4::Token> FastTokenSource::nextToken() {
  // After the end: EOF, as often as asked (the stream asks again).
  const LexToken &t = tokens_[std::min(next_, tokens_.size() - 1)];
  if (next_ + 1 < tokens_.size())
    ++next_;
  // EOF's type, and its stop index in an empty text, are -1 as a size_t.
  const size_t type = t.type == UINT32_MAX ? antlr4::Token::EOF : t.type;
  const size_t stop = t.stop == UINT32_MAX ? static_cast<size_t>(-1) : t.stop;
  return antlr4::CommonTokenFactory::DEFAULT->create({this, nullptr}, type, text_->substr(t.byte, t.bytes),
                                                     antlr4::Token::DEFAULT_CHANNEL, t.start, stop, t.line, t.column);
}

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

} // namespace

std::optional<std::string> fastLexerDifference(const std::string &text, bool *accepted) {
  if (accepted)
    *accepted = false;
  if (firstInvalidUtf8Byte(text) != std::string::npos)
    return std::nullopt; // ANTLR's input stream would throw; the parser reports it before lexing
  antlr4::ANTLRInputStream input(text);
  eqcgrammar::EqcLexer lexer(&input);
  CountErrors errors;
  lexer.removeErrorListeners();
  lexer.addErrorListener(&errors);
  antlr4::CommonTokenStream reference(&lexer);
  reference.fill();
  FastTokenSource fast;
  bool ok = fast.lex(text, lexer.getVocabulary());
  if (accepted)
    *accepted = ok;
  if (!ok)
    return errors.errors > 0 ? std::nullopt
                             : std::optional<std::string>("declined an input that ANTLR lexes without error");
  if (errors.errors > 0)
    return "accepted an input that ANTLR reports errors on";
  antlr4::CommonTokenStream ours(&fast);
  ours.fill();
  std::vector<antlr4::Token *> a = reference.getTokens(), b = ours.getTokens();
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (std::string da = describe(a[i]), db = describe(b[i]); da != db)
      return "token " + std::to_string(i) + ": ANTLR " + da + ", fast " + db;
  if (a.size() != b.size())
    return std::to_string(a.size()) + " tokens from ANTLR, " + std::to_string(b.size()) + " from the fast lexer";
  return std::nullopt;
}

} // namespace eqc

// The hand-written parser (frontend/FastParser.h). Each function mirrors one rule of
// grammar/Eqc.g4 and builds what TreeLowering (frontend/Parser.cpp) makes of that rule's context.
#include "frontend/FastParser.h"

#include "EqcLexer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <unordered_map>

namespace eqc {

namespace {

/// Token kinds of the grammar; literal tokens are found by their text in the generated
/// vocabulary, so a literal this parser does not know stays Other and makes it decline.
enum class T : uint8_t {
  Other, Eof, Ident, Number, String,
  Model, Block, Connector, Function, Record, Package, Type, Class, Expandable, Operator, Pure, Impure, Enumeration, End, Equation, Algorithm, Initial,
  Parameter, Constant, Discrete, Flow, Stream, Input, Output, Final, Each, Partial, Encapsulated, Within, Inner, Outer,
  Replaceable, Redeclare, Constrainedby, External,
  Extends, Import, Public, Protected, Annotation, Connect, If, Then, Elseif, Else, For, In, Loop,
  While, When, Elsewhen, Break, Return, And, Or, Not, True, False,
  Semi, Assign, Define, LParen, RParen, LBracket, RBracket, LBrace, RBrace, Comma, Dot, DotStar,
  Colon, Plus, Minus, Star, Slash, Caret, DotPlus, DotMinus, DotSlash, DotCaret, Lt, Le, Gt, Ge,
  EqEq, Ne,
};

/// The kind of every token type of the generated lexer.
const std::vector<T> &kindTable() {
  static const std::vector<T> table = [] {
    static const std::unordered_map<std::string_view, T> literals = {
        {"model", T::Model}, {"block", T::Block}, {"connector", T::Connector}, {"function", T::Function},
        {"record", T::Record}, {"package", T::Package}, {"type", T::Type}, {"class", T::Class},
        {"expandable", T::Expandable}, {"operator", T::Operator}, {"pure", T::Pure}, {"impure", T::Impure},
        {"enumeration", T::Enumeration},
        {"end", T::End},
        {"equation", T::Equation}, {"algorithm", T::Algorithm}, {"initial", T::Initial},
        {"parameter", T::Parameter}, {"constant", T::Constant}, {"discrete", T::Discrete}, {"flow", T::Flow}, {"stream", T::Stream},
        {"input", T::Input}, {"output", T::Output}, {"final", T::Final}, {"each", T::Each},
        {"inner", T::Inner}, {"outer", T::Outer}, {"replaceable", T::Replaceable}, {"redeclare", T::Redeclare},
        {"constrainedby", T::Constrainedby}, {"external", T::External},
        {"partial", T::Partial}, {"encapsulated", T::Encapsulated}, {"within", T::Within},
        {"extends", T::Extends}, {"import", T::Import}, {"public", T::Public}, {"protected", T::Protected},
        {"annotation", T::Annotation}, {"connect", T::Connect}, {"if", T::If}, {"then", T::Then},
        {"elseif", T::Elseif}, {"else", T::Else}, {"for", T::For}, {"in", T::In}, {"loop", T::Loop},
        {"while", T::While}, {"when", T::When}, {"elsewhen", T::Elsewhen}, {"break", T::Break},
        {"return", T::Return}, {"and", T::And}, {"or", T::Or}, {"not", T::Not}, {"true", T::True},
        {"false", T::False}, {";", T::Semi}, {"=", T::Assign}, {":=", T::Define}, {"(", T::LParen},
        {")", T::RParen}, {"[", T::LBracket}, {"]", T::RBracket}, {"{", T::LBrace}, {"}", T::RBrace},
        {",", T::Comma}, {".", T::Dot}, {".*", T::DotStar}, {":", T::Colon}, {"+", T::Plus},
        {"-", T::Minus}, {"*", T::Star}, {"/", T::Slash}, {"^", T::Caret}, {".+", T::DotPlus},
        {".-", T::DotMinus}, {"./", T::DotSlash}, {".^", T::DotCaret}, {"<", T::Lt}, {"<=", T::Le},
        {">", T::Gt}, {">=", T::Ge}, {"==", T::EqEq}, {"<>", T::Ne}};
    const antlr4::dfa::Vocabulary &v = lexerVocabulary();
    std::vector<T> kinds(v.getMaxTokenType() + 1, T::Other);
    for (size_t type = 1; type <= v.getMaxTokenType(); ++type)
      if (auto it = literals.find(literalText(v, type)); it != literals.end())
        kinds[type] = it->second;
    kinds.at(eqcgrammar::EqcLexer::IDENT) = T::Ident;
    kinds.at(eqcgrammar::EqcLexer::NUMBER) = T::Number;
    kinds.at(eqcgrammar::EqcLexer::STRING) = T::String;
    return kinds;
  }();
  return table;
}

/// Thrown to decline; caught once in parseFast.
struct Decline {};

/// A parsed expression: the AST node, the tokens of its context (which include the parentheses
/// of a parenthesized one, as ANTLR's do) and its depth in ANTLR expression contexts.
struct Ex {
  ast::ExprPtr e;
  uint32_t first = 0, last = 0;
  size_t depth = 0;
  bool bareRef = false;  ///< just a component reference (an outputList entry)
  bool bareCall = false; ///< just `componentRef functionCallArgs` (a call equation or statement)
};

class FastParser {
public:
  FastParser(const std::string &text, const std::vector<LexToken> &tokens, uint32_t buffer, size_t maxDepth)
      : text_(text), tokens_(tokens), buffer_(buffer), maxDepth_(maxDepth) {
    const std::vector<T> &table = kindTable();
    kinds_.reserve(tokens.size());
    for (const LexToken &t : tokens)
      kinds_.push_back(t.type == static_cast<uint32_t>(antlr4::Token::EOF) ? T::Eof
                       : t.type < table.size()                             ? table[t.type]
                                                                           : T::Other);
  }

  ast::File file() {
    ast::File f;
    if (peek() == T::Within) {
      const uint32_t first = expect(T::Within);
      if (peek() == T::Ident) {
        auto [nameFirst, nameLast] = name();
        f.within = text(nameFirst, nameLast);
      }
      expect(T::Semi);
      f.withinRange = range(first);
    }
    do {
      f.classes.push_back(classDefinition());
      expect(T::Semi);
    } while (peek() != T::Eof);
    return f;
  }

private:
  // ---- tokens and ranges ----
  T peek(size_t ahead = 0) const { return kinds_[std::min(pos_ + ahead, kinds_.size() - 1)]; }
  bool accept(T kind) {
    if (peek() != kind)
      return false;
    ++pos_;
    return true;
  }
  uint32_t expect(T kind) {
    if (peek() != kind)
      throw Decline{};
    return static_cast<uint32_t>(pos_++);
  }
  uint32_t last() const { return static_cast<uint32_t>(pos_ - 1); }
  std::string text(uint32_t i) const { return text_.substr(tokens_[i].byte, tokens_[i].bytes); }
  /// The tokens' text without what was between them (ANTLR's getText of a context).
  std::string text(uint32_t first, uint32_t lastToken) const {
    std::string s;
    for (uint32_t i = first; i <= lastToken; ++i)
      s.append(text_, tokens_[i].byte, tokens_[i].bytes);
    return s;
  }
  SourceRange range(uint32_t i) const {
    const LexToken &t = tokens_[i];
    return SourceRange{buffer_, t.line, t.column + 1, t.stop >= t.start ? t.stop - t.start + 1 : 1};
  }
  /// A context's range: its first token, spanning to its last when both are on one line.
  SourceRange range(uint32_t first, uint32_t lastToken) const {
    SourceRange r = range(first);
    const LexToken &a = tokens_[first], &b = tokens_[lastToken];
    if (b.line == a.line && b.stop >= a.start)
      r.length = b.stop - a.start + 1;
    return r;
  }

  // ---- declarations ----
  /// Whether a class definition starts here (after encapsulated and partial): a class prefix.
  static bool isClassKind(T k) {
    return k == T::Model || k == T::Block || k == T::Connector || k == T::Function || k == T::Record ||
           k == T::Package || k == T::Type || k == T::Class || k == T::Expandable || k == T::Operator ||
           k == T::Pure || k == T::Impure;
  }
  /// classKind (MLS 3.5, 4.6): `expandable connector`, `pure|impure [operator] function`,
  /// `operator record`, `operator`, or one keyword.
  ast::ClassKind classKind(ast::ClassDef &def) {
    def.expandable = accept(T::Expandable);
    if (def.expandable) {
      expect(T::Connector);
      return ast::ClassKind::Connector;
    }
    const bool pure = accept(T::Pure);
    def.impure = !pure && accept(T::Impure);
    if (accept(T::Operator)) {
      def.isOperator = peek() == T::Record || peek() == T::Function;
      if (!def.isOperator) {
        if (pure || def.impure)
          throw Decline{};
        return ast::ClassKind::Operator;
      }
    }
    if (pure || def.impure) {
      expect(T::Function);
      return ast::ClassKind::Function;
    }
    switch (kinds_[pos_++]) {
    case T::Class: return ast::ClassKind::Class;
    case T::Model: return ast::ClassKind::Model;
    case T::Block: return ast::ClassKind::Block;
    case T::Connector: return ast::ClassKind::Connector;
    case T::Function: return ast::ClassKind::Function;
    case T::Record: return ast::ClassKind::Record;
    case T::Package: return ast::ClassKind::Package;
    case T::Type: return ast::ClassKind::Type;
    default: throw Decline{};
    }
  }
  static bool isTypePrefix(T k) {
    return k == T::Parameter || k == T::Constant || k == T::Discrete || k == T::Flow || k == T::Stream || k == T::Input ||
           k == T::Output || k == T::Final || k == T::Inner || k == T::Outer || k == T::Replaceable ||
           k == T::Redeclare;
  }
  static bool isClassPrefix(T k) {
    return k == T::Redeclare || k == T::Final || k == T::Inner || k == T::Outer || k == T::Replaceable;
  }
  /// constrainingClause? : CONSTRAINEDBY name classModification? comment
  void constraining(ast::ElementPrefixes &e) {
    if (!accept(T::Constrainedby))
      return;
    auto [first, lastToken] = name();
    e.constrainedBy = text(first, lastToken);
    e.constrainedByRange = range(first, lastToken);
    if (peek() == T::LParen)
      e.constrainedByModifiers = classModification();
    comment();
  }
  void typePrefixes(ast::Declaration &d) {
    while (isTypePrefix(peek())) {
      switch (kinds_[pos_++]) {
      case T::Parameter: d.prefix = ast::Prefix::Parameter; break;
      case T::Constant: d.prefix = ast::Prefix::Constant; break;
      case T::Discrete: d.prefix = ast::Prefix::Discrete; break;
      case T::Flow: d.flow = true; break;
      case T::Stream: d.stream = true; break;
      case T::Input: d.causality = ast::Causality::Input; break;
      case T::Output: d.causality = ast::Causality::Output; break;
      case T::Inner: d.element.inner = true; break;
      case T::Outer: d.element.outer = true; break;
      case T::Replaceable: d.element.replaceable = true; break;
      case T::Redeclare: d.element.redeclare = true; break;
      case T::Final:
        d.final = true;
        break;
      default:
        break;
      }
    }
  }

  /// name : IDENT ('.' IDENT)* ; returns its first and last token.
  std::pair<uint32_t, uint32_t> name() {
    const uint32_t start = static_cast<uint32_t>(pos_);
    const bool global = peek() == T::Dot && peek(1) == T::Ident; // `.Modelica.Units.SI.Time`
    pos_ += global;
    uint32_t first = expect(T::Ident);
    if (global)
      first = start;
    while (peek() == T::Dot && peek(1) == T::Ident)
      pos_ += 2;
    return {first, last()};
  }

  std::unique_ptr<ast::ClassDef> classDefinition() {
    auto m = std::make_unique<ast::ClassDef>();
    accept(T::Encapsulated);
    m->partial = accept(T::Partial);
    if (!isClassKind(peek()))
      throw Decline{};
    m->kind = classKind(*m);
    m->extendsClass = accept(T::Extends);
    uint32_t nameToken = expect(T::Ident);
    m->name = text(nameToken);
    m->range = range(nameToken);
    if (m->extendsClass && peek() == T::LParen) // `model extends M (mods) ...`: a long class only
      m->extendsModifiers = classModification();
    if (!m->extendsClass && peek() == T::Assign && peek(1) == T::Enumeration) { // enumerationClass
      pos_ += 2;
      m->isShort = true;
      m->isEnumeration = true;
      expect(T::LParen);
      if (accept(T::Colon)) {
        m->openEnumeration = true;
      } else if (peek() != T::RParen) {
        do {
          uint32_t literal = expect(T::Ident);
          m->literals.push_back({text(literal), range(literal), comment()});
        } while (accept(T::Comma));
      }
      expect(T::RParen);
      m->description = description();
      if (accept(T::Annotation))
        m->annotation = classModification();
      return m;
    }
    if (!m->extendsClass && accept(T::Assign)) { // shortClass
      m->isShort = true;
      typePrefixes(m->shortBase);
      auto [first, lastToken] = name();
      m->shortBase.typeName = text(first, lastToken);
      m->shortBase.typeRange = range(first, lastToken);
      if (peek() == T::LBracket)
        m->shortBase.typeDims = arraySubscripts().first;
      if (peek() == T::LParen)
        m->shortModifiers = classModification();
      m->description = description();
      if (accept(T::Annotation))
        m->annotation = classModification();
      return m;
    }
    m->description = description();
    composition(*m);
    expect(T::End);
    if (peek() == T::Ident) {
      m->endName = text(static_cast<uint32_t>(pos_));
      m->endRange = range(static_cast<uint32_t>(pos_));
      ++pos_;
    }
    return m;
  }

  bool elementStarts() const {
    T k = peek();
    return k == T::Encapsulated || k == T::Partial || isClassKind(k) || k == T::Extends || k == T::Import ||
           isTypePrefix(k) || k == T::Ident || (k == T::Dot && peek(1) == T::Ident);
  }

  void composition(ast::ClassDef &m) {
    bool isProtected = false;
    auto elements = [&] {
      while (elementStarts())
        element(m, isProtected);
    };
    elements();
    for (;;) {
      T k = peek();
      if (k == T::Public || k == T::Protected) {
        ++pos_;
        isProtected = k == T::Protected;
        elements();
      } else if (k == T::Equation || (k == T::Initial && peek(1) == T::Equation)) {
        auto &target = accept(T::Initial) ? m.initialEquations : m.equations;
        ++pos_;
        while (!sectionEnds()) {
          target.push_back(equation());
          expect(T::Semi);
        }
      } else if (k == T::Algorithm || (k == T::Initial && peek(1) == T::Algorithm)) {
        ast::AlgorithmSection section;
        section.initial = accept(T::Initial);
        section.range = range(expect(T::Algorithm));
        while (!sectionEnds()) {
          section.statements.push_back(statement());
          expect(T::Semi);
        }
        m.algorithms.push_back(std::move(section));
      } else if (k == T::External) { // externalClause, then only the annotation may follow
        auto e = std::make_shared<ast::ExternalClause>();
        e->range = range(static_cast<uint32_t>(pos_++));
        if (peek() == T::String)
          e->language = unquoteString(text(static_cast<uint32_t>(pos_++)));
        if (peek() == T::Ident) {
          if (peek(1) != T::LParen) { // `y = f(...)`
            Ex target = componentRef();
            e->output = std::move(target.e);
            expect(T::Assign);
          }
          e->function = text(expect(T::Ident));
          expect(T::LParen);
          if (!accept(T::RParen)) {
            do
              e->args.push_back(expression(0).e);
            while (accept(T::Comma));
            expect(T::RParen);
          }
        }
        if (accept(T::Annotation))
          e->annotation = classModification();
        expect(T::Semi);
        m.external = std::move(e);
        if (accept(T::Annotation)) {
          m.annotation = classModification();
          expect(T::Semi);
        }
        return;
      } else if (k == T::Annotation) {
        ++pos_;
        m.annotation = classModification();
        expect(T::Semi);
        return;
      } else {
        return;
      }
    }
  }

  /// Whether an equation or algorithm section ends here. `end` and `initial` may also start an
  /// expression: only `end Name`/`end;` and `initial equation|algorithm` end a section (anything
  /// else starting with them is declined).
  bool sectionEnds() const {
    switch (peek()) {
    case T::Equation: case T::Algorithm: case T::Public: case T::Protected: case T::Annotation: case T::Eof:
    case T::External:
      return true;
    case T::Initial:
      return peek(1) == T::Equation || peek(1) == T::Algorithm;
    case T::End:
      if (peek(1) == T::Ident || peek(1) == T::Semi)
        return true;
      throw Decline{};
    default:
      return false;
    }
  }

  void element(ast::ClassDef &m, bool isProtected) {
    size_t ahead = 0; // past the prefixes an element that is a class may have
    while (isClassPrefix(peek(ahead)))
      ++ahead;
    T k = peek(ahead);
    if (k == T::Encapsulated || k == T::Partial || isClassKind(k)) {
      ast::ElementPrefixes e;
      for (; ahead > 0; --ahead) {
        switch (kinds_[pos_++]) {
        case T::Inner: e.inner = true; break;
        case T::Outer: e.outer = true; break;
        case T::Replaceable: e.replaceable = true; break;
        case T::Redeclare: e.redeclare = true; break;
        default: break; // final
        }
      }
      m.classes.push_back(classDefinition());
      constraining(e);
      m.classes.back()->element = std::move(e);
    } else if (accept(T::Extends)) {
      ast::Extends ext;
      auto [first, lastToken] = name();
      ext.base = text(first, lastToken);
      ext.range = range(first, lastToken);
      if (peek() == T::LParen)
        ext.modifiers = classModification();
      if (accept(T::Annotation))
        classModification();
      m.extends.push_back(std::move(ext));
    } else if (accept(T::Import)) {
      ast::Import imp;
      uint32_t first = static_cast<uint32_t>(pos_);
      if (peek() == T::Ident && peek(1) == T::Assign) {
        imp.alias = text(first);
        pos_ += 2;
      }
      auto [nameFirst, nameLast] = name();
      imp.path = text(nameFirst, nameLast);
      if (imp.alias.empty()) {
        if (accept(T::DotStar) || (peek() == T::Dot && peek(1) == T::Star && (pos_ += 2)))
          imp.wildcard = true;
      }
      imp.range = range(first, last());
      description();
      if (accept(T::Annotation))
        classModification();
      m.imports.push_back(std::move(imp));
    } else {
      ast::Declaration d = declaration();
      d.isProtected = isProtected;
      m.declarations.push_back(std::move(d));
    }
    expect(T::Semi);
  }

  ast::Declaration declaration() {
    ast::Declaration d;
    typePrefixes(d);
    auto [first, lastToken] = name();
    d.typeName = text(first, lastToken);
    d.typeRange = range(first, lastToken);
    if (peek() == T::LBracket)
      d.typeDims = arraySubscripts().first;
    do {
      ast::Component comp;
      uint32_t ident = expect(T::Ident);
      comp.name = text(ident);
      comp.range = range(ident);
      if (peek() == T::LBracket)
        comp.dims = arraySubscripts().first;
      modification(comp.modifiers, comp.binding);
      if (accept(T::If))
        comp.condition = expression(0).e;
      comp.description = description();
      if (accept(T::Annotation))
        comp.evaluate = ast::evaluateAnnotation(classModification());
      d.components.push_back(std::move(comp));
    } while (accept(T::Comma));
    constraining(d.element);
    return d;
  }

  /// modification? : classModification ('=' expression)? | '=' expression | ':=' expression
  void modification(std::vector<ast::Modifier> &modifiers, ast::ExprPtr &value) {
    if (peek() == T::LParen) {
      modifiers = classModification();
      if (accept(T::Assign))
        value = expression(0).e;
    } else if (accept(T::Assign) || accept(T::Define)) {
      value = expression(0).e;
    }
  }

  std::vector<ast::Modifier> classModification() {
    std::vector<ast::Modifier> mods;
    expect(T::LParen);
    if (accept(T::RParen))
      return mods;
    do {
      ast::Modifier m;
      if (accept(T::Redeclare)) { // elementRedeclaration
        m.redeclare = true;
        m.each = accept(T::Each);
        m.final = accept(T::Final);
        const bool replaceable = accept(T::Replaceable);
        T k = peek();
        if (k == T::Encapsulated || k == T::Partial || isClassKind(k)) {
          m.redeclareClass = classDefinition();
          // `redeclare replaceable package Medium = ...` stays replaceable (MLS 3.5, 7.3)
          m.redeclareClass->element.replaceable = m.redeclareClass->element.replaceable || replaceable;
          m.name = m.redeclareClass->name;
          m.range = m.redeclareClass->range;
        } else {
          ast::Declaration d;
          typePrefixes(d);
          auto [first, lastToken] = name();
          m.redeclareType = text(first, lastToken);
          m.redeclareTypeRange = range(first, lastToken);
          if (peek() == T::LBracket)
            arraySubscripts();
          uint32_t ident = expect(T::Ident);
          m.name = text(ident);
          m.range = range(ident);
          if (peek() == T::LBracket)
            arraySubscripts();
          modification(m.args, m.value);
          comment();
        }
        if (accept(T::Constrainedby)) {
          auto [first, lastToken] = name();
          m.constrainedBy = text(first, lastToken);
          if (peek() == T::LParen)
            classModification();
          comment();
        }
        mods.push_back(std::move(m));
        continue;
      }
      m.each = accept(T::Each);
      m.final = accept(T::Final);
      auto [first, lastToken] = name();
      m.name = text(first, lastToken);
      m.range = range(first, lastToken);
      modification(m.args, m.value);
      description();
      mods.push_back(std::move(m));
    } while (accept(T::Comma));
    expect(T::RParen);
    return mods;
  }

  /// description? : STRING ('+' STRING)*, the strings joined.
  std::string description() {
    std::string out;
    if (peek() != T::String)
      return out;
    out += unquoteString(text(static_cast<uint32_t>(pos_++)));
    while (peek() == T::Plus && peek(1) == T::String) {
      out += unquoteString(text(static_cast<uint32_t>(pos_ + 1)));
      pos_ += 2;
    }
    return out;
  }

  /// '[' subscript (',' subscript)* ']' ; also the deepest expression in it.
  std::pair<std::vector<ast::Subscript>, size_t> arraySubscripts() {
    std::vector<ast::Subscript> subs;
    size_t depth = 0;
    expect(T::LBracket);
    do {
      ast::Subscript sub;
      if (peek() == T::Colon && (peek(1) == T::Comma || peek(1) == T::RBracket)) {
        sub.range = range(static_cast<uint32_t>(pos_++));
      } else {
        Ex x = expression(0);
        sub.range = range(x.first, x.last);
        sub.expr = std::move(x.e);
        depth = std::max(depth, x.depth);
      }
      subs.push_back(std::move(sub));
    } while (accept(T::Comma));
    expect(T::RBracket);
    return {std::move(subs), depth};
  }

  /// forIndices : forIndex (',' forIndex)* ; forIndex : IDENT (IN expression)?
  std::vector<ast::ForIndex> forIndices(size_t &depth) {
    std::vector<ast::ForIndex> out;
    do {
      ast::ForIndex idx;
      uint32_t ident = expect(T::Ident);
      idx.name = text(ident);
      idx.range = range(ident);
      if (accept(T::In)) {
        Ex x = expression(0);
        depth = std::max(depth, x.depth);
        idx.in = std::move(x.e);
      }
      out.push_back(std::move(idx));
    } while (accept(T::Comma));
    return out;
  }

  // ---- equations and statements ----
  template <typename Item, typename ParseItem>
  std::vector<Item> body(ParseItem parseItem) {
    std::vector<Item> items;
    while (peek() != T::End && peek() != T::Elseif && peek() != T::Else && peek() != T::Elsewhen) {
      items.push_back((this->*parseItem)());
      expect(T::Semi);
    }
    return items;
  }

  /// `if c then ... (elseif c then ...)* (else ...)? end if`, `when` alike, `while c loop ... end while`.
  template <typename Item, typename ParseItem>
  void branches(T open, T next, T close, std::vector<ast::ExprPtr> &conditions,
                std::vector<std::vector<Item>> &bodies, ParseItem parseItem) {
    expect(open);
    do {
      conditions.push_back(expression(0).e);
      expect(open == T::While ? T::Loop : T::Then);
      bodies.push_back(body<Item>(parseItem));
    } while (next != T::Other && accept(next));
    if (open == T::If && accept(T::Else))
      bodies.push_back(body<Item>(parseItem));
    expect(T::End);
    expect(close);
  }

  /// `for indices loop ... end for`: the body is branches[0].
  template <typename Item, typename ParseItem>
  void forLoop(std::vector<ast::ForIndex> &indices, std::vector<std::vector<Item>> &bodies, ParseItem parseItem) {
    expect(T::For);
    size_t depth = 0; // each `in` expression is checked by itself
    indices = forIndices(depth);
    expect(T::Loop);
    bodies.push_back(body<Item>(parseItem));
    expect(T::End);
    expect(T::For);
  }

  ast::Equation equation() {
    ast::Equation eq;
    uint32_t first = static_cast<uint32_t>(pos_);
    switch (peek()) {
    case T::If:
      // An if-equation, or a simple equation whose left side is an if-expression: never both, and
      // only the attempt tells which (ANTLR's prediction looks as far ahead). The attempts are
      // bounded, so that nested ifs with an error cannot take exponential time.
      if (backtracks_ == 0)
        throw Decline{};
      try {
        eq.kind = ast::EquationKind::If;
        branches<ast::Equation>(T::If, T::Elseif, T::If, eq.conditions, eq.branches, &FastParser::equation);
        break;
      } catch (const Decline &) {
        --backtracks_;
        pos_ = first;
        eq = ast::Equation{};
      }
      simpleOrCall(eq);
      break;
    case T::When:
      eq.kind = ast::EquationKind::When;
      branches<ast::Equation>(T::When, T::Elsewhen, T::When, eq.conditions, eq.branches, &FastParser::equation);
      break;
    case T::For:
      eq.kind = ast::EquationKind::For;
      forLoop<ast::Equation>(eq.indices, eq.branches, &FastParser::equation);
      break;
    case T::Connect: {
      ++pos_;
      eq.kind = ast::EquationKind::Connect;
      expect(T::LParen);
      eq.lhs = componentRef().e;
      expect(T::Comma);
      eq.rhs = componentRef().e;
      expect(T::RParen);
      break;
    }
    default:
      simpleOrCall(eq);
    }
    eq.description = comment();
    eq.range = range(first, last());
    if (eq.kind == ast::EquationKind::Call)
      eq.lhs->range = eq.range; // the call's context is the equation (TreeLowering::call)
    return eq;
  }

  /// `lhs = rhs` or `componentRef functionCallArgs`.
  void simpleOrCall(ast::Equation &eq) {
    Ex lhs = expression(0);
    if (accept(T::Assign)) {
      eq.kind = ast::EquationKind::Simple;
      eq.lhs = std::move(lhs.e);
      eq.rhs = expression(0).e;
    } else if (lhs.bareCall) {
      eq.kind = ast::EquationKind::Call;
      eq.lhs = std::move(lhs.e);
    } else {
      throw Decline{};
    }
  }

  ast::Statement statement() {
    ast::Statement st;
    uint32_t first = static_cast<uint32_t>(pos_);
    switch (peek()) {
    case T::Ident: {
      Ex target = componentRef();
      if (accept(T::Define)) {
        st.kind = ast::StatementKind::Assign;
        st.target = std::move(target.e);
        st.value = expression(0).e;
      } else if (peek() == T::LParen) {
        st.kind = ast::StatementKind::Call;
        st.value = call(std::move(target)).e;
      } else {
        throw Decline{};
      }
      break;
    }
    case T::LParen: {
      st.kind = ast::StatementKind::TupleAssign;
      st.target = outputList(static_cast<uint32_t>(pos_++), nullptr).e;
      expect(T::Define);
      st.value = call(componentRef()).e;
      break;
    }
    case T::If:
      st.kind = ast::StatementKind::If;
      branches<ast::Statement>(T::If, T::Elseif, T::If, st.conditions, st.branches, &FastParser::statement);
      break;
    case T::While:
      st.kind = ast::StatementKind::While;
      branches<ast::Statement>(T::While, T::Other, T::While, st.conditions, st.branches, &FastParser::statement);
      break;
    case T::For:
      st.kind = ast::StatementKind::For;
      forLoop<ast::Statement>(st.indices, st.branches, &FastParser::statement);
      break;
    case T::When:
      st.kind = ast::StatementKind::When;
      branches<ast::Statement>(T::When, T::Elsewhen, T::When, st.conditions, st.branches, &FastParser::statement);
      break;
    case T::Break: ++pos_; st.kind = ast::StatementKind::Break; break;
    case T::Return: ++pos_; st.kind = ast::StatementKind::Return; break;
    default: throw Decline{};
    }
    comment();
    st.range = range(first, last());
    // A call's (and a tuple's) context is the statement (TreeLowering::call, outputList).
    if (st.kind == ast::StatementKind::Call || st.kind == ast::StatementKind::TupleAssign)
      st.value->range = st.range;
    if (st.kind == ast::StatementKind::TupleAssign)
      st.target->range = st.range;
    return st;
  }

  /// comment : description? annotation? ; the description.
  std::string comment() {
    std::string d = description();
    if (accept(T::Annotation))
      classModification();
    return d;
  }

  // ---- expressions ----
  ast::ExprPtr make(ast::ExprKind kind, uint32_t first, uint32_t lastToken) {
    auto e = std::make_unique<ast::Expr>();
    e->kind = kind;
    e->range = range(first, lastToken);
    return e;
  }
  Ex done(ast::ExprPtr e, uint32_t first, size_t innerDepth) {
    Ex x;
    x.e = std::move(e);
    x.first = first;
    x.last = last();
    x.depth = innerDepth + 1;
    if (x.depth > maxDepth_)
      throw Decline{};
    return x;
  }

  /// expression[p] as ANTLR's precedence climbing parses it: alternative k of the rule's 12 has
  /// precedence 13 - k; a binary operator applies when its precedence is at least p, its right
  /// operand at precedence + 1 (power, right-associative: the same); a prefix alternative's operand
  /// at its own precedence; other operands at 0.
  Ex expression(int p) {
    Ex left = prefix();
    for (;;) {
      const T k = peek();
      int prec;
      ast::BinaryOp op;
      switch (k) {
      case T::Caret: prec = 12; op = ast::BinaryOp::Pow; break;
      case T::DotCaret: prec = 12; op = ast::BinaryOp::ElemPow; break;
      case T::Star: prec = 10; op = ast::BinaryOp::Mul; break;
      case T::Slash: prec = 10; op = ast::BinaryOp::Div; break;
      case T::DotStar: prec = 10; op = ast::BinaryOp::ElemMul; break;
      case T::DotSlash: prec = 10; op = ast::BinaryOp::ElemDiv; break;
      case T::Plus: prec = 9; op = ast::BinaryOp::Add; break;
      case T::Minus: prec = 9; op = ast::BinaryOp::Sub; break;
      case T::DotPlus: prec = 9; op = ast::BinaryOp::ElemAdd; break;
      case T::DotMinus: prec = 9; op = ast::BinaryOp::ElemSub; break;
      case T::Lt: prec = 8; op = ast::BinaryOp::Lt; break;
      case T::Le: prec = 8; op = ast::BinaryOp::Le; break;
      case T::Gt: prec = 8; op = ast::BinaryOp::Gt; break;
      case T::Ge: prec = 8; op = ast::BinaryOp::Ge; break;
      case T::EqEq: prec = 8; op = ast::BinaryOp::Eq; break;
      case T::Ne: prec = 8; op = ast::BinaryOp::Ne; break;
      case T::And: prec = 6; op = ast::BinaryOp::And; break;
      case T::Or: prec = 5; op = ast::BinaryOp::Or; break;
      case T::Colon: prec = 3; op = ast::BinaryOp::Add; break;
      default: return left;
      }
      if (prec < p)
        return left;
      ++pos_;
      if (k == T::Colon) {
        // `a:b` (precedence 3) or `a:b:c` (4); ANTLR chooses between them, and between ending an
        // if-expression's else branch (p = 2) before a ':' or not, by a prediction that looks at
        // what follows. Operands that are ranges themselves, a range at precedence 4 and a range in
        // an else branch are left to ANTLR.
        if (p == 4 || p == 2)
          throw Decline{};
        Ex mid = expression(5);
        size_t depth = std::max(left.depth, mid.depth);
        auto e = std::make_unique<ast::Expr>();
        e->kind = ast::ExprKind::Range;
        e->args.push_back(std::move(left.e));
        e->args.push_back(std::move(mid.e));
        if (accept(T::Colon)) {
          Ex stop = expression(5);
          depth = std::max(depth, stop.depth);
          e->args.push_back(std::move(stop.e));
        }
        if (peek() == T::Colon)
          throw Decline{};
        e->range = range(left.first, last());
        left = done(std::move(e), left.first, depth);
        continue;
      }
      Ex right = expression(k == T::Caret || k == T::DotCaret ? prec : prec + 1);
      auto e = make(ast::ExprKind::Binary, left.first, right.last);
      e->binary = op;
      size_t depth = std::max(left.depth, right.depth);
      e->args.push_back(std::move(left.e));
      e->args.push_back(std::move(right.e));
      left = done(std::move(e), left.first, depth);
    }
  }

  /// The prefix alternatives (unary, not, if) and primary.
  Ex prefix() {
    const uint32_t first = static_cast<uint32_t>(pos_);
    switch (peek()) {
    case T::Minus:
    case T::Plus: {
      ++pos_;
      Ex operand = expression(11);
      auto e = make(ast::ExprKind::Unary, first, operand.last);
      e->unary = kinds_[first] == T::Minus ? ast::UnaryOp::Neg : ast::UnaryOp::Plus;
      size_t depth = operand.depth;
      e->args.push_back(std::move(operand.e));
      return done(std::move(e), first, depth);
    }
    case T::Not: {
      ++pos_;
      Ex operand = expression(7);
      auto e = make(ast::ExprKind::Unary, first, operand.last);
      e->unary = ast::UnaryOp::Not;
      size_t depth = operand.depth;
      e->args.push_back(std::move(operand.e));
      return done(std::move(e), first, depth);
    }
    case T::If: {
      ++pos_;
      auto e = std::make_unique<ast::Expr>();
      e->kind = ast::ExprKind::If;
      size_t depth = 0;
      auto add = [&](Ex x) {
        depth = std::max(depth, x.depth);
        e->args.push_back(std::move(x.e));
      };
      do {
        add(expression(0));
        expect(T::Then);
        add(expression(0));
      } while (accept(T::Elseif));
      expect(T::Else);
      add(expression(2));
      e->range = range(first, last());
      return done(std::move(e), first, depth);
    }
    default:
      return primary();
    }
  }

  Ex primary() {
    using K = ast::ExprKind;
    const uint32_t first = static_cast<uint32_t>(pos_);
    switch (peek()) {
    case T::Number: {
      ++pos_;
      auto e = make(K::Number, first, first);
      const std::string literal = text(first);
      e->number = std::strtod(literal.c_str(), nullptr);
      if (std::isinf(e->number))
        throw Decline{}; // out of range: ANTLR's path reports it
      e->integer = literal.find_first_of(".eE") == std::string::npos;
      return done(std::move(e), first, 0);
    }
    case T::True:
    case T::False: {
      ++pos_;
      auto e = make(K::Bool, first, first);
      e->boolean = kinds_[first] == T::True;
      return done(std::move(e), first, 0);
    }
    case T::String: {
      ++pos_;
      auto e = make(K::String, first, first);
      e->text = unquoteString(text(first));
      return done(std::move(e), first, 0);
    }
    case T::Dot:
      if (peek(1) != T::Ident)
        throw Decline{};
      [[fallthrough]];
    case T::Ident: {
      Ex ref = componentRef();
      if (peek() == T::LParen) {
        Ex c = call(std::move(ref));
        c.bareCall = true;
        return c;
      }
      ref.depth += 1; // the primary's expression context around the reference's subscripts
      if (ref.depth > maxDepth_)
        throw Decline{};
      ref.bareRef = true;
      return ref;
    }
    case T::Initial: {
      ++pos_;
      expect(T::LParen);
      expect(T::RParen);
      return done(make(K::Initial, first, last()), first, 0);
    }
    case T::End:
      ++pos_;
      return done(make(K::End, first, first), first, 0);
    case T::LParen: {
      ++pos_;
      if (peek() == T::RParen || peek() == T::Comma)
        return outputList(first, nullptr);
      Ex inner = expression(0);
      if (accept(T::RParen)) { // parenExpr: the inner node, in the parentheses' context
        Ex x;
        x.e = std::move(inner.e);
        x.first = first;
        x.last = last();
        x.depth = inner.depth + 1;
        return x;
      }
      if (peek() == T::Comma && inner.bareRef)
        return outputList(first, &inner);
      throw Decline{};
    }
    case T::LBrace: {
      ++pos_;
      auto e = std::make_unique<ast::Expr>();
      e->kind = K::Array;
      Ex x = expression(0);
      size_t depth = x.depth;
      e->args.push_back(std::move(x.e));
      if (accept(T::For)) {
        e->iterators = forIndices(depth);
      } else {
        while (accept(T::Comma)) {
          Ex y = expression(0);
          depth = std::max(depth, y.depth);
          e->args.push_back(std::move(y.e));
        }
      }
      expect(T::RBrace);
      e->range = range(first, last());
      return done(std::move(e), first, depth);
    }
    case T::LBracket: {
      ++pos_;
      auto e = std::make_unique<ast::Expr>();
      e->kind = K::Matrix;
      size_t depth = 0;
      do {
        Ex x = expression(0);
        auto row = std::make_unique<ast::Expr>();
        row->kind = K::Array;
        row->range = range(x.first, x.last);
        depth = std::max(depth, x.depth);
        row->args.push_back(std::move(x.e));
        while (accept(T::Comma)) {
          Ex y = expression(0);
          depth = std::max(depth, y.depth);
          row->args.push_back(std::move(y.e));
        }
        e->args.push_back(std::move(row));
      } while (accept(T::Semi));
      expect(T::RBracket);
      e->range = range(first, last());
      return done(std::move(e), first, depth);
    }
    default:
      throw Decline{};
    }
  }

  /// componentRef : refPart ('.' refPart)* ; refPart : IDENT arraySubscripts? (a Name; its depth
  /// is that of the deepest subscript).
  Ex componentRef() {
    const uint32_t first = static_cast<uint32_t>(pos_);
    auto e = std::make_unique<ast::Expr>();
    e->kind = ast::ExprKind::Name;
    if (peek() == T::Dot && peek(1) == T::Ident) { // `.A.b`: the top level only
      ++pos_;
      e->text = ".";
    }
    size_t depth = 0;
    for (;;) {
      ast::RefPart part;
      uint32_t ident = expect(T::Ident);
      part.name = text(ident);
      part.range = range(ident);
      if (peek() == T::LBracket) {
        auto [subs, subDepth] = arraySubscripts();
        part.subscripts = std::move(subs);
        depth = std::max(depth, subDepth);
      }
      if (!e->text.empty() && e->text != ".")
        e->text += '.';
      e->text += part.name;
      e->ref.push_back(std::move(part));
      if (!(peek() == T::Dot && peek(1) == T::Ident))
        break;
      ++pos_;
    }
    e->range = range(first, last());
    Ex x;
    x.e = std::move(e);
    x.first = first;
    x.last = last();
    x.depth = depth;
    return x;
  }

  /// `function f(args)` as an argument (MLS 3.5, 12.4.2.1): a Call marked partialApplication.
  Ex partialApplication() {
    const uint32_t start = static_cast<uint32_t>(pos_);
    expect(T::Function);
    auto [first, lastToken] = name();
    Ex fn;
    fn.first = first;
    fn.last = lastToken;
    Ex x = call(std::move(fn));
    x.e->partialApplication = true;
    x.e->range = range(start, last());
    x.first = start;
    return x;
  }

  /// `fn functionCallArgs` after the reference fn: a Call spanning both.
  Ex call(Ex fn) {
    auto e = std::make_unique<ast::Expr>();
    e->kind = ast::ExprKind::Call;
    e->text = text(fn.first, fn.last);
    e->nameRange = range(fn.first, fn.last);
    size_t depth = 0;
    expect(T::LParen);
    if (!accept(T::RParen)) {
      bool firstArgument = true;
      do {
        std::string argName;
        if (peek() == T::Ident && peek(1) == T::Assign) {
          argName = text(static_cast<uint32_t>(pos_));
          pos_ += 2;
        }
        Ex x = peek() == T::Function ? partialApplication() : expression(0);
        depth = std::max(depth, x.depth);
        e->args.push_back(std::move(x.e));
        e->argNames.push_back(std::move(argName));
        if (firstArgument && e->argNames.back().empty() && accept(T::For)) {
          e->iterators = forIndices(depth);
          break;
        }
        firstArgument = false;
      } while (accept(T::Comma));
      expect(T::RParen);
    }
    e->range = range(fn.first, last());
    return done(std::move(e), fn.first, std::max(depth, fn.depth));
  }

  /// After `(`: outputList `)`, its first entry already parsed when `entry` is given.
  Ex outputList(uint32_t first, Ex *entry) {
    auto e = std::make_unique<ast::Expr>();
    e->kind = ast::ExprKind::Tuple;
    size_t depth = 0;
    bool pending = true; // an entry may be omitted: `(a, , c)`
    if (entry) {
      depth = entry->depth;
      e->args.push_back(std::move(entry->e));
      pending = false;
    }
    for (;;) {
      if (accept(T::Comma)) {
        if (pending)
          e->args.push_back(nullptr);
        pending = true;
      } else if (peek() == T::Ident && pending) {
        Ex ref = componentRef();
        depth = std::max(depth, ref.depth);
        e->args.push_back(std::move(ref.e));
        pending = false;
      } else {
        break;
      }
    }
    if (pending && !e->args.empty())
      e->args.push_back(nullptr);
    expect(T::RParen);
    e->range = range(first, last());
    return done(std::move(e), first, depth);
  }

  const std::string &text_;
  const std::vector<LexToken> &tokens_;
  std::vector<T> kinds_;
  size_t pos_ = 0;
  size_t backtracks_ = 1000; ///< if-equation attempts that may still fail
  uint32_t buffer_;
  size_t maxDepth_;
};

} // namespace

std::string unquoteString(const std::string &s) {
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\\' && i + 2 < s.size()) {
      ++i;
      switch (s[i]) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      default: out += s[i]; break;
      }
    } else {
      out += s[i];
    }
  }
  return out;
}

std::optional<ast::File> parseFast(const std::string &text, const std::vector<LexToken> &tokens,
                                   uint32_t buffer, size_t maxDepth) {
  if (tokens.empty())
    return std::nullopt;
  try {
    return FastParser(text, tokens, buffer, maxDepth).file();
  } catch (const Decline &) {
    return std::nullopt;
  }
}

} // namespace eqc

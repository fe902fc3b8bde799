// The one place that sees ANTLR: runs the generated parser and lowers its tree to the AST.
#include "frontend/Parser.h"
#include "frontend/AstDump.h"
#include "frontend/FastLexer.h"
#include "frontend/FastParser.h"

#include "EqcLexer.h"
#include "EqcParser.h"
#include "antlr4-runtime.h"

#include <set>
#include <cctype>
#include <cmath>
#include <typeinfo>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace eqc {
namespace {

using P = eqcgrammar::EqcParser;

/// ANTLR lists every token that may start an expression (in the order of the token types, which
/// grows with the grammar); say so in words.
std::string readable(std::string msg) {
  static const std::set<std::string> exprStart{"'['", "'('", "'+'", "'-'", "'{'", "'end'", "'initial'", "'if'",
                                               "'not'", "'true'", "'false'", "IDENT", "NUMBER", "STRING", "'.'"};
  for (size_t open = msg.find('{'); open != std::string::npos; open = msg.find('{', open + 1)) {
    size_t close = msg.find('}', open);
    if (close == std::string::npos)
      break;
    std::set<std::string> listed;
    std::string list = msg.substr(open + 1, close - open - 1);
    for (size_t start = 0; start <= list.size();) {
      size_t comma = list.find(", ", start);
      listed.insert(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos)
        break;
      start = comma + 2;
    }
    if (listed == exprStart) {
      msg.replace(open, close - open + 1, "an expression");
      break;
    }
  }
  return msg;
}

/// How many syntax errors of one file are reported; then the parse stops. ANTLR's recovery costs
/// about 2.5 ms per error, so a file of thousands of them (a binary file, say) would take seconds,
/// and messages after the first few dozen are rarely more than echoes of the first.
constexpr unsigned kMaxSyntaxErrors = 50;

/// Thrown by ErrorCollector after the last error it reports; caught in parse().
struct TooManySyntaxErrors {};

/// Forwards ANTLR's lexer and parser errors to the diagnostics engine.
class ErrorCollector : public antlr4::BaseErrorListener {
public:
  ErrorCollector(Diagnostics &diags, uint32_t buffer) : diags_(diags), buffer_(buffer) {}
  void syntaxError(antlr4::Recognizer *recognizer, antlr4::Token *offending, size_t line, size_t column,
                   const std::string &msg, std::exception_ptr) override {
    SourceRange r{buffer_, static_cast<uint32_t>(line), static_cast<uint32_t>(column + 1), 1};
    if (++reported_ > kMaxSyntaxErrors) {
      diags_.error(r, "too many syntax errors: stopping after " + std::to_string(kMaxSyntaxErrors) +
                          " (the rest of the file is not checked)");
      throw TooManySyntaxErrors{};
    }
    if (offending && offending->getType() != antlr4::Token::EOF &&
        offending->getStopIndex() >= offending->getStartIndex())
      r.length = static_cast<uint32_t>(offending->getStopIndex() - offending->getStartIndex() + 1);
    // A missing token belongs right after the previous one (`x = 1` ^ on its own line), not
    // at the start of the next line.
    auto *parser = dynamic_cast<antlr4::Parser *>(recognizer);
    if (parser && msg.rfind("missing", 0) == 0) {
      antlr4::Token *prev = parser->getTokenStream()->LT(-1);
      if (prev && prev->getType() != antlr4::Token::EOF) {
        r.line = static_cast<uint32_t>(prev->getLine());
        r.column = static_cast<uint32_t>(prev->getCharPositionInLine() + 1 + prev->getText().size());
        r.length = 1;
      }
    }
    diags_.error(r, "syntax error: " + readable(msg));
  }

private:
  Diagnostics &diags_;
  uint32_t buffer_;
  unsigned reported_ = 0;
};

/// ANTLR's recovery, except that a ';' is never deleted as "extraneous": statements end there,
/// so deleting it would glue the next declaration onto a broken one and hide its own errors.
class StatementErrorStrategy : public antlr4::DefaultErrorStrategy {
protected:
  antlr4::Token *singleTokenDeletion(antlr4::Parser *recognizer) override {
    if (recognizer->getCurrentToken()->getText() == ";")
      return nullptr;
    return DefaultErrorStrategy::singleTokenDeletion(recognizer);
  }
};

/// The context as T when it is exactly a T (a labeled alternative's context class, which nothing
/// derives from), else nullptr. Cheaper than dynamic_cast, which walks the class hierarchy with a
/// string comparison per level; the dispatch below was a tenth of the parse time with it.
template <class T> T *exact(antlr4::tree::ParseTree *p) {
  return p && typeid(*p) == typeid(T) ? static_cast<T *>(p) : nullptr;
}

class TreeLowering {
public:
  explicit TreeLowering(uint32_t buffer) : buffer_(buffer) {}

  SourceRange range(antlr4::Token *t) const {
    SourceRange r{buffer_, static_cast<uint32_t>(t->getLine()),
                  static_cast<uint32_t>(t->getCharPositionInLine() + 1), 1};
    if (t->getStopIndex() >= t->getStartIndex())
      r.length = static_cast<uint32_t>(t->getStopIndex() - t->getStartIndex() + 1);
    return r;
  }
  SourceRange range(antlr4::ParserRuleContext *ctx) const {
    SourceRange r = range(ctx->getStart());
    antlr4::Token *stop = ctx->getStop();
    if (stop && stop->getLine() == ctx->getStart()->getLine() &&
        stop->getStopIndex() >= ctx->getStart()->getStartIndex())
      r.length = static_cast<uint32_t>(stop->getStopIndex() - ctx->getStart()->getStartIndex() + 1);
    return r;
  }

  static std::string description(P::DescriptionContext *ctx) {
    std::string text;
    if (ctx)
      for (auto *s : ctx->STRING())
        text += unquoteString(s->getText());
    return text;
  }
  static std::string description(P::CommentContext *ctx) { return ctx ? description(ctx->description()) : ""; }

  ast::File file(P::StoredDefinitionContext *ctx) {
    ast::File f;
    if (ctx->WITHIN()) {
      if (ctx->name())
        f.within = ctx->name()->getText();
      f.withinRange = range(ctx->WITHIN()->getSymbol());
    }
    for (auto *c : ctx->classDefinition())
      f.classes.push_back(classDefinition(c));
    return f;
  }

  static ast::ClassKind classKind(P::ClassKindContext *k, ast::ClassDef &def) {
    def.expandable = k->EXPANDABLE() != nullptr;
    def.impure = k->IMPURE() != nullptr;
    def.isOperator = k->OPERATOR() && (k->RECORD() || k->FUNCTION());
    if (k->CLASS()) return ast::ClassKind::Class;
    if (k->BLOCK()) return ast::ClassKind::Block;
    if (k->CONNECTOR()) return ast::ClassKind::Connector;
    if (k->FUNCTION()) return ast::ClassKind::Function;
    if (k->RECORD()) return ast::ClassKind::Record;
    if (k->PACKAGE()) return ast::ClassKind::Package;
    if (k->TYPE()) return ast::ClassKind::Type;
    if (k->OPERATOR()) return ast::ClassKind::Operator;
    return ast::ClassKind::Model;
  }

  void prefixes(const std::vector<P::TypePrefixContext *> &list, ast::Declaration &d) {
    for (auto *p : list) {
      if (p->PARAMETER()) d.prefix = ast::Prefix::Parameter;
      else if (p->CONSTANT()) d.prefix = ast::Prefix::Constant;
      else if (p->DISCRETE()) d.prefix = ast::Prefix::Discrete;
      else if (p->FLOW()) d.flow = true;
      else if (p->STREAM()) d.stream = true;
      else if (p->INPUT()) d.causality = ast::Causality::Input;
      else if (p->OUTPUT()) d.causality = ast::Causality::Output;
      else if (p->INNER()) d.element.inner = true;
      else if (p->OUTER()) d.element.outer = true;
      else if (p->REPLACEABLE()) d.element.replaceable = true;
      else if (p->REDECLARE()) d.element.redeclare = true;
      else if (p->FINAL())
        d.final = true;
    }
  }
  void constraining(P::ConstrainingClauseContext *ctx, ast::ElementPrefixes &e) {
    if (!ctx)
      return;
    e.constrainedBy = ctx->name()->getText();
    e.constrainedByRange = range(ctx->name());
    if (ctx->classModification())
      e.constrainedByModifiers = classModification(ctx->classModification());
  }

  std::unique_ptr<ast::ClassDef> classDefinition(P::ClassDefinitionContext *ctx) {
    auto m = std::make_unique<ast::ClassDef>();
    if (auto *s = dynamic_cast<P::ShortClassContext *>(ctx)) {
      m->kind = classKind(s->classKind(), *m);
      m->partial = s->PARTIAL() != nullptr;
      m->name = s->modelName->getText();
      m->range = range(s->modelName);
      m->isShort = true;
      prefixes(s->typePrefix(), m->shortBase);
      m->shortBase.typeName = s->typeSpec->getText();
      m->shortBase.typeRange = range(s->typeSpec);
      if (s->arraySubscripts())
        m->shortBase.typeDims = subscripts(s->arraySubscripts());
      if (s->classModification())
        m->shortModifiers = classModification(s->classModification());
      m->description = description(s->comment());
      if (s->comment()->annotation())
        m->annotation = classModification(s->comment()->annotation()->classModification());
      return m;
    }
    if (auto *en = dynamic_cast<P::EnumerationClassContext *>(ctx)) {
      m->kind = classKind(en->classKind(), *m);
      m->partial = en->PARTIAL() != nullptr;
      m->name = en->modelName->getText();
      m->range = range(en->modelName);
      m->isShort = true;
      m->isEnumeration = true;
      m->openEnumeration = en->open != nullptr;
      for (auto *lit : en->enumerationLiteral())
        m->literals.push_back({lit->IDENT()->getText(), range(lit->IDENT()->getSymbol()), description(lit->comment())});
      m->description = description(en->comment());
      if (en->comment()->annotation())
        m->annotation = classModification(en->comment()->annotation()->classModification());
      return m;
    }
    auto *c = static_cast<P::LongClassContext *>(ctx);
    m->kind = classKind(c->classKind(), *m);
    m->partial = c->PARTIAL() != nullptr;
    m->name = c->modelName->getText();
    m->range = range(c->modelName);
    m->extendsClass = c->EXTENDS() != nullptr;
    if (c->classModification())
      m->extendsModifiers = classModification(c->classModification());
    m->description = description(c->description());
    if (c->endName) {
      m->endName = c->endName->getText();
      m->endRange = range(c->endName);
    }
    auto *comp = c->composition();
    // Elements, public/protected markers and sections in source order.
    bool isProtected = false;
    for (auto *child : comp->children) {
      if (auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child)) {
        size_t type = term->getSymbol()->getType();
        if (type == P::PUBLIC)
          isProtected = false;
        else if (type == P::PROTECTED)
          isProtected = true;
        continue;
      }
      if (auto *el = dynamic_cast<P::ElementContext *>(child)) {
        element(el, *m, isProtected);
      } else if (auto *sec = dynamic_cast<P::EquationSectionContext *>(child)) {
        auto &target = sec->INITIAL() ? m->initialEquations : m->equations;
        for (auto *eq : sec->equation())
          target.push_back(equation(eq));
      } else if (auto *alg = dynamic_cast<P::AlgorithmSectionContext *>(child)) {
        ast::AlgorithmSection section;
        section.initial = alg->INITIAL() != nullptr;
        section.range = range(alg->ALGORITHM()->getSymbol());
        for (auto *st : alg->statement())
          section.statements.push_back(statement(st));
        m->algorithms.push_back(std::move(section));
      } else if (auto *ext = dynamic_cast<P::ExternalClauseContext *>(child)) {
        auto e = std::make_shared<ast::ExternalClause>();
        e->range = range(ext->EXTERNAL()->getSymbol());
        if (ext->language)
          e->language = unquoteString(ext->language->getText());
        if (auto *call = ext->externalFunctionCall()) {
          e->function = call->IDENT()->getText();
          if (call->componentRef())
            e->output = componentRef(call->componentRef());
          for (auto *arg : call->expression())
            e->args.push_back(expression(arg));
        }
        if (ext->annotation())
          e->annotation = classModification(ext->annotation()->classModification());
        m->external = std::move(e);
      } else if (auto *ann = dynamic_cast<P::AnnotationContext *>(child)) {
        m->annotation = classModification(ann->classModification());
      }
    }
    return m;
  }

  void element(P::ElementContext *ctx, ast::ClassDef &m, bool isProtected) {
    if (auto *c = exact<P::ClassElementContext>(ctx)) {
      m.classes.push_back(classDefinition(c->classDefinition()));
      ast::ElementPrefixes &e = m.classes.back()->element;
      for (auto *p : c->classPrefix()) {
        e.inner = e.inner || p->INNER();
        e.outer = e.outer || p->OUTER();
        e.replaceable = e.replaceable || p->REPLACEABLE();
        e.redeclare = e.redeclare || p->REDECLARE();
      }
      constraining(c->constrainingClause(), e);
    } else if (auto *e = exact<P::ExtendsElementContext>(ctx)) {
      ast::Extends ext;
      ext.base = e->name()->getText();
      ext.range = range(e->name());
      if (e->classModification())
        ext.modifiers = classModification(e->classModification());
      m.extends.push_back(std::move(ext));
    } else if (auto *i = exact<P::ImportElementContext>(ctx)) {
      ast::Import imp;
      auto *n = i->importName();
      imp.path = n->name()->getText();
      imp.range = range(n);
      if (n->alias)
        imp.alias = n->alias->getText();
      imp.wildcard = n->getStop()->getText() == "*" || n->getStop()->getText() == ".*";
      m.imports.push_back(std::move(imp));
    } else {
      auto *d = static_cast<P::DeclarationElementContext *>(ctx);
      ast::Declaration decl = declaration(d->declaration());
      decl.isProtected = isProtected;
      m.declarations.push_back(std::move(decl));
    }
  }

  std::vector<ast::Subscript> subscripts(P::ArraySubscriptsContext *ctx) {
    std::vector<ast::Subscript> subs;
    for (auto *s : ctx->subscript()) {
      ast::Subscript sub;
      sub.range = range(s);
      if (s->expression())
        sub.expr = expression(s->expression());
      subs.push_back(std::move(sub));
    }
    return subs;
  }

  ast::Declaration declaration(P::DeclarationContext *ctx) {
    ast::Declaration d;
    prefixes(ctx->typePrefix(), d);
    d.typeName = ctx->typeSpec->getText();
    d.typeRange = range(ctx->typeSpec);
    if (ctx->arraySubscripts())
      d.typeDims = subscripts(ctx->arraySubscripts());
    for (auto *c : ctx->componentDeclaration()) {
      ast::Component comp;
      comp.name = c->IDENT()->getText();
      comp.range = range(c->IDENT()->getSymbol());
      if (c->arraySubscripts())
        comp.dims = subscripts(c->arraySubscripts());
      if (auto *mod = c->modification()) {
        if (mod->classModification())
          comp.modifiers = classModification(mod->classModification());
        if (mod->expression())
          comp.binding = expression(mod->expression());
      }
      if (c->condition)
        comp.condition = expression(c->condition);
      comp.description = description(c->comment());
      if (c->comment()->annotation())
        comp.evaluate =
            ast::evaluateAnnotation(classModification(c->comment()->annotation()->classModification()));
      d.components.push_back(std::move(comp));
    }
    constraining(ctx->constrainingClause(), d.element);
    return d;
  }

  std::vector<ast::Modifier> classModification(P::ClassModificationContext *ctx) {
    std::vector<ast::Modifier> mods;
    for (auto *arg : ctx->argument()) {
      ast::Modifier m;
      if (auto *re = arg->elementRedeclaration()) {
        m.redeclare = true;
        m.each = re->EACH() != nullptr;
        m.final = re->FINAL() != nullptr;
        if (re->classDefinition()) {
          m.redeclareClass = classDefinition(re->classDefinition());
          // `redeclare replaceable package Medium = ...` stays replaceable (MLS 3.5, 7.3)
          m.redeclareClass->element.replaceable = m.redeclareClass->element.replaceable || re->REPLACEABLE();
          m.name = m.redeclareClass->name;
          m.range = m.redeclareClass->range;
        } else {
          m.redeclareType = re->typeSpec->getText();
          m.redeclareTypeRange = range(re->typeSpec);
          auto *c = re->componentDeclaration();
          m.name = c->IDENT()->getText();
          m.range = range(c->IDENT()->getSymbol());
          if (auto *mod = c->modification()) {
            if (mod->classModification())
              m.args = classModification(mod->classModification());
            if (mod->expression())
              m.value = expression(mod->expression());
          }
        }
        if (auto *cc = re->constrainingClause())
          m.constrainedBy = cc->name()->getText();
        mods.push_back(std::move(m));
        continue;
      }
      m.name = arg->name()->getText();
      m.range = range(arg->name());
      m.each = arg->EACH() != nullptr;
      m.final = arg->FINAL() != nullptr;
      if (auto *mod = arg->modification()) {
        if (mod->classModification())
          m.args = classModification(mod->classModification());
        if (mod->expression())
          m.value = expression(mod->expression());
      }
      mods.push_back(std::move(m));
    }
    return mods;
  }

  std::vector<ast::ForIndex> forIndices(P::ForIndicesContext *ctx) {
    std::vector<ast::ForIndex> out;
    for (auto *f : ctx->forIndex()) {
      ast::ForIndex idx;
      idx.name = f->IDENT()->getText();
      idx.range = range(f->IDENT()->getSymbol());
      if (f->expression())
        idx.in = expression(f->expression());
      out.push_back(std::move(idx));
    }
    return out;
  }

  /// Splits the children of an if/when construct into conditions and bodies: each THEN, ELSEIF,
  /// ELSEWHEN or ELSE keyword starts a body.
  template <typename Item, typename Lower>
  void branches(antlr4::ParserRuleContext *ctx, std::vector<ast::ExprPtr> &conditions,
                std::vector<std::vector<Item>> &bodies, Lower lower) {
    for (auto *child : ctx->children) {
      if (auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child)) {
        size_t type = term->getSymbol()->getType();
        if (type == P::THEN || type == P::ELSE || type == P::LOOP)
          bodies.emplace_back();
        continue;
      }
      if (auto *e = dynamic_cast<P::ExpressionContext *>(child))
        conditions.push_back(expression(e));
      else if (auto *item = dynamic_cast<antlr4::ParserRuleContext *>(child); item && !bodies.empty() &&
               !dynamic_cast<P::CommentContext *>(child) && !dynamic_cast<P::ForIndicesContext *>(child))
        bodies.back().push_back(lower(item));
    }
  }

  ast::Equation equation(P::EquationContext *ctx) {
    ast::Equation eq;
    eq.range = range(ctx);
    if (auto *s = exact<P::SimpleEquationContext>(ctx)) {
      eq.kind = ast::EquationKind::Simple;
      eq.lhs = expression(s->lhs);
      eq.rhs = expression(s->rhs);
      eq.description = description(s->comment());
    } else if (auto *c = exact<P::ConnectEquationContext>(ctx)) {
      eq.kind = ast::EquationKind::Connect;
      eq.lhs = componentRef(c->componentRef(0));
      eq.rhs = componentRef(c->componentRef(1));
      eq.description = description(c->comment());
    } else if (auto *c = exact<P::CallEquationContext>(ctx)) {
      eq.kind = ast::EquationKind::Call;
      eq.lhs = call(c, c->componentRef(), c->functionCallArgs());
      eq.description = description(c->comment());
    } else if (auto *f = exact<P::ForEquationContext>(ctx)) {
      eq.kind = ast::EquationKind::For;
      eq.indices = forIndices(f->forIndices());
      std::vector<ast::ExprPtr> none;
      branches<ast::Equation>(f, none, eq.branches, [&](antlr4::ParserRuleContext *c) {
        return equation(static_cast<P::EquationContext *>(c));
      });
      eq.description = description(f->comment());
    } else {
      auto *i = exact<P::IfEquationContext>(ctx);
      eq.kind = i ? ast::EquationKind::If : ast::EquationKind::When;
      antlr4::ParserRuleContext *node = i ? static_cast<antlr4::ParserRuleContext *>(i)
                                          : static_cast<P::WhenEquationContext *>(ctx);
      branches<ast::Equation>(node, eq.conditions, eq.branches, [&](antlr4::ParserRuleContext *c) {
        return equation(static_cast<P::EquationContext *>(c));
      });
      eq.description = description(i ? i->comment() : static_cast<P::WhenEquationContext *>(ctx)->comment());
    }
    return eq;
  }

  ast::Statement statement(P::StatementContext *ctx) {
    ast::Statement st;
    st.range = range(ctx);
    auto lowerStatement = [&](antlr4::ParserRuleContext *c) { return statement(static_cast<P::StatementContext *>(c)); };
    if (auto *a = exact<P::AssignStatementContext>(ctx)) {
      st.kind = ast::StatementKind::Assign;
      st.target = componentRef(a->componentRef());
      st.value = expression(a->expression());
    } else if (auto *t = exact<P::TupleAssignStatementContext>(ctx)) {
      st.kind = ast::StatementKind::TupleAssign;
      st.target = outputList(t, t->outputList());
      st.value = call(t, t->componentRef(), t->functionCallArgs());
    } else if (auto *c = exact<P::CallStatementContext>(ctx)) {
      st.kind = ast::StatementKind::Call;
      st.value = call(c, c->componentRef(), c->functionCallArgs());
    } else if (auto *i = exact<P::IfStatementContext>(ctx)) {
      st.kind = ast::StatementKind::If;
      branches<ast::Statement>(i, st.conditions, st.branches, lowerStatement);
    } else if (auto *f = exact<P::ForStatementContext>(ctx)) {
      st.kind = ast::StatementKind::For;
      st.indices = forIndices(f->forIndices());
      std::vector<ast::ExprPtr> none;
      branches<ast::Statement>(f, none, st.branches, lowerStatement);
    } else if (auto *w = exact<P::WhileStatementContext>(ctx)) {
      st.kind = ast::StatementKind::While;
      branches<ast::Statement>(w, st.conditions, st.branches, lowerStatement);
    } else if (auto *w = exact<P::WhenStatementContext>(ctx)) {
      st.kind = ast::StatementKind::When;
      branches<ast::Statement>(w, st.conditions, st.branches, lowerStatement);
    } else if (exact<P::BreakStatementContext>(ctx)) {
      st.kind = ast::StatementKind::Break;
    } else {
      st.kind = ast::StatementKind::Return;
    }
    return st;
  }

  ast::ExprPtr make(ast::ExprKind kind, antlr4::ParserRuleContext *ctx) {
    auto e = std::make_unique<ast::Expr>();
    e->kind = kind;
    e->range = range(ctx);
    return e;
  }

  ast::ExprPtr componentRef(P::ComponentRefContext *ctx) {
    auto e = make(ast::ExprKind::Name, ctx);
    const bool global = ctx->getStart()->getText() == "."; // `.Modelica.Constants.pi`
    for (auto *part : ctx->refPart()) {
      ast::RefPart p;
      p.name = part->IDENT()->getText();
      p.range = range(part->IDENT()->getSymbol());
      if (part->arraySubscripts())
        p.subscripts = subscripts(part->arraySubscripts());
      e->text += (e->text.empty() ? (global ? "." : "") : ".") + p.name;
      e->ref.push_back(std::move(p));
    }
    return e;
  }

  ast::ExprPtr outputList(antlr4::ParserRuleContext *at, P::OutputListContext *ctx) {
    auto e = make(ast::ExprKind::Tuple, at);
    bool pending = true; // an entry may be omitted: `(a, , c)`
    for (auto *child : ctx->children) {
      if (auto *ref = dynamic_cast<P::ComponentRefContext *>(child)) {
        e->args.push_back(componentRef(ref));
        pending = false;
      } else { // ','
        if (pending)
          e->args.push_back(nullptr);
        pending = true;
      }
    }
    if (pending && !e->args.empty())
      e->args.push_back(nullptr);
    return e;
  }

  ast::ExprPtr call(antlr4::ParserRuleContext *at, P::ComponentRefContext *fn, P::FunctionCallArgsContext *args) {
    auto e = make(ast::ExprKind::Call, at);
    e->text = fn->getText();
    e->nameRange = range(fn);
    if (args->FOR()) {
      e->args.push_back(expression(args->expression()));
      e->argNames.emplace_back();
      e->iterators = forIndices(args->forIndices());
      return e;
    }
    arguments(args->functionArgument(), *e);
    return e;
  }

  void arguments(const std::vector<P::FunctionArgumentContext *> &args, ast::Expr &call) {
    for (auto *a : args) {
      if (auto *partial = a->functionPartialApplication()) {
        auto f = make(ast::ExprKind::Call, partial);
        f->text = partial->name()->getText();
        f->nameRange = range(partial->name());
        f->partialApplication = true;
        arguments(partial->functionArgument(), *f);
        call.args.push_back(std::move(f));
      } else {
        call.args.push_back(expression(a->expression()));
      }
      call.argNames.push_back(a->argName ? a->argName->getText() : "");
    }
  }

  ast::ExprPtr binary(ast::BinaryOp op, antlr4::ParserRuleContext *ctx) {
    auto e = make(ast::ExprKind::Binary, ctx);
    e->binary = op;
    // `expression op expression`: after an error-free parse exactly these three children (the
    // generated accessors would find them by a dynamic_cast of every child).
    if (ctx->children.size() == 3) {
      e->args.push_back(expression(static_cast<P::ExpressionContext *>(ctx->children[0])));
      e->args.push_back(expression(static_cast<P::ExpressionContext *>(ctx->children[2])));
    } else {
      for (auto *sub : ctx->getRuleContexts<P::ExpressionContext>())
        e->args.push_back(expression(sub));
    }
    return e;
  }

  ast::ExprPtr expression(P::ExpressionContext *ctx) {
    using K = ast::ExprKind;
    using B = ast::BinaryOp;
    if (auto *c = exact<P::PrimaryExprContext>(ctx))
      return primary(c->primary());
    if (auto *c = exact<P::PowerExprContext>(ctx))
      return binary(c->op->getText() == "^" ? B::Pow : B::ElemPow, c);
    if (auto *c = exact<P::MulExprContext>(ctx)) {
      const std::string op = c->op->getText();
      B b = op == "*" ? B::Mul : op == "/" ? B::Div : op == ".*" ? B::ElemMul : B::ElemDiv;
      return binary(b, c);
    }
    if (auto *c = exact<P::AddExprContext>(ctx)) {
      const std::string op = c->op->getText();
      B b = op == "+" ? B::Add : op == "-" ? B::Sub : op == ".+" ? B::ElemAdd : B::ElemSub;
      return binary(b, c);
    }
    if (auto *c = exact<P::RelationExprContext>(ctx)) {
      const std::string op = c->op->getText();
      B b = op == "<" ? B::Lt : op == "<=" ? B::Le : op == ">" ? B::Gt : op == ">=" ? B::Ge
                                                         : op == "==" ? B::Eq : B::Ne;
      return binary(b, c);
    }
    if (auto *c = exact<P::AndExprContext>(ctx))
      return binary(B::And, c);
    if (auto *c = exact<P::OrExprContext>(ctx))
      return binary(B::Or, c);
    if (auto *c = exact<P::UnaryExprContext>(ctx)) {
      auto e = make(K::Unary, c);
      e->unary = c->op->getText() == "-" ? ast::UnaryOp::Neg : ast::UnaryOp::Plus;
      e->args.push_back(expression(c->expression()));
      return e;
    }
    if (auto *c = exact<P::NotExprContext>(ctx)) {
      auto e = make(K::Unary, c);
      e->unary = ast::UnaryOp::Not;
      e->args.push_back(expression(c->expression()));
      return e;
    }
    if (auto *c = exact<P::RangeExprContext>(ctx)) {
      auto e = make(K::Range, c);
      e->args.push_back(expression(c->expression(0)));
      e->args.push_back(expression(c->expression(1)));
      return e;
    }
    if (auto *c = exact<P::RangeStepExprContext>(ctx)) {
      auto e = make(K::Range, c);
      for (auto *sub : c->expression())
        e->args.push_back(expression(sub));
      return e;
    }
    auto *c = exact<P::IfExprContext>(ctx);
    auto e = make(K::If, c);
    for (auto *sub : c->expression())
      e->args.push_back(expression(sub));
    return e;
  }

  ast::ExprPtr primary(P::PrimaryContext *ctx) {
    using K = ast::ExprKind;
    if (auto *c = exact<P::NumberLiteralContext>(ctx)) {
      auto e = make(K::Number, c);
      const std::string text = c->getText();
      e->number = std::strtod(text.c_str(), nullptr);
      e->integer = text.find_first_of(".eE") == std::string::npos;
      return e;
    }
    if (auto *c = exact<P::BoolLiteralContext>(ctx)) {
      auto e = make(K::Bool, c);
      e->boolean = c->TRUE() != nullptr;
      return e;
    }
    if (auto *c = exact<P::StringLiteralContext>(ctx)) {
      auto e = make(K::String, c);
      e->text = unquoteString(c->getText());
      return e;
    }
    if (auto *c = exact<P::CallExprContext>(ctx))
      return call(c, c->componentRef(), c->functionCallArgs());
    if (auto *c = exact<P::InitialExprContext>(ctx))
      return make(K::Initial, c);
    if (auto *c = exact<P::NameExprContext>(ctx))
      return componentRef(c->componentRef());
    if (auto *c = exact<P::TupleExprContext>(ctx))
      return outputList(c, c->outputList());
    if (auto *c = exact<P::ArrayExprContext>(ctx)) {
      auto e = make(K::Array, c);
      for (auto *sub : c->expression())
        e->args.push_back(expression(sub));
      return e;
    }
    if (auto *c = exact<P::ArrayComprehensionContext>(ctx)) {
      auto e = make(K::Array, c);
      e->args.push_back(expression(c->expression()));
      e->iterators = forIndices(c->forIndices());
      return e;
    }
    if (auto *c = exact<P::MatrixExprContext>(ctx)) {
      auto e = make(K::Matrix, c);
      ast::ExprPtr row;
      for (auto *child : c->children) {
        auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child);
        if (term && (term->getText() == ";" || term->getText() == "]")) {
          if (row)
            e->args.push_back(std::move(row));
          continue;
        }
        if (auto *x = dynamic_cast<P::ExpressionContext *>(child)) {
          if (!row) {
            row = std::make_unique<ast::Expr>();
            row->kind = K::Array;
            row->range = range(x);
          }
          row->args.push_back(expression(x));
        }
      }
      return e;
    }
    if (auto *c = exact<P::EndExprContext>(ctx))
      return make(K::End, c);
    auto *c = exact<P::ParenExprContext>(ctx);
    return expression(c->expression());
  }

private:
  uint32_t buffer_;
};

/// How deep the parser and the passes after it may recurse: with eqc's 1 GiB stack (driver/main.cpp)
/// 3e5 levels are measured to work in every pass; beyond the limits the model gets an error.
constexpr size_t kMaxNesting = 100000;     ///< parentheses, unary operators and powers (recursive rules)
constexpr size_t kMaxExpressionDepth = 250000; ///< nested operations, e.g. the terms of one long sum

/// Before parsing: the recursive rules' depth is bounded by the parenthesis depth plus the longest
/// run of prefix operators plus the powers of a statement. Reports the token where the bound
/// first exceeds kMaxNesting.
bool nestingWithinLimit(const std::string &text, uint32_t buffer, Diagnostics &diags) {
  // Each level takes at least one character: a shorter text is within the limit.
  if (text.size() <= kMaxNesting)
    return true;
  // A character scan, not a second lexer (that would cost as much as lexing): comments and
  // strings are skipped, parentheses counted, runs of prefix operators (- + not) and the powers
  // of a statement added.
  size_t depth = 0, run = 0, powers = 0;
  uint32_t line = 1, column = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      for (i += 2; i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/'); ++i)
        if (text[i] == '\n') {
          ++line;
          column = 0;
        }
      ++i;
      continue;
    }
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\')
          ++i;
        else if (text[i] == '\n') {
          ++line;
          column = 0;
        }
      }
      run = 0;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r')
      continue;
    const bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (c == '(') {
      ++depth;
      run = 0;
    } else if (c == ')') {
      depth = depth > 0 ? depth - 1 : 0;
      run = 0;
    } else if (c == '-' || c == '+') {
      ++run;
    } else if (c == 'n' && text.compare(i, 3, "not") == 0 && (i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_')) &&
               (i + 3 >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[i + 3])) || text[i + 3] == '_'))) {
      ++run;
      i += 2;
      column += 2;
    } else if (c == '^') {
      ++powers;
      run = 0;
    } else if (c == ';') {
      powers = 0;
      run = 0;
    } else if (word) {
      while (i + 1 < text.size() && (std::isalnum(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '_' ||
                                     text[i + 1] == '.')) {
        ++i;
        ++column;
      }
      run = 0;
    } else {
      run = 0;
    }
    if (depth + run + powers > kMaxNesting) {
      SourceRange at{buffer, line, column, 1};
      diags.error(at, "expression nested too deeply: more than " + std::to_string(kMaxNesting) +
                          " levels of parentheses, prefix operators and powers (eqc's limit)");
      return false;
    }
  }
  return true;
}

/// The position of the first byte that is not part of valid UTF-8 (overlong forms, surrogates and
/// code points above U+10FFFF count as invalid, as for ANTLR's decoder), or npos.
size_t firstInvalidUtf8(const std::string &text) {
  const auto *b = reinterpret_cast<const unsigned char *>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned c = b[i];
    size_t length;
    unsigned code;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      length = 2;
      code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3;
      code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4;
      code = c & 0x07;
    } else {
      return i;
    }
    if (i + length > n)
      return i;
    for (size_t k = 1; k < length; ++k) {
      if ((b[i + k] & 0xC0) != 0x80)
        return i;
      code = code << 6 | (b[i + k] & 0x3F);
    }
    const unsigned minimum = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
    if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
      return i;
    i += length;
  }
  return std::string::npos;
}

/// After parsing: the depth of nested operations (a sum of n terms is n deep), by an explicit
/// stack; reports the deepest expression beyond kMaxExpressionDepth.
bool depthWithinLimit(antlr4::tree::ParseTree *root, uint32_t buffer, Diagnostics &diags) {
  std::vector<std::pair<antlr4::tree::ParseTree *, size_t>> work{{root, 0}};
  while (!work.empty()) {
    auto [node, depth] = work.back();
    work.pop_back();
    if (dynamic_cast<P::ExpressionContext *>(node) && ++depth > kMaxExpressionDepth) {
      auto *ctx = static_cast<antlr4::ParserRuleContext *>(node);
      SourceRange at{buffer, static_cast<uint32_t>(ctx->getStart()->getLine()),
                     static_cast<uint32_t>(ctx->getStart()->getCharPositionInLine() + 1), 1};
      diags.error(at, "expression too deep: more than " + std::to_string(kMaxExpressionDepth) +
                          " nested operations (eqc's limit; a sum of that many terms, say)");
      return false;
    }
    for (antlr4::tree::ParseTree *child : node->children)
      work.push_back({child, depth});
  }
  return true;
}

} // namespace

size_t firstInvalidUtf8Byte(const std::string &text) { return firstInvalidUtf8(text); }

const antlr4::dfa::Vocabulary &lexerVocabulary() {
  // The vocabulary is static in the generated lexer; an instance on an empty stream reaches it.
  static antlr4::ANTLRInputStream empty(std::string{});
  static eqcgrammar::EqcLexer lexer(&empty);
  return lexer.getVocabulary();
}

namespace {

/// parseBuffer, with the hand-written parser first when `fast` (else ANTLR's alone).
std::optional<ast::File> parse(const SourceManager &sources, uint32_t buffer, Diagnostics &diags, bool fast) {
  unsigned errorsBefore = diags.errorCount();
  const std::string &text = sources.text(buffer);
  // ANTLR decodes UTF-8 and throws on anything else; say where instead.
  if (size_t bad = firstInvalidUtf8(text); bad != std::string::npos) {
    uint32_t line = 1, column = 1;
    for (size_t i = 0; i < bad; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
        ++column;
      }
    }
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[bad]));
    diags.error(SourceRange{buffer, line, column, 1},
                std::string("the file is not valid UTF-8: byte ") + byte + " (save it as UTF-8)");
    return std::nullopt;
  }
  if (!nestingWithinLimit(text, buffer, diags))
    return std::nullopt;
  ErrorCollector collector(diags, buffer);
  // The hand-written lexer makes the same tokens faster; ANTLR's lexer (and its input stream, a
  // UTF-32 copy of the text) is made only when it declines something, to report it
  // (frontend/FastLexer.h). From its tokens the hand-written parser makes the AST; ANTLR's parser
  // runs only when it declines (frontend/FastParser.h).
  FastTokenSource fastSource;
  std::unique_ptr<antlr4::ANTLRInputStream> input;
  std::unique_ptr<eqcgrammar::EqcLexer> lexer;
  antlr4::TokenSource *source = &fastSource;
  const bool lexed = fastSource.lex(text, lexerVocabulary());
  if (lexed && fast)
    if (std::optional<ast::File> file = parseFast(text, fastSource.tokens(), buffer, kMaxExpressionDepth / 2))
      return file;
  if (!lexed) {
    input = std::make_unique<antlr4::ANTLRInputStream>(text);
    lexer = std::make_unique<eqcgrammar::EqcLexer>(input.get());
    lexer->removeErrorListeners();
    lexer->addErrorListener(&collector);
    source = lexer.get();
  }
  antlr4::CommonTokenStream tokens(source);
  eqcgrammar::EqcParser parser(&tokens);
  parser.removeErrorListeners();
  P::StoredDefinitionContext *tree = nullptr;
  // Two stages, as ANTLR recommends: the fast SLL prediction bails out at the first problem; only
  // then is the input parsed again with full LL prediction and error recovery, so that every
  // syntax error is reported.
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    tree = parser.storedDefinition();
  } catch (const antlr4::ParseCancellationException &) {
    tree = nullptr;
  } catch (const TooManySyntaxErrors &) { // the lexer's errors, reported as the parser reads
    return std::nullopt;
  } catch (const std::exception &e) {
    diags.error(SourceRange{}, std::string("syntax error: ") + e.what());
    return std::nullopt;
  }
  if (!tree) {
    tokens.seek(0);
    parser.reset();
    parser.addErrorListener(&collector);
    parser.setErrorHandler(std::make_shared<StatementErrorStrategy>());
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
    try {
      tree = parser.storedDefinition();
    } catch (const TooManySyntaxErrors &) {
      return std::nullopt;
    } catch (const std::exception &e) {
      diags.error(SourceRange{}, std::string("syntax error: ") + e.what());
      return std::nullopt;
    }
  }
  if (diags.errorCount() != errorsBefore || !depthWithinLimit(tree, buffer, diags))
    return std::nullopt;
  // A literal beyond the largest double would silently become infinity.
  for (antlr4::Token *t : tokens.getTokens())
    if (t->getType() == eqcgrammar::EqcLexer::NUMBER) {
      const std::string literal = t->getText();
      if (std::isinf(std::strtod(literal.c_str(), nullptr)))
        diags.error(SourceRange{buffer, static_cast<uint32_t>(t->getLine()),
                                static_cast<uint32_t>(t->getCharPositionInLine() + 1),
                                static_cast<uint32_t>(t->getStopIndex() - t->getStartIndex() + 1)},
                    "number out of range: " + (literal.size() > 40 ? literal.substr(0, 37) + "..." : literal) +
                        " is larger than the largest Real (about 1.8e308)");
    }
  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  return TreeLowering(buffer).file(tree);
}

} // namespace

std::optional<ast::File> parseBuffer(const SourceManager &sources, uint32_t buffer, Diagnostics &diags) {
  return parse(sources, buffer, diags, true);
}

std::optional<std::string> fastParserDifference(const std::string &text, bool *accepted) {
  if (accepted)
    *accepted = false;
  if (firstInvalidUtf8(text) != std::string::npos)
    return std::nullopt;
  std::vector<LexToken> tokens;
  if (!lexFast(text, lexerVocabulary(), tokens))
    return std::nullopt; // the parse is ANTLR's alone
  SourceManager sources;
  uint32_t buffer = sources.addBuffer("model.eq", text);
  std::optional<ast::File> fast = parseFast(text, tokens, buffer, kMaxExpressionDepth / 2);
  if (accepted)
    *accepted = fast.has_value();
  if (!fast)
    return std::nullopt;
  std::ostringstream sink;
  Diagnostics diags(sources, &sink);
  std::optional<ast::File> reference = parse(sources, buffer, diags, false);
  if (!reference)
    return "accepted an input that ANTLR's parser rejects:" + sink.str();
  const std::string a = dumpAst(*reference), b = dumpAst(*fast);
  if (a == b)
    return std::nullopt;
  size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at])
    ++at;
  size_t from = a.rfind('\n', at);
  from = from == std::string::npos ? 0 : from;
  return "the ASTs differ: ANTLR ..." + a.substr(from, 300) + "\n  fast ..." + b.substr(from, 300);
}

} // namespace eqc

// The AST dump (frontend/AstDump.h): one line per node, after its depth.
#include "frontend/AstDump.h"

#include <sstream>

namespace eqc {

namespace {

class Dumper {
public:
  /// Without `ranges`, source places are left out (two texts of the same code dump alike).
  explicit Dumper(bool ranges = true) : ranges_(ranges) { out_.precision(17); }
  std::string take() { return out_.str(); }

  /// One component of a declaration with the declaration's prefixes and type; its description
  /// left out.
  void modification(const ast::Modifier &m) {
    line(0) << "each=" << m.each << " final=" << m.final << " redeclare=" << m.redeclare
            << " type=" << m.redeclareType << " constrainedby=" << m.constrainedBy;
    if (m.redeclareClass)
      classDef(*m.redeclareClass, 1);
    modifiers(m.args, 1);
    expr(m.value.get(), 1);
  }
  void component(const ast::Declaration &d, const ast::Component &c, bool withModifiers = true) {
    line(0) << "decl " << d.typeName << " prefix=" << static_cast<int>(d.prefix) << " flow=" << d.flow
            << " stream=" << d.stream << " protected=" << d.isProtected
            << " causality=" << static_cast<int>(d.causality) << " final=" << d.final;
    elementPrefixes(d.element, 1);
    subscripts(d.typeDims, 1);
    line(1) << "component " << c.name << " evaluate=" << c.evaluate;
    expr(c.condition.get(), 2);
    subscripts(c.dims, 2);
    if (withModifiers)
      modifiers(c.modifiers, 2);
    expr(c.binding.get(), 2);
  }

  void file(const ast::File &f) {
    if (f.withinRange.valid()) {
      line(0) << "within " << f.within;
      at(f.withinRange);
    }
    for (const auto &c : f.classes)
      classDef(*c, 0);
  }

private:
  std::ostream &line(int depth) {
    out_ << '\n' << depth << ' '; // the depth as a number: a deep expression stays linear in size
    return out_;
  }
  std::ostream &at(const SourceRange &r) {
    if (!ranges_)
      return out_;
    return out_ << " @" << r.buffer << ':' << r.line << ':' << r.column << '+' << r.length;
  }

  void expr(const ast::Expr *e, int depth) {
    if (!e) {
      line(depth) << "<null>";
      return;
    }
    line(depth) << "expr " << static_cast<int>(e->kind);
    at(e->range);
    out_ << " num=" << e->number << (e->integer ? "i" : "") << " bool=" << e->boolean << " text=\"" << e->text
         << "\" bin=" << static_cast<int>(e->binary) << " un=" << static_cast<int>(e->unary);
    if (e->kind == ast::ExprKind::Call) {
      out_ << " partial=" << e->partialApplication << " name";
      at(e->nameRange);
    }
    for (const auto &p : e->ref) {
      line(depth + 1) << "part " << p.name;
      at(p.range);
      subscripts(p.subscripts, depth + 2);
    }
    for (size_t i = 0; i < e->args.size(); ++i) {
      if (i < e->argNames.size())
        line(depth + 1) << "arg \"" << e->argNames[i] << '"';
      expr(e->args[i].get(), depth + 1);
    }
    if (e->argNames.size() > e->args.size())
      line(depth + 1) << "extra argNames " << e->argNames.size();
    forIndices(e->iterators, depth + 1);
  }
  void subscripts(const std::vector<ast::Subscript> &subs, int depth) {
    for (const auto &s : subs) {
      line(depth) << "sub";
      at(s.range);
      expr(s.expr.get(), depth + 1);
    }
  }
  void forIndices(const std::vector<ast::ForIndex> &indices, int depth) {
    for (const auto &i : indices) {
      line(depth) << "for " << i.name;
      at(i.range);
      expr(i.in.get(), depth + 1);
    }
  }
  void modifiers(const std::vector<ast::Modifier> &mods, int depth) {
    for (const auto &m : mods) {
      line(depth) << "mod " << m.name << " each=" << m.each << " final=" << m.final << " redeclare=" << m.redeclare
                  << " type=" << m.redeclareType << " constrainedby=" << m.constrainedBy;
      at(m.range);
      at(m.redeclareTypeRange);
      if (m.redeclareClass)
        classDef(*m.redeclareClass, depth + 1);
      modifiers(m.args, depth + 1);
      expr(m.value.get(), depth + 1);
    }
  }
  void elementPrefixes(const ast::ElementPrefixes &e, int depth) {
    line(depth) << "element inner=" << e.inner << " outer=" << e.outer << " replaceable=" << e.replaceable
                << " redeclare=" << e.redeclare << " constrainedby=" << e.constrainedBy;
    at(e.constrainedByRange);
    modifiers(e.constrainedByModifiers, depth + 1);
  }
  void declaration(const ast::Declaration &d, int depth) {
    line(depth) << "decl " << d.typeName << " prefix=" << static_cast<int>(d.prefix) << " flow=" << d.flow
                << " stream=" << d.stream << " protected=" << d.isProtected
                << " causality=" << static_cast<int>(d.causality) << " final=" << d.final;
    at(d.typeRange);
    elementPrefixes(d.element, depth + 1);
    subscripts(d.typeDims, depth + 1);
    for (const auto &c : d.components) {
      line(depth + 1) << "component " << c.name << " \"" << c.description << "\" evaluate=" << c.evaluate;
      at(c.range);
      expr(c.condition.get(), depth + 2);
      subscripts(c.dims, depth + 2);
      modifiers(c.modifiers, depth + 2);
      expr(c.binding.get(), depth + 2);
    }
  }
  void equations(const std::vector<ast::Equation> &eqs, int depth) {
    for (const auto &eq : eqs) {
      line(depth) << "equation " << static_cast<int>(eq.kind) << " \"" << eq.description << '"';
      at(eq.range);
      expr(eq.lhs.get(), depth + 1);
      expr(eq.rhs.get(), depth + 1);
      forIndices(eq.indices, depth + 1);
      for (const auto &c : eq.conditions)
        expr(c.get(), depth + 1);
      for (const auto &b : eq.branches) {
        line(depth + 1) << "branch";
        equations(b, depth + 2);
      }
    }
  }
  void statements(const std::vector<ast::Statement> &sts, int depth) {
    for (const auto &st : sts) {
      line(depth) << "statement " << static_cast<int>(st.kind);
      at(st.range);
      expr(st.target.get(), depth + 1);
      expr(st.value.get(), depth + 1);
      forIndices(st.indices, depth + 1);
      for (const auto &c : st.conditions)
        expr(c.get(), depth + 1);
      for (const auto &b : st.branches) {
        line(depth + 1) << "branch";
        statements(b, depth + 2);
      }
    }
  }
  void classDef(const ast::ClassDef &c, int depth) {
    line(depth) << "class " << static_cast<int>(c.kind) << ' ' << c.name << " \"" << c.description << "\" end="
                << c.endName << " partial=" << c.partial << " short=" << c.isShort << " expandable=" << c.expandable
                << " operator=" << c.isOperator << " impure=" << c.impure << " enumeration=" << c.isEnumeration
                << " open=" << c.openEnumeration << " extends=" << c.extendsClass;
    modifiers(c.extendsModifiers, depth + 1);
    elementPrefixes(c.element, depth + 1);
    if (c.external) {
      line(depth + 1) << "external \"" << c.external->language << "\" " << c.external->function;
      at(c.external->range);
      expr(c.external->output.get(), depth + 2);
      for (const auto &a : c.external->args)
        expr(a.get(), depth + 2);
      modifiers(c.external->annotation, depth + 2);
    }
    for (const auto &l : c.literals) {
      line(depth + 1) << "literal " << l.name << " \"" << l.description << "\"";
      at(l.range);
    }
    at(c.range);
    at(c.endRange);
    for (const auto &e : c.extends) {
      line(depth + 1) << "extends " << e.base;
      at(e.range);
      modifiers(e.modifiers, depth + 2);
    }
    for (const auto &i : c.imports) {
      line(depth + 1) << "import " << i.path << " alias=" << i.alias << " wildcard=" << i.wildcard;
      at(i.range);
    }
    for (const auto &d : c.declarations)
      declaration(d, depth + 1);
    for (const auto &n : c.classes)
      classDef(*n, depth + 1);
    line(depth + 1) << "equations";
    equations(c.equations, depth + 2);
    line(depth + 1) << "initial equations";
    equations(c.initialEquations, depth + 2);
    for (const auto &section : c.algorithms) {
      line(depth + 1) << (section.initial ? "initial algorithm" : "algorithm");
      at(section.range);
      statements(section.statements, depth + 2);
    }
    line(depth + 1) << "annotation";
    modifiers(c.annotation, depth + 2);
    if (c.isShort) {
      line(depth + 1) << "short base";
      declaration(c.shortBase, depth + 2);
      modifiers(c.shortModifiers, depth + 2);
    }
  }

  bool ranges_;
  std::ostringstream out_;
};

} // namespace

std::string dumpComponent(const ast::Declaration &declaration, const ast::Component &component,
                          bool withModifiers) {
  Dumper d(false);
  d.component(declaration, component, withModifiers);
  return d.take();
}

std::string dumpModification(const ast::Modifier &m) {
  Dumper d(false);
  d.modification(m);
  return d.take();
}

std::string dumpAst(const ast::File &file) {
  Dumper d;
  d.file(file);
  return d.take();
}

} // namespace eqc

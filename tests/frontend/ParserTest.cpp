// Tests of the parser: the AST built for each construct of the grammar, source ranges, and the
// reporting of every syntax error in a file.
#include "frontend/Parser.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace eqc {
namespace {

/// The AST as an s-expression: `(+ a (* b c))`, `(neg x)`, `(call sin x)`, `(if c a e)`.
std::string sexpr(const ast::Expr &e) {
  auto args = [&](std::string head) {
    for (const auto &a : e.args)
      head += " " + sexpr(*a);
    return "(" + head + ")";
  };
  switch (e.kind) {
  case ast::ExprKind::Number: {
    std::ostringstream os;
    os << e.number;
    return os.str();
  }
  case ast::ExprKind::Bool:
    return e.boolean ? "true" : "false";
  case ast::ExprKind::String:
    return "\"" + e.text + "\"";
  case ast::ExprKind::Name: {
    std::string s;
    for (const ast::RefPart &part : e.ref) {
      s += (s.empty() ? "" : ".") + part.name;
      if (!part.subscripts.empty()) {
        s += "[";
        for (size_t i = 0; i < part.subscripts.size(); ++i)
          s += (i ? " " : "") + (part.subscripts[i].expr ? sexpr(*part.subscripts[i].expr) : std::string(":"));
        s += "]";
      }
    }
    return s;
  }
  case ast::ExprKind::Call:
    return args("call " + e.text);
  case ast::ExprKind::Unary:
    return args(e.unary == ast::UnaryOp::Neg ? "neg" : e.unary == ast::UnaryOp::Plus ? "plus" : "not");
  case ast::ExprKind::Binary: {
    static const char *const ops[] = {"+", "-", "*", "/", "^", ".+", ".-", ".*", "./", ".^", "<", "<=", ">", ">=", "==", "<>", "and", "or"};
    return args(ops[static_cast<int>(e.binary)]);
  }
  case ast::ExprKind::If:
    return args("if");
  case ast::ExprKind::Range:
    return args("range");
  case ast::ExprKind::Array:
    return args(e.iterators.empty() ? "array" : "array-for " + e.iterators[0].name);
  case ast::ExprKind::Matrix:
    return args("matrix");
  case ast::ExprKind::Tuple: {
    std::string s = "(tuple";
    for (const auto &a : e.args)
      s += " " + (a ? sexpr(*a) : std::string("_"));
    return s + ")";
  }
  case ast::ExprKind::End:
    return "end";
  case ast::ExprKind::Initial:
    return "(initial)";
  }
  return "?";
}

/// "line:col" of a range, for compact comparisons.
std::string pos(SourceRange r) { return std::to_string(r.line) + ":" + std::to_string(r.column); }

class ParserTest : public ::testing::Test {
protected:
  std::optional<ast::File> parse(const std::string &text) {
    buffer = sources.addBuffer("test.eq", text);
    return parseBuffer(sources, buffer, diags);
  }

  /// Parses `x = <expr>;` in a model and returns the right-hand side as an s-expression.
  std::string expr(const std::string &text) {
    std::optional<ast::File> f = parse("model M\nequation\n  x = " + text + ";\nend M;\n");
    if (!f) {
      ADD_FAILURE() << "syntax error in " << text << ":\n" << rendered();
      return "";
    }
    return sexpr(*f->classes.at(0)->equations.at(0).rhs);
  }

  /// Every diagnostic as "line:col: message".
  std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (const Diagnostic &d : diags.all())
      out.push_back(pos(d.range) + ": " + d.message);
    return out;
  }
  std::string rendered() const {
    std::string s;
    for (const Diagnostic &d : diags.all())
      s += diags.render(d);
    return s;
  }

  SourceManager sources;
  Diagnostics diags{sources};
  uint32_t buffer = 0;
};

// ---- expressions ----

TEST_F(ParserTest, UnaryMinusBindsLooserThanPower) {
  EXPECT_EQ(expr("-2^2"), "(neg (^ 2 2))");
  EXPECT_EQ(expr("-x^2*y"), "(* (neg (^ x 2)) y)");
  EXPECT_EQ(expr("+x"), "(plus x)");
  EXPECT_EQ(expr("2^-x"), "(^ 2 (neg x))");
}

TEST_F(ParserTest, MultiplicationBindsTighterThanAddition) {
  EXPECT_EQ(expr("a + b*c"), "(+ a (* b c))");
  EXPECT_EQ(expr("a*b + c"), "(+ (* a b) c)");
  EXPECT_EQ(expr("(a + b)*c"), "(* (+ a b) c)");
  EXPECT_EQ(expr("-a*b"), "(* (neg a) b)");
  EXPECT_EQ(expr("a - -b"), "(- a (neg b))");
}

TEST_F(ParserTest, BinaryOperatorsAreLeftAssociativeExceptPower) {
  EXPECT_EQ(expr("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(expr("a / b * c"), "(* (/ a b) c)");
  EXPECT_EQ(expr("a / b / c"), "(/ (/ a b) c)");
  EXPECT_EQ(expr("a^b^c"), "(^ a (^ b c))");
  EXPECT_EQ(expr("(a^b)^c"), "(^ (^ a b) c)");
}

TEST_F(ParserTest, Relations) {
  EXPECT_EQ(expr("if a < b + 1 then 1 else 0"), "(if (< a (+ b 1)) 1 0)");
  EXPECT_EQ(expr("if a <= b then 1 else 0"), "(if (<= a b) 1 0)");
  EXPECT_EQ(expr("if a > b then 1 else 0"), "(if (> a b) 1 0)");
  EXPECT_EQ(expr("if a >= b then 1 else 0"), "(if (>= a b) 1 0)");
  EXPECT_EQ(expr("if a == b then 1 else 0"), "(if (== a b) 1 0)");
  EXPECT_EQ(expr("if a <> b then 1 else 0"), "(if (<> a b) 1 0)");
}

TEST_F(ParserTest, LogicalOperators) {
  EXPECT_EQ(expr("if a < b and c > d or not e then 1 else 0"), "(if (or (and (< a b) (> c d)) (not e)) 1 0)");
  EXPECT_EQ(expr("if not a and b then 1 else 0"), "(if (and (not a) b) 1 0)");
  EXPECT_EQ(expr("if not a < b then 1 else 0"), "(if (not (< a b)) 1 0)");
  EXPECT_EQ(expr("if a or b and c then 1 else 0"), "(if (or a (and b c)) 1 0)");
  EXPECT_EQ(expr("if (a or b) and c then 1 else 0"), "(if (and (or a b) c) 1 0)");
  EXPECT_EQ(expr("if true and false then 1 else 0"), "(if (and true false) 1 0)");
}

TEST_F(ParserTest, IfElseifElse) {
  EXPECT_EQ(expr("if a then 1 elseif b then 2 elseif c then 3 else 4"), "(if a 1 b 2 c 3 4)");
  EXPECT_EQ(expr("if a then 1 else 2 + 3"), "(if a 1 (+ 2 3))") << "the else branch extends to the right";
  EXPECT_EQ(expr("1 + (if a then 1 else 2)"), "(+ 1 (if a 1 2))");
  EXPECT_EQ(expr("if a then if b then 1 else 2 else 3"), "(if a (if b 1 2) 3)");
}

TEST_F(ParserTest, CallsAndDottedNames) {
  EXPECT_EQ(expr("sin(x)"), "(call sin x)");
  EXPECT_EQ(expr("atan2(y, x + 1)"), "(call atan2 y (+ x 1))");
  EXPECT_EQ(expr("f()"), "(call f)");
  EXPECT_EQ(expr("Modelica.Math.sin(a.b)"), "(call Modelica.Math.sin a.b)");
  EXPECT_EQ(expr("der(der(x))"), "(call der (call der x))");
  EXPECT_EQ(expr("StateSelect.prefer"), "StateSelect.prefer");
}

TEST_F(ParserTest, Literals) {
  EXPECT_EQ(expr("\"a \\\"quoted\\\" string\""), "\"a \"quoted\" string\"");
  EXPECT_EQ(expr("true"), "true");
  EXPECT_EQ(expr("false"), "false");
  std::optional<ast::File> f = parse("model M\nequation\n  x = \"tab\\there\\nnewline\\\\\";\nend M;\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->classes[0]->equations[0].rhs->text, "tab\there\nnewline\\");
}

TEST_F(ParserTest, Numbers) {
  const std::pair<const char *, double> cases[] = {{"2", 2},   {"2.5e-3", 2.5e-3}, {".5", 0.5},
                                                   {"3.", 3},  {"1E+2", 100},      {"0.125", 0.125},
                                                   {"7e0", 7}, {"1.5E3", 1500}};
  for (auto &[text, value] : cases) {
    std::optional<ast::File> f = parse(std::string("model M\nequation\n  x = ") + text + ";\nend M;\n");
    ASSERT_TRUE(f) << text;
    const ast::Expr &e = *f->classes[0]->equations[0].rhs;
    EXPECT_EQ(e.kind, ast::ExprKind::Number) << text;
    EXPECT_DOUBLE_EQ(e.number, value) << text;
  }
}

TEST_F(ParserTest, CommentsAreSkipped) {
  std::optional<ast::File> f = parse("// leading comment\n"
                                     "model M /* inline */ \"desc\"\n"
                                     "  Real x; // trailing\n"
                                     "  /* a block comment\n"
                                     "     over lines; model N end N; */\n"
                                     "equation\n"
                                     "  x = 1 /* inside */ + 2;\n"
                                     "end M;\n");
  ASSERT_TRUE(f) << rendered();
  ASSERT_EQ(f->classes.size(), 1u);
  EXPECT_EQ(f->classes[0]->description, "desc");
  ASSERT_EQ(f->classes[0]->declarations.size(), 1u);
  ASSERT_EQ(f->classes[0]->equations.size(), 1u);
  EXPECT_EQ(sexpr(*f->classes[0]->equations[0].rhs), "(+ 1 2)");
  EXPECT_EQ(pos(f->classes[0]->equations[0].range), "7:3") << "comments do not shift positions";
}

// ---- declarations and model structure ----

TEST_F(ParserTest, MultipleComponentsPerDeclarationHaveTheirOwnModifiers) {
  std::optional<ast::File> f = parse("model M\n"
                                     "  parameter Real a = 1, b(start = 2, fixed = true) \"the b\", c;\n"
                                     "  Real x(start = 1) = 2 \"x desc\" annotation(Evaluate = true);\n"
                                     "  constant Integer n = 3;\n"
                                     "  Boolean flag;\n"
                                     "equation\n"
                                     "end M;\n");
  ASSERT_TRUE(f) << rendered();
  const ast::ClassDef &m = *f->classes[0];
  ASSERT_EQ(m.declarations.size(), 4u);
  const ast::Declaration &d = m.declarations[0];
  EXPECT_EQ(d.prefix, ast::Prefix::Parameter);
  EXPECT_EQ(d.typeName, "Real");
  EXPECT_EQ(pos(d.typeRange), "2:13");
  ASSERT_EQ(d.components.size(), 3u);
  EXPECT_EQ(d.components[0].name, "a");
  ASSERT_TRUE(d.components[0].binding);
  EXPECT_EQ(sexpr(*d.components[0].binding), "1");
  EXPECT_TRUE(d.components[0].modifiers.empty());
  EXPECT_EQ(d.components[0].description, "");
  EXPECT_EQ(d.components[1].name, "b");
  EXPECT_FALSE(d.components[1].binding);
  ASSERT_EQ(d.components[1].modifiers.size(), 2u);
  EXPECT_EQ(d.components[1].modifiers[0].name, "start");
  EXPECT_EQ(sexpr(*d.components[1].modifiers[0].value), "2");
  EXPECT_EQ(d.components[1].modifiers[1].name, "fixed");
  EXPECT_EQ(sexpr(*d.components[1].modifiers[1].value), "true");
  EXPECT_EQ(pos(d.components[1].modifiers[1].range), "2:38");
  EXPECT_EQ(d.components[1].description, "the b");
  EXPECT_EQ(d.components[2].name, "c");
  EXPECT_TRUE(d.components[2].modifiers.empty());
  EXPECT_FALSE(d.components[2].binding);
  EXPECT_EQ(pos(d.components[2].range), "2:61");

  const ast::Component &x = m.declarations[1].components.at(0);
  EXPECT_EQ(m.declarations[1].prefix, ast::Prefix::None);
  ASSERT_EQ(x.modifiers.size(), 1u);
  ASSERT_TRUE(x.binding) << "a modification with a binding";
  EXPECT_EQ(sexpr(*x.binding), "2");
  EXPECT_EQ(x.description, "x desc");
  EXPECT_EQ(m.declarations[2].prefix, ast::Prefix::Constant);
  EXPECT_EQ(m.declarations[2].typeName, "Integer");
  EXPECT_EQ(m.declarations[3].typeName, "Boolean");
  EXPECT_TRUE(m.equations.empty());
}

TEST_F(ParserTest, NestedModifiersAndDottedValues) {
  std::optional<ast::File> f =
      parse("model M\n"
            "  Real x(stateSelect = StateSelect.prefer, nominal = 2*3, unit = \"m\");\n"
            "equation\n"
            "  x = 1;\n"
            "  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-6), Icon);\n"
            "end M;\n");
  ASSERT_TRUE(f) << rendered();
  const ast::ClassDef &m = *f->classes[0];
  const std::vector<ast::Modifier> &mods = m.declarations[0].components[0].modifiers;
  ASSERT_EQ(mods.size(), 3u);
  EXPECT_EQ(sexpr(*mods[0].value), "StateSelect.prefer");
  EXPECT_EQ(sexpr(*mods[1].value), "(* 2 3)");
  EXPECT_EQ(sexpr(*mods[2].value), "\"m\"");
  ASSERT_EQ(m.annotation.size(), 2u);
  EXPECT_EQ(m.annotation[0].name, "experiment");
  EXPECT_FALSE(m.annotation[0].value);
  ASSERT_EQ(m.annotation[0].args.size(), 3u);
  EXPECT_EQ(m.annotation[0].args[1].name, "StopTime");
  EXPECT_EQ(sexpr(*m.annotation[0].args[1].value), "10");
  EXPECT_DOUBLE_EQ(m.annotation[0].args[2].value->number, 1e-6);
  EXPECT_EQ(m.annotation[1].name, "Icon");
  EXPECT_TRUE(m.annotation[1].args.empty());
}

TEST_F(ParserTest, DescriptionsConcatenate) {
  std::optional<ast::File> f = parse("model M \"first \" + \"second\"\n"
                                     "  Real x \"the \" + \"state\";\n"
                                     "equation\n"
                                     "  der(x) = -x \"decay\";\n"
                                     "end M;\n");
  ASSERT_TRUE(f) << rendered();
  EXPECT_EQ(f->classes[0]->description, "first second");
  EXPECT_EQ(f->classes[0]->declarations[0].components[0].description, "the state");
  EXPECT_EQ(f->classes[0]->equations[0].description, "decay");
}

TEST_F(ParserTest, SectionsAndModels) {
  std::optional<ast::File> f = parse("model A\n"
                                     "  Real x;\n"
                                     "equation\n"
                                     "  der(x) = 1;\n"
                                     "initial equation\n"
                                     "  x = 2;\n"
                                     "equation\n"
                                     "  x = x;\n"
                                     "end A;\n"
                                     "model B\n"
                                     "end B;\n");
  ASSERT_TRUE(f) << rendered();
  ASSERT_EQ(f->classes.size(), 2u);
  const ast::ClassDef &a = *f->classes[0];
  EXPECT_EQ(a.name, "A");
  EXPECT_EQ(pos(a.range), "1:7");
  EXPECT_EQ(a.endName, "A");
  EXPECT_EQ(pos(a.endRange), "9:5");
  ASSERT_EQ(a.equations.size(), 2u) << "both equation sections";
  ASSERT_EQ(a.initialEquations.size(), 1u);
  EXPECT_EQ(sexpr(*a.initialEquations[0].lhs), "x");
  EXPECT_EQ(f->classes[1]->name, "B");
  EXPECT_TRUE(f->classes[1]->declarations.empty());
}

TEST_F(ParserTest, MissingEndNameParses) {
  std::optional<ast::File> f = parse("model M\nend;\n");
  ASSERT_TRUE(f) << rendered();
  EXPECT_EQ(f->classes[0]->endName, "");
}

// ---- ranges ----

TEST_F(ParserTest, RangesPointAtLineAndColumn) {
  std::optional<ast::File> f = parse("model M\n"
                                     "  Real x, y;\n"
                                     "equation\n"
                                     "  x = a + b*c;\n"
                                     "\ty = sin(x)   ;\n"
                                     "end M;\n");
  ASSERT_TRUE(f) << rendered();
  const ast::ClassDef &m = *f->classes[0];
  EXPECT_EQ(pos(m.declarations[0].components[1].range), "2:11");
  EXPECT_EQ(m.declarations[0].components[1].range.length, 1u);
  EXPECT_EQ(m.declarations[0].components[1].range.buffer, buffer);
  const ast::Equation &eq = m.equations[0];
  EXPECT_EQ(pos(eq.range), "4:3");
  EXPECT_EQ(eq.range.length, 11u) << "x = a + b*c";
  EXPECT_EQ(pos(eq.lhs->range), "4:3");
  EXPECT_EQ(pos(eq.rhs->range), "4:7");
  EXPECT_EQ(eq.rhs->range.length, 7u);
  const ast::Expr &product = *eq.rhs->args[1];
  EXPECT_EQ(pos(product.range), "4:11");
  EXPECT_EQ(product.range.length, 3u);
  const ast::Expr &call = *m.equations[1].rhs;
  EXPECT_EQ(pos(call.range), "5:6") << "a tab is one column";
  EXPECT_EQ(call.range.length, 6u);
  EXPECT_EQ(pos(call.nameRange), "5:6");
  EXPECT_EQ(call.nameRange.length, 3u);
  EXPECT_EQ(pos(call.args[0]->range), "5:10");
}

TEST_F(ParserTest, ParenthesesDoNotChangeTheRangeOfTheInnerExpression) {
  std::optional<ast::File> f = parse("model M\nequation\n  x = 2*(a + b);\nend M;\n");
  ASSERT_TRUE(f) << rendered();
  const ast::Expr &sum = *f->classes[0]->equations[0].rhs->args[1];
  EXPECT_EQ(sexpr(sum), "(+ a b)");
  EXPECT_EQ(pos(sum.range), "3:10");
  EXPECT_EQ(sum.range.length, 5u);
}

// ---- syntax errors ----

TEST_F(ParserTest, EverySyntaxErrorInAFileIsReported) {
  std::optional<ast::File> f = parse("model Broken\n"
                                     "  parameter Real k = 2 +;\n"
                                     "  Real x(start = 1;\n"
                                     "  Real y;\n"
                                     "equation\n"
                                     "  der(x) = -k*x\n"
                                     "  y = 2 * x;\n"
                                     "  y = 3 * * x;\n"
                                     "end Broken;\n");
  EXPECT_FALSE(f);
  EXPECT_EQ(errors(), (std::vector<std::string>{
                          "2:25: syntax error: mismatched input ';' expecting an expression",
                          "3:19: syntax error: mismatched input ';' expecting {',', ')'}",
                          "6:16: syntax error: missing ';' at 'y'",
                          "8:11: syntax error: extraneous input '*' expecting an expression",
                      }))
      << rendered();
  EXPECT_EQ(diags.errorCount(), 4u);
}

TEST_F(ParserTest, LexerErrorsAreReportedWithTheirPosition) {
  std::optional<ast::File> f = parse("model M\n  Real x;\nequation\n  x = 3 $ 2;\n  x = 1 # 1;\nend M;\n");
  EXPECT_FALSE(f);
  std::vector<std::string> e = errors();
  ASSERT_GE(e.size(), 2u) << rendered();
  EXPECT_EQ(e[0], "4:9: syntax error: token recognition error at: '$'");
  bool second = false;
  for (const std::string &s : e)
    second = second || s == "5:9: syntax error: token recognition error at: '#'";
  EXPECT_TRUE(second) << rendered();
}

TEST_F(ParserTest, ErrorRangeCoversTheOffendingToken) {
  std::optional<ast::File> f = parse("model M\nequation\n  x = 1 equation;\nend M;\n");
  EXPECT_FALSE(f);
  ASSERT_FALSE(diags.all().empty());
  const Diagnostic &d = diags.all()[0];
  EXPECT_EQ(pos(d.range), "3:9") << rendered();
  EXPECT_EQ(d.range.length, 8u) << "the keyword 'equation'";
  EXPECT_EQ(diags.render(d).substr(0, 14), "test.eq:3:9: e");
}

TEST_F(ParserTest, UnterminatedBlockCommentIsAnError) {
  EXPECT_FALSE(parse("model M\n  Real x; /* never closed\nend M;\n"));
  EXPECT_TRUE(diags.hasErrors());
}

TEST_F(ParserTest, EmptyFileIsAnError) {
  EXPECT_FALSE(parse(""));
  ASSERT_EQ(diags.errorCount(), 1u);
  EXPECT_EQ(diags.all()[0].message.rfind("syntax error: ", 0), 0u);
}

TEST_F(ParserTest, ParsingAfterEarlierErrorsStillReportsOnlyNewOnes) {
  diags.error(SourceRange{}, "an earlier error");
  std::optional<ast::File> f = parse("model M\nend M;\n");
  EXPECT_TRUE(f) << "success is judged by the errors of this buffer";
}

} // namespace

TEST_F(ParserTest, ArraysRangesAndSubscripts) {
  EXPECT_EQ(expr("{1, 2, 3}"), "(array 1 2 3)");
  EXPECT_EQ(expr("{i^2 for i in 1:n}"), "(array-for i (^ i 2))");
  EXPECT_EQ(expr("[1, 2; 3, 4]"), "(matrix (array 1 2) (array 3 4))");
  EXPECT_EQ(expr("a[i, 2].b[:]"), "a[i 2].b[:]");
  EXPECT_EQ(expr("x[end - 1]"), "x[(- end 1)]");
  EXPECT_EQ(expr("1:n"), "(range 1 n)");
  EXPECT_EQ(expr("1:2:n"), "(range 1 2 n)");
  EXPECT_EQ(expr("a .* b .+ c"), "(.+ (.* a b) c)");
  EXPECT_EQ(expr("sum(x[i] for i in 1:3)"), "(call sum x[i])");
  EXPECT_EQ(expr("if initial() then 1 else 0"), "(if (initial) 1 0)");
}

TEST_F(ParserTest, ClassesEquationsAndStatements) {
  std::optional<ast::File> f = parse(R"(package P
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  type Voltage = Real(unit = "V");
  function f
    input Real x;
    output Real y;
  protected
    Real s;
  algorithm
    s := 0;
    for i in 1:3 loop
      s := s + i;
    end for;
    while s > 1 loop
      s := s/2;
      break;
    end while;
    (y, ) := g(s);
    if s > 0 then
      return;
    end if;
  end f;
  model M
    extends Base(k = 2);
    import Q.*;
    Pin p[2];
  equation
    for i in 1:2 loop
      p[i].v = i;
    end for;
    connect(p[1], p[2]);
    when x > 1 then
      reinit(x, 0);
    elsewhen y then
      z = 1;
    end when;
    if a then
      b = 1;
    else
      b = 2;
    end if;
    (u, v) = f(1);
  end M;
end P;
)");
  ASSERT_TRUE(f);
  const ast::ClassDef &pkg = *f->classes[0];
  EXPECT_EQ(pkg.kind, ast::ClassKind::Package);
  ASSERT_EQ(pkg.classes.size(), 4u);
  EXPECT_EQ(pkg.classes[0]->kind, ast::ClassKind::Connector);
  EXPECT_TRUE(pkg.classes[0]->declarations[1].flow);
  EXPECT_TRUE(pkg.classes[1]->isShort);
  EXPECT_EQ(pkg.classes[1]->shortBase.typeName, "Real");
  const ast::ClassDef &fn = *pkg.classes[2];
  EXPECT_EQ(fn.kind, ast::ClassKind::Function);
  EXPECT_TRUE(fn.declarations[2].isProtected);
  ASSERT_EQ(fn.algorithms.size(), 1u);
  EXPECT_FALSE(fn.algorithms[0].initial);
  const std::vector<ast::Statement> &algorithm = fn.algorithms[0].statements;
  ASSERT_EQ(algorithm.size(), 5u);
  EXPECT_EQ(algorithm[1].kind, ast::StatementKind::For);
  EXPECT_EQ(algorithm[2].kind, ast::StatementKind::While);
  EXPECT_EQ(algorithm[2].branches[0][1].kind, ast::StatementKind::Break);
  EXPECT_EQ(algorithm[3].kind, ast::StatementKind::TupleAssign);
  EXPECT_EQ(sexpr(*algorithm[3].target), "(tuple y _)");
  EXPECT_EQ(algorithm[4].branches[0][0].kind, ast::StatementKind::Return);
  const ast::ClassDef &m = *pkg.classes[3];
  ASSERT_EQ(m.extends.size(), 1u);
  EXPECT_EQ(m.extends[0].modifiers[0].name, "k");
  ASSERT_EQ(m.imports.size(), 1u);
  EXPECT_TRUE(m.imports[0].wildcard);
  ASSERT_EQ(m.equations.size(), 5u);
  EXPECT_EQ(m.equations[0].kind, ast::EquationKind::For);
  EXPECT_EQ(m.equations[1].kind, ast::EquationKind::Connect);
  EXPECT_EQ(m.equations[2].kind, ast::EquationKind::When);
  EXPECT_EQ(m.equations[2].conditions.size(), 2u);
  EXPECT_EQ(m.equations[2].branches[0][0].kind, ast::EquationKind::Call);
  EXPECT_EQ(m.equations[3].kind, ast::EquationKind::If);
  EXPECT_EQ(m.equations[3].branches.size(), 2u);
  EXPECT_EQ(sexpr(*m.equations[4].lhs), "(tuple u v)");
}

} // namespace eqc

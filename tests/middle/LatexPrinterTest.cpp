// Tests of the LaTeX printer: names (derivatives, subscripts, Greek letters, escaping), fractions,
// powers, functions, products, precedence, and well-formedness (balanced braces, no double
// superscripts) on many generated expressions.
#include "middle/LatexPrinter.h"

#include "middle/Expr.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>

namespace eqc {
namespace {

class LatexPrinterTest : public ::testing::Test {
protected:
  const Expr *c(double v) { return ctx.constant(v); }
  std::string tex(const Expr *e) {
    static const char *const names[] = {"x", "y", "lambda", "vx", "der(x)", "der(der(x))", "der(der(der(x)))",
                                        "x_dot", "x1", "der(x_dot)"};
    return toLatex(e, [](int v) { return std::string(names[v]); });
  }

  ExprContext ctx;
  const Expr *x = ctx.var(0), *y = ctx.var(1), *lambda = ctx.var(2), *vx = ctx.var(3);
  const Expr *dx = ctx.var(4), *ddx = ctx.var(5), *dddx = ctx.var(6), *xDot = ctx.var(7), *x1 = ctx.var(8);
  const Expr *dxDot = ctx.var(9);
};

// ---- names ----

TEST_F(LatexPrinterTest, DerivativesAreDotsThenParenthesizedOrders) {
  EXPECT_EQ(latexVarName("x"), "x");
  EXPECT_EQ(latexVarName("der(x)"), "\\dot{x}");
  EXPECT_EQ(latexVarName("der(der(x))"), "\\ddot{x}");
  EXPECT_EQ(latexVarName("der(der(der(x)))"), "x^{(3)}");
  EXPECT_EQ(latexVarName("der(der(der(der(der(x6)))))"), "x_{6}^{(5)}");
}

TEST_F(LatexPrinterTest, NamesGetSubscriptsGreekLettersAndEscapes) {
  EXPECT_EQ(latexVarName("x1"), "x_{1}");
  EXPECT_EQ(latexVarName("x12"), "x_{12}");
  EXPECT_EQ(latexVarName("x_dot"), "x_{\\mathrm{dot}}");
  EXPECT_EQ(latexVarName("x_1"), "x_{1}");
  EXPECT_EQ(latexVarName("a_b_c"), "a_{\\mathrm{b\\_c}}");
  EXPECT_EQ(latexVarName("der(x_dot)"), "\\dot{x}_{\\mathrm{dot}}") << "the dot goes over the letter";
  EXPECT_EQ(latexVarName("der(x1)"), "\\dot{x}_{1}");
  EXPECT_EQ(latexVarName("lambda"), "\\lambda");
  EXPECT_EQ(latexVarName("der(omega)"), "\\dot{\\omega}");
  EXPECT_EQ(latexVarName("Omega"), "\\Omega");
  EXPECT_EQ(latexVarName("vx"), "\\mathit{vx}");
  EXPECT_EQ(latexVarName("body.x"), "\\mathit{body.x}");
  EXPECT_EQ(latexVarName("x_"), "\\mathit{x\\_}");
  EXPECT_EQ(latexVarName("a#b"), "\\mathit{a\\#b}");
}

TEST_F(LatexPrinterTest, TextEscapesSpecialCharactersAndSymbols) {
  EXPECT_EQ(latexEscape("a_b & 50% {x} $ # ~ ^ \\"), "a\\_b \\& 50\\% \\{x\\} \\$ \\# \\~{} \\^{} \\textbackslash{}");
  EXPECT_EQ(latexEscape("Σ-method: d − c ≥ σ"), "$\\Sigma$-method: d $-$ c $\\ge$ $\\sigma$");
  EXPECT_EQ(latexEscape("--stabilize"), "-{}-stabilize") << "no en dash";
}

// ---- expressions ----

TEST_F(LatexPrinterTest, AtomsAndNumbers) {
  EXPECT_EQ(tex(x), "x");
  EXPECT_EQ(tex(ctx.time()), "t");
  EXPECT_EQ(tex(c(2.5)), "2.5");
  EXPECT_EQ(tex(c(-3)), "-3");
  EXPECT_EQ(tex(c(2.5e-8)), "2.5 \\cdot 10^{-8}");
  EXPECT_EQ(tex(c(1e20)), "10^{20}");
  EXPECT_EQ(tex(ctx.boolean(true)), "\\mathrm{true}");
}

TEST_F(LatexPrinterTest, DivisionIsAFraction) {
  EXPECT_EQ(tex(ctx.div(x, y)), "\\frac{x}{y}");
  EXPECT_EQ(tex(ctx.div(c(1), x)), "\\frac{1}{x}");
  EXPECT_EQ(tex(ctx.div(ctx.add(x, c(1)), y)), "\\frac{x + 1}{y}") << "no parentheses inside \\frac";
  EXPECT_EQ(tex(ctx.div(x, ctx.add(x, y))), "\\frac{x}{x + y}");
  EXPECT_EQ(tex(ctx.div(x, ctx.pow(y, c(2)))), "\\frac{x}{y^{2}}");
  EXPECT_EQ(tex(ctx.div(ctx.mul(c(2), x), ctx.mul(y, lambda))), "\\frac{2 x}{y \\lambda}");
  EXPECT_EQ(tex(ctx.neg(ctx.div(x, y))), "-\\frac{x}{y}");
  EXPECT_EQ(tex(ctx.sub(x, ctx.div(c(1), y))), "x - \\frac{1}{y}");
}

TEST_F(LatexPrinterTest, PowersUseBracedExponents) {
  EXPECT_EQ(tex(ctx.pow(x, c(2))), "x^{2}");
  EXPECT_EQ(tex(ctx.pow(x, ctx.add(y, c(1)))), "x^{y + 1}");
  EXPECT_EQ(tex(ctx.pow(ctx.add(x, y), c(2))), "(x + y)^{2}");
  EXPECT_EQ(tex(ctx.pow(ctx.mul(x, y), lambda)), "(x y)^{\\lambda}");
  EXPECT_EQ(tex(ctx.pow(dx, c(2))), "\\dot{x}^{2}");
  EXPECT_EQ(tex(ctx.pow(dddx, c(2))), "{x^{(3)}}^{2}") << "no double superscript";
  EXPECT_EQ(tex(ctx.pow(x1, c(3))), "x_{1}^{3}");
  EXPECT_EQ(tex(ctx.pow(x, c(0.5))), "\\sqrt{x}");
  EXPECT_EQ(tex(ctx.pow(c(2), x)), "2^{x}");
  EXPECT_EQ(tex(ctx.pow(ctx.call(Builtin::Sin, {x}), c(2))), "\\sin(x)^{2}");
}

TEST_F(LatexPrinterTest, FunctionsUseTheirLatexNames) {
  EXPECT_EQ(tex(ctx.call(Builtin::Sin, {ctx.time()})), "\\sin(t)");
  EXPECT_EQ(tex(ctx.call(Builtin::Cos, {ctx.mul(c(2), x)})), "\\cos(2 x)");
  EXPECT_EQ(tex(ctx.call(Builtin::Log, {x})), "\\ln(x)");
  EXPECT_EQ(tex(ctx.call(Builtin::Log10, {x})), "\\log_{10}(x)");
  EXPECT_EQ(tex(ctx.call(Builtin::Atan, {x})), "\\arctan(x)");
  EXPECT_EQ(tex(ctx.call(Builtin::Sqrt, {ctx.add(x, y)})), "\\sqrt{x + y}");
  EXPECT_EQ(tex(ctx.call(Builtin::Abs, {x})), "\\left|x\\right|");
  EXPECT_EQ(tex(ctx.call(Builtin::Atan2, {y, x})), "\\operatorname{atan2}(y, x)");
  EXPECT_EQ(tex(ctx.call(Builtin::Max, {x, y})), "\\max(x, y)");
  EXPECT_EQ(tex(ctx.call(Builtin::Exp, {ctx.div(x, y)})), "\\exp\\left(\\frac{x}{y}\\right)");
}

TEST_F(LatexPrinterTest, ProductsJuxtaposeAndUseCdotBeforeDigits) {
  EXPECT_EQ(tex(ctx.mul(c(2), x)), "2 x");
  EXPECT_EQ(tex(ctx.mul({c(2), x, dx})), "2 x \\dot{x}");
  EXPECT_EQ(tex(ctx.mul(x, lambda)), "x \\lambda");
  EXPECT_EQ(tex(ctx.mul(c(3), ctx.pow(c(2), x))), "3 \\cdot 2^{x}");
  EXPECT_EQ(tex(ctx.mul(x, ctx.add(y, c(1)))), "x (y + 1)");
  EXPECT_EQ(tex(ctx.mul(c(2), ctx.call(Builtin::Sin, {ctx.time()}))), "2 \\sin(t)");
}

TEST_F(LatexPrinterTest, SumsPrintSignsAndTheConstantLast) {
  EXPECT_EQ(tex(ctx.sub(x, y)), "x - y");
  EXPECT_EQ(tex(ctx.add(c(1), x)), "x + 1");
  EXPECT_EQ(tex(ctx.sub(ctx.call(Builtin::Cos, {ctx.time()}), x)), "\\cos(t) - x") << "terms in canonical order";
  EXPECT_EQ(tex(ctx.neg(x)), "-x");
  EXPECT_EQ(tex(ctx.sub(x, ctx.mul(c(2), y))), "x - 2 y");
  // The pendulum's constraint and its second derivative.
  const Expr *constraint = ctx.add({ctx.pow(x, c(2)), ctx.pow(y, c(2)), ctx.neg(ctx.pow(lambda, c(2)))});
  EXPECT_EQ(tex(constraint), "x^{2} + y^{2} - \\lambda^{2}");
  EXPECT_EQ(tex(ctx.add(ctx.mul({c(2), ctx.pow(dx, c(2))}), ctx.mul({c(2), x, ddx}))), "2 x \\ddot{x} + 2 \\dot{x}^{2}");
}

TEST_F(LatexPrinterTest, RelationsLogicAndIf) {
  EXPECT_EQ(tex(ctx.lt(x, y)), "x < y");
  EXPECT_EQ(tex(ctx.le(x, y)), "x \\le y");
  EXPECT_EQ(tex(ctx.ne(x, y)), "x \\ne y");
  EXPECT_EQ(tex(ctx.logicalAnd(ctx.lt(x, y), ctx.lt(y, lambda))), "x < y \\land y < \\lambda");
  EXPECT_EQ(tex(ctx.logicalNot(ctx.lt(x, y))), "\\lnot x < y");
  EXPECT_EQ(tex(ctx.ifThenElse(ctx.lt(x, c(0)), ctx.neg(x), x)),
            "\\begin{cases} -x & \\text{if } x < 0 \\\\ x & \\text{otherwise} \\end{cases}");
  EXPECT_EQ(tex(ctx.add(ctx.ifThenElse(ctx.lt(x, c(0)), y, x), c(1))),
            "\\left(\\begin{cases} y & \\text{if } x < 0 \\\\ x & \\text{otherwise} \\end{cases}\\right) + 1");
}

// ---- well-formedness on generated expressions ----

/// True when braces balance and no group carries two superscripts (`a^{b}^{c}`, a TeX error).
bool wellFormed(const std::string &s) {
  int depth = 0;
  std::vector<int> superscripts{0};
  for (size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if (ch == '\\' && i + 1 < s.size() && (s[i + 1] == '{' || s[i + 1] == '}' || s[i + 1] == '\\')) {
      ++i;
      continue;
    }
    if (ch == '{') {
      ++depth;
      superscripts.push_back(0);
    } else if (ch == '}') {
      if (--depth < 0)
        return false;
      superscripts.pop_back();
    } else if (ch == '^') {
      // A superscript directly after a closing brace of a superscript group is a double superscript.
      size_t j = i;
      while (j > 0 && s[j - 1] == ' ')
        --j;
      if (j > 0 && s[j - 1] == '}') {
        int d = 0;
        size_t k = j - 1;
        for (;; --k) {
          if (s[k] == '}')
            ++d;
          else if (s[k] == '{' && --d == 0)
            break;
          if (k == 0)
            return false;
        }
        if (k > 0 && s[k - 1] == '^')
          return false;
      }
    }
  }
  return depth == 0;
}

TEST_F(LatexPrinterTest, GeneratedExpressionsAreWellFormed) {
  std::mt19937 rng(7);
  const Expr *leaves[] = {x, y, lambda, vx, dx, ddx, dddx, xDot, x1, dxDot, ctx.time(), c(2), c(0.5), c(-3)};
  std::function<const Expr *(int)> gen = [&](int depth) -> const Expr * {
    if (depth == 0)
      return leaves[rng() % (sizeof leaves / sizeof leaves[0])];
    switch (rng() % 7) {
    case 0:
      return ctx.add(gen(depth - 1), gen(depth - 1));
    case 1:
      return ctx.mul(gen(depth - 1), gen(depth - 1));
    case 2:
      return ctx.div(gen(depth - 1), gen(depth - 1));
    case 3:
      return ctx.pow(gen(depth - 1), rng() % 2 ? c(2) : gen(depth - 1));
    case 4:
      return ctx.call(Builtin::Sin, {gen(depth - 1)});
    case 5:
      return ctx.neg(gen(depth - 1));
    default:
      return ctx.sub(gen(depth - 1), gen(depth - 1));
    }
  };
  for (int i = 0; i < 500; ++i) {
    const Expr *e = gen(1 + i % 4);
    std::string s = tex(e);
    EXPECT_TRUE(wellFormed(s)) << s << "\n  from " << toString(e, [](int v) { return "v" + std::to_string(v); });
    EXPECT_EQ(s.find("()"), std::string::npos) << s;
  }
  EXPECT_FALSE(wellFormed("x^{2}^{3}")) << "the checker itself finds double superscripts";
  EXPECT_FALSE(wellFormed("{x"));
}

} // namespace
} // namespace eqc

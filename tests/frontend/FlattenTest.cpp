// Tests of flattening: each check's message and location, and the lowering of declarations,
// constants, parameters, attributes and annotations to the flat system. Also checks that the
// printer's output parses back to the same value.
#include "frontend/Flatten.h"
#include "frontend/Parser.h"
#include "middle/ExprOps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace eqc {
namespace {

class FlattenTest : public ::testing::Test {
protected:
  /// Parses and flattens `text`; a syntax error fails the test.
  std::optional<FlatSystem> flatten(const std::string &text, const std::string &model = "") {
    buffer = sources.addBuffer("test.eq", text);
    std::optional<ast::File> file = parseBuffer(sources, buffer, diags);
    if (!file) {
      ADD_FAILURE() << "syntax error:\n" << rendered();
      return std::nullopt;
    }
    return flattenModel(*file, model, diags);
  }

  /// Every diagnostic as "line:col: severity: message" ("-" for no location).
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    for (const Diagnostic &d : diags.all()) {
      std::string where =
          d.range.valid() ? std::to_string(d.range.line) + ":" + std::to_string(d.range.column) : "-";
      const char *sev = d.severity == Severity::Error     ? "error"
                        : d.severity == Severity::Warning ? "warning"
                                                          : "note";
      out.push_back(where + ": " + sev + ": " + d.message);
    }
    return out;
  }
  std::string rendered() const {
    std::string s;
    for (const Diagnostic &d : diags.all())
      s += diags.render(d);
    return s;
  }
  /// Index of the variable called `name`, or -1.
  static int varIndex(const FlatSystem &flat, const std::string &name) {
    for (size_t i = 0; i < flat.vars.size(); ++i)
      if (flat.vars[i].name == name)
        return static_cast<int>(i);
    return -1;
  }
  static std::string str(const FlatSystem &flat, const Expr *e) {
    return toString(e, [&flat](int v) { return flat.varName(v); });
  }

  SourceManager sources;
  Diagnostics diags{sources};
  uint32_t buffer = 0;
};

using Messages = std::vector<std::string>;

// ---- name resolution ----

TEST_F(FlattenTest, UndefinedNameSuggestsTheClosestDeclaredName) {
  EXPECT_FALSE(flatten("model M\n"
                       "  parameter Real gain = 2;\n"
                       "  Real x(start = 1);\n"
                       "equation\n"
                       "  der(x) = -gian*x + offset;\n"
                       "end M;\n"));
  EXPECT_EQ(messages(), (Messages{"5:13: error: undefined name 'gian'; did you mean 'gain'?",
                                  "5:22: error: undefined name 'offset'"}));
}

TEST_F(FlattenTest, DiagnosticsRenderWithTheSourceLineAndACaret) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  x = 2*speed;\nend M;\n"));
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.render(diags.all()[0]), "test.eq:4:9: error: undefined name 'speed'\n"
                                          "    x = 2*speed;\n"
                                          "          ^~~~~\n");
}

TEST_F(FlattenTest, DuplicateDeclarationPointsAtBoth) {
  EXPECT_FALSE(flatten("model M\n"
                       "  Real x;\n"
                       "  Real y, x;\n"
                       "equation\n"
                       "  x = 1;\n"
                       "  y = 2;\n"
                       "end M;\n"));
  EXPECT_EQ(messages(), (Messages{"3:11: error: duplicate declaration of 'x'",
                                  "2:8: note: previous declaration of 'x' is here"}));
}

TEST_F(FlattenTest, TimeIsReserved) {
  EXPECT_FALSE(flatten("model M\n  Real time;\nequation\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"2:8: error: 'time' is a reserved name and cannot be declared"}));
}

TEST_F(FlattenTest, UnknownTypeAndTimeVaryingInteger) {
  EXPECT_FALSE(flatten("model M\n  Foo a;\n  Reel r;\n  Real x;\nequation\n  x = 1;\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"2:3: error: unknown type 'Foo'", "3:3: error: unknown type 'Reel'; did you mean 'Real'?"}));
}

TEST_F(FlattenTest, TimeVaryingIntegerIsDiscrete) {
  // A time-varying Integer is discrete: it needs an equation of its own.
  EXPECT_FALSE(flatten("model M\n  Integer n;\n  Real x;\nequation\n  x = 1;\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"2:11: error: discrete variable 'n' has no equation: assign it in a when-equation or "
                                  "give it an equation"}));
}

// ---- calls ----

TEST_F(FlattenTest, BuiltinArityIsChecked) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  x = sin(1, 2) + atan2(x) + der(x, x);\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"4:7: error: function 'sin' takes 1 argument but 2 were given",
                                  "4:19: error: function 'atan2' takes 2 arguments but 1 was given",
                                  "4:30: error: function 'der' takes 1 argument but 2 were given"}));
}

TEST_F(FlattenTest, UnknownFunction) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  x = 1 + foo(2);\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"4:11: error: unknown function 'foo'"}));
}

TEST_F(FlattenTest, BuiltinsLowerToCalls) {
  std::optional<FlatSystem> flat =
      flatten("model M\n  Real x;\nequation\n  x = atan2(sin(time), 2) + abs(-3);\nend M;\n");
  ASSERT_TRUE(flat) << rendered();
  EXPECT_EQ(str(*flat, flat->equations[0].rhs), "atan2(sin(time), 2) + 3");
}

// ---- equations ----

TEST_F(FlattenTest, AssigningToAParameterIsAnError) {
  EXPECT_FALSE(flatten("model M\n"
                       "  parameter Real p = 1;\n"
                       "  Real x;\n"
                       "equation\n"
                       "  p = 2;\n"
                       "  x = p;\n"
                       "end M;\n"));
  EXPECT_EQ(messages(),
            (Messages{"5:3: error: cannot assign to parameter 'p' in an equation section; give it "
                      "its value in the declaration",
                      "2:18: note: parameter 'p' is declared here"}));
}

TEST_F(FlattenTest, AssigningToAConstantIsAnError) {
  // (`c = x` would be an equation of x, MLS 3.5, 8.3.1: the error is for one that reads no unknown.)
  EXPECT_FALSE(flatten("model M\n  constant Real c = 1;\n  Real x;\nequation\n  c = 2;\n  x = 1;\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"5:3: error: cannot assign to constant 'c' in an equation section; give it "
                                  "its value in the declaration",
                                  "2:17: note: constant 'c' is declared here"}));
}

TEST_F(FlattenTest, EquationWithoutUnknownsIsAnError) {
  EXPECT_FALSE(flatten(
      "model M\n  parameter Real p = 1;\n  Real x;\nequation\n  x = 1;\n  2*p = sin(time);\nend M;\n"));
  EXPECT_EQ(
      messages(),
      (Messages{"6:3: error: equation does not involve any unknown (only parameters, constants and time)"}));
}

TEST_F(FlattenTest, TooFewEquations) {
  EXPECT_FALSE(flatten("model M\n  Real x;\n  Real y;\nequation\n  x = 1;\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"1:7: error: model 'M' has 1 equation but 2 unknowns (too few equations)",
                                  "-: note: the unknowns are: x, y"}));
}

TEST_F(FlattenTest, TooManyEquations) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  x = 1;\n  x = 2;\n  2*x = 2;\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"1:7: error: model 'M' has 3 equations but 1 unknown (too many equations)",
                                  "-: note: the unknowns are: x"}));
}

TEST_F(FlattenTest, DerivativesAreNotUnknownsOfTheBalance) {
  std::optional<FlatSystem> flat =
      flatten("model M\n  Real x;\n  Real v;\nequation\n  der(x) = v;\n  der(v) = -x;\nend M;\n");
  ASSERT_TRUE(flat) << rendered();
  ASSERT_EQ(flat->vars.size(), 4u);
  int x = varIndex(*flat, "x"), dx = varIndex(*flat, "der(x)");
  ASSERT_GE(dx, 0);
  EXPECT_EQ(flat->vars[dx].role, VarRole::Derivative);
  EXPECT_EQ(flat->vars[dx].derivativeOf, x);
  EXPECT_EQ(flat->vars[x].derivative, dx);
  EXPECT_TRUE(flat->isState(x));
  EXPECT_EQ(flat->equations[0].lhs, flat->ctx->var(dx));
}

TEST_F(FlattenTest, EndNameMustMatch) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  x = 1;\nend N;\n"));
  EXPECT_EQ(messages(), (Messages{"5:5: error: 'end N' does not match model name 'M'",
                                  "1:7: note: model 'M' starts here"}));
}

TEST_F(FlattenTest, EndNameIsRequired) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  x = 1;\nend;\n"));
  EXPECT_EQ(messages(), (Messages{"1:7: error: model 'M' must end with 'end M;'"}));
}

TEST_F(FlattenTest, DeclarationEquationBecomesAnEquation) {
  std::optional<FlatSystem> flat = flatten("model M\n"
                                           "  Real x;\n"
                                           "  Real y = 2*x;\n"
                                           "equation\n"
                                           "  x = sin(time);\n"
                                           "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  ASSERT_EQ(flat->equations.size(), 2u);
  const Equation &eq = flat->equations[1];
  ExprContext &ctx = *flat->ctx;
  int x = varIndex(*flat, "x"), y = varIndex(*flat, "y");
  EXPECT_EQ(eq.lhs, ctx.var(y));
  EXPECT_EQ(eq.rhs, ctx.mul(ctx.constant(2), ctx.var(x)));
  EXPECT_EQ(eq.number, 2);
  EXPECT_EQ(eq.loc.line, 3u);
  EXPECT_EQ(eq.loc.column, 8u);
  EXPECT_FALSE(flat->vars[y].hasStart) << "a declaration equation is not a start value";
}

// ---- derivatives ----

TEST_F(FlattenTest, DerOfAnExpressionIsExpandedByTheChainRule) {
  std::optional<FlatSystem> flat = flatten("model M\n"
                                           "  parameter Real k = 3;\n"
                                           "  Real x;\n"
                                           "  Real y;\n"
                                           "equation\n"
                                           "  der(x*y) = 1;\n"
                                           "  der(k*x + time) = y;\n"
                                           "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  ExprContext &ctx = *flat->ctx;
  const Expr *x = ctx.var(varIndex(*flat, "x")), *y = ctx.var(varIndex(*flat, "y"));
  const Expr *dx = ctx.var(varIndex(*flat, "der(x)")), *dy = ctx.var(varIndex(*flat, "der(y)"));
  EXPECT_EQ(flat->equations[0].lhs, ctx.add(ctx.mul(x, dy), ctx.mul(y, dx)));
  const Expr *k = ctx.var(varIndex(*flat, "k"));
  EXPECT_EQ(flat->equations[1].lhs, ctx.add(ctx.mul(k, dx), ctx.one()))
      << "parameters are constant, time' = 1";
}

TEST_F(FlattenTest, DerOfAParameterOrConstantIsZero) {
  std::optional<FlatSystem> flat = flatten("model M\n"
                                           "  parameter Real p = 2;\n"
                                           "  constant Real c = 3;\n"
                                           "  Real x;\n"
                                           "equation\n"
                                           "  x = der(p) + der(c) + der(time);\n"
                                           "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  EXPECT_EQ(flat->equations[0].rhs, flat->ctx->one());
  EXPECT_EQ(flat->vars.size(), 2u) << "no der(p) variable";
}

TEST_F(FlattenTest, DerOfADiscontinuousExpressionIsAnError) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  der(floor(x) + x) = 1;\nend M;\n"));
  EXPECT_EQ(messages(),
            (Messages{"4:7: error: der() of an expression containing 'floor(...)' is not supported: "
                      "it is not differentiable where it jumps"}));
}

TEST_F(FlattenTest, DerOutsideEquationsIsAnError) {
  EXPECT_FALSE(flatten("model M\n  parameter Real p = der(1);\n  Real x;\nequation\n  x = 1;\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"2:22: error: der() can only be used in equations"}));
}

// ---- types ----

TEST_F(FlattenTest, BooleanAndRealTypeErrors) {
  EXPECT_FALSE(flatten("model M\n"
                       "  parameter Boolean on = true;\n"
                       "  Real x(start = 1);\n"
                       "  Real y;\n"
                       "equation\n"
                       "  der(x) = if x then 1 else 0;\n"
                       "  y = (x > 1) + 2;\n"
                       "end M;\n"));
  EXPECT_EQ(messages(),
            (Messages{"6:15: error: expected a Boolean expression (a condition), found a Real one",
                      "7:8: error: expected a Real expression, found a Boolean one"}));
}

TEST_F(FlattenTest, BooleanEquationsAndMixedIfBranches) {
  EXPECT_FALSE(flatten("model M\n"
                       "  parameter Boolean on = true;\n"
                       "  Real x;\n"
                       "equation\n"
                       "  x = if on then true else 1;\n"
                       "  on = x > 0;\n"
                       "end M;\n"));
  EXPECT_EQ(messages(),
            (Messages{"5:18: error: the branches of an if-expression must have the same type and shape (Boolean scalar and "
                                  "Integer scalar)",
                      "6:3: error: cannot assign to parameter 'on' in an equation section; give it "
                      "its value in the declaration",
                      "2:21: note: parameter 'on' is declared here"}));
}

TEST_F(FlattenTest, EquationBetweenBooleansIsAnError) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  x > 0 = true;\nend M;\n"));
  EXPECT_EQ(messages(),
            (Messages{"4:3: error: a Boolean equation must have a Boolean variable alone on one side, e.g. 'open = "
                      "v < 0'"}));
}

TEST_F(FlattenTest, ParameterValueTypesAreChecked) {
  EXPECT_FALSE(flatten("model M\n"
                       "  parameter Boolean b = 1;\n"
                       "  parameter Real r = true;\n"
                       "  parameter Integer n = 2.5;\n"
                       "  Real x;\n"
                       "equation\n"
                       "  x = r;\n"
                       "end M;\n"));
  EXPECT_EQ(messages(), (Messages{"2:25: error: parameter 'b' is Boolean but its value is Integer",
                                  "3:22: error: parameter 'r' is Real but its value is Boolean",
                                  "4:25: error: Integer parameter 'n' has a non-integer value"}));
}

TEST_F(FlattenTest, ParameterWithoutAValueIsAnError) {
  const std::string text = "model M\n  parameter Real q;\n  Real x;\nequation\n  x = q;\nend M;\n";
  // In a child process first, so that a crash fails this test instead of ending the run.
  ASSERT_EXIT(
      {
        flatten(text);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "")
      << "flattening a parameter without a value must not crash";
  EXPECT_FALSE(flatten(text));
  EXPECT_EQ(messages(),
            (Messages{"2:18: error: parameter 'q' has no value; write 'parameter Real q = ...;'"}));
}

TEST_F(FlattenTest, StringsAreNotExpressions) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  x = \"one\";\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"4:7: error: a string is not allowed here"}));
}

TEST_F(FlattenTest, DivisionByALiteralZeroIsAnError) {
  EXPECT_FALSE(flatten("model M\n  Real x;\nequation\n  x = 1/(2 - 2);\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"4:10: error: division by zero"}));
}

// ---- attributes ----

TEST_F(FlattenTest, UnknownAttribute) {
  EXPECT_FALSE(flatten("model M\n  Real x(strat = 1);\nequation\n  x = 1;\nend M;\n"));
  EXPECT_EQ(messages(),
            (Messages{"2:10: error: unknown attribute 'strat' (known: start, fixed, nominal, min, max, "
                      "unit, displayUnit, quantity, stateSelect)"}));
}

TEST_F(FlattenTest, AttributeValuesAreChecked) {
  EXPECT_FALSE(flatten("model M\n"
                       "  Real x(fixed = 2, unit = 3, min = true, stateSelect = StateSelect.sometimes);\n"
                       "  Real y(start = y);\n"
                       "equation\n"
                       "  x = 1;\n"
                       "  y = 1;\n"
                       "end M;\n"));
  EXPECT_EQ(messages(),
            (Messages{"2:18: error: attribute 'fixed' must be true or false",
                      "2:21: error: attribute 'unit' must be a String known when the model is compiled",
                      "2:37: error: attribute 'min' must be a Real expression",
                      "2:69: error: enumeration 'StateSelect' has no literal 'sometimes'",
                      "3:18: error: 'y' is a time-varying variable and cannot be used in an attribute"}));
}

TEST_F(FlattenTest, AttributesAreRead) {
  std::optional<FlatSystem> flat =
      flatten("model M\n"
              "  parameter Real p = 2;\n"
              "  Real x(start = 2*p, fixed = true, nominal = 10, min = -1, max = p + 1,\n"
              "         unit = \"m\", stateSelect = StateSelect.prefer) \"position\";\n"
              "equation\n"
              "  der(x) = -x;\n"
              "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  ExprContext &ctx = *flat->ctx;
  const Variable &x = flat->vars[varIndex(*flat, "x")];
  const Expr *p = ctx.var(varIndex(*flat, "p"));
  EXPECT_TRUE(x.hasStart);
  EXPECT_EQ(x.binding, ctx.mul(ctx.constant(2), p));
  EXPECT_TRUE(x.fixed);
  EXPECT_EQ(x.nominal, ctx.constant(10));
  EXPECT_EQ(x.min, ctx.constant(-1));
  EXPECT_EQ(x.max, ctx.add(p, ctx.one()));
  EXPECT_EQ(x.unit, "m");
  EXPECT_EQ(x.stateSelect, StateSelect::Prefer);
  EXPECT_EQ(x.description, "position");
  EXPECT_EQ(x.loc.line, 3u);
  EXPECT_EQ(x.loc.column, 8u);
}

// ---- parameters and constants ----

TEST_F(FlattenTest, ParametersMayDependOnParameters) {
  std::optional<FlatSystem> flat = flatten("model M\n"
                                           "  parameter Real a = 2;\n"
                                           "  parameter Real b = 3*a + 1;\n"
                                           "  parameter Real c(start = 4);\n"
                                           "  Real x;\n"
                                           "equation\n"
                                           "  x = b*c;\n"
                                           "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  ExprContext &ctx = *flat->ctx;
  int a = varIndex(*flat, "a"), b = varIndex(*flat, "b"), c = varIndex(*flat, "c");
  EXPECT_EQ(flat->vars[a].role, VarRole::Parameter);
  EXPECT_EQ(flat->vars[a].binding, ctx.constant(2));
  EXPECT_EQ(flat->vars[b].binding, ctx.add(ctx.mul(ctx.constant(3), ctx.var(a)), ctx.one()))
      << "the binding references the other parameter, to be evaluated at run time";
  EXPECT_TRUE(dependsOn(flat->vars[b].binding, a));
  EXPECT_EQ(flat->vars[c].binding, ctx.constant(4)) << "a parameter's start value is its value";
}

TEST_F(FlattenTest, ParameterCycleIsAnError) {
  EXPECT_FALSE(flatten("model M\n"
                       "  parameter Real a = b + 1;\n"
                       "  parameter Real b = 2*a;\n"
                       "  Real x;\n"
                       "equation\n"
                       "  x = a;\n"
                       "end M;\n"));
  EXPECT_EQ(messages(), (Messages{"3:18: error: parameter 'b' depends on itself through 'a'"}));
}

TEST_F(FlattenTest, ParameterDependingOnItselfIsAnError) {
  EXPECT_FALSE(flatten("model M\n  parameter Real a = a/2;\n  Real x;\nequation\n  x = a;\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"2:18: error: parameter 'a' depends on itself through 'a'"}));
}

TEST_F(FlattenTest, ParameterValueCannotUseTimeOrUnknowns) {
  EXPECT_FALSE(flatten("model M\n  parameter Real a = time;\n  parameter Real b = x;\n  Real x;\nequation\n  "
                       "x = a + b;\nend M;\n"));
  EXPECT_EQ(
      messages(),
      (Messages{"2:22: error: 'time' cannot be used in a parameter value or attribute",
                "3:22: error: 'x' is a time-varying variable and cannot be used in a parameter value"}));
}

TEST_F(FlattenTest, ConstantsAreFolded) {
  std::optional<FlatSystem> flat = flatten("model M\n"
                                           "  constant Real c = 2;\n"
                                           "  constant Real d = c*3 + 0.5;\n"
                                           "  constant Boolean on = not false;\n"
                                           "  Real x;\n"
                                           "equation\n"
                                           "  x = if on then d + 1 else time;\n"
                                           "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  EXPECT_EQ(flat->vars.size(), 1u) << "constants are not variables";
  EXPECT_TRUE(flat->equations[0].rhs->isConst(7.5));
}

// Functions of constants are evaluated (Modelica.Constants.pi = 2*Modelica.Math.asin(1.0)).
TEST_F(FlattenTest, ConstantsAreFunctionsOfConstants) {
  std::optional<FlatSystem> flat =
      flatten("model M\n"
              "  function twice input Real u; output Real y; algorithm y := 2*u; end twice;\n"
              "  function asin_ input Real u; output Real y; external \"builtin\" y = asin(u); end asin_;\n"
              "  constant Real pi = twice(asin_(1.0));\n"
              "  Real x = pi * time;\n"
              "end M;\n");
  ASSERT_TRUE(flat) << messages().size();
  bool found = false;
  for (const Equation &eq : flat->equations)
    for (const Expr *side : {eq.lhs, eq.rhs})
      for (const Expr *e : side->ops())
        found = found || (e->isConst() && e->value() == 2 * std::asin(1.0));
  EXPECT_TRUE(found);
}

TEST_F(FlattenTest, ConstantsMustBeComputableAtCompileTime) {
  EXPECT_FALSE(flatten("model M\n"
                       "  parameter Real p = 1;\n"
                       "  constant Real c = 2*p;\n"
                       "  constant Real e;\n"
                       "  Real x;\n"
                       "equation\n"
                       "  x = c + e;\n"
                       "end M;\n"));
  EXPECT_EQ(messages(),
            (Messages{"3:21: error: the value of constant 'c' must be computable at compile time (literals, "
                      "constants and functions of them)",
                      "4:17: error: constant 'e' has no value"}));
}

TEST_F(FlattenTest, ConstantCycleIsAnError) {
  EXPECT_FALSE(flatten("model M\n  constant Real c = d;\n  constant Real d = c + 1;\n  Real x;\nequation\n  "
                       "x = c;\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"3:21: error: constant 'c' is defined in terms of itself"}));
}

// ---- annotations and model selection ----

TEST_F(FlattenTest, ExperimentAnnotationIsRead) {
  std::optional<FlatSystem> flat =
      flatten("model M\n"
              "  Real x;\n"
              "equation\n"
              "  der(x) = 1;\n"
              "  annotation(experiment(StartTime = 1, StopTime = 10, Tolerance = 1e-8, "
              "Interval = 0.01), Documentation(info = \"ignored\"));\n"
              "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  EXPECT_TRUE(diags.all().empty()) << rendered();
  EXPECT_DOUBLE_EQ(flat->experiment.startTime, 1);
  EXPECT_TRUE(flat->experiment.hasStartTime);
  EXPECT_DOUBLE_EQ(flat->experiment.stopTime, 10);
  EXPECT_DOUBLE_EQ(flat->experiment.tolerance, 1e-8);
  EXPECT_DOUBLE_EQ(flat->experiment.interval, 0.01);
}

TEST_F(FlattenTest, ExperimentDefaultsWhenAbsent) {
  std::optional<FlatSystem> flat = flatten("model M\n  Real x;\nequation\n  der(x) = 1;\nend M;\n");
  ASSERT_TRUE(flat) << rendered();
  EXPECT_LT(flat->experiment.stopTime, 0);
  EXPECT_FALSE(flat->experiment.hasStartTime);
}

TEST_F(FlattenTest, ExperimentSettingsAreChecked) {
  EXPECT_FALSE(flatten("model M\n"
                       "  Real x;\n"
                       "equation\n"
                       "  der(x) = 1;\n"
                       "  annotation(experiment(StopTime = -1, Tolerence = 1e-6, Interval = x));\n"
                       "end M;\n"));
  EXPECT_EQ(messages(),
            (Messages{"5:40: warning: unknown experiment setting 'Tolerence' ignored (known: StartTime, "
                      "StopTime, Tolerance, Interval)",
                      "5:69: error: 'x' is a time-varying variable and cannot be used in an attribute",
                      "5:69: error: experiment setting 'Interval' must be a number",
                      "5:36: error: experiment setting 'StopTime' (-1) is before the start time (0)"}));
}

TEST_F(FlattenTest, ModelIsSelectedByName) {
  const std::string text = "model A\n  Real x;\nequation\n  x = 1;\nend A;\n"
                           "model B\n  Real y;\nequation\n  y = 2;\nend B;\n";
  std::optional<FlatSystem> a = flatten(text, "A");
  ASSERT_TRUE(a) << rendered();
  EXPECT_EQ(a->modelName, "A");
  std::optional<FlatSystem> last = flatten(text);
  ASSERT_TRUE(last) << rendered();
  EXPECT_EQ(last->modelName, "B") << "the last model by default";
  EXPECT_FALSE(flatten(text, "C"));
  EXPECT_EQ(messages(), (Messages{"-: error: no model named 'C' in the file"}));
}

TEST_F(FlattenTest, ErrorsDoNotStopTheChecks) {
  EXPECT_FALSE(flatten("model M\n"
                       "  Real x;\n"
                       "  Real x;\n"
                       "equation\n"
                       "  x = undefined1;\n"
                       "  x = sin(1, 2);\n"
                       "  x = undefined2;\n"
                       "end N;\n"));
  EXPECT_EQ(diags.errorCount(), 5u) << rendered();
}

// ---- the printer round trip ----

/// Random expressions that exercise every precedence level of the printer.
class PrintableExprGenerator {
public:
  PrintableExprGenerator(ExprContext &ctx, uint32_t seed) : ctx_(ctx), rng_(seed) {}

  const Expr *real(int depth) {
    if (depth == 0 || pick(6) == 0)
      return leaf();
    auto sub = [&] { return real(depth - 1); };
    const Expr *a = sub();
    switch (pick(16)) {
    case 0:
      return ctx_.add(a, sub());
    case 1:
      return ctx_.sub(a, sub());
    case 2:
      return ctx_.mul(a, sub());
    case 3:
      return ctx_.div(a, sub());
    case 4:
      return ctx_.div(a, ctx_.mul(ctx_.constant(-2), sub())); // y/(-2*x)
    case 5:
      return ctx_.neg(a);
    case 6:
      return ctx_.pow(a, ctx_.constant(pickOf({2, 3, -1, -2, 0.5})));
    case 7:
      return ctx_.pow(a, sub());
    case 8:
      return ctx_.mul({ctx_.constant(pickOf({-3, 0.25, 1e-7})), a, sub()});
    case 9:
      return ctx_.call(Builtin::Sin, {a});
    case 10:
      return ctx_.call(Builtin::Atan2, {a, sub()});
    case 11:
      return ctx_.call(Builtin::Max, {a, sub()});
    case 12:
    case 13: {
      const Expr *cond = boolean(depth - 1);
      const Expr *then = sub();
      return ctx_.ifThenElse(cond, a, then);
    }
    default:
      return ctx_.add({a, sub(), ctx_.constant(pickOf({-1, 2.5}))});
    }
  }

  double uniform() { return std::uniform_real_distribution<double>(0.2, 2)(rng_); }

private:
  const Expr *boolean(int depth) {
    if (depth <= 0 || pick(3) == 0) {
      const Expr *a = real(depth - 1 < 0 ? 0 : depth - 1), *b = real(depth - 1 < 0 ? 0 : depth - 1);
      switch (pick(6)) {
      case 0:
        return ctx_.lt(a, b);
      case 1:
        return ctx_.le(a, b);
      case 2:
        return ctx_.gt(a, b);
      case 3:
        return ctx_.eq(a, b);
      case 4:
        return ctx_.ne(a, b);
      default:
        return ctx_.ge(a, b);
      }
    }
    const Expr *p = boolean(depth - 1);
    switch (pick(3)) {
    case 0:
      return ctx_.logicalAnd(p, boolean(depth - 1));
    case 1:
      return ctx_.logicalOr(p, boolean(depth - 1));
    default:
      return ctx_.logicalNot(p);
    }
  }
  const Expr *leaf() {
    if (pick(3))
      return ctx_.var(pick(3));
    return ctx_.constant(pickOf({-2, 0.5, 3, 1.25, -0.1}));
  }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  double pickOf(std::initializer_list<double> values) {
    return values.begin()[pick(static_cast<int>(values.size()))];
  }

  ExprContext &ctx_;
  std::mt19937 rng_;
};

/// 0^-k prints as `/0^k`, which the flattener rejects as a division by zero.
bool containsPowerOfZero(const Expr *e) {
  if (e->kind() == ExprKind::Pow && e->op(0)->isConst(0))
    return true;
  for (const Expr *op : e->ops())
    if (containsPowerOfZero(op))
      return true;
  return false;
}

/// The largest magnitude of any subexpression at `at` (sin(1e14) says little about parentheses).
double largestIntermediate(const Expr *e, const std::vector<double> &at) {
  double largest = std::fabs(evaluate(e, at));
  for (const Expr *op : e->ops())
    if (!op->isBool())
      largest = std::max(largest, largestIntermediate(op, at));
  return largest;
}

TEST_F(FlattenTest, PrintedExpressionsParseBackToTheSameValue) {
  ExprContext ctx;
  PrintableExprGenerator gen(ctx, 31337);
  auto namer = [](int v) { return std::string(1, "xyz"[v]); };
  int compared = 0;
  for (int i = 0; i < 300; ++i) {
    const Expr *e = gen.real(4);
    std::string text = toString(e, namer);
    if (containsPowerOfZero(e))
      continue;
    double x = gen.uniform(), y = gen.uniform(), z = gen.uniform();
    double expected = evaluate(e, {x, y, z});
    if (!std::isfinite(expected) || !(largestIntermediate(e, {x, y, z}) < 1e6))
      continue;
    std::string model = "model M\n  parameter Real x = " + formatNumber(x) + ", y = " + formatNumber(y) +
                        ", z = " + formatNumber(z) + ";\n  Real r;\nequation\n  r = " + text + ";\nend M;\n";
    std::optional<FlatSystem> flat = flatten(model);
    ASSERT_TRUE(flat) << text << "\n" << rendered();
    double actual = evaluate(flat->equations[0].rhs, {x, y, z, 0});
    ++compared;
    ASSERT_NEAR(actual, expected, 1e-9 * (1 + std::fabs(expected)))
        << "printed: " << text << "\nreparsed: " << str(*flat, flat->equations[0].rhs);
  }
  EXPECT_GT(compared, 150);
}

TEST_F(FlattenTest, RepresentativePrintedFormsAreFixedPoints) {
  // Parsing the printer's output and printing again gives the same text.
  const char *const forms[] = {"x - 1",
                               "-x*y",
                               "x/(y*z)",
                               "x*(y + 1)",
                               "(x + 1)^2",
                               "1/x^2",
                               "(-x)^2",
                               "-x^2",
                               "x^(y^z)",
                               "(x^2)^0.5",
                               "x - y/z",
                               "2*x/(y + 1)^2",
                               "if x < 1 then y else z",
                               "(if x < 1 then y else z) + 1",
                               "if x < 1 and y < 2 or not z < 3 then 1 else 2",
                               "if (x < 1 or y < 2) and z < 3 then 1 else 2",
                               "atan2(sin(x), y - 0.5)",
                               "2.5e-08*x"};
  for (const char *form : forms) {
    std::optional<FlatSystem> flat =
        flatten(std::string("model M\n  parameter Real x = 1, y = 2, z = 3;\n  Real r;\nequation\n  r = ") +
                form + ";\nend M;\n");
    ASSERT_TRUE(flat) << form << "\n" << rendered();
    EXPECT_EQ(str(*flat, flat->equations[0].rhs), form);
  }
}

// ---- classes, components, modifications, arrays ----

/// Each variable's name and its binding (parameters) or start value, in order.
std::vector<std::string> describe(const FlatSystem &flat) {
  VarNamer namer = [&flat](int v) { return flat.varName(v); };
  std::vector<std::string> out;
  for (const Variable &v : flat.vars)
    out.push_back(v.name + (v.binding ? " = " + toString(v.binding, namer) : ""));
  return out;
}

TEST_F(FlattenTest, ModificationsApplyOutermostFirst) {
  std::optional<FlatSystem> flat = flatten(
      "model M\n"
      "  model Base\n    parameter Real k = 1, j = 2;\n    Real x(start = 3);\n  equation\n    der(x) = -k*j*x;\n"
      "  end Base;\n"
      "  model Derived\n    extends Base(k = 10, x(start = 30));\n  end Derived;\n"
      "  Derived a, b(k = 100), c(j = 5, x.start = 300);\n"
      "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  EXPECT_EQ(describe(*flat),
            (std::vector<std::string>{"a.k = 10", "a.j = 2", "a.x = 30", "b.k = 100", "b.j = 2", "b.x = 30",
                                      "c.k = 10", "c.j = 5", "c.x = 300", "der(a.x)", "der(b.x)", "der(c.x)"}));
}

TEST_F(FlattenTest, ModifierValuesAreEvaluatedWhereTheyAreWritten) {
  // b's modifier reads the enclosing model's p; the component's own default reads its own q.
  std::optional<FlatSystem> flat = flatten("model M\n"
                                           "  model Part\n    parameter Real q = 2;\n    parameter Real r = 3*q;\n"
                                           "  end Part;\n"
                                           "  parameter Real p = 7;\n"
                                           "  Part a, b(r = p + 1);\n  Real x = a.r + b.r;\n"
                                           "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  EXPECT_EQ(describe(*flat), (std::vector<std::string>{"p = 7", "a.q = 2", "a.r = 3*a.q", "b.q = 2", "b.r = p + 1",
                                                       "x"}));
}

TEST_F(FlattenTest, PackagesConstantsAndImports) {
  std::optional<FlatSystem> flat = flatten("package Lib\n"
                                           "  constant Real g = 9.81;\n"
                                           "  package Inner\n    constant Integer n = 3;\n  end Inner;\n"
                                           "  model Ball\n    Real v[Inner.n](each start = 0);\n  equation\n"
                                           "    der(v) = fill(-g, Inner.n);\n  end Ball;\n"
                                           "end Lib;\n"
                                           "model M\n  import Lib.Ball;\n  import I = Lib.Inner;\n"
                                           "  Ball b;\n  Real w[I.n] = b.v;\nend M;\n");
  ASSERT_TRUE(flat) << rendered();
  size_t states = 0;
  for (size_t v = 0; v < flat->vars.size(); ++v)
    states += flat->isState(static_cast<int>(v));
  EXPECT_EQ(states, 3u);
  EXPECT_EQ(flat->equations.size(), 6u);
  VarNamer namer = [&](int v) { return flat->varName(v); };
  size_t gravity = 0;
  for (const Equation &eq : flat->equations)
    gravity += toString(eq.rhs, namer) == "-9.81";
  EXPECT_EQ(gravity, 3u); // der(b.v[i]) = -g, with the package constant folded
}

TEST_F(FlattenTest, SizesMayUseParametersDeclaredLater) {
  // x's size needs n, whose value needs m: both are instantiated on the way (new variables while
  // a binding is being lowered).
  std::optional<FlatSystem> flat =
      flatten("model M\n  Real x[n];\n  parameter Integer n = m;\n  parameter Integer m = 3;\nequation\n"
              "  x = zeros(n);\nend M;\n");
  ASSERT_TRUE(flat) << rendered();
  EXPECT_EQ(describe(*flat), (std::vector<std::string>{"n = m", "m = 3", "x[1]", "x[2]", "x[3]"}));
  EXPECT_TRUE(flat->vars[0].structural);
  EXPECT_TRUE(flat->vars[1].structural);
}

TEST_F(FlattenTest, ComponentArraysTakeOneElementOfAModificationEach) {
  std::optional<FlatSystem> flat = flatten("model M\n"
                                           "  model P\n    parameter Real m = 1;\n    Real x;\n  equation\n    x = m;\n"
                                           "  end P;\n"
                                           "  P p[3](m = {1, 2, 3}), q[2](each m = 5);\n"
                                           "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  EXPECT_EQ(describe(*flat), (std::vector<std::string>{"p[1].m = 1", "p[1].x", "p[2].m = 2", "p[2].x", "p[3].m = 3",
                                                       "p[3].x", "q[1].m = 5", "q[1].x", "q[2].m = 5", "q[2].x"}));
  EXPECT_FALSE(flatten("model M\n  model P\n    parameter Real m = 1;\n  end P;\n  P p[3](m = {1, 2});\nend M;\n"));
  EXPECT_EQ(messages(), (Messages{"5:10: error: the value is [2] but it modifies an array of components [3]: give one "
                                  "value per component, or write 'each'",
                                  "5:5: note: in component 'p[1]' (a 'M.P'), declared here"}));
}

TEST_F(FlattenTest, ConnectionsGiveEqualPotentialsAndZeroSumFlows) {
  std::optional<FlatSystem> flat = flatten("model M\n"
                                           "  connector C\n    Real e;\n    flow Real f;\n  end C;\n"
                                           "  model Two\n    C a, b;\n  equation\n    a.f + b.f = 0;\n"
                                           "    a.e - b.e = a.f;\n  end Two;\n"
                                           "  model Fix\n    parameter Real e0 = 0;\n    C p;\n  equation\n    p.e = e0;\n"
                                           "  end Fix;\n"
                                           "  Fix s(e0 = 1), g;\n  Two x, y, z;\n  C port;\n"
                                           "equation\n  connect(s.p, x.a);\n  connect(x.b, y.a);\n  connect(y.a, z.a);\n"
                                           "  connect(y.b, g.p);\n  connect(port, g.p);\n"
                                           "end M;\n");
  ASSERT_TRUE(flat) << rendered();
  VarNamer namer = [&](int v) { return flat->varName(v); };
  std::vector<std::string> connections;
  for (const Equation &eq : flat->equations)
    if (eq.origin >= 0 && (flat->origins[eq.origin].find("connection") != std::string::npos ||
                           flat->origins[eq.origin].find("unconnected") != std::string::npos))
      connections.push_back(flat->origins[eq.origin] + ": " + toString(eq.lhs, namer) + " = " + toString(eq.rhs, namer));
  EXPECT_EQ(connections,
            (std::vector<std::string>{
                "connection set {s.p, x.a}: s.p.e = x.a.e", "connection set {s.p, x.a}: x.a.f + s.p.f = 0",
                "connection set {x.b, y.a, z.a}: x.b.e = y.a.e", "connection set {x.b, y.a, z.a}: x.b.e = z.a.e",
                "connection set {x.b, y.a, z.a}: x.b.f + y.a.f + z.a.f = 0",
                "connection set {y.b, g.p, port}: y.b.e = g.p.e", "connection set {y.b, g.p, port}: y.b.e = port.e",
                // a connector of the model itself counts with a minus sign
                "connection set {y.b, g.p, port}: y.b.f + g.p.f - port.f = 0",
                // unconnected connectors (seen from outside their component) have zero flows
                "unconnected connector z.b (flows zero): z.b.f = 0", "unconnected connector port (flows zero): port.f = 0"}))
      << rendered();
}

} // namespace
} // namespace eqc

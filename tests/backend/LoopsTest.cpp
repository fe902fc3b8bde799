// Runs of alike causal steps written as loops (middle/StepRuns.h, backend/Codegen.h): the loop code
// computes bitwise what the straight-line code computes, its size does not grow with the arrays,
// and the runs found are the loops that the source's array equations were.
#include "backend/Codegen.h"
#include "backend/Jit.h"
#include "eqc/eqc_model.h"
#include "frontend/Flatten.h"
#include "frontend/Parser.h"
#include "middle/JacobianPattern.h"
#include "tests/TestModels.h"

#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cmath>
#include <cstring>
#include <random>
#include <regex>
#include <sstream>
#include <tuple>

namespace eqc {
namespace {

/// A model compiled in-process from source text, up to the causalized OdeModel.
struct Causalized {
  SourceManager sources;
  std::ostringstream messages;
  std::unique_ptr<Diagnostics> diags;
  std::optional<FlatSystem> flat;
  std::optional<OdeModel> model;

  explicit Causalized(const std::string &text) {
    diags = std::make_unique<Diagnostics>(sources, &messages);
    uint32_t buf = sources.addBuffer("loops.eq", text);
    auto file = parseBuffer(sources, buf, *diags);
    if (file)
      flat = flattenModel(*file, "", *diags);
    if (flat)
      model = buildOdeModel(*flat, *diags);
    if (model && (diags->hasErrors() || !causalizeOdeModel(*flat, *model, *diags)))
      model.reset();
  }
  bool ok() const { return model.has_value(); }

  std::unique_ptr<JitModel> compile(bool loops, int optLevel) {
    BackendOptions options;
    options.loops = loops;
    options.optLevel = optLevel;
    options.threads = 1;
    std::string error;
    auto jit = jitCompile(*flat, *model, options, error);
    EXPECT_TRUE(jit) << error;
    return jit;
  }

  /// Runs of more than one step in the ODE sequence, as (first step, steps, period).
  std::vector<std::tuple<size_t, size_t, size_t>> loops() const {
    std::vector<std::tuple<size_t, size_t, size_t>> out;
    for (const StepRun &r : findStepRuns(*model, model->ode))
      if (r.steps() > 1)
        out.emplace_back(r.begin, r.steps(), r.period);
    return out;
  }

  /// Instructions of the simulation functions' module.
  size_t instructions() {
    llvm::LLVMContext context;
    auto m = generateModelIR(*flat, *model, context, ModelSymbols::forPrefix("t_"), ModelPart::Simulation);
    size_t n = 0;
    for (const llvm::Function &f : *m)
      n += f.getInstructionCount();
    return n;
  }
};

/// What rhs and init write at a random point (states, parameters in (0.5, 1.5)), as bits.
std::vector<double> outputs(JitModel &jit, const OdeModel &model, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.5, 1.5);
  std::vector<double> x(model.states.size()), p(model.pSize());
  for (double &v : x)
    v = u(gen);
  for (size_t i = 0; i < model.params.size(); ++i)
    p[i] = u(gen);
  std::vector<double> dx(x.size()), a(model.algebraics.size() + 1);
  EXPECT_EQ(jit.rhs(0.25, x.data(), dx.data(), a.data(), p.data()), 0);
  std::vector<double> out = dx;
  out.insert(out.end(), a.begin(), a.end());
  std::vector<double> x0 = x, dx0(dx.size()), a0(a.size());
  EXPECT_EQ(jit.init(0.0, x0.data(), dx0.data(), a0.data(), p.data()), 0);
  for (const auto *v : {&x0, &dx0, &a0})
    out.insert(out.end(), v->begin(), v->end());
  std::vector<double> starts = x;
  EXPECT_EQ(jit.start(p.data(), starts.data()), 0);
  out.insert(out.end(), starts.begin(), starts.end());
  if (!model.invariants.residuals.empty()) { // the constraints and their Jacobians
    std::vector<double> g(model.invariants.residuals.size()), h(model.initialConstraints.residuals.size());
    EXPECT_EQ(jit.invariants(0.25, x.data(), p.data(), g.data()), 0);
    EXPECT_EQ(jit.initialConstraints(0.25, x.data(), p.data(), h.data()), 0);
    std::vector<double> gx(constraintJacobianPattern(model, model.invariants.residuals).nnz());
    std::vector<double> hx(constraintJacobianPattern(model, model.initialConstraints.residuals).nnz());
    EXPECT_EQ(jit.invariantJacobian()(0.25, x.data(), p.data(), gx.data()), 0);
    EXPECT_EQ(jit.initialConstraintJacobian()(0.25, x.data(), p.data(), hx.data()), 0);
    for (const auto *v : {&g, &h, &gx, &hx})
      out.insert(out.end(), v->begin(), v->end());
  }
  return out;
}

bool sameBits(const std::vector<double> &a, const std::vector<double> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

/// `source` with every `@N@` replaced by n.
std::string sized(const std::string &source, int n) {
  return std::regex_replace(source, std::regex("@N@"), std::to_string(n));
}

void expectLoopsComputeTheSame(const std::string &source) {
  Causalized m(sized(source, 60));
  ASSERT_TRUE(m.ok()) << m.messages.str();
  ASSERT_FALSE(m.loops().empty()) << "the model has a run of alike steps";
  auto straight = m.compile(false, 0);
  ASSERT_TRUE(straight);
  const std::vector<double> reference = outputs(*straight, *m.model, 7);
  for (int level : {0, 2}) {
    auto looped = m.compile(true, level);
    ASSERT_TRUE(looped);
    EXPECT_TRUE(sameBits(outputs(*looped, *m.model, 7), reference)) << "-O" << level;
  }
}

// bench/gen_models.py's array families (MLS 3.5, 8.3.2: for-equations).
const char *kCascade = R"(model Cascade
  parameter Integer N = @N@;
  parameter Real T = 1;
  Real x[N](each start = 0, each fixed = true);
equation
  der(x[1]) = (1 - x[1])*N/T;
  for i in 2:N loop
    der(x[i]) = (x[i-1] - x[i])*N/T;
  end for;
end Cascade;
)";

const char *kHeat = R"(model Heat
  parameter Integer N = @N@;
  parameter Real a = 1, TLeft = 1, TRight = 0;
  Real T[N](each start = 0, each fixed = true);
equation
  der(T[1]) = a*(N + 1)^2*(TLeft - 2*T[1] + T[2]);
  for i in 2:N-1 loop
    der(T[i]) = a*(N + 1)^2*(T[i-1] - 2*T[i] + T[i+1]);
  end for;
  der(T[N]) = a*(N + 1)^2*(T[N-1] - 2*T[N] + TRight);
end Heat;
)";

// Algebraic variables computed by one loop and read by the next; i[N+1] from a scalar equation.
const char *kLadder = R"(model Ladder
  parameter Integer N = @N@;
  parameter Real R = 1, C = 1;
  Real v[N](each start = 0, each fixed = true);
  Real i[N + 1];
equation
  i[1] = (1 - v[1])/R;
  for k in 2:N loop
    i[k] = (v[k-1] - v[k])/R;
  end for;
  i[N + 1] = 0;
  for k in 1:N loop
    C*der(v[k]) = i[k] - i[k+1];
  end for;
end Ladder;
)";

// Recurrences: s ascending (each step reads the one before), r descending (solved from r[N] down:
// a negative stride), q over every second state.
const char *kRecurrences = R"(model Recurrences
  parameter Integer N = @N@;
  parameter Real k = 0.3;
  Real x[N](each start = 1, each fixed = true);
  Real s[N], r[N], q[div(N, 2)];
equation
  s[1] = x[1];
  for j in 2:N loop
    s[j] = s[j-1] + k*x[j]^2;
  end for;
  r[N] = x[N];
  for j in 1:N-1 loop
    r[j] = r[j+1] - x[j]/(1 + s[j]);
  end for;
  for j in 1:div(N, 2) loop
    q[j] = x[2*j - 1]*x[2*j];
  end for;
  for j in 1:N loop
    der(x[j]) = -x[j] + 0.01*r[N + 1 - j] + 0.001*q[div(j + 1, 2)];
  end for;
end Recurrences;
)";

// A user function, a builtin, an if-expression on a Boolean parameter, and an array of components.
const char *kComponents = R"(model Components
  function soft
    input Real u;
    output Real y;
  algorithm
    y := u/(1 + abs(u));
  end soft;
  model Cell
    parameter Real c = 1;
    Real z(start = 0.5, fixed = true), w;
  equation
    w = sin(z) + c;
    der(z) = -soft(w) + 0.1*z;
  end Cell;
  parameter Integer N = @N@;
  parameter Boolean on = true;
  Cell cell[N](c = {0.01*i for i in 1:N});
  Real y[N](each start = 0, each fixed = true);
equation
  for i in 1:N loop
    der(y[i]) = if on then cell[i].w - y[i] else exp(-y[i]);
  end for;
end Components;
)";

// Indices that wrap around: runs of stride 7 broken where mod() wraps, each its own loop.
const char *kIrregular = R"(model Irregular
  parameter Integer N = @N@;
  Real x[N](start = {i/N for i in 1:N}, each fixed = true);
equation
  for i in 1:N loop
    der(x[i]) = -x[i] + x[mod(7*i, N) + 1];
  end for;
end Irregular;
)";

// Linear algebraic blocks of two unknowns per element (an LU each), singular where x[i] = -1.
const char *kLinearBlocks = R"(model LinearBlocks
  parameter Integer N = @N@;
  Real x[N](each start = 0.5, each fixed = true);
  Real p[N], q[N];
equation
  for i in 1:N loop
    x[i]*p[i] + q[i] = 1;
    p[i] - q[i] = x[i]^2;
    der(x[i]) = -p[i] + 0.1*q[i];
  end for;
end LinearBlocks;
)";

// Index 3, reduced to the ODE with invariants: its constraints, their Jacobians and the
// parameter-dependent start values are items in runs too (bench/gen_models.py's pendula).
const std::string kPendula = test::pendulaModel("@N@");

TEST(Loops, RunsOfAlikeStepsAreTheSourceLoops) {
  Causalized cascade(sized(kCascade, 100));
  ASSERT_TRUE(cascade.ok()) << cascade.messages.str();
  // der(x[1]) on its own (its value has another shape), then der(x[2..100]) as one loop.
  EXPECT_EQ(cascade.loops(), (std::vector<std::tuple<size_t, size_t, size_t>>{{1, 99, 1}}));
  Causalized heat(sized(kHeat, 100));
  ASSERT_TRUE(heat.ok()) << heat.messages.str();
  ASSERT_EQ(heat.loops().size(), 1u);
  EXPECT_EQ(std::get<1>(heat.loops()[0]), 98u); // the interior points
  using Runs = std::vector<std::tuple<size_t, size_t, size_t>>;
  // s[2..12] ascending, r[11..1] descending, q[1..6] too short, der(x) in pairs (its terms' order
  // alternates with the shared q[div(j + 1, 2)]).
  Causalized recurrences(sized(kRecurrences, 12));
  ASSERT_TRUE(recurrences.ok()) << recurrences.messages.str();
  EXPECT_EQ(recurrences.loops(), (Runs{{1, 11, 1}, {13, 11, 1}, {30, 12, 2}}));
  // The BLT interleaves cell[i].w and der(y[i]): blocks of two steps.
  Causalized components(sized(kComponents, 12));
  ASSERT_TRUE(components.ok()) << components.messages.str();
  EXPECT_EQ(components.loops(), (Runs{{0, 24, 2}, {24, 12, 1}}));
}

TEST(Loops, LoopsComputeBitwiseWhatStraightLineCodeComputes) {
  for (const char *source :
       {kCascade, kHeat, kLadder, kRecurrences, kComponents, kIrregular, kLinearBlocks, kPendula.c_str()}) {
    SCOPED_TRACE(std::string(source).substr(0, 18));
    expectLoopsComputeTheSame(source);
  }
}

TEST(Loops, CodeSizeDoesNotGrowWithTheArrays) {
  // Not kPendula: its theta[i] are bound from literals i (bind writes one assignment each).
  for (const char *source : {kCascade, kHeat, kLadder, kRecurrences, kComponents, kLinearBlocks}) {
    SCOPED_TRACE(std::string(source).substr(0, 18));
    Causalized small(sized(source, 40)), large(sized(source, 4000));
    ASSERT_TRUE(small.ok() && large.ok()) << small.messages.str() << large.messages.str();
    EXPECT_EQ(large.instructions(), small.instructions());
  }
}

// A singular block inside a loop reports its own index, as the straight-line code does (the run's
// solver messages name the block).
TEST(Loops, ASingularBlockInALoopReportsItsOwnIndex) {
  Causalized m(sized(kLinearBlocks, 30));
  ASSERT_TRUE(m.ok()) << m.messages.str();
  ASSERT_EQ(m.model->ode.loops.size(), 30u);
  bool blocksInARun = false;
  for (const StepRun &r : findStepRuns(*m.model, m.model->ode))
    blocksInARun = blocksInARun || (r.steps() > 1 && m.model->ode.steps[r.begin].loop >= 0);
  ASSERT_TRUE(blocksInARun) << "the linear blocks are a run";
  std::vector<double> x(30, 0.5), dx(30), a(m.model->algebraics.size() + 1), p(m.model->pSize(), 0.0);
  x[17] = -1; // x*p + q = 1, p - q = x^2: singular at x = -1
  int expected = -1;
  for (size_t l = 0; l < m.model->ode.loops.size(); ++l)
    for (int v : m.model->ode.loops[l].vars)
      if (m.flat->vars[static_cast<size_t>(v)].name == "p[18]")
        expected = EQC_MODEL_LOOP_FAILURE_BASE + static_cast<int>(l);
  ASSERT_GE(expected, EQC_MODEL_LOOP_FAILURE_BASE);
  for (bool loops : {false, true}) {
    auto jit = m.compile(loops, 0);
    ASSERT_TRUE(jit);
    EXPECT_EQ(jit->rhs(0.0, x.data(), dx.data(), a.data(), p.data()), expected) << "loops " << loops;
  }
}

// Dependent parameters are bound in parts of 256 (one function of 20,000 Real selects cost LLVM
// time quadratic in their number): in dependency order across the parts, a given one kept.
TEST(Loops, ManyDependentParametersAreBoundInOrderAcrossParts) {
  Causalized m(R"(model Bound
  parameter Integer N = 1000;
  parameter Real c = 0.5;
  parameter Real theta[N] = {c*sin(0.001*i) for i in 1:N};
  parameter Real q[N] = {theta[N + 1 - i]^2 + i for i in 1:N};
  Real x(start = 1, fixed = true);
equation
  der(x) = -q[1]*x;
end Bound;
)");
  ASSERT_TRUE(m.ok()) << m.messages.str();
  auto jit = m.compile(true, 0);
  ASSERT_TRUE(jit && jit->bind);
  std::vector<double> p(m.model->pSize(), 0.0);
  std::vector<unsigned char> given(p.size(), 0);
  auto index = [&](const std::string &name) {
    for (size_t k = 0; k < m.model->params.size(); ++k)
      if (m.flat->vars[static_cast<size_t>(m.model->params[k])].name == name)
        return k;
    ADD_FAILURE() << "no parameter " << name;
    return size_t{0};
  };
  p[index("c")] = 2;
  given[index("c")] = 1;
  p[index("theta[7]")] = 100; // given: kept, and q[994] reads it
  given[index("theta[7]")] = 1;
  ASSERT_EQ(jit->bind(given.data(), p.data()), 0);
  EXPECT_EQ(p[index("c")], 2.0);
  EXPECT_EQ(p[index("theta[7]")], 100.0);
  for (int i : {1, 256, 257, 600, 1000}) {
    const double theta = 2 * std::sin(0.001 * (1001 - i));
    EXPECT_DOUBLE_EQ(p[index("theta[" + std::to_string(1001 - i) + "]")], theta);
    EXPECT_DOUBLE_EQ(p[index("q[" + std::to_string(i) + "]")], theta * theta + i);
  }
  EXPECT_DOUBLE_EQ(p[index("q[994]")], 100.0 * 100.0 + 994);
}

TEST(Loops, ShortRunsStayStraightLineCode) {
  Causalized m(sized(kCascade, kMinStepRun)); // a run of kMinStepRun - 1 steps
  ASSERT_TRUE(m.ok()) << m.messages.str();
  EXPECT_TRUE(m.loops().empty());
  Causalized n(sized(kCascade, kMinStepRun + 1));
  ASSERT_TRUE(n.ok()) << n.messages.str();
  EXPECT_EQ(n.loops().size(), 1u);
}

} // namespace
} // namespace eqc

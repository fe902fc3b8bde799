// Tests of eqc_project and of integration with a post-step hook: projection
// onto invariants, the Cartesian pendulum as an index-reduced ODE, hook
// failures and the FSAL re-evaluation.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using eqc::test::makeOptions;
using eqc::test::Recorder;

namespace {

/// Counts evaluations so tests can see how much work a projection did.
struct Calls {
  int residuals = 0; // calls without Jacobian
  int jacobians = 0; // calls with Jacobian
  double scale = 1.0;
};

void count(void *user, double *jac) {
  if (auto *calls = static_cast<Calls *>(user))
    ++(jac ? calls->jacobians : calls->residuals);
}

/// scale * (x^2 + y^2 - 1): the unit circle, in any units.
int circle(void *user, double, const double *x, double *g, double *jac) {
  count(user, jac);
  double s = user ? static_cast<Calls *>(user)->scale : 1.0;
  g[0] = s * (x[0] * x[0] + x[1] * x[1] - 1);
  if (jac) {
    jac[0] = s * 2 * x[0];
    jac[1] = s * 2 * x[1];
  }
  return 0;
}

/// The unit sphere cut by the plane x + y + z = 1: a circle of radius
/// sqrt(2/3) about (1, 1, 1)/3.
int sphereAndPlane(void *, double, const double *x, double *g, double *jac) {
  g[0] = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] - 1;
  g[1] = x[0] + x[1] + x[2] - 1;
  if (jac) {
    for (int j = 0; j < 3; ++j) {
      jac[j] = 2 * x[j];
      jac[3 + j] = 1;
    }
  }
  return 0;
}

/// The circle twice: dependent invariants.
int circleTwice(void *, double, const double *x, double *g, double *jac) {
  g[0] = g[1] = x[0] * x[0] + x[1] * x[1] - 1;
  if (jac) {
    jac[0] = jac[2] = 2 * x[0];
    jac[1] = jac[3] = 2 * x[1];
  }
  return 0;
}

/// x^2 + 1 = 0 has no real solution.
int noSolution(void *, double, const double *x, double *g, double *jac) {
  g[0] = x[0] * x[0] + 1;
  if (jac)
    jac[0] = 2 * x[0];
  return 0;
}

int failingConstraint(void *, double, const double *, double *, double *) {
  return 3;
}

// g1 = x0 - 1 and g2 = x1 - x2/x0: at x0 = 0, g2 and its row of the Jacobian are not finite
// (as a line force's direction 0/0 while a rotation matrix starts at 0).
int laterFinite(void *, double, const double *x, double *g, double *jac) {
  g[0] = x[0] - 1;
  g[1] = x[1] - x[2] / x[0];
  if (jac) {
    jac[0] = 1, jac[1] = 0, jac[2] = 0;
    jac[3] = x[2] / (x[0] * x[0]), jac[4] = 1, jac[5] = -1 / x[0];
  }
  return 0;
}

// The Cartesian pendulum (length 1) as an index-reduced ODE: the multiplier
// comes from the twice-differentiated constraint.
constexpr double Gravity = 9.81;

int pendulum(void *, double, const double *s, double *dsdt) {
  const double x = s[0], y = s[1], u = s[2], v = s[3];
  const double lambda = (u * u + v * v - Gravity * y) / (x * x + y * y);
  dsdt[0] = u;
  dsdt[1] = v;
  dsdt[2] = -lambda * x;
  dsdt[3] = -lambda * y - Gravity;
  return 0;
}

/// The hidden constraints: position on the circle and velocity tangent to it.
int pendulumInvariants(void *, double, const double *s, double *g,
                       double *jac) {
  const double x = s[0], y = s[1], u = s[2], v = s[3];
  g[0] = x * x + y * y - 1;
  g[1] = x * u + y * v;
  if (jac) {
    const double rows[8] = {2 * x, 2 * y, 0, 0, u, v, x, y};
    std::copy(rows, rows + 8, jac);
  }
  return 0;
}

double pendulumEnergy(const std::vector<double> &s) {
  return 0.5 * (s[2] * s[2] + s[3] * s[3]) + Gravity * s[1];
}

/// The hidden constraints and the energy (zero at the start) as a third
/// invariant: a first integral may be projected onto like a constraint.
int pendulumInvariantsAndEnergy(void *, double t, const double *s, double *g,
                                double *jac) {
  pendulumInvariants(nullptr, t, s, g, jac);
  const double y = s[1], u = s[2], v = s[3];
  g[2] = 0.5 * (u * u + v * v) + Gravity * y;
  if (jac) {
    const double row[4] = {0, Gravity, u, v};
    std::copy(row, row + 4, jac + 8);
  }
  return 0;
}

constexpr double ProjectionTol = 1e-13;

/// The post-step hook a compiled model would install: project onto the
/// invariants, fail the integration if that fails.
int projectPendulum(void *, double t, double *s) {
  int rc = eqc_project(4, 2, t, s, pendulumInvariants, nullptr, ProjectionTol,
                       10, nullptr);
  return rc == EQC_OK ? 0 : 1000 + rc;
}

int projectPendulumAndEnergy(void *, double t, double *s) {
  int rc = eqc_project(4, 3, t, s, pendulumInvariantsAndEnergy, nullptr,
                       ProjectionTol, 10, nullptr);
  return rc == EQC_OK ? 0 : 1000 + rc;
}

/// Largest |g1|, |g2| and energy deviation over all outputs of a pendulum run.
struct Drift {
  double position = 0, velocity = 0, energy = 0;
};

Drift measureDrift(const Recorder &rec) {
  Drift d;
  const double e0 = pendulumEnergy(rec.states.front());
  for (const std::vector<double> &s : rec.states) {
    double g[2];
    pendulumInvariants(nullptr, 0, s.data(), g, nullptr);
    d.position = std::max(d.position, std::fabs(g[0]));
    d.velocity = std::max(d.velocity, std::fabs(g[1]));
    d.energy = std::max(d.energy, std::fabs(pendulumEnergy(s) - e0));
  }
  return d;
}

struct PendulumRun {
  int status;
  eqc_stats stats;
  Recorder rec;
  Drift drift;
};

PendulumRun runPendulum(const eqc_options &opt, eqc_step_fn hook) {
  PendulumRun run;
  run.rec.n = 4;
  std::vector<double> s = {1, 0, 0, 0}; // horizontal, at rest
  run.status = eqc_integrate_with_hook(4, pendulum, nullptr, s.data(), &opt,
                                       Recorder::record, &run.rec, hook,
                                       nullptr, &run.stats);
  run.drift = measureDrift(run.rec);
  return run;
}

eqc_options pendulumDopri5() {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 100.0);
  opt.rtol = 1e-6;
  opt.interval = 0.01;
  return opt;
}

/// x' = y, y' = -x: circles about the origin.
int oscillator(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[1];
  dxdt[1] = -x[0];
  return 0;
}

/// Records the states it is handed and can change them, fail or throw.
struct TestHook {
  int n = 2;
  int failAtCall = -1; // 1-based; -1: never
  int failCode = 42;
  bool throwInstead = false;
  bool poison = false;  // write NaN instead of failing
  double stretch = 1.0; // x *= stretch on every call
  int calls = 0;
  std::vector<double> lastSeen;
  double lastTime = 0;

  static int call(void *user, double t, double *x) {
    auto *self = static_cast<TestHook *>(user);
    ++self->calls;
    self->lastSeen.assign(x, x + self->n);
    self->lastTime = t;
    for (int i = 0; i < self->n; ++i)
      x[i] *= self->stretch;
    if (self->calls != self->failAtCall)
      return 0;
    // Scribble over x first: the integrator must restore the step's result.
    for (int i = 0; i < self->n; ++i)
      x[i] = 1e300;
    if (self->poison) {
      x[1] = std::numeric_limits<double>::quiet_NaN();
      return 0;
    }
    if (self->throwInstead)
      throw std::runtime_error("hook failed");
    return self->failCode;
  }
};

const eqc_method AllMethods[] = {EQC_METHOD_EULER, EQC_METHOD_HEUN,
                                 EQC_METHOD_RK4, EQC_METHOD_DOPRI5};

} // namespace

// A kept projector gives eqc_project's numbers bit for bit, for any sizes in turn (its buffers
// grow), and frees cleanly (NULL included).
TEST(Project, AKeptProjectorGivesTheSameNumbers) {
  eqc_projector *projector = eqc_projector_new();
  ASSERT_NE(projector, nullptr);
  for (int round = 0; round < 3; ++round) {
    Calls calls;
    double a[2] = {1.3 + round, 0.4}, b[2] = {1.3 + round, 0.4};
    double ra = -1, rb = -1;
    ASSERT_EQ(eqc_project(2, 1, 0.0, a, circle, &calls, 1e-15, 20, &ra), EQC_OK);
    ASSERT_EQ(eqc_projector_project(projector, 2, 1, 0.0, b, circle, &calls, 1e-15, 20, &rb), EQC_OK);
    EXPECT_EQ(a[0], b[0]);
    EXPECT_EQ(a[1], b[1]);
    EXPECT_EQ(ra, rb);
    double s[3] = {0.9, 0.3, 0.5 + round}, u[3] = {0.9, 0.3, 0.5 + round};
    ASSERT_EQ(eqc_project(3, 2, 0.0, s, sphereAndPlane, nullptr, 1e-15, 20, &ra), EQC_OK);
    ASSERT_EQ(eqc_projector_project(projector, 3, 2, 0.0, u, sphereAndPlane, nullptr, 1e-15, 20, &rb), EQC_OK);
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(s[i], u[i]);
  }
  eqc_projector_free(projector);
  eqc_projector_free(nullptr);
}

TEST(Project, CircleLandsRadiallyOnTheCircle) {
  Calls calls;
  double x[2] = {1.3, 0.4};
  double residual = -1;
  ASSERT_EQ(eqc_project(2, 1, 0.0, x, circle, &calls, 1e-15, 20, &residual),
            EQC_OK);
  EXPECT_LE(std::fabs(x[0] * x[0] + x[1] * x[1] - 1), 1e-14);
  EXPECT_LE(residual, 1e-14);
  // Minimum-norm corrections along the gradient keep x on the ray through the
  // start: the result is the closest point of the circle.
  const double r = std::hypot(1.3, 0.4);
  EXPECT_NEAR(x[0], 1.3 / r, 1e-10);
  EXPECT_NEAR(x[1], 0.4 / r, 1e-10);
  // Quadratic convergence from a residual of 0.85, every correction a full
  // step (each fetches the Jacobian with the residual).
  EXPECT_LE(calls.jacobians, 7);
  EXPECT_EQ(calls.residuals, 0);
}

TEST(Project, ToleranceDoesNotDependOnTheUnitsOfTheInvariant) {
  for (double scale : {1e-12, 1.0, 1e12}) {
    Calls calls;
    calls.scale = scale;
    double x[2] = {1.3, 0.4};
    double residual;
    ASSERT_EQ(eqc_project(2, 1, 0.0, x, circle, &calls, 1e-12, 20, &residual),
              EQC_OK)
        << scale;
    EXPECT_LE(std::fabs(x[0] * x[0] + x[1] * x[1] - 1), 1e-12) << scale;
    EXPECT_LE(residual, 1e-12 * scale) << scale;
  }
}

TEST(Project, PointOnTheManifoldIsLeftAlone) {
  Calls calls;
  double x[2] = {0.6, -0.8};
  double residual = -1;
  ASSERT_EQ(eqc_project(2, 1, 0.0, x, circle, &calls, 1e-10, 20, &residual),
            EQC_OK);
  EXPECT_EQ(x[0], 0.6);
  EXPECT_EQ(x[1], -0.8);
  EXPECT_EQ(calls.jacobians, 1);
  EXPECT_LE(residual, 1e-15);
}

TEST(Project, SphereCutByPlane) {
  const double start[3] = {1.0, 0.5, -0.2};
  double x[3] = {start[0], start[1], start[2]};
  double residual;
  ASSERT_EQ(
      eqc_project(3, 2, 0.0, x, sphereAndPlane, nullptr, 1e-15, 20, &residual),
      EQC_OK);
  EXPECT_LE(std::fabs(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] - 1), 1e-14);
  EXPECT_LE(std::fabs(x[0] + x[1] + x[2] - 1), 1e-14);
  // Every correction lies in span{x, (1,1,1)}, a plane through the start that
  // meets the solution circle in its closest point: centre plus radius times
  // the direction of the start's projection onto the cutting plane.
  const double c = 1.0 / 3.0, radius = std::sqrt(2.0 / 3.0);
  const double shift = (start[0] + start[1] + start[2] - 1) / 3;
  double q[3], len = 0;
  for (int j = 0; j < 3; ++j) {
    q[j] = start[j] - shift - c;
    len += q[j] * q[j];
  }
  len = std::sqrt(len);
  for (int j = 0; j < 3; ++j)
    EXPECT_NEAR(x[j], c + radius * q[j] / len, 1e-10) << j;
}

TEST(Project, DependentInvariantsFallBackToTheMinimumNormLeastSquaresStep) {
  // The same constraint twice makes G G^T singular; the rank-revealing fallback still lands on
  // the circle along the radius.
  double x[2] = {1.3, 0.4};
  double residual;
  EXPECT_EQ(eqc_project(2, 2, 0.0, x, circleTwice, nullptr, 1e-12, 20, &residual), EQC_OK);
  double r = std::hypot(1.3, 0.4);
  EXPECT_NEAR(x[0], 1.3 / r, 1e-10);
  EXPECT_NEAR(x[1], 0.4 / r, 1e-10);
  EXPECT_LT(residual, 1e-11); // the convergence test: tol scaled by |G|(1 + |x|)
}

/// k unit circles in the planes (x_2i, x_2i+1), plus (when `twice`) the first circle again:
/// invariants enough for the sparse factorization of G G^T (eqc_project's SparseFrom = 128).
struct Circles {
  int k;
  bool twice;
};
int manyCircles(void *user, double, const double *x, double *g, double *jac) {
  const auto *c = static_cast<const Circles *>(user);
  const int n = 2 * c->k, m = c->k + (c->twice ? 1 : 0);
  if (jac)
    std::fill(jac, jac + static_cast<size_t>(m) * n, 0.0);
  for (int i = 0; i < m; ++i) {
    const int p = i < c->k ? i : 0;
    g[i] = x[2 * p] * x[2 * p] + x[2 * p + 1] * x[2 * p + 1] - 1;
    if (jac) {
      jac[static_cast<size_t>(i) * n + 2 * p] = 2 * x[2 * p];
      jac[static_cast<size_t>(i) * n + 2 * p + 1] = 2 * x[2 * p + 1];
    }
  }
  return 0;
}

/// Every point lands radially on its circle, as with one circle: the minimum-norm step of the
/// sparse normal equations is the dense one's.
TEST(Project, ManySparseInvariantsLandEachPointRadially) {
  Circles circles{300, false};
  std::vector<double> x(600), start;
  for (int i = 0; i < 300; ++i) {
    x[2 * i] = 1.0 + 0.001 * i;
    x[2 * i + 1] = 0.3 - 0.002 * i;
  }
  start = x;
  double residual;
  ASSERT_EQ(eqc_project(600, 300, 0.0, x.data(), manyCircles, &circles, 1e-12, 20, &residual), EQC_OK);
  for (int i = 0; i < 300; ++i) {
    const double r = std::hypot(start[2 * i], start[2 * i + 1]);
    EXPECT_NEAR(x[2 * i], start[2 * i] / r, 1e-10) << i;
    EXPECT_NEAR(x[2 * i + 1], start[2 * i + 1] / r, 1e-10) << i;
  }
  EXPECT_LT(residual, 1e-11);
}

/// A repeated invariant among many: the sparse factorization's pivot test finds the dependence
/// and the step falls back to the rank-revealing least squares, as in the dense case.
TEST(Project, ManySparseInvariantsWithADependentOne) {
  Circles circles{200, true};
  std::vector<double> x(400);
  for (int i = 0; i < 200; ++i) {
    x[2 * i] = 1.2;
    x[2 * i + 1] = -0.5;
  }
  double residual;
  ASSERT_EQ(eqc_project(400, 201, 0.0, x.data(), manyCircles, &circles, 1e-12, 20, &residual), EQC_OK);
  const double r = std::hypot(1.2, -0.5);
  for (int i = 0; i < 200; ++i) {
    EXPECT_NEAR(x[2 * i], 1.2 / r, 1e-10) << i;
    EXPECT_NEAR(x[2 * i + 1], -0.5 / r, 1e-10) << i;
  }
  EXPECT_LT(residual, 1e-11);
}

/// Many invariants that each involve every state (too dense for the sparse factorization): the
/// dense normal equations with G G^T outside the workspace. Sum constraints s_i . x = c_i with
/// independent s_i: a linear projection, exact in one step.
int denseLinear(void *, double, const double *x, double *g, double *jac) {
  const int n = 300, m = 150;
  for (int i = 0; i < m; ++i) {
    double sum = 0;
    for (int j = 0; j < n; ++j) {
      const double a = (j == i) ? 2.0 : 1.0 / (1 + i + j);
      sum += a * x[j];
      if (jac)
        jac[static_cast<size_t>(i) * n + j] = a;
    }
    g[i] = sum - 1;
  }
  return 0;
}

TEST(Project, ManyDenseInvariants) {
  std::vector<double> x(300, 0.25);
  double residual;
  ASSERT_EQ(eqc_project(300, 150, 0.0, x.data(), denseLinear, nullptr, 1e-12, 20, &residual), EQC_OK);
  std::vector<double> g(150);
  denseLinear(nullptr, 0, x.data(), g.data(), nullptr);
  for (double gi : g)
    EXPECT_LT(std::fabs(gi), 1e-11);
}

/// A dense constraint function given sparse (eqc_projector_project_sparse): the pattern of G's
/// non-zeros at a start point, plus one structural zero per row (a partial that vanishes there),
/// and the values gathered from the dense G.
struct AsSparse {
  eqc_constraint_fn dense;
  void *user;
  int n, m;
  std::vector<int> colStart, rowIndex;
  std::vector<double> scratch;
  eqc_sparsity pattern{};

  AsSparse(eqc_constraint_fn dense, void *user, int n, int m, const std::vector<double> &x)
      : dense(dense), user(user), n(n), m(m), scratch(static_cast<size_t>(m) * n) {
    std::vector<double> g(static_cast<size_t>(m));
    dense(user, 0.0, x.data(), g.data(), scratch.data());
    colStart.push_back(0);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i)
        if (scratch[static_cast<size_t>(i) * n + j] != 0 || j == (i * 7) % n)
          rowIndex.push_back(i);
      colStart.push_back(static_cast<int>(rowIndex.size()));
    }
    pattern = {static_cast<int>(rowIndex.size()), colStart.data(), rowIndex.data()};
  }
  static int evaluate(void *self, double t, const double *x, double *g, double *values) {
    auto *a = static_cast<AsSparse *>(self);
    if (int code = a->dense(a->user, t, x, g, values ? a->scratch.data() : nullptr))
      return code;
    if (values)
      for (int j = 0; j < a->n; ++j)
        for (int k = a->colStart[static_cast<size_t>(j)]; k < a->colStart[static_cast<size_t>(j) + 1]; ++k)
          values[k] = a->scratch[static_cast<size_t>(a->rowIndex[static_cast<size_t>(k)]) * a->n + j];
    return 0;
  }
};

/// The sparse call gives the dense call's iterates bit for bit, on every path: few invariants
/// (G scattered for the dense normal equations), many sparse ones (the sparse factorization),
/// a dependent one among many (the rank-revealing fallback) and many dense ones.
TEST(Project, SparseJacobianGivesTheDenseIteratesBitForBit) {
  struct Case {
    eqc_constraint_fn fn;
    void *user;
    int n, m;
  };
  Circles few{50, false}, many{300, false}, dependent{200, true};
  const Case cases[] = {{manyCircles, &few, 100, 50},
                        {manyCircles, &many, 600, 300},
                        {manyCircles, &dependent, 400, 201},
                        {denseLinear, nullptr, 300, 150}};
  for (const Case &c : cases) {
    std::vector<double> start(static_cast<size_t>(c.n));
    for (int j = 0; j < c.n; ++j)
      start[static_cast<size_t>(j)] = 0.9 + 0.001 * j - (j % 2 ? 0.5 : 0.0);
    std::vector<double> dense = start, sparse = start;
    AsSparse adapter(c.fn, c.user, c.n, c.m, start);
    double denseResidual = -1, sparseResidual = -2;
    const int denseStatus = eqc_project(c.n, c.m, 0.0, dense.data(), c.fn, c.user, 1e-12, 20, &denseResidual);
    const int sparseStatus = eqc_projector_project_sparse(nullptr, c.n, c.m, &adapter.pattern, 0.0, sparse.data(),
                                                          AsSparse::evaluate, &adapter, 1e-12, 20, &sparseResidual);
    EXPECT_EQ(denseStatus, EQC_OK) << c.m;
    EXPECT_EQ(sparseStatus, denseStatus) << c.m;
    EXPECT_EQ(sparseResidual, denseResidual) << c.m;
    for (int j = 0; j < c.n; ++j)
      ASSERT_EQ(sparse[static_cast<size_t>(j)], dense[static_cast<size_t>(j)]) << c.m << " " << j;
  }
  // An invalid pattern (rows out of order) is refused.
  std::vector<double> x{1.5, 0.2};
  const int colStart[] = {0, 1, 2}, badRows[] = {0, 1};
  eqc_sparsity bad{2, colStart, badRows}; // row 1 of a one-row G
  EXPECT_EQ(eqc_projector_project_sparse(nullptr, 2, 1, &bad, 0.0, x.data(), circle, nullptr, 1e-12, 20, nullptr),
            EQC_ERR_ARGUMENT);
}

TEST(Project, NoSolutionDoesNotConverge) {
  double x[1] = {0.5};
  double residual;
  EXPECT_EQ(
      eqc_project(1, 1, 0.0, x, noSolution, nullptr, 1e-12, 50, &residual),
      EQC_ERR_NEWTON);
  // Damping only accepts decreasing residuals: x moved towards the minimum of
  // x^2 + 1 and the reported residual is that of the returned x.
  EXPECT_LT(std::fabs(x[0]), 0.5);
  EXPECT_EQ(residual, x[0] * x[0] + 1);
}

TEST(Project, ConstraintFailureAndArguments) {
  double x[2] = {1.3, 0.4};
  double residual = 0;
  EXPECT_EQ(eqc_project(2, 1, 0.0, x, failingConstraint, nullptr, 1e-12, 20,
                        &residual),
            EQC_ERR_RHS);
  EXPECT_TRUE(std::isnan(residual));
  EXPECT_EQ(eqc_project(-1, 1, 0.0, x, circle, nullptr, 1e-12, 20, nullptr),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_project(2, -1, 0.0, x, circle, nullptr, 1e-12, 20, nullptr),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(
      eqc_project(2, 1, 0.0, nullptr, circle, nullptr, 1e-12, 20, nullptr),
      EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_project(2, 1, 0.0, x, nullptr, nullptr, 1e-12, 20, nullptr),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_project(2, 1, 0.0, x, circle, nullptr, 0.0, 20, nullptr),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_project(2, 1, 0.0, x, circle, nullptr, 1e-12, 0, nullptr),
            EQC_ERR_ARGUMENT);
  double nan[2] = {std::numeric_limits<double>::quiet_NaN(), 0};
  EXPECT_EQ(eqc_project(2, 1, 0.0, nan, circle, nullptr, 1e-12, 20, nullptr),
            EQC_ERR_NONFINITE);
  // No invariants: nothing to do, and g is not called.
  EXPECT_EQ(eqc_project(2, 0, 0.0, x, failingConstraint, nullptr, 1e-12, 20,
                        &residual),
            EQC_OK);
  EXPECT_EQ(residual, 0.0);
  EXPECT_EQ(x[0], 1.3);
}

TEST(Project, RowsNotFiniteAtTheStartWaitUntilTheOthersMoveThePoint) {
  // The first row moves x0 to 1; then the second can be evaluated and is met too. Rows that
  // stay non-finite are never met: the projection does not converge then.
  double x[3] = {0.0, 0.0, 2.0};
  double residual = -1;
  ASSERT_EQ(eqc_project(3, 2, 0.0, x, laterFinite, nullptr, 1e-14, 20, &residual), EQC_OK);
  EXPECT_NEAR(x[0], 1.0, 1e-14);
  EXPECT_NEAR(x[1], x[2] / x[0], 1e-13);
  EXPECT_LE(residual, 1e-13);
  double stuck[3] = {0.0, 0.0, 2.0};
  EXPECT_EQ(eqc_project(1, 2, 0.0, stuck + 1, [](void *, double, const double *x, double *g, double *jac) {
              g[0] = x[0] - 1;
              g[1] = std::sqrt(-1.0 - x[0] * x[0]); // NaN everywhere
              if (jac)
                jac[0] = 1, jac[1] = 0;
              return 0;
            }, nullptr, 1e-12, 20, &residual),
            EQC_ERR_NEWTON);
}

TEST(Pendulum, InvariantsDriftWithoutProjection) {
  PendulumRun run = runPendulum(pendulumDopri5(), nullptr);
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_EQ(run.stats.t_reached, 100.0);
  EXPECT_EQ(run.stats.hook_calls, 0);
  // Measured: max |g1| = 1.18e-3, max |g2| = 1.27e-5 and an energy error of
  // 6.9e-3 by t = 100; the index-reduced ODE has nothing that pulls the state
  // back onto the manifold, so the drift grows with t.
  EXPECT_GT(run.drift.position, 1e-4);
  EXPECT_GT(run.drift.velocity, 1e-6);
  EXPECT_GT(run.drift.energy, 1e-3);
}

TEST(Pendulum, Dopri5WithProjectionStaysOnTheManifold) {
  PendulumRun run = runPendulum(pendulumDopri5(), projectPendulum);
  ASSERT_EQ(run.status, EQC_OK) << eqc_status_message(run.status);
  EXPECT_EQ(run.stats.t_reached, 100.0);
  ASSERT_EQ(run.rec.times.size(), 10001u);
  // Every output, dense ones included, is projected (measured: max |g1| =
  // 1.4e-13, max |g2| = 1.6e-13).
  EXPECT_LT(run.drift.position, 1e-10);
  EXPECT_LT(run.drift.velocity, 1e-10);
  // The energy is no invariant here: what remains is the integrator's error
  // along the manifold, 8.2e-4 measured (6.9e-3 without projection). Keeping
  // it to 1e-5 at this rtol takes projecting onto it too (next test).
  EXPECT_LT(run.drift.energy, 2e-3);
  // Each step and each interpolated output went through the hook.
  EXPECT_GE(run.stats.hook_calls, run.stats.steps);
  EXPECT_LE(run.stats.hook_calls, run.stats.steps + 10000);
}

TEST(Pendulum, Dopri5WithEnergyAsThirdInvariantKeepsTheEnergy) {
  PendulumRun run = runPendulum(pendulumDopri5(), projectPendulumAndEnergy);
  ASSERT_EQ(run.status, EQC_OK) << eqc_status_message(run.status);
  // Measured: max |g1| = 2.0e-13, max |g2| = 9.2e-13, energy error 3.3e-12.
  EXPECT_LT(run.drift.position, 1e-10);
  EXPECT_LT(run.drift.velocity, 1e-10);
  EXPECT_LT(run.drift.energy, 1e-10);
}

TEST(Pendulum, Rk4WithProjectionStaysOnTheManifold) {
  eqc_options opt = makeOptions(EQC_METHOD_RK4, 0.0, 100.0);
  opt.dt = 1e-3;
  opt.interval = 0.01;
  PendulumRun run = runPendulum(opt, projectPendulum);
  ASSERT_EQ(run.status, EQC_OK) << eqc_status_message(run.status);
  EXPECT_EQ(run.stats.steps, 100000);
  EXPECT_EQ(run.stats.hook_calls, 100000); // fixed step: outputs are steps
  ASSERT_EQ(run.rec.times.size(), 10001u);
  // Measured: max |g1| = 2.6e-14, max |g2| = 1.5e-12, energy error 6.7e-10
  // (without projection 7.2e-7, 7.2e-9 and 4.8e-6).
  EXPECT_LT(run.drift.position, 1e-10);
  EXPECT_LT(run.drift.velocity, 1e-10);
  EXPECT_LT(run.drift.energy, 1e-8);
}

TEST(Hook, NullHookIsPlainIntegration) {
  for (eqc_method method : AllMethods) {
    eqc_options opt = makeOptions(method, 0.0, 2.0);
    opt.dt = 0.01;
    opt.interval = 0.1;
    double a[2] = {1, 0}, b[2] = {1, 0};
    eqc_stats sa, sb;
    ASSERT_EQ(
        eqc_integrate(2, oscillator, nullptr, a, &opt, nullptr, nullptr, &sa),
        EQC_OK);
    ASSERT_EQ(eqc_integrate_with_hook(2, oscillator, nullptr, b, &opt, nullptr,
                                      nullptr, nullptr, nullptr, &sb),
              EQC_OK);
    EXPECT_EQ(a[0], b[0]) << method;
    EXPECT_EQ(a[1], b[1]) << method;
    EXPECT_EQ(sa.steps, sb.steps) << method;
    EXPECT_EQ(sa.rhs_evals, sb.rhs_evals) << method;
    EXPECT_EQ(sb.hook_calls, 0) << method;
  }
}

TEST(Hook, IdentityHookSeesEveryStepAndChangesNothing) {
  for (eqc_method method : AllMethods) {
    eqc_options opt = makeOptions(method, 0.0, 2.0);
    opt.dt = 0.01;
    double a[2] = {1, 0}, b[2] = {1, 0};
    eqc_stats sa, sb;
    TestHook hook;
    ASSERT_EQ(
        eqc_integrate(2, oscillator, nullptr, a, &opt, nullptr, nullptr, &sa),
        EQC_OK);
    ASSERT_EQ(eqc_integrate_with_hook(2, oscillator, nullptr, b, &opt, nullptr,
                                      nullptr, TestHook::call, &hook, &sb),
              EQC_OK);
    EXPECT_EQ(a[0], b[0]) << method;
    EXPECT_EQ(a[1], b[1]) << method;
    EXPECT_EQ(sb.rhs_evals, sa.rhs_evals) << method;
    EXPECT_EQ(sb.hook_calls, sb.steps) << method;
    EXPECT_EQ(hook.calls, sb.steps) << method;
    EXPECT_EQ(hook.lastTime, 2.0) << method;
  }
}

TEST(Hook, Dopri5ReevaluatesTheFirstStageAfterAChange) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 2.0);
  double x[2] = {1, 0};
  eqc_stats stats;
  TestHook unchanged;
  ASSERT_EQ(eqc_integrate_with_hook(2, oscillator, nullptr, x, &opt, nullptr,
                                    nullptr, TestHook::call, &unchanged,
                                    &stats),
            EQC_OK);
  // f(t0) and the initial-step probe, then six stages per attempt (FSAL).
  EXPECT_EQ(stats.rhs_evals, 2 + 6 * (stats.steps + stats.rejected));

  x[0] = 1, x[1] = 0;
  TestHook stretching;
  stretching.stretch = 1.0 + 1e-3;
  ASSERT_EQ(eqc_integrate_with_hook(2, oscillator, nullptr, x, &opt, nullptr,
                                    nullptr, TestHook::call, &stretching,
                                    &stats),
            EQC_OK);
  // One more evaluation after every changed step except the last.
  EXPECT_EQ(stats.rhs_evals,
            2 + 6 * (stats.steps + stats.rejected) + (stats.steps - 1));
  // The stretch compounds over the steps: |x| = 1.001^steps.
  EXPECT_NEAR(std::hypot(x[0], x[1]),
              std::pow(1.0 + 1e-3, static_cast<double>(stats.steps)), 1e-6);
}

TEST(Hook, FailureStopsWithItsCode) {
  for (eqc_method method : AllMethods) {
    eqc_options opt = makeOptions(method, 0.0, 2.0);
    opt.dt = 0.01;
    double x[2] = {1, 0};
    eqc_stats stats;
    TestHook hook;
    hook.failAtCall = 3;
    EXPECT_EQ(eqc_integrate_with_hook(2, oscillator, nullptr, x, &opt, nullptr,
                                      nullptr, TestHook::call, &hook, &stats),
              EQC_ERR_RHS)
        << method;
    EXPECT_EQ(stats.rhs_code, 42) << method;
    EXPECT_EQ(stats.hook_calls, 3) << method;
    EXPECT_EQ(stats.steps, 3) << method;
    // The step's own result at the failing step's time, not the hook's
    // scribbles.
    EXPECT_EQ(stats.t_reached, hook.lastTime) << method;
    EXPECT_EQ(x[0], hook.lastSeen[0]) << method;
    EXPECT_EQ(x[1], hook.lastSeen[1]) << method;
  }
}

TEST(Hook, ThrowingHookIsAFailureWithCodeMinusOne) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 2.0);
  double x[2] = {1, 0};
  eqc_stats stats;
  TestHook hook;
  hook.failAtCall = 1;
  hook.throwInstead = true;
  EXPECT_EQ(eqc_integrate_with_hook(2, oscillator, nullptr, x, &opt, nullptr,
                                    nullptr, TestHook::call, &hook, &stats),
            EQC_ERR_RHS);
  EXPECT_EQ(stats.rhs_code, -1);
  EXPECT_EQ(x[0], hook.lastSeen[0]);
}

TEST(Hook, NonFiniteStateFromTheHook) {
  for (eqc_method method : AllMethods) {
    eqc_options opt = makeOptions(method, 0.0, 2.0);
    opt.dt = 0.01;
    double x[2] = {1, 0};
    eqc_stats stats;
    TestHook hook;
    hook.failAtCall = 2;
    hook.poison = true;
    EXPECT_EQ(eqc_integrate_with_hook(2, oscillator, nullptr, x, &opt, nullptr,
                                      nullptr, TestHook::call, &hook, &stats),
              EQC_ERR_NONFINITE)
        << method;
    EXPECT_EQ(stats.failed_component, 1) << method;
    EXPECT_EQ(stats.rhs_code, 0) << method;
    EXPECT_EQ(x[0], hook.lastSeen[0]) << method;
    EXPECT_EQ(x[1], hook.lastSeen[1]) << method;
  }
}

TEST(Hook, FailureOnAnInterpolatedOutputKeepsTheStepState) {
  // Output grid finer than the first step: the hook's second call is on an
  // interpolated value inside that step.
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 2.0);
  opt.interval = 1e-3;
  opt.h_init = 0.05;
  double x[2] = {1, 0};
  eqc_stats stats;
  Recorder rec;
  rec.n = 2;
  TestHook hook;
  hook.failAtCall = 2;
  EXPECT_EQ(eqc_integrate_with_hook(2, oscillator, nullptr, x, &opt,
                                    Recorder::record, &rec, TestHook::call,
                                    &hook, &stats),
            EQC_ERR_RHS);
  EXPECT_EQ(stats.rhs_code, 42);
  EXPECT_EQ(stats.steps, 1);
  EXPECT_EQ(hook.lastTime, 1e-3);
  EXPECT_GT(stats.t_reached, 1e-3);
  // Only t_start was output; x is the step's state, not the output copy.
  EXPECT_EQ(rec.times.size(), 1u);
  EXPECT_NEAR(x[0], std::cos(stats.t_reached), 1e-9);
  EXPECT_NEAR(x[1], -std::sin(stats.t_reached), 1e-9);
}

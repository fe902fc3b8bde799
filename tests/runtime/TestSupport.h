// Helpers shared by the runtime tests: output recording, option construction and the test
// problems used by several integrators (oscillator, ROBER, Van der Pol with mu = 1e6).
#ifndef EQC_TESTS_RUNTIME_TESTSUPPORT_H
#define EQC_TESTS_RUNTIME_TESTSUPPORT_H

#include "eqc/eqc_runtime.h"

#include <vector>

namespace eqc::test {

/// Every (t, x) the integrator reported through its output callback.
struct Recorder {
  int n = 0;
  std::vector<double> times;
  std::vector<std::vector<double>> states;

  static int record(void *user, double t, const double *x) {
    auto *self = static_cast<Recorder *>(user);
    self->times.push_back(t);
    self->states.emplace_back(x, x + self->n);
    return 0;
  }
};

/// Options for method on [tStart, tEnd], everything else at its default.
inline eqc_options makeOptions(eqc_method method, double tStart, double tEnd) {
  eqc_options opt;
  eqc_options_default(&opt);
  opt.method = method;
  opt.t_start = tStart;
  opt.t_end = tEnd;
  return opt;
}

/// The shared test problems.
constexpr double Lambda = -0.7;

inline int linearDecay(void *, double, const double *x, double *dxdt) {
  dxdt[0] = Lambda * x[0];
  return 0;
}

/// x'' = -x as a first-order system; x(0) = (1, 0) gives (cos t, -sin t).
inline int oscillator(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[1];
  dxdt[1] = -x[0];
  return 0;
}

/// Robertson's chemical kinetics (ROBER of the Test Set).
inline int rober(void *, double, const double *y, double *dydt) {
  dydt[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  dydt[2] = 3e7 * y[1] * y[1];
  dydt[1] = -dydt[0] - dydt[2];
  return 0;
}

inline int roberJacobian(void *, double, const double *y, double *jac) {
  jac[0] = -0.04, jac[1] = 1e4 * y[2], jac[2] = 1e4 * y[1];
  jac[3] = 0.04, jac[4] = -1e4 * y[2] - 6e7 * y[1], jac[5] = -1e4 * y[1];
  jac[6] = 0.0, jac[7] = 6e7 * y[1], jac[8] = 0.0;
  return 0;
}

/// ROBER at t = 1e11 (Test Set for IVP Solvers, rober.f).
constexpr double RoberReference[3] = {0.2083340149701255e-07, 0.8333360770334713e-13, 0.9999999791665050};

constexpr double VdpEpsilon = 1e-6;

/// Van der Pol with mu = 1e6 in Hairer & Wanner's scaling (VDPOL of the Test Set).
inline int vanDerPol(void *, double, const double *y, double *dydt) {
  dydt[0] = y[1];
  dydt[1] = ((1 - y[0] * y[0]) * y[1] - y[0]) / VdpEpsilon;
  return 0;
}

inline int vanDerPolJacobian(void *, double, const double *y, double *jac) {
  jac[0] = 0.0;
  jac[1] = 1.0;
  jac[2] = (-2 * y[0] * y[1] - 1.0) / VdpEpsilon;
  jac[3] = (1 - y[0] * y[0]) / VdpEpsilon;
  return 0;
}

/// VDPOL at t = 2 from y(0) = (2, 0) (Test Set for IVP Solvers, vdpol.f).
constexpr double VdpReference[2] = {0.1706167732170483e1, -0.8928097010247975e0};

} // namespace eqc::test

#endif // EQC_TESTS_RUNTIME_TESTSUPPORT_H

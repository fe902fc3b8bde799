// Helpers shared by the runtime tests: output recording and option
// construction.
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

} // namespace eqc::test

#endif // EQC_TESTS_RUNTIME_TESTSUPPORT_H

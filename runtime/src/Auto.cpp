// The auto method: dopri5 while the problem is non-stiff, radau5 from the point
// where Hairer's stiffness test fires (as LSODA switches from Adams to BDF).
#include "Integrator.h"

#include <cmath>

namespace eqc::rt {

int runAuto(IntegrationProblem &p, double *x, eqc_stats &stats) {
  stats.method_used = EQC_METHOD_DOPRI5;
  const int rc = runDopri5(p, x, stats, /*detectStiffness=*/true);
  if (rc != StiffnessDetected)
    return rc;

  // Radau5 takes over at the accepted step where dopri5 stopped. There is no
  // switch back: once stiff, radau5's steps are never limited by stability,
  // only by accuracy, and a second detector would cost a test per step.
  const double tSwitch = stats.t_reached;
  stats.method_used = EQC_METHOD_RADAU5;
  stats.switch_time = tSwitch;
  IntegrationProblem stiff = p;
  stiff.opt.method = EQC_METHOD_RADAU5;
  stiff.opt.t_start = tSwitch;
  // The grid continues from the original start; dopri5 already emitted every
  // grid time up to tSwitch (and tSwitch itself when it is an output time).
  if (!std::isfinite(stiff.opt.output_origin))
    stiff.opt.output_origin = p.opt.t_start;
  // A user's first step was meant for t_start; radau5 picks its own here.
  stiff.opt.h_init = 0.0;
  p.output.markEmitted(tSwitch);
  const int radauRc = runRadau5(stiff, x, stats);
  // The prepared Jacobian description serves later segments (after an event).
  p.jacobian = stiff.jacobian;
  return radauRc;
}

} // namespace eqc::rt

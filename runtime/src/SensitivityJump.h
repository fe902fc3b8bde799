// The jumps of forward sensitivities at events (eqc_model.h, ABI 9: n_sensitivities): an event at
// t_e that an indicator's crossing causes moves with the parameters, d(t_e)/d(p) = -(dz/dp) /
// (dz/dt), and a state's sensitivity s jumps to s + (f- - f+) d(t_e)/d(p) where the derivatives
// jump from f- to f+ (plus what the event's reinit and discrete assignments of sensitivities give).
#ifndef EQC_RUNTIME_SENSITIVITY_JUMP_H
#define EQC_RUNTIME_SENSITIVITY_JUMP_H

#include "eqc/eqc_model.h"

#include <vector>

namespace eqc::rt {

/// One simulation's sensitivity jumps. Requires: a model whose sensitivity table is valid
/// (sensitivityTableValid), p with n_p values.
class SensitivityJump {
public:
  /// Whether the model has sensitivities that jump at indicator crossings.
  static bool applies(const eqc_model &m) { return m.n_sensitivities > 0 && m.n_indicators > 0; }

  /// Before the event iteration at t, the conditions still those before the event: with `crossed`
  /// (per indicator, nonzero where it crossed; null: a time or external event, nothing moves),
  /// d(t_e)/d(p_j) of the first crossed indicator into the discretes sensitivity_event_time and
  /// the states' sensitivities moved by f- d(t_e)/d(p_j); `a` is left as rhs gives it at (t, x).
  /// Returns 0, the model's failure code, or StopCode::SensitivityUndefined where dz/dt is 0
  /// (undefinedIndicator() tells which).
  int before(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed);
  /// After the event iteration (x as it left it): the states' sensitivities less f+ d(t_e)/d(p_j),
  /// the discretes d(t_e)/d(p_j) back to 0. Returns 0 or the model's failure code.
  int after(const eqc_model &m, double t, double *x, double *a, double *p);

  int undefinedIndicator() const { return undefined_; }

private:
  /// dz_k/dt along the derivatives dx_ at (t, x): a central difference over the time the states
  /// take to change by their own size.
  int slope(const eqc_model &m, double t, const double *x, double *a, double *p, int k, double &dzdt);

  std::vector<double> dx_, z_, zp_, shifted_, dxShifted_, tau_, aSaved_;
  bool moved_ = false;
  int undefined_ = -1;
};

} // namespace eqc::rt

#endif // EQC_RUNTIME_SENSITIVITY_JUMP_H

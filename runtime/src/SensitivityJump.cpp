// The jumps of forward sensitivities at events (see SensitivityJump.h).
#include "SensitivityJump.h"

#include "StopCodes.h"

#include <algorithm>
#include <cmath>

namespace eqc::rt {

int SensitivityJump::before(const eqc_model &m, double t, double *x, double *a, double *p,
                            const int *crossed) {
  moved_ = false;
  const int np = m.n_sensitivities, n = m.n_states, nz = m.n_indicators;
  int k = -1;
  for (int i = 0; crossed && i < nz && k < 0; ++i)
    if (crossed[i])
      k = i;
  if (k < 0)
    return 0;
  dx_.resize(static_cast<size_t>(n));
  z_.resize(static_cast<size_t>(nz));
  zp_.resize(static_cast<size_t>(nz) * static_cast<size_t>(np));
  tau_.assign(static_cast<size_t>(np), 0.0);
  if (int code = m.rhs(t, x, dx_.data(), a, p))
    return code;
  // The indicator's derivatives along the parameters with the sensitivities before the event.
  if (int code = m.indicator_sensitivities(t, x, dx_.data(), a, p, zp_.data()))
    return code;
  double dzdt = 0;
  if (int code = slope(m, t, x, a, p, k, dzdt))
    return code;
  if (!(std::fabs(dzdt) > 0) || !std::isfinite(dzdt)) {
    undefined_ = k;
    return stopCode(StopCode::SensitivityUndefined);
  }
  for (int j = 0; j < np; ++j) {
    tau_[static_cast<size_t>(j)] = -zp_[static_cast<size_t>(k * np + j)] / dzdt;
    p[m.n_params + m.sensitivity_event_time[j]] = tau_[static_cast<size_t>(j)];
    for (int i = 0; i < n; ++i)
      if (int s = m.sensitivity_state[j * n + i]; s >= 0)
        x[s] += dx_[static_cast<size_t>(i)] * tau_[static_cast<size_t>(j)];
  }
  moved_ = true;
  return 0;
}

int SensitivityJump::after(const eqc_model &m, double t, double *x, double *a, double *p) {
  if (!moved_)
    return 0;
  moved_ = false;
  const int np = m.n_sensitivities, n = m.n_states;
  if (int code = m.rhs(t, x, dx_.data(), a, p))
    return code;
  for (int j = 0; j < np; ++j) {
    for (int i = 0; i < n; ++i)
      if (int s = m.sensitivity_state[j * n + i]; s >= 0)
        x[s] -= dx_[static_cast<size_t>(i)] * tau_[static_cast<size_t>(j)];
    p[m.n_params + m.sensitivity_event_time[j]] = 0.0;
  }
  return 0;
}

int SensitivityJump::slope(const eqc_model &m, double t, const double *x, double *a, double *p, int k,
                           double &dzdt) {
  const int n = m.n_states;
  // The time the states (those with sensitivities) take to change by their own size.
  double xNorm = 0, fNorm = 0;
  for (int i = 0; i < n; ++i)
    if (m.sensitivity_state[i] >= 0) {
      xNorm = std::max(xNorm, std::fabs(x[i]));
      fNorm = std::max(fNorm, std::fabs(dx_[static_cast<size_t>(i)]));
    }
  double scale = fNorm > 0 ? (xNorm > 0 ? xNorm / fNorm : 1.0 / fNorm) : std::max(std::fabs(t), 1.0);
  const double h = std::max(1e-6 * scale, 1e-12 * std::fabs(t));
  aSaved_.assign(a, a + m.n_algebraics);
  shifted_.resize(static_cast<size_t>(n));
  dxShifted_.resize(static_cast<size_t>(n));
  auto at = [&](double dt, double &z) {
    for (int i = 0; i < n; ++i)
      shifted_[static_cast<size_t>(i)] = x[i] + dt * dx_[static_cast<size_t>(i)];
    std::copy(aSaved_.begin(), aSaved_.end(), a);
    int code = m.rhs(t + dt, shifted_.data(), dxShifted_.data(), a, p);
    if (code == 0)
      code = m.zc(t + dt, shifted_.data(), dxShifted_.data(), a, p, z_.data());
    z = z_[static_cast<size_t>(k)];
    return code;
  };
  double zl = 0, z0 = 0, zr = 0;
  const int left = at(-h, zl), right = at(h, zr);
  int code = 0;
  if (left == 0 && right == 0)
    dzdt = (zr - zl) / (2 * h);
  else if ((code = at(0, z0)) == 0 && (left == 0 || right == 0)) // one side fails: one-sided
    dzdt = left == 0 ? (z0 - zl) / h : (zr - z0) / h;
  else if (code == 0)
    code = left;
  std::copy(aSaved_.begin(), aSaved_.end(), a);
  return code;
}

} // namespace eqc::rt

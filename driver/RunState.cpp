// The integrator's callbacks: right-hand side, CSV rows, projection and state-selection hooks.
#include "driver/RunState.h"

#include "driver/Interrupt.h"

#include "driver/Initialize.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <climits>
#include <cstdio>

namespace eqc {

void gather(const OdeModel &m, const double *x, const double *dx, const double *a,
            const std::vector<double> &p, std::vector<double> &values) {
  values.resize(m.slots.size());
  for (size_t v = 0; v < m.slots.size(); ++v) {
    const Slot &s = m.slots[v];
    values[v] = s.storage == Storage::Param        ? p[s.index]
                : s.storage == Storage::Discrete   ? p[m.discreteOffset() + s.index]
                : s.storage == Storage::State      ? x[s.index]
                : s.storage == Storage::Derivative ? dx[s.index]
                                                   : a[s.index];
  }
}

/// The preference (selectStates) that cancels the weight of stateSelect = always; empty when no
/// variable has it.
static const std::vector<double> &withoutAlways(DummyRun &d, const FlatSystem &flat) {
  if (!d.withoutAlwaysDone) {
    d.withoutAlwaysDone = true;
    for (size_t v = 0; v < flat.vars.size(); ++v) {
      int integral = flat.vars[v].derivativeOf;
      if (flat.vars[v].role == VarRole::Derivative && integral >= 0 &&
          flat.vars[integral].stateSelect == StateSelect::Always) {
        d.withoutAlways.resize(flat.vars.size(), 1.0);
        d.withoutAlways[v] = 1.0 / kAlwaysWeight;
      }
    }
  }
  return d.withoutAlways;
}

/// After every accepted step of a dummy-derivative mode: is the state selection still good?
int dummyHook(void *user, double t, double *x) {
  auto *s = static_cast<RunState *>(user);
  DummyRun &d = *s->dummy;
  if (x != d.stepState || t >= s->tEnd)
    return 0; // an interpolated output point, or the last step: nothing to decide there
  Mode &m = *d.active;
  s->applyInputs(t);
  if (m.jit->rhs(t, x, s->scratchDx.data(), s->a.data(), s->p.data()))
    return 0; // the integrator reports failures of rhs itself
  gather(m.model, x, s->scratchDx.data(), s->a.data(), s->p, d.values);
  d.acceptedA = s->a;
  ++d.checks;
  const FlatSystem &flat = *d.c->flat;
  double q = selectionQuality(flat, *d.c->reduced, m.selection, d.values, t, *d.diff);
  if (q >= d.threshold)
    return 0;
  bool ok;
  // stateSelect = always (MLS §4.8.8.1: the variable must be a state) is never given up: where
  // the selection degrades and a selection chosen without that preference would be better but
  // drops such a state, the run goes on as the ODE with invariants, where every candidate is a
  // state (the always-weighted choice would keep the degraded selection to the singular point).
  const std::vector<double> &unbiased = withoutAlways(d, flat);
  StateSelection best =
      selectStates(flat, *d.c->reduced, d.values, t, *d.diff, ok, unbiased.empty() ? nullptr : &unbiased);
  if (ok && best.quality > 2 * q)
    for (int v : m.selection.states)
      if (flat.vars[v].stateSelect == StateSelect::Always &&
          !std::binary_search(best.states.begin(), best.states.end(), v)) {
        d.fallbackReason = "no state selection keeps '" + flat.vars[v].name + "' (stateSelect = always) a state here";
        return kFallbackCode;
      }
  if (!unbiased.empty())
    best = selectStates(flat, *d.c->reduced, d.values, t, *d.diff, ok);
  if (!ok || best == m.selection || !(best.quality > 2 * q))
    return 0;
  d.pending = best;
  return kSwitchCode;
}

/// Stabilization by projection: after every accepted step, back onto the invariants.
int projectionHook(void *user, double t, double *x) {
  auto *s = static_cast<RunState *>(user);
  double residual;
  ++s->projections;
  int status = s->projector->projectAll(t, x, kProjectionTol, &residual);
  return status == EQC_OK ? 0 : kProjectionFailureBase + status;
}

int projectAfterReinit(RunState &s, const OdeModel &base, double t, const std::vector<int> &reinitialized,
                       std::vector<double> &values) {
  int lowest = INT_MAX;
  for (int v : reinitialized)
    lowest = std::min(lowest, s.kinematicLevels[v]);
  auto isReinitialized = [&](int v) {
    return std::find(reinitialized.begin(), reinitialized.end(), v) != reinitialized.end();
  };
  std::vector<double> x(base.states.size());
  int status = EQC_OK;
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::vector<int> movable;
    for (size_t i = 0; i < base.states.size(); ++i) {
      int v = base.states[i];
      x[i] = values[v];
      bool held = attempt < 2 && isReinitialized(v);
      held = held || (attempt == 0 && s.integrated[v] && s.kinematicLevels[v] < lowest);
      if (!held)
        movable.push_back(static_cast<int>(i));
    }
    double residual;
    ++s.projections;
    status = s.projector->project(t, x.data(), movable, kProjectionTol, &residual, /*reachableOnly=*/attempt == 0);
    if (status == EQC_OK) {
      for (size_t i = 0; i < base.states.size(); ++i)
        values[base.states[i]] = x[i];
      return 0;
    }
  }
  return kProjectionFailureBase + status;
}

/// Seconds on a monotonic clock.
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Redraws the progress line at most five times a second.
static void showProgress(RunState &s, double t) {
  double wall = now();
  if (wall - s.progressStart < 1.0 || wall - s.progressLast < 0.2)
    return;
  s.progressLast = wall;
  double done = std::clamp((t - s.tStart) / (s.tEnd - s.tStart), 0.0, 1.0);
  int filled = static_cast<int>(done * 30);
  std::fprintf(stderr, "\r[%.*s%.*s] time %.6g of %.6g (%3.0f%%), %.3g simulated s per s ", filled,
               "##############################", 30 - filled, "..............................", t, s.tEnd, done * 100,
               (t - s.tStart) / (wall - s.progressStart));
  std::fflush(stderr);
}

void finishProgress(RunState &s) {
  if (s.progress && s.progressLast > 0) {
    std::fprintf(stderr, "\r%*s\r", 110, "");
    std::fflush(stderr);
  }
}

void startProgress(RunState &s, double tStart, double tEnd) {
  s.tStart = tStart;
  s.tEnd = tEnd;
  s.progressStart = now();
  s.progressLast = 0;
}

bool startTierWhenDue(RunState &s) {
  if (!s.jit->tiered() || s.jit->tierStarted() || now() - s.runStart < s.tierAfter)
    return false;
  s.jit->startTier();
  return true;
}

int rhsCallback(void *user, double t, const double *x, double *dx) {
  auto *s = static_cast<RunState *>(user);
  if (pendingInterrupt())
    return kInterruptCode;
  if ((++s->rhsCalls & 63) == 0)
    startTierWhenDue(*s);
  if (s->dummy && s->dummy->acceptedA.size() == s->a.size())
    std::copy(s->dummy->acceptedA.begin(), s->dummy->acceptedA.end(), s->a.begin());
  s->applyInputs(t);
  int code = s->jit->rhs(t, x, dx, s->a.data(), s->p.data());
  if (code == 0)
    return 0;
  s->rhsCode = code;
  return code | EQC_RHS_RETRY;
}

int jacCallback(void *user, double t, const double *x, double *values) {
  auto *s = static_cast<RunState *>(user);
  eqc_model_jac_fn fn = s->jit->jacobian();
  if (!fn)
    return 1;
  // The generated Jacobian reads the algebraic variables and derivatives at (t, x).
  s->applyInputs(t);
  if (int code = s->jit->rhs(t, x, s->scratchDx.data(), s->a.data(), s->p.data()))
    return code;
  return fn(t, x, s->scratchDx.data(), s->a.data(), s->p.data(), values);
}

static int prepareJacobian(void *user, eqc_jacobian *jac) {
  auto *s = static_cast<RunState *>(user);
  const SparsityPattern *pattern = s->jit->jacobianPattern();
  if (!pattern)
    return 1;
  s->sparsity = {static_cast<int>(pattern->nnz()), pattern->colStart.data(), pattern->rowIndex.data()};
  jac->pattern = &s->sparsity;
  jac->sparse = jacCallback;
  return 0;
}

void applyStateTolerances(RunState &s, const OdeModel &m, eqc_options &o) {
  if (s.variableAtol.empty()) {
    o.atol_vector = nullptr;
    return;
  }
  s.atolStates.resize(m.states.size());
  for (size_t i = 0; i < m.states.size(); ++i)
    s.atolStates[i] = s.variableAtol[m.states[i]];
  o.atol_vector = s.atolStates.data();
}

eqc_jacobian modelJacobian(RunState &s) {
  eqc_jacobian jac{};
  jac.user = &s;
  jac.prepare = prepareJacobian;
  jac.solver = s.linearSolver;
  return jac;
}

static void appendNumber(std::string &line, double v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  line.append(buf, res.ptr);
}

int outputCallback(void *user, double t, const double *x) {
  auto *s = static_cast<RunState *>(user);
  if (t == s->skipOutputAt) {
    s->skipOutputAt = NAN;
    return 0;
  }
  // The algebraic variables and derivatives at an output point come from one more rhs call.
  s->applyInputs(t);
  int code = s->jit->rhs(t, x, s->scratchDx.data(), s->a.data(), s->p.data());
  if (code) {
    s->rhsCode = code;
    return code;
  }
  if (s->projector) {
    const double *xi = x;
    if (s->dummy && s->dummy->active) { // the invariants of the Pantelides form at this mode's solution
      DummyRun &d = *s->dummy;
      gather(d.active->model, x, s->scratchDx.data(), s->a.data(), s->p, d.values);
      const OdeModel &base = *d.c->model;
      d.invariantX.resize(base.states.size());
      for (size_t i = 0; i < base.states.size(); ++i)
        d.invariantX[i] = d.values[base.states[i]];
      xi = d.invariantX.data();
    }
    int which = -1;
    double r = s->projector->maxResidual(t, xi, &which);
    if (!(r <= s->worstInvariant)) {
      s->worstInvariant = r;
      s->worstInvariantTime = t;
      s->worstInvariantIndex = which;
    }
  }
  return writeRow(*s, t, x, s->scratchDx.data(), s->a.data(), s->p.data());
}

int writeRow(RunState &rs, double t, const double *x, const double *dx, const double *a, const double *p) {
  RunState *s = &rs;
  if (s->progress)
    showProgress(*s, t);
  // --every N: keep every N-th output row, and always the last one.
  if (s->every > 1 && (s->outputIndex++ % s->every) != 0 && t < s->tEnd)
    return 0;
  s->line.clear();
  s->row.clear();
  appendNumber(s->line, t);
  s->row.push_back(t);
  for (size_t k = 0; k < s->columns.size(); ++k) {
    const Slot &col = (*s->slots)[s->columns[k]];
    s->line += ',';
    double v = col.storage == Storage::State        ? x[col.index]
               : col.storage == Storage::Derivative ? dx[col.index]
               : col.storage == Storage::Algebraic  ? a[col.index]
               : col.storage == Storage::Discrete   ? p[s->discreteOffset + col.index]
                                                    : p[col.index];
    appendNumber(s->line, v);
    s->row.push_back(v);
    if (s->recordForPlot)
      s->plotColumns[k].push_back(v);
  }
  if (s->recordForPlot)
    s->plotTime.push_back(t);
  bool ok;
  if (s->binary) {
    ok = std::fwrite(s->row.data(), sizeof(double), s->row.size(), s->file) == s->row.size();
  } else {
    s->line += '\n';
    ok = std::fwrite(s->line.data(), 1, s->line.size(), s->file) == s->line.size();
  }
  if (!ok) {
    s->writeFailed = true;
    return 1;
  }
  return 0;
}

std::string brief(double v, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

} // namespace eqc

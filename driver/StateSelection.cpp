// Dummy derivatives with dynamic state selection: choose dof states at the consistent point,
// integrate the index-1 system of that choice, choose again where its pivots degrade or a step
// fails, and fall back to the ODE with invariants where no choice can go on.
#include "driver/RunState.h"

#include "driver/Events.h"
#include "driver/Initialize.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

namespace eqc {

bool computeInitialSelection(Compilation &c, double t0, std::ostream &err) {
  InitialPoint ip;
  std::unique_ptr<InvariantProjector> projector;
  if (consistentInitialPoint(c, {}, t0, ip, projector, err) != ExitOk)
    return false;
  std::vector<double> values;
  gather(*c.model, ip.x.data(), ip.dx.data(), ip.a.data(), ip.p, values);
  Differentiator diff(*c.flat->ctx);
  bool ok;
  StateSelection sel = selectStates(*c.flat, *c.reduced, values, t0, diff, ok);
  if (!ok)
    return false;
  c.initialSelection = sel;
  c.initialTime = t0;
  c.initialValues = std::move(values);
  return true;
}

namespace {

/// How many selections may fail in a row, at one point, before the run falls back.
constexpr int kFailuresBeforeFallback = 3;
/// How much less a derivative is wanted as a dummy after its selection failed.
constexpr double kFailedDummyPenalty = 1e-3;

/// The compiled mode of `sel`, compiled on first use; null (with `failed` set) when it cannot be.
Mode *modeFor(Compilation &c, DummyRun &d, const StateSelection &sel, ExitCode &failed, std::ostream &err) {
  for (auto &m : d.modes)
    if (m->selection == sel)
      return m.get();
  auto m = std::make_unique<Mode>();
  m->selection = sel;
  m->model = setupDummyDerivativeModel(*c.flat, *c.reduced, sel);
  if (!causalizeOdeModel(*c.flat, m->model, *c.diags)) {
    failed = ExitStructure;
    return nullptr;
  }
  BackendOptions backend;
  backend.optLevel = c.optLevel;
  backend.cacheDirectory = c.cacheDirectory;
  std::string error;
  m->jit = jitCompile(*c.flat, m->model, backend, error);
  if (!m->jit) {
    err << "eqc: internal error: JIT compilation of a state selection failed: " << error << "\n";
    failed = ExitInternal;
    return nullptr;
  }
  d.modes.push_back(std::move(m));
  return d.modes.back().get();
}

void accumulate(eqc_stats &total, const eqc_stats &seg) {
  total.steps += seg.steps;
  total.rejected += seg.rejected;
  total.rhs_evals += seg.rhs_evals;
  total.outputs += seg.outputs;
  total.jac_evals += seg.jac_evals;
  total.lu_decompositions += seg.lu_decompositions;
  total.newton_iterations += seg.newton_iterations;
  total.events += seg.events;
  total.method_used = seg.method_used;
  if (seg.linear_solver != EQC_LINEAR_AUTO)
    total.linear_solver = seg.linear_solver;
  if (std::isnan(total.switch_time) && !std::isnan(seg.switch_time))
    total.switch_time = seg.switch_time;
  total.t_reached = seg.t_reached;
  total.h_last = seg.h_last;
  total.failed_component = seg.failed_component;
  total.rhs_code = seg.rhs_code;
  total.t_event = seg.t_event;
  total.event_indicator = seg.event_indicator;
}

/// Whether a segment that stopped with `status` may have failed because of its state selection:
/// a block that did not converge or was singular, a non-finite value, a step size that collapsed.
/// Not an interrupt, the event iteration, chattering or the step limit.
bool selectionMayBeAtFault(int status, const eqc_stats &seg) {
  switch (status) {
  case EQC_ERR_RHS: {
    int code = seg.rhs_code & ~EQC_RHS_RETRY;
    return code != kInterruptCode && code != kEventIterationCode && code != kIdleEventsCode &&
           code != EQC_MODEL_EVENT_TERMINATE;
  }
  case EQC_ERR_NONFINITE:
    return seg.failed_component >= 0 || seg.event_indicator < 0;
  case EQC_ERR_STEP_UNDERFLOW:
  case EQC_ERR_NEWTON:
  case EQC_ERR_SINGULAR:
    return true;
  default:
    return false;
  }
}

/// "Newton's method did not converge solving …": what stopped a segment, for --stats.
std::string describeFailure(const Compilation &c, const OdeModel &m, int status, const eqc_stats &seg) {
  if (status == EQC_ERR_RHS)
    return describeModelCode(c, m.ode, m.simulation, seg.rhs_code & ~EQC_RHS_RETRY);
  std::string why = eqc_status_message(status);
  if (!why.empty() && why.back() == '.')
    why.pop_back();
  if (!why.empty())
    why[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(why[0])));
  return why;
}

/// Points `s` at the engine (a mode, or the ODE with invariants) and loads its states and
/// algebraic variables from d.values.
void activate(RunState &s, DummyRun &d, const OdeModel &m, JitModel &jit, std::vector<double> &x) {
  x.assign(m.states.size(), 0.0);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = d.values[m.states[i]];
  s.a.assign(m.algebraics.size(), 0.0);
  for (size_t i = 0; i < s.a.size(); ++i)
    s.a[i] = d.values[m.algebraics[i]];
  s.scratchDx.assign(x.size(), 0.0);
  d.acceptedA = s.a;
  s.jit = &jit;
  s.slots = &m.slots;
  s.sparsity = {};
  d.stepState = x.data();
}

/// After a reinit (EventRun::afterReinit), in a mode or in the ODE with invariants: the point
/// projected onto the hidden constraints of c.model holding the reinitialized values, then the
/// active engine's states from it.
int reprojectAfterReinit(Compilation &c, RunState &s, DummyRun &d, const EventRun &e, double t, double *x,
                         const std::vector<int> &reinitialized) {
  const OdeModel &m = d.active ? d.active->model : *c.model;
  gather(m, x, e.dx.data(), s.a.data(), s.p, d.values);
  if (int code = projectAfterReinit(s, *c.model, t, reinitialized, d.values))
    return code;
  for (size_t i = 0; i < m.states.size(); ++i)
    x[i] = d.values[m.states[i]];
  return 0;
}

/// Decides how a segment of `mode` that stopped at t (d.values there) goes on: true with
/// d.pending set for the next selection, false (with the reason) for the fall-back.
bool nextAfterFailure(Compilation &c, DummyRun &d, const Mode &mode, double t, bool progress,
                      const std::string &why) {
  if (progress) {
    d.failuresHere = 0;
    std::fill(d.preference.begin(), d.preference.end(), 1.0);
  }
  for (int v : mode.selection.dummies)
    d.preference[v] *= kFailedDummyPenalty;
  bool ok;
  StateSelection next = selectStates(*c.flat, *c.reduced, d.values, t, *d.diff, ok, &d.preference);
  for (int v : mode.selection.states) // stateSelect = always is not given up (see dummyHook)
    if (ok && c.flat->vars[v].stateSelect == StateSelect::Always &&
        !std::binary_search(next.states.begin(), next.states.end(), v)) {
      d.fallbackReason = "a step failed (" + why + ") and no other state selection keeps '" + c.flat->vars[v].name +
                         "' (stateSelect = always) a state";
      return false;
    }
  if (ok && !(next == mode.selection) && ++d.failuresHere <= kFailuresBeforeFallback) {
    d.pending = next;
    d.switches.push_back({t, describeStates(*c.flat, mode.selection), describeStates(*c.flat, next), why});
    return true;
  }
  d.fallbackReason = "a step failed (" + why + ") and " +
                     (ok && !(next == mode.selection) ? std::to_string(kFailuresBeforeFallback) +
                                                            " other state selections failed here too"
                                                      : std::string("no other state selection is nonsingular here"));
  return false;
}

} // namespace

int integrateWithStateSelection(Compilation &c, RunState &s, DummyRun &d, EventRun *events, const eqc_options &o,
                                std::vector<double> &x, eqc_stats &stats, const OdeModel *&active,
                                ExitCode &failed, std::ostream &err) {
  FlatSystem &flat = *c.flat;
  d.diff = std::make_unique<Differentiator>(*flat.ctx);
  d.preference.assign(flat.vars.size(), 1.0);
  std::memset(&stats, 0, sizeof stats);
  stats.switch_time = NAN;
  stats.t_event = NAN;
  stats.event_indicator = -1;
  double t = o.t_start;
  bool ok;
  d.pending = selectStates(flat, *c.reduced, d.values, t, *d.diff, ok);
  bool fallback = !ok;
  if (fallback) {
    d.fallbackTime = t;
    d.fallbackReason = "no state selection has nonsingular dummy blocks at the consistent initial point";
  }
  if (events) {
    s.kinematicLevels = kinematicLevels(flat, &s.integrated);
    events->afterReinit = [&c, &s, &d, events](double te, double *xe, const std::vector<int> &held) {
      return reprojectAfterReinit(c, s, d, *events, te, xe, held);
    };
  }
  int status = EQC_OK;
  for (int segment = 0;; ++segment) {
    Mode *mode = nullptr;
    if (!fallback && !(mode = modeFor(c, d, d.pending, failed, err)))
      return status;
    d.active = mode;
    const OdeModel &m = mode ? mode->model : *c.model;
    JitModel &jit = mode ? *mode->jit : *c.jit;
    active = &m;
    activate(s, d, m, jit, x);
    if (!mode) { // the ODE with invariants starts on them
      double residual;
      if (int code = s.projector->projectAll(t, x.data(), kProjectionTol, &residual)) {
        c.diags->error(flat.loc, "at time " + brief(t) + ": dummy derivatives fell back to the ODE with invariants (" +
                                     d.fallbackReason + "), but the projection onto its hidden constraints failed: " +
                                     eqc_status_message(code));
        failed = ExitSimulation;
        return status;
      }
    }
    eqc_options segmentOptions = o;
    applyStateTolerances(s, m, segmentOptions);
    segmentOptions.t_start = t;
    segmentOptions.output_origin = o.t_start;
    if (segment > 0)
      s.skipOutputAt = t;
    eqc_events ev{};
    if (events) {
      // The conditions go on from the discrete variables (the same layout of p in every mode).
      setupEvents(*events, flat, m, s);
      ev.nz = static_cast<int>(events->indicators());
      ev.zc = eventIndicators;
      ev.handle = eventHandler;
      ev.user = events;
      ev.conditions = events->iteration.conditions().data();
      ev.at_zero = events->holdsAtZero.data();
    }
    eqc_stats seg;
    eqc_jacobian jacobian = modelJacobian(s);
    status = eqc_integrate_events(static_cast<int>(x.size()), rhsCallback, &s, &jacobian, x.data(), &segmentOptions,
                                  outputCallback, &s, mode ? dummyHook : projectionHook, &s, &ev, &seg);
    accumulate(stats, seg);
    if (status == EQC_OK || !mode)
      break;
    const bool switchAsked = status == EQC_ERR_RHS && seg.rhs_code == kSwitchCode;
    const bool fallbackAsked = status == EQC_ERR_RHS && seg.rhs_code == kFallbackCode;
    if (!switchAsked && !fallbackAsked && !selectionMayBeAtFault(status, seg))
      break;
    // The values of every variable at the last accepted point (where x is); if rhs fails there,
    // those of the last check.
    if (jit.rhs(seg.t_reached, x.data(), s.scratchDx.data(), s.a.data(), s.p.data()) == 0)
      gather(m, x.data(), s.scratchDx.data(), s.a.data(), s.p, d.values);
    const bool progress = seg.t_reached > t;
    t = seg.t_reached;
    if (switchAsked) {
      d.failuresHere = 0;
      std::fill(d.preference.begin(), d.preference.end(), 1.0);
      d.switches.push_back({t, describeStates(flat, mode->selection), describeStates(flat, d.pending), {}});
    } else if (fallbackAsked || !nextAfterFailure(c, d, *mode, t, progress, describeFailure(c, m, status, seg))) {
      fallback = true;
    }
    if (!fallback && (d.switches.size() > 10000 ||
                      (d.switches.size() > 100 &&
                       t - d.switches[d.switches.size() - 100].t < 1e-6 * (o.t_end - o.t_start)))) {
      fallback = true;
      d.fallbackReason = "the state selection switches without end (" + std::to_string(d.switches.size()) +
                         " switches)";
    }
    if (fallback)
      d.fallbackTime = t;
  }
  return status;
}

} // namespace eqc

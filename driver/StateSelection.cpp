// Dummy derivatives with dynamic state selection: choose dof states at the consistent point,
// integrate the index-1 system of that choice, choose again where its pivots degrade or a step
// fails, and fall back to the ODE with invariants where no choice can go on.
#include "driver/RunState.h"

#include "driver/EngineRun.h"
#include "driver/Events.h"
#include "driver/Initialize.h"
#include "runtime/src/SimulationDriver.h"

#include <algorithm>
#include <cctype>
#include <chrono>
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

/// The compiled mode of `sel` with its model table (the parameters of `p`), compiled on first use;
/// null (with `failed` set) when it cannot be.
Mode *modeFor(Compilation &c, DummyRun &d, const StateSelection &sel, const double *p, ExitCode &failed,
              std::ostream &err) {
  for (auto &m : d.modes)
    if (m->selection == sel)
      return m.get();
  // Each selection's compilation is timed as its own phases (--time-passes, --stats).
  using Clock = std::chrono::steady_clock;
  auto phase = [&c](const char *name, Clock::time_point since) {
    c.timings.emplace_back(std::string("state selection: ") + name,
                           std::chrono::duration<double>(Clock::now() - since).count());
  };
  auto begin = Clock::now();
  auto m = std::make_unique<Mode>();
  m->selection = sel;
  m->model = setupDummyDerivativeModel(*c.flat, *c.reduced, sel);
  phase("reduce", begin);
  begin = Clock::now();
  if (!causalizeOdeModel(*c.flat, m->model, *c.diags)) {
    failed = ExitStructure;
    return nullptr;
  }
  phase("causalize", begin);
  BackendOptions backend;
  backend.optLevel = c.optLevel;
  backend.loops = c.loops;
  backend.cacheDirectory = c.cacheDirectory;
  backend.timePhase = [&c](const char *name, double seconds) {
    c.timings.emplace_back(std::string("state selection: ") + name, seconds);
  };
  std::string error;
  m->jit = jitCompile(*c.flat, m->model, backend, error);
  if (!m->jit) {
    err << "eqc: internal error: JIT compilation of a state selection failed: " << error << "\n";
    failed = ExitInternal;
    return nullptr;
  }
  InitialPoint values;
  values.p.assign(p, p + m->model.pSize());
  values.x.assign(m->model.states.size(), 0.0);
  values.a.assign(m->model.algebraics.size(), 0.0);
  begin = Clock::now();
  m->table = ModelTable::forRun(*c.flat, m->model, *m->jit, values);
  phase("table", begin);
  if (!m->table) {
    err << "eqc: internal error: the table of a state selection could not be made\n";
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
    return code != kEventIterationCode && code != kIdleEventsCode &&
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


/// Dummy derivatives with dynamic state selection on one eqc_sim: initialized as the ODE with
/// invariants (c.model), then segments, each a compiled selection's table (or, after the
/// fall-back, c.model's with projection) switched in at the point where the last one stopped.
class DummyDerivativesRun final : public EngineRun {
public:
  using EngineRun::EngineRun;
  /// The simulation first: it runs one of this run's tables, which must outlive it (eqc_sim_new).
  ~DummyDerivativesRun() override { sim_.reset(); }

  ExitCode initialize(std::vector<double> &values, std::vector<double> &states, std::ostream &err) override {
    if (ExitCode e = EngineRun::initialize(values, states, err); e != ExitOk)
      return e;
    d_.values = values;
    return ExitOk;
  }

  ExitCode integrate(RunOutcome &r, std::ostream &err) override;

private:
  /// Is the state selection still good at this accepted step? (d_.request says what to do.)
  int monitor(double t, const double *x) override;
  /// The row, and the residual of c.model's invariants at the point (from the mode's values).
  int row(double t, const double *x, const double *dx, const double *a) override;
  /// After a reinit: the point projected onto c.model's hidden constraints holding the
  /// reinitialized values, then the active engine's states from it.
  int reproject(double t, double *x, const double *dx, double *a, const std::vector<int> &moved);
  /// The values of every variable at the end of the last segment (if rhs succeeded there).
  void valuesAtEnd(const OdeModel &m);
  /// The run ends at the segment's end: r from it and the driver's counts.
  void finish(RunOutcome &r, const eqc_stats &stats, const OdeModel &active);

  enum class Request { None, Switch, Fallback };
  DummyRun d_;
  Request request_ = Request::None;
  std::unique_ptr<InvariantProjector> projector_; ///< c.model's invariants, reading the simulation's p
  const OdeModel *activeModel_ = nullptr;
  std::vector<int> vars_; // scratch
};

int DummyDerivativesRun::monitor(double t, const double *x) {
  DummyRun &d = d_;
  if (!d.active || t >= s_.tEnd || !rt::simulationReport(sim_.get()).acceptedPointValid)
    return 0; // the ODE with invariants, the last step, or rhs failed there (the integrator reports that)
  Mode &m = *d.active;
  gather(m.model, x, eqc_sim_derivatives(sim_.get()), eqc_sim_algebraics(sim_.get()), parameters(), d.values);
  ++d.checks;
  const FlatSystem &flat = *c_.flat;
  if (d.inputsOf != &m) {
    d.inputsOf = &m;
    d.inputs = selectionInputs(flat, *c_.reduced, m.selection, d.values, t, *d.diff);
    d.inputsGood = false;
  }
  const bool memo = d.inputs.known && !d.inputs.time;
  if (memo && d.inputsGood &&
      std::equal(d.inputs.vars.begin(), d.inputs.vars.end(), d.inputValues.begin(),
                 [&](int v, double last) { return d.values[static_cast<size_t>(v)] == last; })) {
    ++d.checksSkipped; // the quality found good at the last check, from the same values
    return 0;
  }
  if (++d.sinceCheck < d.checkSpacing) {
    ++d.checksDeferred;
    return 0;
  }
  d.sinceCheck = 0;
  double q = selectionQuality(flat, *c_.reduced, m.selection, d.values, t, *d.diff);
  const bool kept = d.keptQuality > 0 && q >= DummyRun::kSteady * d.keptQuality;
  const bool steady = q >= DummyRun::kComfortable * d.threshold || kept ||
                      (q >= d.threshold && d.lastQuality > 0 && q >= DummyRun::kSteady * d.lastQuality);
  d.checkSpacing = steady ? std::min(2 * d.checkSpacing, DummyRun::kMaxCheckSpacing) : 1;
  d.lastQuality = q;
  if (q < d.threshold && kept)
    return 0; // no better selection was found at this quality
  if (q >= d.threshold) {
    if (memo) {
      d.inputValues.clear();
      for (int v : d.inputs.vars)
        d.inputValues.push_back(d.values[static_cast<size_t>(v)]);
      d.inputsGood = true;
    }
    return 0;
  }
  d.inputsGood = false;
  bool ok;
  // stateSelect = always (MLS §4.8.8.1: the variable must be a state) is never given up: where
  // the selection degrades and a selection chosen without that preference would be better but
  // drops such a state, the run goes on as the ODE with invariants, where every candidate is a
  // state (the always-weighted choice would keep the degraded selection to the singular point).
  const std::vector<double> &unbiased = withoutAlways(d, flat);
  StateSelection best =
      selectStates(flat, *c_.reduced, d.values, t, *d.diff, ok, unbiased.empty() ? nullptr : &unbiased);
  if (ok && best.quality > 2 * q)
    for (int v : m.selection.states)
      if (flat.vars[v].stateSelect == StateSelect::Always &&
          !std::binary_search(best.states.begin(), best.states.end(), v)) {
        d.fallbackReason = "no state selection keeps '" + flat.vars[v].name + "' (stateSelect = always) a state here";
        request_ = Request::Fallback;
        return 1;
      }
  if (!unbiased.empty())
    best = selectStates(flat, *c_.reduced, d.values, t, *d.diff, ok);
  if (!ok || best == m.selection || !(best.quality > 2 * q)) {
    d.keptQuality = q;
    return 0;
  }
  d.pending = best;
  request_ = Request::Switch;
  return 1;
}

int DummyDerivativesRun::row(double t, const double *x, const double *dx, const double *a) {
  const double *xi = x;
  DummyRun &d = d_;
  if (d.active) { // the invariants of the Pantelides form at this mode's solution
    gather(d.active->model, x, dx, a, parameters(), d.values);
    const OdeModel &base = *c_.model;
    d.invariantX.resize(base.states.size());
    for (size_t i = 0; i < base.states.size(); ++i)
      d.invariantX[i] = d.values[base.states[i]];
    xi = d.invariantX.data();
  }
  int which = -1;
  double residual = projector_->maxResidual(t, xi, &which);
  if (!(residual <= s_.worstInvariant)) {
    s_.worstInvariant = residual;
    s_.worstInvariantTime = t;
    s_.worstInvariantIndex = which;
  }
  return EngineRun::row(t, x, dx, a);
}

int DummyDerivativesRun::reproject(double t, double *x, const double *dx, double *a, const std::vector<int> &moved) {
  const OdeModel &m = *activeModel_;
  const size_t n = m.states.size();
  vars_.clear();
  for (int i : moved)
    vars_.push_back(static_cast<size_t>(i) < n ? m.states[static_cast<size_t>(i)] : m.algebraics[i - n]);
  gather(m, x, dx, a, parameters(), d_.values);
  if (int code = projectAfterReinit(s_, *c_.model, t, vars_, d_.values))
    return code;
  for (size_t i = 0; i < n; ++i)
    x[i] = d_.values[m.states[i]];
  return 0;
}

void DummyDerivativesRun::valuesAtEnd(const OdeModel &m) {
  eqc_sim *sim = sim_.get();
  if (rt::simulationReport(sim).endPointValid)
    gather(m, eqc_sim_states(sim), eqc_sim_derivatives(sim), eqc_sim_algebraics(sim), parameters(), d_.values);
}

void DummyDerivativesRun::finish(RunOutcome &r, const eqc_stats &stats, const OdeModel &active) {
  r.stats = stats;
  r.active = &active;
  r.worstInvariant = s_.worstInvariant;
  r.worstInvariantTime = s_.worstInvariantTime;
  r.worstInvariantIndex = s_.worstInvariantIndex;
  r.projections = s_.projections;
  r.dummy = &d_;
  fillOutcome(r);
}

ExitCode DummyDerivativesRun::integrate(RunOutcome &r, std::ostream &err) {
  FlatSystem &flat = *c_.flat;
  const OdeModel &base = *c_.model;
  DummyRun &d = d_;
  eqc_sim *sim = sim_.get();
  d.c = &c_;
  s_.dummy = &d;
  d.diff = std::make_unique<Differentiator>(*flat.ctx);
  d.preference.assign(flat.vars.size(), 1.0);
  projector_ = std::make_unique<InvariantProjector>(*c_.jit, base, parameters());
  s_.projector = projector_.get();
  if (base.hasEventPart()) {
    s_.kinematicLevels = kinematicLevels(flat, &s_.integrated);
    rt::setReinitHook(sim, [this](double t, double *x, const double *dx, double *a, const std::vector<int> &moved) {
      return reproject(t, x, dx, a, moved);
    });
  }
  eqc_stats stats;
  std::memset(&stats, 0, sizeof stats);
  stats.switch_time = NAN;
  stats.t_event = NAN;
  stats.event_indicator = -1;
  double t = o_.t_start;
  bool ok;
  d.pending = selectStates(flat, *c_.reduced, d.values, t, *d.diff, ok);
  bool fallback = !ok;
  if (fallback) {
    d.fallbackTime = t;
    d.fallbackReason = "no state selection has nonsingular dummy blocks at the consistent initial point";
  }
  eqc_options segmentOptions = o_;
  segmentOptions.output_origin = o_.t_start;
  int status = EQC_OK;
  for (int segment = 0;; ++segment) {
    Mode *mode = nullptr;
    ExitCode failed = ExitOk;
    if (!fallback && !(mode = modeFor(c_, d, d.pending, parameters(), failed, err)))
      return failed;
    d.active = mode;
    d.checkSpacing = 1; // a new segment (a switch, a failed step): check from its first step
    d.sinceCheck = 0;
    d.lastQuality = d.keptQuality = 0;
    const OdeModel &m = mode ? mode->model : base;
    JitModel &jit = mode ? *mode->jit : *c_.jit;
    activeModel_ = &m;
    // The engine's states and algebraic variables from the values where the last one stopped.
    std::vector<double> x(m.states.size()), a(m.algebraics.size());
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = d.values[m.states[i]];
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = d.values[m.algebraics[i]];
    if (!mode) { // the ODE with invariants starts on them
      double residual;
      if (int code = projector_->projectAll(t, x.data(), kProjectionTol, &residual)) {
        c_.diags->error(flat.loc, "at time " + brief(t) + ": dummy derivatives fell back to the ODE with invariants (" +
                                      d.fallbackReason + "), but the projection onto its hidden constraints failed: " +
                                      eqc_status_message(code));
        return ExitSimulation;
      }
    }
    activeTable_ = mode ? mode->table.get() : table_.get();
    rt::switchModel(sim, &activeTable_->model(), x.data(), a.data(), /*project=*/!mode, /*skipStartRow=*/segment > 0);
    // A mode's Newton guesses come from its last accepted step; the ODE with invariants keeps
    // the ones it started with.
    rt::setGuessPolicy(sim, mode ? rt::GuessPolicy::Accepted : rt::GuessPolicy::Fixed);
    s_.jit = &jit;
    // The segment's code is compiled by now: its optimized tier is worth a core once the segment
    // has run as long as the compilation took (not counting the compilation itself).
    s_.runStart = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    s_.slots = &m.slots;
    s_.sparsity = {};
    configure(segmentOptions, m);
    request_ = Request::None;
    status = eqc_sim_run(sim, o_.t_end, writeRow, static_cast<EngineRun *>(this));
    const eqc_stats seg = *eqc_sim_stats(sim, nullptr);
    accumulate(stats, seg);
    if (status == EQC_OK || !mode)
      break;
    const bool switchAsked = status == EQC_ERR_STOPPED && request_ == Request::Switch;
    const bool fallbackAsked = status == EQC_ERR_STOPPED && request_ == Request::Fallback;
    if (!switchAsked && !fallbackAsked && !selectionMayBeAtFault(status, seg))
      break;
    // The values of every variable at the last accepted point (where the run stopped); if rhs
    // fails there, those of the last check.
    valuesAtEnd(m);
    const bool progress = seg.t_reached > t;
    t = seg.t_reached;
    if (switchAsked) {
      d.failuresHere = 0;
      std::fill(d.preference.begin(), d.preference.end(), 1.0);
      d.switches.push_back({t, describeStates(flat, mode->selection), describeStates(flat, d.pending), {}});
    } else if (fallbackAsked || !nextAfterFailure(c_, d, *mode, t, progress, describeFailure(c_, m, status, seg))) {
      fallback = true;
    }
    if (!fallback && (d.switches.size() > 10000 ||
                      (d.switches.size() > 100 &&
                       t - d.switches[d.switches.size() - 100].t < 1e-6 * (o_.t_end - o_.t_start)))) {
      fallback = true;
      d.fallbackReason = "the state selection switches without end (" + std::to_string(d.switches.size()) +
                         " switches)";
    }
    if (fallback)
      d.fallbackTime = t;
  }
  r.status = terminalEvent(status);
  finish(r, stats, *activeModel_);
  return ExitOk;
}

} // namespace

std::unique_ptr<Run> makeDummyDerivativesRun(Compilation &c, const SimulateOptions &opt, eqc_options &o, RunState &s,
                                             const InputSeries *inputs) {
  return std::make_unique<DummyDerivativesRun>(c, opt, o, s, inputs);
}

} // namespace eqc

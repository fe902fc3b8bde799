// eqc_sim: a simulation of a compiled model's function table (eqc_model.h) on
// top of eqc_integrate_jac and eqc_project, with all state in the handle.
#include "eqc/eqc_model.h"

#include "Bytes.h"
#include "Delays.h"
#include "EventIteration.h"
#include "HeldConstraints.h"
#include "Integrator.h"
#include "LinearSolve.h"
#include "SensitivityJump.h"
#include "SimulationDriver.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace {

/// Projection tolerance and iteration limit (as the CLI's stabilization).
constexpr double ProjectionTolerance = EQC_PROJECTION_TOLERANCE;
constexpr int ProjectionIterations = 20;
using eqc::rt::StopCode;
/// A model call's return value when the input function failed (its code in eqc_sim::inputCode).
constexpr int InputFailure = eqc::rt::stopCode(StopCode::InputFailure);
constexpr int AssertionFailed = eqc::rt::stopCode(StopCode::AssertionFailed);

bool namesValid(int n, const char *const *names) {
  if (n == 0)
    return true;
  if (!names)
    return false;
  for (int i = 0; i < n; ++i)
    if (!names[i])
      return false;
  return true;
}

bool modelValid(const eqc_model *m) {
  if (!m || m->abi_version != EQC_MODEL_ABI_VERSION || !m->rhs)
    return false;
  if (m->n_states < 0 || m->n_algebraics < 0 || m->n_params < 0 || m->n_invariants < 0)
    return false;
  if (!namesValid(m->n_states, m->state_names) || !namesValid(m->n_algebraics, m->algebraic_names) ||
      !namesValid(m->n_params, m->param_names))
    return false;
  if (m->n_params > 0 && !m->param_defaults)
    return false;
  if (m->jac && !m->jac_pattern)
    return false;
  if (m->n_asserts < 0 || (m->n_asserts > 0 && !m->asserts))
    return false;
  if ((m->objects != nullptr) != (m->release != nullptr) || (m->objects && !m->param_kind))
    return false;
  return (m->n_invariants == 0 || m->invariants) && eqc::rt::eventTableValid(*m);
}

int indexOf(int n, const char *const *names, const char *name) {
  if (!name)
    return -1;
  for (int i = 0; i < n; ++i)
    if (std::strcmp(names[i], name) == 0)
      return i;
  return -1;
}

} // namespace

struct eqc_sim {
  const eqc_model *model;
  int n, m;
  /// The projection's buffers, kept across steps (a copy of the simulation gets buffers of its own).
  struct Projector {
    Projector() = default;
    Projector(const Projector &) {}
    Projector &operator=(const Projector &) { return *this; }
    eqc_projector *get() const { return handle.get(); }
    std::unique_ptr<eqc_projector, void (*)(eqc_projector *)> handle{eqc_projector_new(), eqc_projector_free};
  } projector;
  std::vector<double> x, dx, a, p, g;
  /// The factors of the model's linear blocks (current while this simulation calls the model).
  eqc::rt::FactorCache factors;
  /// Models with events: the discrete state and the event iteration (its afterReinit is set for
  /// each run: a copy must not call back into the original).
  eqc::rt::EventIteration events;
  /// The sensitivities' jumps at events (eqc_model.n_sensitivities).
  eqc::rt::SensitivityJump sensitivityJump;
  /// The histories of the model's delays (p[model->delay_context] points at their context).
  eqc::rt::DelayHistories delays;
  double lastRecorded = -INFINITY; ///< the time of the histories' newest point
  std::vector<double> delayScratch, probeX, probeDx, probeA; // scratch
  double t = 0.0;
  eqc_options options;
  bool project;        ///< projection onto the invariants after every step
  bool projectInitial; ///< initialization moves the states onto the invariants (they and their Jacobian exist)
  eqc_linear_solver solver = EQC_LINEAR_AUTO;
  /// The Jacobian of the run: the table's, or one the caller's provider supplies on demand.
  eqc_model_jac_fn jacFn = nullptr;
  eqc_sim_jacobian_fn jacProvider = nullptr;
  void *jacUser = nullptr;
  eqc_sparsity providedPattern{};
  bool initialized = false;
  double lastStep = 0.0;
  bool stiff = false; ///< auto switched to radau5 in an earlier run that this one continues
  std::vector<unsigned char> paramGiven, stateGiven; ///< set by the caller (bind and start keep them)
  bool started = false; ///< a run has moved the states: start values no longer apply
  bool terminated = false; ///< a when-clause called terminate(): no run goes on
  bool ended = false;      ///< the terminal event happened (eqc_sim_terminate)
  std::vector<int> inputs; ///< the parameters that are inputs (EQC_PARAM_INPUT)
  std::vector<double> atolVector; ///< per-state absolute tolerances (empty: options.atol)
  eqc_sim_step_fn stepFn = nullptr;
  void *stepUser = nullptr;
  eqc_sim_input_fn inputFn = nullptr;
  void *inputUser = nullptr;
  std::vector<double> inputValues; // scratch
  /// eqc_sim_event's callers: per indicator, 1 while its sign at the point of the last event
  /// still disagrees with the condition that event settled (see eqc_sim_indicators).
  std::vector<unsigned char> settling;
  /// Per indicator, during a run: its IndicatorFlags (integrateEvents' `flags`).
  std::vector<unsigned char> indicatorFlags;
  eqc_stats stats{};
  /// The largest |g_i| of the invariants at the output points of the last run, where and which.
  double worstInvariant = 0.0, worstInvariantTime = 0.0;
  int worstInvariantIndex = -1;
  long projections = 0; ///< projections onto the invariants (after steps, reinits and events)
  std::string error;
  int failureCode = 0; ///< the model or stop code behind the last failure (0: none, or an eqc_status only)
  int modelCode = 0; ///< the model function's last non-zero return
  int outputFailure = 0; ///< the model's code where it failed at an output point of the last run
  std::vector<double> outputA; ///< the algebraic variables at the last output point
  int inputCode = 0; ///< the input function's last non-zero return
  double lastOutput = NAN; ///< a run does not report again the time the previous one ended with
  /// Assertions: per assertion, whether its warning was reported (once per simulation); the
  /// skip flags of a check (scratch); the failed one and its message.
  std::vector<unsigned char> warned, assertSkip;
  int failedAssertion = -1;
  std::string assertMessage;
  double assertTime = NAN; ///< where the failed assertion was found to fail first
  /// The last point where the assertions were checked and held (their failure in a step is
  /// located between it and the step's end).
  double heldT = NAN;
  std::vector<double> heldX, heldDx;
  eqc_sim_warning_fn warningFn = nullptr;
  void *warningUser = nullptr;
  // The driver's hooks (SimulationDriver.h).
  eqc::rt::GuessPolicy guessPolicy = eqc::rt::GuessPolicy::Step;
  std::vector<double> acceptedA; ///< the guesses of GuessPolicy::Step, Accepted and Fixed (empty: none yet)
  /// rhs has iterated on a nonlinear block (GuessPolicy::Step restores guesses only then: a model
  /// without one pays no copy).
  bool iterates = false;
  double lastRhsT = -INFINITY; ///< the time of the integrator's last call of rhs (GuessPolicy::Step)
  bool acceptedValid = false, endValid = false;
  eqc::rt::ReinitHook reinitHook;
  // During a run.
  double runEnd = NAN;
  double skipOutputAt = NAN;
  eqc_sim_output_fn out = nullptr;
  void *outUser = nullptr;

  /// Every field that eqc_sim_serialize keeps, in its order (the model's sizes first, checked on
  /// reading): what a copy continues with, less the model, the scratch and the last message.
  template <typename Self, typename Field> static void fields(Self &s, Field &&f) {
    f(s.n);
    f(s.m);
    f(s.model->n_algebraics);
    f(s.model->n_params);
    f(s.x);
    f(s.dx);
    f(s.a);
    f(s.p);
    f(s.t);
    f(s.options);
    f(s.project);
    f(s.initialized);
    f(s.lastStep);
    f(s.stiff);
    f(s.paramGiven);
    f(s.stateGiven);
    f(s.started);
    f(s.stats);
    f(s.worstInvariant);
    f(s.worstInvariantTime);
    f(s.worstInvariantIndex);
    f(s.projections);
    f(s.solver);
    f(s.modelCode);
    f(s.lastOutput);
    f(s.terminated);
    f(s.ended);
    f(s.settling);
    f(eqc::rt::sized(s.atolVector));
    f(s.warned);
    eqc::rt::EventIteration::fields(s.events, f);
    eqc::rt::DelayHistories::fields(s.delays, f);
    f(s.lastRecorded);
  }

  explicit eqc_sim(const eqc_model *model)
      : model(model), n(model->n_states), m(model->n_invariants), x(n, 0.0), dx(n, 0.0),
        a(model->n_algebraics, 0.0), p(model->param_defaults, model->param_defaults + model->n_params), g(m),
        project(m > 0 && model->invariants_jac), projectInitial(project),
        paramGiven(static_cast<size_t>(model->n_params), 0), stateGiven(static_cast<size_t>(n), 0) {
    if (model->state_start)
      std::copy(model->state_start, model->state_start + n, x.begin());
    if (model->algebraic_start)
      std::copy(model->algebraic_start, model->algebraic_start + a.size(), a.begin());
    eqc_options_default(&options);
    if (model->tolerance > 0)
      options.rtol = options.atol = model->tolerance;
    p.resize(static_cast<size_t>(std::max(model->n_p, model->n_params)), 0.0);
    for (int i = 0; model->param_kind && i < model->n_params; ++i)
      if (model->param_kind[i] == EQC_PARAM_INPUT)
        inputs.push_back(i);
    inputValues.resize(inputs.size());
    warned.assign(static_cast<size_t>(model->n_asserts), 0);
    assertSkip.resize(warned.size());
    delays.reset(model->n_delays);
    bindDelays();
  }
  /// Points p at this simulation's delay histories (after a copy, or reading p from bytes).
  ~eqc_sim() {
    if (model->release)
      model->release(p.data());
  }
  eqc_sim(const eqc_sim &) = default;
  eqc_sim &operator=(const eqc_sim &) = delete;
  /// A copy's (or a deserialized simulation's) own external objects: the entries zeroed (they are
  /// another simulation's), then made anew from the parameters. Returns the model's code.
  int remakeObjects() {
    if (!model->objects)
      return 0;
    forgetObjects();
    return model->objects(paramGiven.data(), p.data());
  }
  /// Zeroes the entries of the external objects (they are another simulation's, or none).
  void forgetObjects() {
    if (model->objects)
      for (int i = 0; i < model->n_params && static_cast<size_t>(i) < p.size(); ++i)
        if (model->param_kind[i] == EQC_PARAM_OBJECT)
          p[static_cast<size_t>(i)] = 0;
  }
  void bindDelays() {
    if (model->n_delays > 0 && model->delay_context >= 0 && static_cast<size_t>(model->delay_context) < p.size())
      p[static_cast<size_t>(model->delay_context)] = delays.contextBits();
  }
  /// The model at an accepted point (time, xs): rhs into dx and a, then the delays' expressions
  /// recorded there (recordDelays). Returns the first failing model code.
  int rhsRecording(double time, const double *xs) {
    if (int code = model->rhs(time, xs, dx.data(), a.data(), p.data()))
      return code;
    return model->n_delays > 0 ? recordDelays(time, xs) : 0;
  }
  /// After rhs at (time, xs): the delays' expressions and their time derivatives, by central
  /// differences along the solution (x +- delta dx, the discrete state held: the continuation of
  /// the current mode, also at an event), appended to the histories.
  int recordDelays(double time, const double *xs) {
    const size_t nd = static_cast<size_t>(model->n_delays);
    delayScratch.resize(4 * nd);
    double *values = delayScratch.data(), *ahead = values + nd, *behind = ahead + nd, *slopes = behind + nd;
    if (int code = model->delays(time, xs, dx.data(), a.data(), p.data(), values))
      return code;
    // delta: cbrt(eps) of the time scale the history resolves (the last step), so that the
    // difference is accurate to about eps^(2/3).
    const double span = std::isfinite(lastRecorded) && lastRecorded < time ? time - lastRecorded : lastStep;
    const double delta = 6e-6 * (span > 0 ? span : 1e-3 * std::max(1.0, std::fabs(time)));
    probeX.resize(static_cast<size_t>(n));
    probeDx.resize(static_cast<size_t>(n));
    int code = 0;
    for (double sign : {1.0, -1.0}) {
      const double tp = time + sign * delta;
      for (size_t i = 0; i < probeX.size(); ++i)
        probeX[i] = xs[i] + sign * delta * dx[i];
      probeA = a;
      if (code == 0)
        code = applyInputs(tp);
      if (code == 0)
        code = model->rhs(tp, probeX.data(), probeDx.data(), probeA.data(), p.data());
      if (code == 0)
        code = model->delays(tp, probeX.data(), probeDx.data(), probeA.data(), p.data(), sign > 0 ? ahead : behind);
    }
    applyInputs(time);
    for (size_t k = 0; k < nd; ++k) // a probe that fails (a function's domain ends here): no slope
      slopes[k] = code == 0 ? (ahead[k] - behind[k]) / (2 * delta) : 0.0;
    delays.record(time, values, slopes);
    lastRecorded = time;
    return 0;
  }
  /// The inputs at time t from the input function (if any), into p. Returns 0 or its failure.
  int applyInputs(double time) {
    if (!inputFn)
      return 0;
    for (size_t k = 0; k < inputs.size(); ++k)
      inputValues[k] = p[static_cast<size_t>(inputs[k])];
    if (int code = inputFn(inputUser, time, inputValues.data()))
      return code;
    for (size_t k = 0; k < inputs.size(); ++k)
      p[static_cast<size_t>(inputs[k])] = inputValues[k];
    return 0;
  }
  bool hasEvents() const { return model->n_discretes > 0; }

  /// The assertions at (time, xs), where rhs was just evaluated into dx and a (at initialization,
  /// those of the initial equations too): a failing warning goes to the callback once; a failing
  /// error is kept (failedAssertion, assertMessage) and returns AssertionFailed. Returns a model
  /// failure code when a condition cannot be evaluated.
  int checkAssertions(double time, const double *xs, bool initial) {
    const int na = model->n_asserts;
    for (int k = 0; k < na; ++k)
      assertSkip[static_cast<size_t>(k)] =
          warned[static_cast<size_t>(k)] || (!initial && model->assert_kind && (model->assert_kind[k] & EQC_ASSERT_INITIAL));
    char message[1024];
    const bool locate = !initial && std::isfinite(heldT) && heldT < time && heldX.size() == static_cast<size_t>(n);
    bool failed = false; // an error: the warnings that fail at the same point are still reported
    while (na > 0) {
      int k = -1;
      message[0] = 0;
      if (int code = model->asserts(time, xs, dx.data(), a.data(), p.data(), assertSkip.data(), &k, message, sizeof message))
        return code;
      if (k < 0 || k >= na)
        break;
      message[sizeof message - 1] = 0;
      assertSkip[static_cast<size_t>(k)] = 1;
      const double at = locate ? locateFailure(k, time, xs, message, sizeof message) : time;
      if (model->assert_kind && (model->assert_kind[k] & EQC_ASSERT_WARNING)) {
        warned[static_cast<size_t>(k)] = 1;
        if (warningFn)
          warningFn(warningUser, at, k, message);
      } else if (!failed || at < assertTime) {
        failed = true;
        failedAssertion = k;
        assertMessage = message;
        assertTime = at;
      }
    }
    if (!failed) {
      heldT = time;
      heldX.assign(xs, xs + n);
      heldDx = dx;
    }
    return failed ? AssertionFailed : 0;
  }
  /// The first time in (heldT, time] at which assertion k fails, by bisection on the cubic
  /// Hermite interpolant of the states between the last point where the assertions held and
  /// this one (where rhs was just evaluated: dx and a are its); its message there in `message`.
  /// dx and a are left as they were.
  double locateFailure(int k, double time, const double *xs, char *message, size_t size) {
    const std::vector<double> x1(xs, xs + n), dx1(dx), a1(a);
    std::vector<double> xm(static_cast<size_t>(n));
    std::vector<unsigned char> only(static_cast<size_t>(model->n_asserts), 1);
    only[static_cast<size_t>(k)] = 0;
    const double h = time - heldT;
    double lo = heldT, hi = time;
    char text[1024];
    for (int iteration = 0; iteration < 100 && hi - lo > 4 * DBL_EPSILON * std::max(1.0, std::fabs(hi)); ++iteration) {
      const double mid = 0.5 * (lo + hi), s = (mid - heldT) / h;
      const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s), h01 = s * s * (3 - 2 * s),
                   h11 = s * s * (s - 1);
      for (size_t i = 0; i < xm.size(); ++i)
        xm[i] = h00 * heldX[i] + h10 * h * heldDx[i] + h01 * x1[i] + h11 * h * dx1[i];
      int which = -1;
      if (applyInputs(mid) != 0 || model->rhs(mid, xm.data(), dx.data(), a.data(), p.data()) != 0 ||
          model->asserts(mid, xm.data(), dx.data(), a.data(), p.data(), only.data(), &which, text, sizeof text) != 0)
        break; // not evaluable there: the bracket so far
      if (which == k) {
        hi = mid;
        text[sizeof text - 1] = 0;
        std::snprintf(message, size, "%s", text);
      } else {
        lo = mid;
      }
    }
    dx = dx1;
    a = a1;
    applyInputs(time);
    return hi;
  }
  /// checkAssertions after rhs at (time, xs); on failure the message is set ("at time t:
  /// assertion failed: ...") and the status returned.
  int assertionsHold(double time, const double *xs, bool initial) {
    if (model->n_asserts == 0)
      return EQC_OK;
    int code = model->rhs(time, xs, dx.data(), a.data(), p.data());
    return assertionStatus(code == 0 ? checkAssertions(time, xs, initial) : code, time);
  }
  /// The eqc_status of checkAssertions' (or rhs') `code` at `time`, with the message set.
  int assertionStatus(int code, double time) {
    if (code == AssertionFailed) {
      fail(where(assertTime) + ": " + modelFailure(code), code);
      return EQC_ERR_ASSERTION;
    }
    if (code != 0) {
      fail(where(time) + ": " + modelFailure(code), code);
      return EQC_ERR_RHS;
    }
    return EQC_OK;
  }

  void fail(const std::string &message, int code = 0) {
    error = message;
    failureCode = code & ~EQC_RHS_RETRY;
  }
  std::string where(double time) const {
    char buf[64];
    std::snprintf(buf, sizeof buf, "at time %.10g", time);
    return buf;
  }
  std::string modelFailure(int code) const {
    code &= ~EQC_RHS_RETRY;
    if (code == eqc::rt::stopCode(StopCode::EventUnsettled)) {
      std::string names;
      for (int j : events.unsettled())
        names += (names.empty() ? "" : ", ") + std::string(model->discrete_names[j]);
      return "the event iteration does not settle after 100 iterations (" + names + " keep changing)";
    }
    if (code == eqc::rt::stopCode(StopCode::EventIdle)) {
      const int k = events.lastCrossed();
      return (k >= 0 ? "the condition '" + std::string(model->discrete_names[model->indicator_discrete[k]]) + "'"
                     : std::string("a condition")) +
             " changes back and forth without effect (" + std::to_string(events.idleLimit + 1) +
             " events in a row changed nothing): the integration is probably unstable there";
    }
    if (code == InputFailure)
      return "the input function returned " + std::to_string(inputCode);
    if (code == eqc::rt::stopCode(StopCode::SensitivityUndefined)) {
      const int k = sensitivityJump.undefinedIndicator();
      return "the sensitivities are undefined at this event: the indicator of '" +
             std::string(model->discrete_names[model->indicator_discrete[k]]) +
             "' reaches zero with zero slope, so the event's time does not depend smoothly on the parameters";
    }
    if (code == AssertionFailed)
      return "assertion failed: " + assertMessage;
    if (eqc::rt::isProjectionFailure(code))
      return std::string("the projection onto the invariants failed: ") + eqc_status_message(eqc::rt::projectionStatus(code));
    if (code >= EQC_MODEL_FUNCTION_FAILURE_BASE && (code - EQC_MODEL_FUNCTION_FAILURE_BASE) % 1024 == 0)
      return "an external function of model '" + std::string(model->name) +
             "' failed: " + (model->external_error ? model->external_error() : "ModelicaError");
    if (code >= EQC_MODEL_LOOP_FAILURE_BASE && code < EQC_MODEL_FUNCTION_FAILURE_BASE)
      return "the Newton iteration of algebraic loop " + std::to_string(code - EQC_MODEL_LOOP_FAILURE_BASE) +
             " of model '" + model->name + "' did not converge";
    return "the model '" + std::string(model->name) + "' returned " + std::to_string(code);
  }

  static int rhs(void *user, double t, const double *x, double *dx) {
    auto *s = static_cast<eqc_sim *>(user);
    // Step: a new attempt (or sweep over the stages) begins where time goes back: from there the
    // guesses are the accepted step's, while within an attempt each stage starts from the last.
    const bool step = s->guessPolicy == eqc::rt::GuessPolicy::Step;
    const bool restore = step ? s->iterates && t < s->lastRhsT : s->guessPolicy != eqc::rt::GuessPolicy::Last;
    s->lastRhsT = t;
    if (restore && s->acceptedA.size() == s->a.size())
      std::copy(s->acceptedA.begin(), s->acceptedA.end(), s->a.begin());
    if (int code = s->applyInputs(t)) {
      s->inputCode = code;
      return InputFailure;
    }
    const unsigned long solves = eqc::rt::blockSolves;
    int code = s->model->rhs(t, x, dx, s->a.data(), s->p.data());
    s->iterates = s->iterates || eqc::rt::blockSolves != solves;
    if (code == 0)
      return 0;
    s->modelCode = code;
    return code | EQC_RHS_RETRY; // a model failure at a trial point: retry a shorter step
  }
  static int jac(void *user, double t, const double *x, double *values) {
    auto *s = static_cast<eqc_sim *>(user);
    std::vector<double> &scratch = s->dx; // dx is rewritten by the next rhs call anyway
    if (s->applyInputs(t))
      return InputFailure;
    if (int code = s->model->rhs(t, x, scratch.data(), s->a.data(), s->p.data()))
      return code;
    return s->jacFn(t, x, scratch.data(), s->a.data(), s->p.data(), values);
  }
  /// eqc_jacobian.prepare: the caller's provider supplies the generated Jacobian on first need.
  static int prepareJacobian(void *user, eqc_jacobian *jacobian) {
    auto *s = static_cast<eqc_sim *>(user);
    const eqc_sparsity *pattern = nullptr;
    eqc_model_jac_fn fn = nullptr;
    if (int code = s->jacProvider(s->jacUser, &fn, &pattern))
      return code;
    if (!fn || !pattern)
      return 1;
    s->jacFn = fn;
    s->providedPattern = *pattern;
    jacobian->pattern = &s->providedPattern;
    jacobian->sparse = jac;
    return 0;
  }
  static int constraints(void *user, double t, const double *x, double *g, double *G) {
    auto *s = static_cast<eqc_sim *>(user);
    if (int code = s->model->invariants(t, x, s->p.data(), g))
      return code;
    return G ? s->model->invariants_jac(t, x, s->p.data(), G) : 0;
  }
  /// The post-step hook: projection (index-reduced models), then the step callback on accepted
  /// steps (the integrator's own state array; dense-output copies pass through too).
  static int stepHook(void *user, double t, double *x) {
    auto *s = static_cast<eqc_sim *>(user);
    if (s->project)
      if (int code = projectHook(user, t, x))
        return code;
    if (x != s->x.data())
      return 0;
    if (s->guessPolicy == eqc::rt::GuessPolicy::Step && s->iterates)
      s->acceptedA = s->a;
    const bool accepted = s->guessPolicy == eqc::rt::GuessPolicy::Accepted && t < s->runEnd;
    if (accepted || s->model->n_asserts > 0 || s->model->n_delays > 0) {
      // The values at the accepted step: the next evaluations' guesses, the assertions', the
      // delays' histories and the step callback's.
      s->acceptedValid = s->applyInputs(t) == 0 && s->rhsRecording(t, x) == 0;
      if (accepted && s->acceptedValid)
        s->acceptedA = s->a;
      if (s->acceptedValid)
        if (int code = s->checkAssertions(t, x, false))
          return code;
    }
    if (s->stepFn && s->stepFn(s->stepUser, t, x))
      return eqc::rt::stopCode(StopCode::Cancelled);
    return 0;
  }
  static int projectHook(void *user, double t, double *x) {
    auto *s = static_cast<eqc_sim *>(user);
    double residual = 0.0;
    int status = eqc_projector_project_sparse(s->projector.get(), s->n, s->m, s->model->invariants_jac_pattern, t, x,
                                              constraints, s, ProjectionTolerance, ProjectionIterations, &residual);
    ++s->projections;
    if (status != EQC_OK)
      return eqc::rt::projectionFailure(status);
    return 0;
  }
  /// The invariants' residual at an output point (eqc_sim_stats' largest residual).
  void trackInvariants(double time, const double *xs) {
    if (m == 0 || !model->invariants)
      return;
    double worst = 0.0;
    int which = -1;
    if (model->invariants(time, xs, p.data(), g.data()) != 0)
      worst = NAN;
    else
      for (int i = 0; i < m; ++i)
        if (!(std::fabs(g[static_cast<size_t>(i)]) <= worst)) {
          worst = std::fabs(g[static_cast<size_t>(i)]);
          which = i;
        }
    if (!(worst <= worstInvariant)) {
      worstInvariant = worst;
      worstInvariantTime = time;
      worstInvariantIndex = which;
    }
  }
  static int output(void *user, double t, const double *x) {
    auto *s = static_cast<eqc_sim *>(user);
    if (t == s->skipOutputAt) {
      s->skipOutputAt = NAN;
      return 0;
    }
    if (s->applyInputs(t))
      return InputFailure;
    s->trackInvariants(t, x);
    if (!s->out)
      return 0;
    // The derivatives and algebraic variables at an output point come from one more rhs call.
    if (int code = s->outputValues(t, x)) {
      s->modelCode = code;
      s->outputFailure = code;
      return code;
    }
    s->lastOutput = t;
    return s->out(s->outUser, t, x, s->dx.data(), s->a.data());
  }

  /// eqc_sim_run to the current time: the point as an output, unless a run reported it already.
  int outputPoint(eqc_sim_output_fn fn, void *user) {
    if (!fn || lastOutput == t)
      return EQC_OK;
    if (int code = model->rhs(t, x.data(), dx.data(), a.data(), p.data())) {
      fail(where(t) + ": " + modelFailure(code), code);
      return EQC_ERR_RHS;
    }
    lastOutput = t;
    return fn(user, t, x.data(), dx.data(), a.data()) ? EQC_ERR_STOPPED : EQC_OK;
  }

  /// rhs at an output point of an accepted step (interpolated, between the points the step's
  /// stages solved the model's loops at): from the last evaluation's values, else from those of
  /// the accepted step, else from those of the last output point. Returns 0 or the model's code.
  int outputValues(double t, const double *x) {
    int code = model->rhs(t, x, dx.data(), a.data(), p.data());
    for (const std::vector<double> *guess : {&acceptedA, &outputA}) {
      if (!code)
        break;
      if (guess->size() == a.size()) {
        std::copy(guess->begin(), guess->end(), a.begin());
        code = model->rhs(t, x, dx.data(), a.data(), p.data());
      }
    }
    if (!code)
      outputA = a;
    return code;
  }

  /// eqc_zc_fn: rhs at the point, then the indicators.
  static int indicators(void *user, double t, const double *x, double *z) {
    auto *s = static_cast<eqc_sim *>(user);
    if (s->applyInputs(t))
      return InputFailure;
    if (int code = s->model->rhs(t, x, s->dx.data(), s->a.data(), s->p.data()))
      return code;
    return s->model->zc(t, x, s->dx.data(), s->a.data(), s->p.data(), z);
  }
  /// eqc_event_fn: the event iteration, then the integrator's view of the conditions.
  static int handleEvent(void *user, double t, double *x, const int *crossed, int *conditions) {
    auto *s = static_cast<eqc_sim *>(user);
    if (s->applyInputs(t))
      return InputFailure;
    // The delays' left limits (the discrete state still the one before the event).
    if (s->model->n_delays > 0)
      if (int code = s->rhsRecording(t, x))
        return code;
    const bool sensitivities = eqc::rt::SensitivityJump::applies(*s->model);
    if (sensitivities)
      if (int code = s->sensitivityJump.before(*s->model, t, x, s->a.data(), s->p.data(), crossed))
        return code;
    int code = s->events.iterate(*s->model, t, x, s->a.data(), s->p.data(), crossed, false);
    if (code != 0 && code != EQC_EVENT_TERMINATE)
      return code;
    if (sensitivities)
      if (int failure = s->sensitivityJump.after(*s->model, t, x, s->a.data(), s->p.data()))
        return failure;
    if (s->guessPolicy == eqc::rt::GuessPolicy::Step)
      s->acceptedA = s->a; // the values after the event: the guesses from here
    if (s->model->n_asserts > 0 || s->model->n_delays > 0) {
      // The delays' right limits, and the assertions after the event (where they fail: no location).
      s->heldT = NAN;
      int failure = s->rhsRecording(t, x);
      if (failure == 0)
        failure = s->checkAssertions(t, x, false);
      if (failure != 0)
        return failure;
    }
    std::copy(s->events.conditions().begin(), s->events.conditions().end(), conditions);
    if (code == EQC_EVENT_TERMINATE)
      s->terminated = true;
    return code;
  }
  /// Sizes the event iteration and points its reinit hook at this simulation.
  void attachEvents() {
    events.attach(*model, p.data());
    events.afterReinit = nullptr;
    if (reinitHook)
      events.afterReinit = reinitHook;
    else if (project)
      events.afterReinit = [this](double te, double *xe, const double *, double *, const std::vector<int> &moved) {
        return projectAfterReinit(te, xe, moved);
      };
  }
  /// After a reinit of an index-reduced model: x moved onto the invariants holding the
  /// reinitialized states and the integrated states of lower kinematic levels; if that fails,
  /// the reinitialized ones only; then none (see eqc_model.state_level).
  int projectAfterReinit(double te, double *xe, const std::vector<int> &moved) {
    std::vector<char> reinitialized(static_cast<size_t>(n), 0);
    int lowest = INT_MAX;
    for (int i : moved)
      if (i < n) {
        reinitialized[static_cast<size_t>(i)] = 1;
        if (model->state_level)
          lowest = std::min(lowest, model->state_level[i]);
      }
    int status = EQC_OK;
    std::vector<double> start(xe, xe + n);
    for (int attempt = 0; attempt < 3; ++attempt) {
      std::vector<int> movable;
      for (int i = 0; i < n; ++i) {
        bool held = attempt < 2 && reinitialized[static_cast<size_t>(i)];
        held = held || (attempt == 0 && model->state_integrated && model->state_level && model->state_integrated[i] &&
                        model->state_level[i] < lowest);
        if (!held)
          movable.push_back(i);
      }
      double residual = 0.0;
      std::copy(start.begin(), start.end(), xe);
      ++projections;
      status = projectMoving(te, xe, movable, false, residual, /*reachableOnly=*/attempt == 0);
      if (status == EQC_OK)
        return 0;
    }
    std::copy(start.begin(), start.end(), xe);
    return eqc::rt::projectionFailure(status);
  }

  /// eqc_sim_event.
  int event(double te, const double *xe, int *changed) {
    error.clear();
    heldT = NAN; // the caller integrated since: a failure is where it is found
    if (!initialized)
      if (int rc = initialize())
        return rc;
    t = te;
    std::copy(xe, xe + n, x.begin());
    started = true;
    if (changed)
      *changed = 0;
    // An index-reduced model goes back onto its invariants first (the caller's integration
    // drifts off them).
    if (project) {
      std::vector<int> all(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i)
        all[static_cast<size_t>(i)] = i;
      std::vector<double> before(x);
      double residual = 0.0;
      ++projections;
      if (int status = projectMoving(t, x.data(), all, false, residual)) {
        fail(where(t) + ": the projection onto the invariants failed: " + eqc_status_message(status),
             eqc::rt::projectionFailure(status));
        return EQC_ERR_RHS;
      }
      if (changed && before != x)
        *changed = 1;
    }
    if (!hasEvents()) {
      if (int code = rhsRecording(t, x.data())) {
        fail(where(t) + ": " + modelFailure(code), code);
        return EQC_ERR_RHS;
      }
      return EQC_OK;
    }
    attachEvents();
    std::vector<double> z(static_cast<size_t>(model->n_indicators));
    std::vector<int> crossed;
    int code = model->n_indicators ? indicators(this, t, x.data(), z.data()) : 0;
    events.crossedBy(*model, z.data(), crossed);
    // The environment may enter Event Mode without an event: idle events are no failure here.
    const int idleLimit = events.idleLimit;
    events.idleLimit = 0;
    if (code == 0 && model->n_delays > 0) // the delays' left limits
      code = rhsRecording(t, x.data());
    if (code == 0)
      code = events.iterate(*model, t, x.data(), a.data(), p.data(), crossed.data(), false);
    events.idleLimit = idleLimit;
    if (code == EQC_EVENT_TERMINATE) {
      terminated = true;
      code = 0;
    }
    if (code == 0)
      code = rhsRecording(t, x.data());
    if (code != 0) {
      fail(where(t) + ": the event iteration failed: " + modelFailure(code), code);
      return EQC_ERR_RHS;
    }
    if (int status = assertionsHold(t, x.data(), false))
      return status;
    if (changed && events.lastReinit())
      *changed = 1;
    markSettling();
    return EQC_OK;
  }

  /// eqc_sim_terminate.
  int terminalEvent(int *changed) {
    error.clear();
    if (changed)
      *changed = 0;
    if (!initialized) {
      fail("eqc_sim_terminate: the simulation has not been initialized");
      return EQC_ERR_ARGUMENT;
    }
    terminated = true; // no run goes on after the terminal event
    bool hasTerminal = false;
    for (int j = 0; model->discrete_kind && j < model->n_discretes; ++j)
      hasTerminal = hasTerminal || model->discrete_kind[j] == EQC_DISCRETE_TERMINAL;
    if (!hasTerminal || ended)
      return EQC_OK;
    ended = true;
    const std::vector<double> before(p), xBefore(x);
    attachEvents();
    int code = applyInputs(t);
    if (code == 0)
      code = events.iterate(*model, t, x.data(), a.data(), p.data(), nullptr, false, true);
    if (code == EQC_EVENT_TERMINATE)
      code = 0;
    if (code == 0)
      code = rhsRecording(t, x.data());
    if (code != 0) {
      fail(where(t) + ": the terminal event failed: " + modelFailure(code), code);
      return EQC_ERR_RHS;
    }
    if (int status = assertionsHold(t, x.data(), false))
      return status;
    if (changed) {
      const size_t from = static_cast<size_t>(model->n_params), to = from + static_cast<size_t>(model->n_discretes);
      for (size_t j = from; j < to; ++j)
        if (model->discrete_kind[j - from] != EQC_DISCRETE_TERMINAL &&
            model->discrete_kind[j - from] != EQC_DISCRETE_ONCE && p[j] != before[j])
          *changed = 1;
      if (x != xBefore)
        *changed = 1;
    }
    return EQC_OK;
  }

  /// Whether indicator k's value z holds its condition.
  bool holds(int k, double z) const {
    return z > 0 || (z == 0 && model->indicator_at_zero && model->indicator_at_zero[k]);
  }
  /// After an event: the indicators whose sign at the point still disagrees with the condition
  /// settled (the iteration looked just ahead along the solution, e.g. a ball a few ulps below
  /// the floor, rising).
  void markSettling() {
    const int nz = model->n_indicators;
    settling.assign(static_cast<size_t>(nz), 0);
    std::vector<double> z(static_cast<size_t>(nz));
    if (nz == 0 || indicators(this, t, x.data(), z.data()) != 0)
      return;
    for (int k = 0; k < nz; ++k)
      settling[static_cast<size_t>(k)] = holds(k, z[static_cast<size_t>(k)]) != (events.conditions()[static_cast<size_t>(k)] != 0);
  }
  /// eqc_sim_indicators: z, with a settling indicator reported with its condition's sign (as
  /// +-DBL_MIN) until its value agrees, so that a sign change an environment sees is a crossing.
  int publicIndicators(double time, const double *xs, double *z) {
    if (int code = indicators(this, time, xs, z))
      return code;
    for (size_t k = 0; k < settling.size(); ++k) {
      if (!settling[k])
        continue;
      const bool condition = events.conditions()[k] != 0;
      if (holds(static_cast<int>(k), z[k]) == condition)
        settling[k] = 0;
      else
        z[k] = condition ? DBL_MIN : -DBL_MIN;
    }
    return 0;
  }

  /// The when-clauses that initial() fires, done once on the start values before anything reads
  /// what they give (a discrete value the equations divide by, an external object they prepare,
  /// as MSL's CombiTimeTable computes its next time event before its value): the event iteration
  /// does them again at the consistent point. Only discrete values are kept; a failure here is
  /// none (the start values are guesses).
  void initialWhenClauses() {
    std::vector<double> xs(x), dxs(dx), as(a), ps(p);
    if (model->event(t, xs.data(), dxs.data(), as.data(), ps.data()) == 0)
      std::copy(ps.begin() + model->n_params, ps.end(), p.begin() + model->n_params);
  }

  int initialize() {
    error.clear();
    stiff = false;
    // Dependent parameters follow the parameters set; before the first run, so do start values.
    if (model->bind)
      if (int code = model->bind(paramGiven.data(), p.data())) {
        fail(where(t) + ": the dependent parameters cannot be computed: " + modelFailure(code), code);
        return EQC_ERR_RHS;
      }
    if (model->objects) // the external objects made anew (MLS 3.5, 12.9.7), with what reads them
      if (int code = model->objects(paramGiven.data(), p.data())) {
        fail(where(t) + ": the external objects cannot be made: " + modelFailure(code), code);
        return EQC_ERR_RHS;
      }
    if (!started && model->start) {
      std::vector<double> starts(x);
      if (int code = model->start(p.data(), starts.data())) {
        fail(where(t) + ": the start values cannot be computed: " + modelFailure(code), code);
        return EQC_ERR_RHS;
      }
      for (int i = 0; i < n; ++i)
        if (!stateGiven[static_cast<size_t>(i)])
          x[static_cast<size_t>(i)] = starts[static_cast<size_t>(i)];
    }
    // The discrete variables start at their start values, initial() holding (eqc simulate's order:
    // discrete starts, init or projection, the initial event iteration, init again).
    if (int code = applyInputs(t)) {
      inputCode = code;
      fail(where(t) + ": the input function returned " + std::to_string(code), InputFailure);
      return EQC_ERR_RHS;
    }
    const bool first = !started && hasEvents();
    if (first) {
      if (int code = model->discrete_start(p.data())) {
        fail(where(t) + ": the discrete start values cannot be computed: " + modelFailure(code), code);
        return EQC_ERR_RHS;
      }
      terminated = false;
      initialWhenClauses();
    }
    if (hasEvents())
      attachEvents();
    if (model->init) {
      const std::vector<double> startX(x), startA(a);
      int code = model->init(t, x.data(), dx.data(), a.data(), p.data());
      // An initialization that fails with the conditions at their start values may be solvable
      // with the values their relations take where it got to (MSL's vessels: `regularFlow =
      // level >= height` false by default makes every port's flow zero, a singular loop): the
      // conditions and the discrete values that follow them from there, the same start point.
      for (int round = 0; code && first && model->n_indicators > 0 && round < 4; ++round) {
        bool changed = false;
        if (events.conditionsOfPoint(*model, t, x.data(), a.data(), p.data(), changed) != 0 || !changed)
          break;
        initialWhenClauses();
        x = startX;
        a = startA;
        code = model->init(t, x.data(), dx.data(), a.data(), p.data());
      }
      if (code) {
        fail(where(t) + ": initialization failed: " + modelFailure(code), code);
        return EQC_ERR_RHS;
      }
    }
    // The conditions (time < startTime, ...) hold what they hold at the start point, before and
    // after the projection moves it (again while that changes them).
    for (int round = 0; projectInitial && round < 4; ++round) {
      bool changed = false;
      if (first && model->n_indicators > 0 &&
          events.conditionsAt(*model, t, x.data(), a.data(), p.data(), changed) != 0) {
        // Not evaluable at the start values with the conditions at their start (a vessel's ports
        // with `regularFlow` false: a singular loop): the conditions where rhs got to, and the
        // discrete variables that follow them.
        if (events.conditionsOfPoint(*model, t, x.data(), a.data(), p.data(), changed) != 0)
          changed = false;
        if (changed)
          initialWhenClauses();
      }
      if (round > 0 && !changed)
        break;
      if (int status = projectHoldingFixed())
        return status;
    }
    if (first) {
      int code = events.iterate(*model, t, x.data(), a.data(), p.data(), nullptr, true);
      if (code == EQC_EVENT_TERMINATE)
        terminated = true;
      else if (code != 0) {
        fail(where(t) + ": the initial event iteration failed: " + modelFailure(code), code);
        return EQC_ERR_RHS;
      }
      if (model->init && !projectInitial)
        if (int failure = model->init(t, x.data(), dx.data(), a.data(), p.data())) {
          fail(where(t) + ": initialization failed: " + modelFailure(failure), failure);
          return EQC_ERR_RHS;
        }
      // Then the event at the start time, initial() no longer holding (MLS 3.5, 8.6): what
      // depends on initial() takes its value for the simulation (a discrete `b = initial()` is
      // false from here, a sample() taken at initialization is not due again).
      if (!terminated) {
        code = events.iterate(*model, t, x.data(), a.data(), p.data(), nullptr, false);
        if (code == EQC_EVENT_TERMINATE)
          terminated = true;
        else if (code != 0) {
          fail(where(t) + ": the event iteration at the start failed: " + modelFailure(code), code);
          return EQC_ERR_RHS;
        }
      }
    }
    if (hasEvents())
      markSettling();
    if (int code = rhsRecording(t, x.data())) { // the delays' histories start here
      fail(where(t) + ": " + modelFailure(code), code);
      return EQC_ERR_RHS;
    }
    if (int status = checkFinite())
      return status;
    failedAssertion = -1;
    heldT = NAN;
    if (model->n_asserts > 0) // rhs was just evaluated at (t, x)
      if (int status = assertionStatus(checkAssertions(t, x.data(), !started), t))
        return status;
    initialized = true;
    lastOutput = NAN;
    return EQC_OK;
  }

  /// After initialization: EQC_ERR_NONFINITE (naming the variable) where a state, derivative or
  /// algebraic variable is NaN or infinite.
  int checkFinite() {
    auto check = [&](const std::vector<double> &values, const char *const *names, const char *what) {
      for (size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i])) {
          char number[32];
          std::snprintf(number, sizeof number, "%g", values[i]);
          fail(where(t) + ": initialization gives " + what + (names ? names[i] : "?") + (*what ? ")" : "") + " = " + number);
          return false;
        }
      return true;
    };
    if (!check(x, model->state_names, "") || !check(dx, model->state_names, "der(") ||
        !check(a, model->algebraic_names, ""))
      return EQC_ERR_NONFINITE;
    return EQC_OK;
  }

  /// Projects `xs` (n states) onto the invariants (with `initial`, the initial constraints)
  /// moving only the states in `movable` (with `reachableOnly`, onto the invariants those reach);
  /// the largest residual in `residual`; xs is left as it was on failure. With nothing to move,
  /// checks that the constraints hold as they are. Returns an eqc_status (EQC_ERR_RHS when the
  /// constraints fail, with the message set).
  int projectMoving(double time, double *xs, const std::vector<int> &movable, bool initial, double &residual,
                    bool reachableOnly = false) {
    const int rows = initial ? model->n_initial_constraints : m;
    eqc::rt::HeldConstraints h(n, rows, initial ? model->initial_constraints : model->invariants,
                               initial ? model->initial_constraints_jac : model->invariants_jac,
                               initial ? model->initial_constraints_jac_pattern : model->invariants_jac_pattern,
                               p.data(), xs, movable);
    residual = 0.0;
    if (reachableOnly && !movable.empty()) {
      // Only the constraints that the movable states enter at xs (a row of dg/dx not zero on
      // them), as eqc simulate's first attempt after a reinit.
      if (int code = h.keepReached(time, xs)) {
        fail(where(time) + ": the invariants' Jacobian failed: " + modelFailure(code));
        return EQC_ERR_RHS;
      }
      if (h.noneReached())
        return EQC_OK;
    }
    if (movable.empty()) { // nothing may move: the held values must satisfy the constraints as they are
      std::vector<double> gv(static_cast<size_t>(rows));
      if (int code = (initial ? model->initial_constraints : model->invariants)(time, xs, p.data(), gv.data())) {
        fail(where(time) + ": the invariants failed: " + modelFailure(code));
        return EQC_ERR_RHS;
      }
      for (double v : gv)
        residual = std::max(residual, std::fabs(v));
      return residual <= ProjectionTolerance * (1 + residual) ? EQC_OK : EQC_ERR_NEWTON;
    }
    return h.project(projector.get(), time, xs, ProjectionTolerance, ProjectionIterations, residual,
                     /*keepLastIterate=*/false);
  }

  /// Projects x onto the invariants moving only the states whose start is not fixed (a value set
  /// for one of those is a guess, as Modelica's start of a fixed = false variable); a failure
  /// names the values held.
  int projectHoldingFixed() {
    // Before the first run, the initial equations join the invariants (as eqc simulate does).
    const bool initial = !started && model->n_initial_constraints > m && model->initial_constraints &&
                         model->initial_constraints_jac;
    auto fixed = [&](int i) { return model->state_fixed && model->state_fixed[i]; };
    std::vector<int> movable;
    for (int i = 0; i < n; ++i)
      if (!fixed(i))
        movable.push_back(i);
    double residual = 0.0;
    if (initial && m > 0) {
      // Initial equations that read what the ODE's loops compute run the ODE, which may fail off
      // the invariants (a rotation matrix at its start value 0): first onto the invariants alone.
      std::vector<double> g(static_cast<size_t>(model->n_initial_constraints));
      if (model->initial_constraints(t, x.data(), p.data(), g.data()) != 0 &&
          projectMoving(t, x.data(), movable, false, residual) == EQC_ERR_RHS)
        return EQC_ERR_RHS;
    }
    int status = projectMoving(t, x.data(), movable, initial, residual);
    if (status == EQC_ERR_RHS) {
      if (error.empty())
        fail(where(t) + ": no consistent initial values: the " +
             (initial ? "invariants and initial equations" : "invariants") + " cannot be evaluated");
      return status;
    }
    if (status != EQC_OK) {
      std::string held; // the held values (projection moved none of them)
      for (int i = 0; i < n; ++i)
        if (fixed(i)) {
          char value[32];
          std::snprintf(value, sizeof value, "%.10g", x[static_cast<size_t>(i)]);
          held += (held.empty() ? "" : ", ") + std::string(model->state_names[i]) + " = " + value;
        }
      char number[32];
      std::snprintf(number, sizeof number, "%.3g", residual);
      fail(where(t) + ": no consistent initial values: the " + (initial ? "invariants and initial equations" : "invariants") +
           " cannot be satisfied (residual " + number +
           ") with the fixed start values " + (held.empty() ? std::string("(none)") : held) + ": " +
           eqc_status_message(status));
      return status;
    }
    return EQC_OK;
  }

  int run(double tEnd, eqc_sim_output_fn fn, void *user) {
    error.clear();
    if (!(tEnd >= t) || !std::isfinite(tEnd)) {
      fail("eqc_sim_run: the end time must be finite and not before the current time");
      return EQC_ERR_ARGUMENT;
    }
    if (!initialized)
      if (int rc = initialize())
        return rc;
    if (tEnd == t) // nothing to integrate: the point reached is the output (an initialization-only run)
      return outputPoint(fn, user);
    if (terminated) {
      fail(where(t) + ": the model called terminate(); the simulation does not go on");
      return EQC_ERR_ARGUMENT;
    }
    eqc_options o = options;
    o.t_start = t;
    o.t_end = tEnd;
    if (lastStep > 0 && o.h_init == 0)
      o.h_init = lastStep;
    // auto's switch to radau5 holds for the runs that continue this one.
    if (o.method == EQC_METHOD_AUTO && stiff)
      o.method = EQC_METHOD_RADAU5;
    eqc_sparsity pattern{};
    eqc_jacobian jacobian{};
    jacobian.solver = solver;
    jacobian.user = this;
    if (model->jac) {
      jacFn = model->jac;
      pattern = *model->jac_pattern;
      jacobian.pattern = &pattern;
      jacobian.sparse = jac;
    } else if (jacProvider) {
      jacobian.prepare = prepareJacobian;
    }
    out = fn;
    outUser = user;
    runEnd = tEnd;
    failedAssertion = -1;
    skipOutputAt = lastOutput;
    modelCode = 0;
    outputFailure = 0;
    worstInvariant = 0.0;
    worstInvariantTime = t;
    worstInvariantIndex = -1;
    eqc_events ev{};
    if (hasEvents()) {
      attachEvents();
      ev.nz = model->n_indicators;
      ev.zc = indicators;
      ev.handle = handleEvent;
      ev.user = this;
      ev.conditions = events.conditions().data();
      ev.at_zero = model->indicator_at_zero;
      indicatorFlags.assign(static_cast<size_t>(ev.nz), 0);
      events.indicatorFlags = indicatorFlags.data();
      events.watchChatter(eqc::rt::chatterLimit(ev, t, tEnd));
      // As eqc simulate: no step spans an output interval, so that indicators are watched at
      // least that often.
      if (ev.nz > 0 && o.interval > 0 && (o.h_max == 0 || o.h_max > o.interval))
        o.h_max = o.interval;
    }
    if (!atolVector.empty())
      o.atol_vector = atolVector.data();
    // Without projection the step callback only observes (no scan of the state after it).
    const bool keepGuesses = guessPolicy == eqc::rt::GuessPolicy::Step && !a.empty();
    if (keepGuesses)
      acceptedA = a; // consistent where the run starts
    lastRhsT = -INFINITY;
    int status = eqc::rt::integrateEvents(
        n, rhs, this, &jacobian, x.data(), &o, output, this,
        project || stepFn || keepGuesses || model->n_asserts > 0 || model->n_delays > 0 ? stepHook : nullptr,
        this, !project, &ev, &stats, indicatorFlags.empty() ? nullptr : indicatorFlags.data());
    const bool cancelled = status == EQC_ERR_RHS && stats.rhs_code == eqc::rt::stopCode(StopCode::Cancelled);
    if (status == EQC_ERR_STOPPED && outputFailure) { // the model failed at an output point
      status = EQC_ERR_RHS;
      stats.rhs_code = outputFailure;
    }
    if (cancelled)
      status = EQC_ERR_STOPPED;
    out = nullptr;
    events.indicatorFlags = nullptr; // eqc_sim_event between runs locates nothing
    t = stats.t_reached;
    started = true;
    if (stats.h_last > 0)
      lastStep = stats.h_last;
    stiff = stiff || (options.method == EQC_METHOD_AUTO && stats.method_used == EQC_METHOD_RADAU5);
    // The derivatives and algebraic variables at the state reached.
    int code = model->rhs(t, x.data(), dx.data(), a.data(), p.data());
    endValid = code == 0;
    if (status == EQC_OK && code != 0) {
      fail(where(t) + ": " + modelFailure(code), code);
      return EQC_ERR_RHS;
    }
    if (cancelled)
      fail(where(t) + ": the step callback asked to stop");
    else if (status == EQC_ERR_RHS && (stats.rhs_code & ~EQC_RHS_RETRY) == AssertionFailed) {
      fail(where(assertTime) + ": " + modelFailure(AssertionFailed), AssertionFailed);
      status = EQC_ERR_ASSERTION;
    } else if (status != EQC_OK)
      describeFailure(status);
    return status;
  }

  void describeFailure(int status) {
    std::string msg = where(stats.t_reached) + ": " + eqc_status_message(status);
    if (status == EQC_ERR_NONFINITE && stats.failed_component >= 0 && stats.failed_component < n)
      msg += std::string(" (state ") + model->state_names[stats.failed_component] + ")";
    if (status == EQC_ERR_RHS)
      msg += ": " + modelFailure(stats.rhs_code & ~EQC_RHS_RETRY);
    failureCode = status == EQC_ERR_RHS ? stats.rhs_code & ~EQC_RHS_RETRY : 0;
    if (status == EQC_ERR_CHATTERING && stats.event_indicator >= 0 && stats.event_indicator < model->n_indicators)
      msg += std::string(" ('") + model->discrete_names[model->indicator_discrete[stats.event_indicator]] +
             "' changes again and again: the events accumulate)";
    char buf[64];
    std::snprintf(buf, sizeof buf, " (step size %.3g)", stats.h_last);
    error = msg + buf;
  }
};

extern "C" {

eqc_sim *eqc_sim_new(const eqc_model *model) {
  if (!modelValid(model))
    return nullptr;
  try {
    return new eqc_sim(model);
  } catch (...) {
    return nullptr;
  }
}

void eqc_sim_free(eqc_sim *sim) { delete sim; }

namespace {
constexpr uint32_t SerialMagic = 0x53435145; // "EQCS"
constexpr uint32_t SerialVersion = 3;
} // namespace

size_t eqc_sim_serialized_size(const eqc_sim *sim) {
  if (!sim)
    return 0;
  eqc::rt::ByteWriter w;
  w(SerialMagic);
  w(SerialVersion);
  eqc_sim::fields(*sim, w);
  return w.used;
}

int eqc_sim_serialize(const eqc_sim *sim, unsigned char *bytes, size_t size) {
  if (!sim || !bytes || size < eqc_sim_serialized_size(sim))
    return EQC_ERR_ARGUMENT;
  eqc::rt::ByteWriter w{bytes, size};
  w(SerialMagic);
  w(SerialVersion);
  eqc_sim::fields(*sim, w);
  return EQC_OK;
}

eqc_sim *eqc_sim_deserialize(const eqc_model *model, const unsigned char *bytes, size_t size) {
  if (!bytes)
    return nullptr;
  eqc_sim *sim = eqc_sim_new(model);
  if (!sim)
    return nullptr;
  const int n = sim->n, m = sim->m, na = model->n_algebraics, np = model->n_params;
  eqc::rt::ByteReader r{bytes, size};
  uint32_t magic = 0, version = 0;
  r(magic);
  r(version);
  // The sizes are read into copies (the model's own are constant) and compared.
  int sizes[4] = {0, 0, 0, 0};
  size_t index = 0;
  auto field = [&](auto &&v) {
    using T = std::remove_cv_t<std::remove_reference_t<decltype(v)>>;
    if constexpr (std::is_same_v<T, int>) {
      if (index < 4) {
        r(sizes[index++]);
        return;
      }
    }
    r(const_cast<T &>(v));
  };
  if (magic == SerialMagic && version == SerialVersion)
    eqc_sim::fields(*sim, field);
  sim->options.atol_vector = nullptr;
  sim->bindDelays();
  if (!r.ok || magic != SerialMagic || version != SerialVersion || r.used != size || sizes[0] != n ||
      sizes[1] != m || sizes[2] != na || sizes[3] != np) {
    sim->forgetObjects(); // the bytes' objects are not this simulation's
    eqc_sim_free(sim);
    return nullptr;
  }
  if (sim->remakeObjects() != 0) {
    eqc_sim_free(sim);
    return nullptr;
  }
  return sim;
}

eqc_sim *eqc_sim_copy(const eqc_sim *sim) {
  if (!sim)
    return nullptr;
  try {
    auto *copy = new eqc_sim(*sim);
    copy->bindDelays();
    if (copy->remakeObjects() != 0) {
      eqc_sim_free(copy);
      return nullptr;
    }
    return copy;
  } catch (...) {
    return nullptr;
  }
}

int eqc_sim_set_options(eqc_sim *sim, const eqc_options *opt) {
  if (!sim || !opt)
    return EQC_ERR_ARGUMENT;
  sim->options = *opt;
  sim->options.atol_vector = nullptr; // not kept: the caller's array may go away
  sim->stiff = false;
  return EQC_OK;
}

int eqc_sim_set_jacobian(eqc_sim *sim, eqc_linear_solver solver, eqc_sim_jacobian_fn provider, void *user) {
  if (!sim || solver < EQC_LINEAR_AUTO || solver > EQC_LINEAR_SPARSE)
    return EQC_ERR_ARGUMENT;
  sim->solver = solver;
  sim->jacProvider = provider;
  sim->jacUser = user;
  return EQC_OK;
}

int eqc_sim_set_projection(eqc_sim *sim, int on) {
  if (!sim || (on && !(sim->m > 0 && sim->model->invariants_jac)))
    return EQC_ERR_ARGUMENT;
  sim->project = on != 0;
  sim->initialized = false;
  return EQC_OK;
}

int eqc_sim_param_index(const eqc_sim *sim, const char *name) {
  return sim ? indexOf(sim->model->n_params, sim->model->param_names, name) : -1;
}
int eqc_sim_state_index(const eqc_sim *sim, const char *name) {
  return sim ? indexOf(sim->n, sim->model->state_names, name) : -1;
}
int eqc_sim_algebraic_index(const eqc_sim *sim, const char *name) {
  return sim ? indexOf(sim->model->n_algebraics, sim->model->algebraic_names, name) : -1;
}

int eqc_sim_set_param(eqc_sim *sim, int index, double value) {
  if (!sim || index < 0 || index >= sim->model->n_params || !std::isfinite(value))
    return EQC_ERR_ARGUMENT;
  if (sim->model->param_kind && sim->model->param_kind[index] == EQC_PARAM_INPUT) {
    sim->fail(std::string("eqc_sim_set_param: '") + sim->model->param_names[index] +
              "' is an input of the model: set it with eqc_sim_set_input");
    return EQC_ERR_ARGUMENT;
  }
  if (sim->model->param_kind && sim->model->param_kind[index] == EQC_PARAM_OBJECT) {
    sim->fail(std::string("eqc_sim_set_param: '") + sim->model->param_names[index] +
              "' is an external object, made by its constructor when the simulation initializes");
    return EQC_ERR_ARGUMENT;
  }
  if (sim->model->param_kind && sim->model->param_kind[index] == EQC_PARAM_STRUCTURAL) {
    sim->fail(std::string("eqc_sim_set_param: '") + sim->model->param_names[index] +
              "' fixes the model's structure (array sizes, loop ranges, which equations exist, or a value "
              "folded when "
              "compiled: annotation Evaluate = true or a final binding); change it in the model");
    return EQC_ERR_ARGUMENT;
  }
  sim->p[index] = value;
  sim->paramGiven[static_cast<size_t>(index)] = 1;
  sim->initialized = false;
  return EQC_OK;
}

int eqc_sim_set_atol(eqc_sim *sim, const double *atol) {
  if (!sim)
    return EQC_ERR_ARGUMENT;
  if (!atol) {
    sim->atolVector.clear();
    return EQC_OK;
  }
  for (int i = 0; i < sim->n; ++i)
    if (!(atol[i] >= 0) || !std::isfinite(atol[i]))
      return EQC_ERR_ARGUMENT;
  sim->atolVector.assign(atol, atol + sim->n);
  return EQC_OK;
}

int eqc_sim_set_warning_callback(eqc_sim *sim, eqc_sim_warning_fn fn, void *user) {
  if (!sim)
    return EQC_ERR_ARGUMENT;
  sim->warningFn = fn;
  sim->warningUser = user;
  return EQC_OK;
}

int eqc_sim_failed_assertion(const eqc_sim *sim) { return sim ? sim->failedAssertion : -1; }

int eqc_sim_set_step_callback(eqc_sim *sim, eqc_sim_step_fn fn, void *user) {
  if (!sim)
    return EQC_ERR_ARGUMENT;
  sim->stepFn = fn;
  sim->stepUser = user;
  return EQC_OK;
}

int eqc_sim_set_input(eqc_sim *sim, int index, double value) {
  if (!sim || index < 0 || index >= sim->model->n_params || !std::isfinite(value) || !sim->model->param_kind ||
      sim->model->param_kind[index] != EQC_PARAM_INPUT)
    return EQC_ERR_ARGUMENT;
  sim->p[static_cast<size_t>(index)] = value;
  return EQC_OK;
}

int eqc_sim_set_input_function(eqc_sim *sim, eqc_sim_input_fn fn, void *user) {
  if (!sim)
    return EQC_ERR_ARGUMENT;
  sim->inputFn = fn;
  sim->inputUser = user;
  return EQC_OK;
}

int eqc_sim_set_state(eqc_sim *sim, int index, double value) {
  if (!sim || index < 0 || index >= sim->n || !std::isfinite(value))
    return EQC_ERR_ARGUMENT;
  sim->x[index] = value;
  sim->stateGiven[static_cast<size_t>(index)] = 1;
  sim->initialized = false;
  return EQC_OK;
}

int eqc_sim_set_time(eqc_sim *sim, double t) {
  if (!sim || !std::isfinite(t))
    return EQC_ERR_ARGUMENT;
  sim->t = t;
  sim->initialized = false;
  return EQC_OK;
}

int eqc_sim_initialize(eqc_sim *sim) {
  if (!sim)
    return EQC_ERR_ARGUMENT;
  eqc::rt::FactorCacheScope factors(sim->factors);
  return sim->initialize();
}

int eqc_sim_run(eqc_sim *sim, double t_end, eqc_sim_output_fn out, void *user) {
  if (!sim)
    return EQC_ERR_ARGUMENT;
  try {
    eqc::rt::FactorCacheScope factors(sim->factors);
    return sim->run(t_end, out, user);
  } catch (...) {
    sim->fail("eqc_sim_run: out of memory");
    return EQC_ERR_ARGUMENT;
  }
}

double eqc_sim_time(const eqc_sim *sim) { return sim ? sim->t : NAN; }
const double *eqc_sim_states(const eqc_sim *sim) { return sim ? sim->x.data() : nullptr; }
const double *eqc_sim_derivatives(const eqc_sim *sim) { return sim ? sim->dx.data() : nullptr; }
const double *eqc_sim_algebraics(const eqc_sim *sim) { return sim ? sim->a.data() : nullptr; }

const eqc_stats *eqc_sim_stats(const eqc_sim *sim, double *invariant_residual) {
  if (!sim)
    return nullptr;
  if (invariant_residual)
    *invariant_residual = sim->worstInvariant;
  return &sim->stats;
}

int eqc_sim_discrete_index(const eqc_sim *sim, const char *name) {
  return sim ? indexOf(sim->model->n_discretes, sim->model->discrete_names, name) : -1;
}
const double *eqc_sim_discretes(const eqc_sim *sim) { return sim ? sim->p.data() + sim->model->n_params : nullptr; }
const double *eqc_sim_parameters(const eqc_sim *sim) { return sim ? sim->p.data() : nullptr; }
int eqc_sim_terminated(const eqc_sim *sim) { return sim && sim->terminated ? 1 : 0; }
long eqc_sim_events(const eqc_sim *sim) { return sim ? sim->events.events() : 0; }

int eqc_sim_indicators(eqc_sim *sim, double t, const double *x, double *z) {
  if (!sim || !x || (!z && sim->model->n_indicators > 0))
    return EQC_ERR_ARGUMENT;
  if (sim->model->n_indicators == 0)
    return EQC_OK;
  if (int code = sim->publicIndicators(t, x, z)) {
    sim->fail(sim->where(t) + ": the event indicators cannot be evaluated: " + sim->modelFailure(code));
    return EQC_ERR_RHS;
  }
  return EQC_OK;
}

int eqc_sim_event(eqc_sim *sim, double t, const double *x, int *states_changed) {
  if (!sim || !x || !std::isfinite(t))
    return EQC_ERR_ARGUMENT;
  try {
    eqc::rt::FactorCacheScope factors(sim->factors);
    return sim->event(t, x, states_changed);
  } catch (...) {
    sim->fail("eqc_sim_event: out of memory");
    return EQC_ERR_ARGUMENT;
  }
}

int eqc_sim_terminate(eqc_sim *sim, int *changed) {
  if (!sim)
    return EQC_ERR_ARGUMENT;
  try {
    eqc::rt::FactorCacheScope factors(sim->factors);
    return sim->terminalEvent(changed);
  } catch (...) {
    sim->fail("eqc_sim_terminate: out of memory");
    return EQC_ERR_ARGUMENT;
  }
}

int eqc_sim_check_assertions(eqc_sim *sim, double t, const double *x) {
  if (!sim || !x || !std::isfinite(t))
    return EQC_ERR_ARGUMENT;
  try {
    sim->error.clear();
    if (!sim->initialized)
      if (int rc = sim->initialize())
        return rc;
    if (sim->model->n_asserts == 0 && sim->model->n_delays == 0)
      return EQC_OK;
    sim->heldT = NAN; // where the caller's integration went since is not known: no location
    if (int code = sim->applyInputs(t)) {
      sim->inputCode = code;
      sim->fail(sim->where(t) + ": " + sim->modelFailure(InputFailure), InputFailure);
      return EQC_ERR_RHS;
    }
    std::vector<double> xs(x, x + sim->n);
    if (sim->model->n_delays > 0) // the delays' histories
      if (int code = sim->rhsRecording(t, xs.data()))
        return sim->assertionStatus(code, t);
    return sim->assertionsHold(t, xs.data(), false);
  } catch (...) {
    sim->fail("eqc_sim_check_assertions: out of memory");
    return EQC_ERR_ARGUMENT;
  }
}

const char *eqc_sim_last_error(const eqc_sim *sim) { return sim ? sim->error.c_str() : "no simulation"; }

} // extern "C"

namespace eqc::rt {

SimulationReport simulationReport(const eqc_sim *sim) {
  SimulationReport r;
  r.events = sim->hasEvents() ? &sim->events : nullptr;
  r.projections = sim->projections;
  r.worstInvariantTime = sim->worstInvariantTime;
  r.worstInvariantIndex = sim->worstInvariantIndex;
  r.failureCode = sim->failureCode;
  r.acceptedPointValid = sim->acceptedValid;
  r.endPointValid = sim->endValid;
  r.failedAssertion = sim->failedAssertion;
  r.assertMessage = sim->assertMessage;
  r.assertTime = sim->assertTime;
  return r;
}

void keepEventLog(eqc_sim *sim) { sim->events.keepLog = true; }

void setGuessPolicy(eqc_sim *sim, GuessPolicy policy) {
  sim->guessPolicy = policy;
  sim->acceptedA = sim->a;
}

void setReinitHook(eqc_sim *sim, ReinitHook hook) { sim->reinitHook = std::move(hook); }

void switchModel(eqc_sim *sim, const eqc_model *model, const double *x, const double *a, bool project,
                 bool skipStartRow) {
  eqc_sim &s = *sim;
  s.model = model;
  s.n = model->n_states;
  s.m = model->n_invariants;
  s.x.assign(x, x + s.n);
  s.dx.assign(static_cast<size_t>(s.n), 0.0);
  s.a.assign(a, a + model->n_algebraics);
  s.acceptedA = s.a;
  s.g.assign(static_cast<size_t>(s.m), 0.0);
  s.project = project && s.m > 0 && model->invariants_jac;
  s.projectInitial = s.m > 0 && model->invariants_jac;
  s.stateGiven.assign(static_cast<size_t>(s.n), 0);
  s.atolVector.clear();
  s.settling.clear();
  s.jacFn = nullptr;
  s.lastStep = 0.0;
  s.stiff = false;
  s.initialized = true;
  s.started = true;
  s.lastOutput = skipStartRow ? s.t : NAN;
  // The same assertions (of the same flat model): the warnings given stay given.
  s.warned.resize(static_cast<size_t>(model->n_asserts), 0);
  s.assertSkip.resize(s.warned.size());
  s.heldT = NAN;
}

} // namespace eqc::rt



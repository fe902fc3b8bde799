// Dummy derivatives with dynamic state selection: choose dof states at the consistent point,
// integrate the index-1 system of that choice, and choose again where its pivots degrade.
#include "driver/RunState.h"

#include "driver/Initialize.h"

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

int integrateWithStateSelection(Compilation &c, RunState &s, DummyRun &dummy, const eqc_options &o,
                                std::vector<double> &x, eqc_stats &stats, const OdeModel *&active,
                                ExitCode &failed, std::ostream &err) {
  FlatSystem &flat = *c.flat;
  dummy.diff = std::make_unique<Differentiator>(*flat.ctx);
  int status = EQC_OK;
  double t = o.t_start;
  std::memset(&stats, 0, sizeof stats);
  stats.switch_time = NAN;
  for (int segment = 0;; ++segment) {
    bool ok;
    StateSelection sel =
        segment == 0 ? selectStates(flat, *c.reduced, dummy.values, t, *dummy.diff, ok) : dummy.pending;
    if (segment == 0 && !ok) {
      c.diags->error(flat.loc,
                     "at time " + brief(t) +
                         ": dummy derivatives: no state selection has nonsingular "
                         "dummy blocks at this point (the model may need more differentiations here)");
      failed = ExitSimulation;
      return status;
    }
    Mode *mode = nullptr;
    for (auto &m : dummy.modes)
      if (m->selection == sel)
        mode = m.get();
    if (!mode) {
      auto m = std::make_unique<Mode>();
      m->selection = sel;
      m->model = setupDummyDerivativeModel(flat, *c.reduced, sel);
      if (!causalizeOdeModel(flat, m->model, *c.diags)) {
        failed = ExitStructure;
        return status;
      }
      BackendOptions backend;
      backend.optLevel = c.optLevel;
      backend.cacheDirectory = c.cacheDirectory;
      std::string error;
      m->jit = jitCompile(flat, m->model, backend, error);
      if (!m->jit) {
        err << "eqc: internal error: JIT compilation of a state selection failed: " << error << "\n";
        failed = ExitInternal;
        return status;
      }
      dummy.modes.push_back(std::move(m));
      mode = dummy.modes.back().get();
    }
    dummy.active = mode;
    active = &mode->model;
    // Start the mode from the values of every variable at t (the dummies' values are the
    // Newton guesses of its nonlinear blocks).
    x.assign(mode->model.states.size(), 0.0);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = dummy.values[mode->model.states[i]];
    s.a.assign(mode->model.algebraics.size(), 0.0);
    for (size_t i = 0; i < s.a.size(); ++i)
      s.a[i] = dummy.values[mode->model.algebraics[i]];
    s.scratchDx.assign(x.size(), 0.0);
    s.jit = mode->jit.get();
    s.slots = &mode->model.slots;
    dummy.stepState = x.data();
    eqc_options segmentOptions = o;
    applyStateTolerances(s, mode->model, segmentOptions);
    segmentOptions.t_start = t;
    segmentOptions.output_origin = o.t_start;
    if (segment > 0)
      s.skipOutputAt = t;
    eqc_stats seg;
    eqc_jacobian jacobian = modelJacobian(s);
    status = eqc_integrate_jac(static_cast<int>(x.size()), rhsCallback, &s, &jacobian, x.data(), &segmentOptions,
                               outputCallback, &s, dummyHook, &s, &seg);
    stats.steps += seg.steps;
    stats.rejected += seg.rejected;
    stats.rhs_evals += seg.rhs_evals;
    stats.outputs += seg.outputs;
    stats.jac_evals += seg.jac_evals;
    stats.lu_decompositions += seg.lu_decompositions;
    stats.newton_iterations += seg.newton_iterations;
    stats.method_used = seg.method_used;
    if (seg.linear_solver != EQC_LINEAR_AUTO)
      stats.linear_solver = seg.linear_solver;
    if (std::isnan(stats.switch_time) && !std::isnan(seg.switch_time))
      stats.switch_time = seg.switch_time;
    stats.t_reached = seg.t_reached;
    stats.h_last = seg.h_last;
    stats.failed_component = seg.failed_component;
    stats.rhs_code = seg.rhs_code;
    if (!(status == EQC_ERR_RHS && seg.rhs_code == kSwitchCode))
      break;
    t = seg.t_reached;
    if (mode->jit->rhs(t, x.data(), s.scratchDx.data(), s.a.data(), s.p.data()) != 0)
      break;
    gather(mode->model, x.data(), s.scratchDx.data(), s.a.data(), s.p, dummy.values);
    dummy.switches.push_back({t, describeStates(flat, mode->selection), describeStates(flat, dummy.pending)});
    if (dummy.switches.size() > 10000 ||
        (dummy.switches.size() > 100 &&
         t - dummy.switches[dummy.switches.size() - 100].t < 1e-6 * (o.t_end - o.t_start))) {
      c.diags->error(flat.loc, "at time " + brief(t) + ": the state selection switches without end (" +
                                   std::to_string(dummy.switches.size()) + " switches)");
      status = EQC_ERR_STOPPED;
      break;
    }
  }
  return status;
}

} // namespace eqc

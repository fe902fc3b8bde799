// An eqc_model over the JIT's functions, with names from the flat system and values from the
// consistent initial point.
#include "driver/ModelTable.h"

#include "eqc/eqc_external.h"

#include <algorithm>

#include "driver/Events.h"
#include "driver/Initialize.h"

namespace eqc {

/// The table's constants other than the values (parameters, start values).
static ModelDescription structure(const FlatSystem &flat, const OdeModel &m) {
  ModelDescription desc;
  desc.name = flat.modelName;
  auto names = [&](const std::vector<int> &vars, std::vector<std::string> &out, std::vector<std::string> &descriptions) {
    for (int v : vars) {
      out.push_back(flat.varName(v));
      descriptions.push_back(flat.vars[v].description);
    }
  };
  names(m.states, desc.stateNames, desc.stateDescriptions);
  names(m.algebraics, desc.algebraicNames, desc.algebraicDescriptions);
  names(m.params, desc.paramNames, desc.paramDescriptions);
  desc.description = flat.description;
  const char *stabilization[] = {"none", "projection", "Baumgarte"};
  desc.reduction = m.invariants.residuals.empty()
                       ? "none"
                       : std::string("invariants, ") + stabilization[static_cast<int>(m.stabilization)];
  desc.paramKinds.assign(m.params.size(), EQC_PARAM_FREE);
  for (int k : dependentParameters(flat, m.params))
    desc.paramKinds[static_cast<size_t>(k)] = EQC_PARAM_DEPENDENT;
  for (size_t i = 0; i < m.params.size(); ++i)
    if (flat.vars[m.params[i]].structural)
      desc.paramKinds[i] = EQC_PARAM_STRUCTURAL;
    else if (flat.vars[m.params[i]].computed) // an FMU's calculatedParameter
      desc.paramKinds[i] = EQC_PARAM_DEPENDENT;
    else if (flat.vars[m.params[i]].role == VarRole::Input)
      desc.paramKinds[i] = EQC_PARAM_INPUT;
    else if (flat.vars[m.params[i]].object)
      desc.paramKinds[i] = EQC_PARAM_OBJECT;
  // A state's start is held at initialization unless the (initial) equations determine it, as
  // eqc simulate's initialization moves only the free states.
  desc.stateFixed.assign(m.states.size(), 1);
  for (int v : m.freeStates)
    desc.stateFixed[static_cast<size_t>(m.slots[v].index)] = 0;
  desc.tolerance = flat.experiment.tolerance > 0 ? flat.experiment.tolerance : 0;
  // The declared outputs, states among them (none declared: every algebraic variable is one).
  auto declared = [&](const std::vector<int> &vars) {
    return std::any_of(vars.begin(), vars.end(), [&](int v) { return flat.vars[v].output; });
  };
  if (declared(m.algebraics) || declared(m.states)) {
    for (int v : m.algebraics)
      desc.algebraicOutputs.push_back(flat.vars[v].output ? 1 : 0);
    for (int v : m.states)
      desc.stateOutputs.push_back(flat.vars[v].output ? 1 : 0);
  }
  desc.events = describeEvents(flat, m);
  for (const Assertion &a : flat.assertions)
    desc.assertKinds.push_back(static_cast<unsigned char>((a.warning ? EQC_ASSERT_WARNING : 0) |
                                                          (a.initialOnly ? EQC_ASSERT_INITIAL : 0)));
  return desc;
}

/// `desc` with the values of `point`.
static void setValues(ModelDescription &desc, const OdeModel &m, const InitialPoint &point) {
  desc.params.assign(point.p.begin(), point.p.begin() + static_cast<long>(m.params.size()));
  // External objects are the point's own: a table's simulations make theirs (eqc_model.objects).
  for (size_t k = 0; k < desc.params.size() && k < desc.paramKinds.size(); ++k)
    if (desc.paramKinds[k] == EQC_PARAM_OBJECT)
      desc.params[k] = 0;
  desc.states = point.x;
  desc.algebraics = point.a;
}

std::optional<ModelDescription> ModelTable::describe(Compilation &c, double t0, std::ostream &err) {
  if (!c.jit || !c.model || !c.flat) {
    err << "eqc: error: the model is not compiled\n";
    return std::nullopt;
  }
  InitialPoint ip;
  std::unique_ptr<InvariantProjector> projector;
  if (consistentInitialPoint(c, {}, t0, ip, projector, err) != ExitOk)
    return std::nullopt;
  ModelDescription desc = structure(*c.flat, *c.model);
  setValues(desc, *c.model, ip);
  return desc;
}

std::unique_ptr<ModelTable> ModelTable::build(Compilation &c, double t0, std::ostream &err) {
  std::optional<ModelDescription> described = describe(c, t0, err);
  if (!described)
    return nullptr;
  auto table = std::unique_ptr<ModelTable>(new ModelTable);
  table->desc_ = std::move(*described);
  if (!table->fill(*c.model, *c.jit, /*jacobian=*/true)) {
    err << "eqc: internal error: the model's Jacobian could not be compiled\n";
    return nullptr;
  }
  return table;
}

std::unique_ptr<ModelTable> ModelTable::forRun(Compilation &c, const InitialPoint &start) {
  return forRun(*c.flat, *c.model, *c.jit, start);
}

std::unique_ptr<ModelTable> ModelTable::forRun(const FlatSystem &flat, const OdeModel &model, JitModel &jit,
                                               const InitialPoint &start) {
  auto table = std::unique_ptr<ModelTable>(new ModelTable);
  table->desc_ = structure(flat, model);
  setValues(table->desc_, model, start);
  if (!table->fill(model, jit, /*jacobian=*/false))
    return nullptr;
  // The values are the run's own (parameters evaluated with -p, start values): nothing to bind.
  table->model_.bind = nullptr;
  table->model_.start = nullptr;
  return table;
}

void ModelTable::followTier() { model_ = current(); }

eqc_model ModelTable::current() const {
  eqc_model m = model_;
  if (!jit_)
    return m;
  m.rhs = jit_->rhs;
  m.zc = jit_->zc;
  m.event = jit_->event;
  m.discrete_start = jit_->discreteStart;
  if (m.asserts)
    m.asserts = jit_->asserts;
  if (m.delays)
    m.delays = jit_->delays;
  if (m.indicator_sensitivities)
    m.indicator_sensitivities = jit_->indicatorSensitivities;
  if (m.init)
    m.init = jit_->init;
  if (m.invariants) {
    m.invariants = jit_->invariants;
    m.initial_constraints = jit_->initialConstraints;
  }
  return m;
}

bool ModelTable::fill(const OdeModel &m, JitModel &jit, bool jacobian) {
  ModelTable &t = *this;
  ModelDescription &desc = t.desc_;
  jit_ = &jit;
  auto pointers = [](const std::vector<std::string> &strings, std::vector<const char *> &ptrs) {
    for (const std::string &s : strings)
      ptrs.push_back(s.c_str());
  };
  pointers(desc.stateNames, t.statePtrs_);
  pointers(desc.algebraicNames, t.algebraicPtrs_);
  pointers(desc.paramNames, t.paramPtrs_);
  pointers(desc.stateDescriptions, t.stateDescriptionPtrs_);
  pointers(desc.algebraicDescriptions, t.algebraicDescriptionPtrs_);
  pointers(desc.paramDescriptions, t.paramDescriptionPtrs_);

  eqc_model &d = t.model_;
  d.abi_version = EQC_MODEL_ABI_VERSION;
  d.name = desc.name.c_str();
  d.n_states = static_cast<int>(m.states.size());
  d.n_algebraics = static_cast<int>(m.algebraics.size());
  d.n_params = static_cast<int>(m.params.size());
  d.n_invariants = static_cast<int>(m.invariants.residuals.size());
  d.state_names = t.statePtrs_.data();
  d.algebraic_names = t.algebraicPtrs_.data();
  d.param_names = t.paramPtrs_.data();
  d.param_defaults = desc.params.data();
  d.state_start = desc.states.data();
  d.algebraic_start = desc.algebraics.data();
  d.description = desc.description.c_str();
  d.state_descriptions = t.stateDescriptionPtrs_.data();
  d.algebraic_descriptions = t.algebraicDescriptionPtrs_.data();
  d.param_descriptions = t.paramDescriptionPtrs_.data();
  d.reduction = desc.reduction.c_str();
  d.param_kind = desc.paramKinds.data();
  d.bind = jit.bind;
  d.start = jit.start;
  d.state_fixed = desc.stateFixed.data();
  d.tolerance = desc.tolerance;
  pointAtEvents(desc.events, t.discretePtrs_, d);
  d.discrete_start = jit.discreteStart;
  d.zc = jit.zc;
  d.event = jit.event;
  d.n_asserts = static_cast<int>(desc.assertKinds.size());
  d.assert_kind = desc.assertKinds.data();
  d.asserts = d.n_asserts > 0 ? jit.asserts.load() : nullptr;
  d.delays = d.n_delays > 0 ? jit.delays.load() : nullptr;
  d.objects = jit.objects;
  d.release = jit.release;
  d.indicator_sensitivities = jit.indicatorSensitivities;
  d.external_error = eqc_external_error; // the JIT's models share eqc's runtime
  d.rhs = jit.rhs;
  // Index-reduced models start from the projected point; their init only evaluates rhs.
  d.init = d.n_invariants == 0 ? jit.init.load() : nullptr;
  if (jacobian) {
    d.jac = jit.jacobian();
    const SparsityPattern *pattern = jit.jacobianPattern();
    if (!d.jac || !pattern)
      return false;
    t.pattern_ = {static_cast<int>(pattern->nnz()), pattern->colStart.data(), pattern->rowIndex.data()};
    d.jac_pattern = &t.pattern_;
  }
  if (d.n_invariants > 0) {
    d.invariants = jit.invariants;
    d.invariants_jac = jit.invariantJacobian();
    // Initialization's constraints: the invariants, then the initial equations.
    d.n_initial_constraints = static_cast<int>(m.initialConstraints.residuals.size());
    d.initial_constraints = jit.initialConstraints;
    d.initial_constraints_jac = jit.initialConstraintJacobian();
    if (!d.invariants_jac || !d.initial_constraints_jac)
      return false;
    // The generated constraint Jacobians write the values of these patterns.
    t.invariantPattern_ = constraintJacobianPattern(m, m.invariants.residuals);
    t.initialPattern_ = constraintJacobianPattern(m, m.initialConstraints.residuals);
    auto sparsity = [](const SparsityPattern &p) {
      return eqc_sparsity{static_cast<int>(p.nnz()), p.colStart.data(), p.rowIndex.data()};
    };
    t.invariantSparsity_ = sparsity(t.invariantPattern_);
    t.initialSparsity_ = sparsity(t.initialPattern_);
    d.invariants_jac_pattern = &t.invariantSparsity_;
    d.initial_constraints_jac_pattern = &t.initialSparsity_;
  }
  return true;
}

} // namespace eqc

// The FMI 2.0 C API (Model Exchange and Co-Simulation) over an eqc model table, linked into the
// shared library of an FMU by `eqc compile --fmu`. The types and signatures follow the FMI 2.0
// specification (fmi-standard.org, "Functional Mock-up Interface for Model Exchange and
// Co-Simulation", version 2.0, sections 2.1 and 3/4); they are written here from the text, not
// taken from a header.
//
// Value references (the layout eqc's modelDescription.xml uses): state i is i, the derivative of
// state i is n + i, algebraic variable i is 2n + i, parameter i is 2n + m + i (n states, m
// algebraic variables).
#include "eqc/eqc_model.h"

#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

extern "C" {

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;

typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t, size_t);
typedef void (*fmi2CallbackFreeMemory)(void *);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment, fmi2Status);

typedef struct {
  const fmi2CallbackLogger logger;
  const fmi2CallbackAllocateMemory allocateMemory;
  const fmi2CallbackFreeMemory freeMemory;
  const fmi2StepFinished stepFinished;
  const fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

/// Provided by the FMU's model object (eqc compile --fmu): the model's table.
const eqc_model *eqc_fmu_model(void);
/// Provided by the FMU's model object: the GUID written into modelDescription.xml.
const char *eqc_fmu_guid(void);

} // extern "C"

namespace {

enum class Mode { Instantiated, Initialization, Continuous, Terminated, Error };

struct Instance {
  Instance(const eqc_model *m, fmi2Type type, std::string name) : m(m), type(type), name(std::move(name)) {}
  const eqc_model *m;
  fmi2Type type;
  std::string name;
  fmi2CallbackLogger logger = nullptr;
  fmi2ComponentEnvironment environment = nullptr;
  bool logging = false;
  Mode mode = Mode::Instantiated;
  double t = 0, tolerance = 1e-6;
  bool toleranceDefined = false;
  std::vector<double> x, dx, a, p;
  bool dirty = true;       ///< dx and a are not those of (t, x)
  eqc_sim *sim = nullptr;  ///< Co-Simulation: the integration
  double lastSuccessfulTime = 0;

  void log(fmi2Status status, const char *category, const std::string &message) const {
    if (logger && (logging || status >= fmi2Error))
      logger(environment, name.c_str(), status, category, "%s", message.c_str());
  }
  fmi2Status fail(const std::string &message) {
    log(fmi2Error, "logStatusError", message);
    return fmi2Error;
  }
  void reset() {
    x.assign(m->state_start, m->state_start + m->n_states);
    dx.assign(m->n_states, 0.0);
    a.assign(m->algebraic_start ? m->algebraic_start : nullptr,
             m->algebraic_start ? m->algebraic_start + m->n_algebraics : nullptr);
    a.resize(m->n_algebraics, 0.0);
    p.assign(m->param_defaults, m->param_defaults + m->n_params);
    if (sim)
      eqc_sim_free(sim);
    sim = nullptr;
    dirty = true;
    mode = Mode::Instantiated;
    t = 0;
  }
  /// dx and a at (t, x).
  fmi2Status evaluate() {
    if (!dirty)
      return fmi2OK;
    if (int code = m->rhs(t, x.data(), dx.data(), a.data(), p.data()))
      return fail("at time " + std::to_string(t) + ": the model's right-hand side failed (code " +
                  std::to_string(code) + ")");
    dirty = false;
    return fmi2OK;
  }
  size_t n() const { return static_cast<size_t>(m->n_states); }
  /// The storage behind a value reference, or nullptr.
  double *slot(fmi2ValueReference vr, bool &isParameter, bool &isComputed) {
    const size_t ns = n(), na = static_cast<size_t>(m->n_algebraics), np = static_cast<size_t>(m->n_params);
    isParameter = isComputed = false;
    if (vr < ns)
      return &x[vr];
    if (vr < 2 * ns) {
      isComputed = true;
      return &dx[vr - ns];
    }
    if (vr < 2 * ns + na) {
      isComputed = true;
      return &a[vr - 2 * ns];
    }
    if (vr < 2 * ns + na + np) {
      isParameter = true;
      return &p[vr - 2 * ns - na];
    }
    return nullptr;
  }
};

Instance *instance(fmi2Component c) { return static_cast<Instance *>(c); }

} // namespace

extern "C" {

const char *fmi2GetTypesPlatform(void) { return "default"; }
const char *fmi2GetVersion(void) { return "2.0"; }

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t, const fmi2String[]) {
  if (!c)
    return fmi2Error;
  instance(c)->logging = loggingOn != 0;
  return fmi2OK;
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID, fmi2String,
                              const fmi2CallbackFunctions *functions, fmi2Boolean, fmi2Boolean loggingOn) {
  const eqc_model *m = eqc_fmu_model();
  auto complain = [&](const char *message) {
    if (functions && functions->logger)
      functions->logger(functions->componentEnvironment, instanceName ? instanceName : "", fmi2Error,
                        "logStatusError", "%s", message);
    return nullptr;
  };
  if (!m)
    return complain("the FMU has no model");
  if (fmuGUID && std::strcmp(fmuGUID, eqc_fmu_guid()) != 0)
    return complain("fmi2Instantiate: the GUID does not match this FMU's modelDescription.xml");
  if (fmuType != fmi2ModelExchange && fmuType != fmi2CoSimulation)
    return complain("fmi2Instantiate: unknown FMU type");
  try {
    auto *inst = new Instance(m, fmuType, instanceName ? instanceName : "");
    if (functions) {
      inst->logger = functions->logger;
      inst->environment = functions->componentEnvironment;
    }
    inst->logging = loggingOn != 0;
    inst->reset();
    return inst;
  } catch (...) {
    return complain("fmi2Instantiate: out of memory");
  }
}

void fmi2FreeInstance(fmi2Component c) {
  if (!c)
    return;
  Instance *inst = instance(c);
  if (inst->sim)
    eqc_sim_free(inst->sim);
  delete inst;
}

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance, fmi2Real startTime,
                               fmi2Boolean, fmi2Real) {
  if (!c)
    return fmi2Error;
  Instance *inst = instance(c);
  if (inst->mode != Mode::Instantiated)
    return inst->fail("fmi2SetupExperiment: only after fmi2Instantiate");
  if (toleranceDefined) {
    if (!(tolerance > 0) || !std::isfinite(tolerance))
      return inst->fail("fmi2SetupExperiment: the tolerance must be positive");
    inst->tolerance = tolerance;
    inst->toleranceDefined = true;
  }
  if (!std::isfinite(startTime))
    return inst->fail("fmi2SetupExperiment: the start time must be finite");
  inst->t = startTime;
  inst->dirty = true;
  return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  if (!c)
    return fmi2Error;
  Instance *inst = instance(c);
  if (inst->mode != Mode::Instantiated)
    return inst->fail("fmi2EnterInitializationMode: only after fmi2Instantiate");
  inst->mode = Mode::Initialization;
  return fmi2OK;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  if (!c)
    return fmi2Error;
  Instance *inst = instance(c);
  if (inst->mode != Mode::Initialization)
    return inst->fail("fmi2ExitInitializationMode: not in initialization mode");
  const eqc_model *m = inst->m;
  if (inst->type == fmi2CoSimulation) {
    inst->sim = eqc_sim_new(m);
    if (!inst->sim)
      return inst->fail("fmi2ExitInitializationMode: cannot create the simulation");
    eqc_options o;
    eqc_options_default(&o);
    o.rtol = inst->tolerance;
    o.atol = inst->tolerance;
    eqc_sim_set_options(inst->sim, &o);
    for (int i = 0; i < m->n_params; ++i)
      eqc_sim_set_param(inst->sim, i, inst->p[i]);
    for (int i = 0; i < m->n_states; ++i)
      eqc_sim_set_state(inst->sim, i, inst->x[i]);
    eqc_sim_set_time(inst->sim, inst->t);
    if (eqc_sim_initialize(inst->sim) != EQC_OK)
      return inst->fail(std::string("fmi2ExitInitializationMode: ") + eqc_sim_last_error(inst->sim));
    std::copy(eqc_sim_states(inst->sim), eqc_sim_states(inst->sim) + m->n_states, inst->x.begin());
    std::copy(eqc_sim_derivatives(inst->sim), eqc_sim_derivatives(inst->sim) + m->n_states, inst->dx.begin());
    std::copy(eqc_sim_algebraics(inst->sim), eqc_sim_algebraics(inst->sim) + m->n_algebraics, inst->a.begin());
    inst->dirty = false;
    inst->lastSuccessfulTime = inst->t;
  } else {
    if (m->init) {
      if (int code = m->init(inst->t, inst->x.data(), inst->dx.data(), inst->a.data(), inst->p.data()))
        return inst->fail("fmi2ExitInitializationMode: initialization failed (code " + std::to_string(code) + ")");
    }
    inst->dirty = true;
    if (fmi2Status s = inst->evaluate(); s != fmi2OK)
      return s;
  }
  // Model Exchange: event mode after initialization; without events it is continuous-time at once.
  inst->mode = Mode::Continuous;
  return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component c) {
  if (!c)
    return fmi2Error;
  instance(c)->mode = Mode::Terminated;
  return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component c) {
  if (!c)
    return fmi2Error;
  instance(c)->reset();
  return fmi2OK;
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]) {
  if (!c || (nvr > 0 && (!vr || !value)))
    return fmi2Error;
  Instance *inst = instance(c);
  bool computedWanted = false;
  for (size_t k = 0; k < nvr; ++k) {
    bool isParameter, isComputed;
    if (!inst->slot(vr[k], isParameter, isComputed))
      return inst->fail("fmi2GetReal: unknown value reference " + std::to_string(vr[k]));
    computedWanted = computedWanted || isComputed;
  }
  if (computedWanted && inst->mode != Mode::Instantiated)
    if (fmi2Status s = inst->evaluate(); s != fmi2OK)
      return s;
  for (size_t k = 0; k < nvr; ++k) {
    bool isParameter, isComputed;
    value[k] = *inst->slot(vr[k], isParameter, isComputed);
  }
  return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]) {
  if (!c || (nvr > 0 && (!vr || !value)))
    return fmi2Error;
  Instance *inst = instance(c);
  for (size_t k = 0; k < nvr; ++k) {
    bool isParameter, isComputed;
    double *slot = inst->slot(vr[k], isParameter, isComputed);
    if (!slot)
      return inst->fail("fmi2SetReal: unknown value reference " + std::to_string(vr[k]));
    if (isComputed)
      return inst->fail("fmi2SetReal: value reference " + std::to_string(vr[k]) + " is computed by the model");
    // Parameters are fixed (modelDescription.xml), states are set before initialization (Model
    // Exchange sets them with fmi2SetContinuousStates).
    if (inst->mode != Mode::Instantiated && inst->mode != Mode::Initialization)
      return inst->fail("fmi2SetReal: value reference " + std::to_string(vr[k]) +
                        " can be set only before fmi2ExitInitializationMode");
    if (!std::isfinite(value[k]))
      return inst->fail("fmi2SetReal: value reference " + std::to_string(vr[k]) + ": not a finite number");
    *slot = value[k];
  }
  inst->dirty = true;
  return fmi2OK;
}

fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference[], size_t nvr, fmi2Integer[]) {
  return c && nvr == 0 ? fmi2OK : fmi2Error;
}
fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference[], size_t nvr, fmi2Boolean[]) {
  return c && nvr == 0 ? fmi2OK : fmi2Error;
}
fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference[], size_t nvr, fmi2String[]) {
  return c && nvr == 0 ? fmi2OK : fmi2Error;
}
fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference[], size_t nvr, const fmi2Integer[]) {
  return c && nvr == 0 ? fmi2OK : fmi2Error;
}
fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference[], size_t nvr, const fmi2Boolean[]) {
  return c && nvr == 0 ? fmi2OK : fmi2Error;
}
fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference[], size_t nvr, const fmi2String[]) {
  return c && nvr == 0 ? fmi2OK : fmi2Error;
}

// FMU states and directional derivatives are not provided (canGetAndSetFMUstate = false,
// providesDirectionalDerivative = false in modelDescription.xml).
fmi2Status fmi2GetFMUstate(fmi2Component, fmi2FMUstate *) { return fmi2Error; }
fmi2Status fmi2SetFMUstate(fmi2Component, fmi2FMUstate) { return fmi2Error; }
fmi2Status fmi2FreeFMUstate(fmi2Component, fmi2FMUstate *) { return fmi2Error; }
fmi2Status fmi2SerializedFMUstateSize(fmi2Component, fmi2FMUstate, size_t *) { return fmi2Error; }
fmi2Status fmi2SerializeFMUstate(fmi2Component, fmi2FMUstate, fmi2Byte[], size_t) { return fmi2Error; }
fmi2Status fmi2DeSerializeFMUstate(fmi2Component, const fmi2Byte[], size_t, fmi2FMUstate *) { return fmi2Error; }
fmi2Status fmi2GetDirectionalDerivative(fmi2Component, const fmi2ValueReference[], size_t, const fmi2ValueReference[],
                                        size_t, const fmi2Real[], fmi2Real[]) {
  return fmi2Error;
}

// ---- Model Exchange ----

fmi2Status fmi2EnterEventMode(fmi2Component c) { return c ? fmi2OK : fmi2Error; }

fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *info) {
  if (!c || !info)
    return fmi2Error;
  *info = fmi2EventInfo{0, 0, 0, 0, 0, 0.0};
  return fmi2OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) { return c ? fmi2OK : fmi2Error; }

fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean, fmi2Boolean *enterEventMode,
                                       fmi2Boolean *terminateSimulation) {
  if (!c)
    return fmi2Error;
  if (enterEventMode)
    *enterEventMode = 0;
  if (terminateSimulation)
    *terminateSimulation = 0;
  return fmi2OK;
}

fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
  if (!c || !std::isfinite(time))
    return fmi2Error;
  Instance *inst = instance(c);
  inst->t = time;
  inst->dirty = true;
  return fmi2OK;
}

fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx) {
  if (!c)
    return fmi2Error;
  Instance *inst = instance(c);
  if (nx != inst->n() || (nx > 0 && !x))
    return inst->fail("fmi2SetContinuousStates: expected " + std::to_string(inst->n()) + " states");
  std::copy(x, x + nx, inst->x.begin());
  inst->dirty = true;
  return fmi2OK;
}

fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx) {
  if (!c)
    return fmi2Error;
  Instance *inst = instance(c);
  if (nx != inst->n() || (nx > 0 && !derivatives))
    return inst->fail("fmi2GetDerivatives: expected " + std::to_string(inst->n()) + " states");
  if (fmi2Status s = inst->evaluate(); s != fmi2OK)
    return s;
  std::copy(inst->dx.begin(), inst->dx.end(), derivatives);
  return fmi2OK;
}

fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real[], size_t ni) { return c && ni == 0 ? fmi2OK : fmi2Error; }

fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
  if (!c)
    return fmi2Error;
  Instance *inst = instance(c);
  if (nx != inst->n() || (nx > 0 && !x))
    return inst->fail("fmi2GetContinuousStates: expected " + std::to_string(inst->n()) + " states");
  std::copy(inst->x.begin(), inst->x.end(), x);
  return fmi2OK;
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[], size_t nx) {
  if (!c || nx != instance(c)->n() || (nx > 0 && !x_nominal))
    return fmi2Error;
  std::fill(x_nominal, x_nominal + nx, 1.0);
  return fmi2OK;
}

// ---- Co-Simulation ----

fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference[], size_t nvr, const fmi2Integer[],
                                       const fmi2Real[]) {
  return c && nvr == 0 ? fmi2OK : fmi2Error; // the model has no inputs
}
fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference[], size_t nvr, const fmi2Integer[],
                                        fmi2Real[]) {
  return c && nvr == 0 ? fmi2OK : fmi2Error; // maxOutputDerivativeOrder = 0
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,
                      fmi2Boolean) {
  if (!c)
    return fmi2Error;
  Instance *inst = instance(c);
  if (inst->type != fmi2CoSimulation || !inst->sim || inst->mode != Mode::Continuous)
    return inst->fail("fmi2DoStep: the Co-Simulation instance is not initialized");
  if (!(communicationStepSize > 0))
    return inst->fail("fmi2DoStep: the communication step size must be positive");
  if (std::fabs(currentCommunicationPoint - inst->t) > 1e-9 * std::max(1.0, std::fabs(inst->t)))
    return inst->fail("fmi2DoStep: the communication point " + std::to_string(currentCommunicationPoint) +
                      " is not the FMU's time " + std::to_string(inst->t));
  // The states (and parameters) as the environment left them.
  for (int i = 0; i < inst->m->n_states; ++i)
    if (eqc_sim_states(inst->sim)[i] != inst->x[i])
      eqc_sim_set_state(inst->sim, i, inst->x[i]);
  int status = eqc_sim_run(inst->sim, inst->t + communicationStepSize, nullptr, nullptr);
  const eqc_model *m = inst->m;
  std::copy(eqc_sim_states(inst->sim), eqc_sim_states(inst->sim) + m->n_states, inst->x.begin());
  std::copy(eqc_sim_derivatives(inst->sim), eqc_sim_derivatives(inst->sim) + m->n_states, inst->dx.begin());
  std::copy(eqc_sim_algebraics(inst->sim), eqc_sim_algebraics(inst->sim) + m->n_algebraics, inst->a.begin());
  inst->t = eqc_sim_time(inst->sim);
  inst->dirty = false;
  if (status != EQC_OK) {
    inst->mode = Mode::Error;
    return inst->fail(std::string("fmi2DoStep: ") + eqc_sim_last_error(inst->sim));
  }
  inst->lastSuccessfulTime = inst->t;
  return fmi2OK;
}

fmi2Status fmi2CancelStep(fmi2Component c) { return c ? fmi2Error : fmi2Error; } // steps are synchronous

fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind, fmi2Status *value) {
  if (!c || !value)
    return fmi2Error;
  *value = instance(c)->mode == Mode::Error ? fmi2Error : fmi2OK;
  return fmi2OK;
}
fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *value) {
  if (!c || !value || s != fmi2LastSuccessfulTime)
    return fmi2Discard;
  *value = instance(c)->lastSuccessfulTime;
  return fmi2OK;
}
fmi2Status fmi2GetIntegerStatus(fmi2Component, const fmi2StatusKind, fmi2Integer *) { return fmi2Discard; }
fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value) {
  if (!c || !value || s != fmi2Terminated)
    return fmi2Discard;
  *value = 0;
  return fmi2OK;
}
fmi2Status fmi2GetStringStatus(fmi2Component, const fmi2StatusKind, fmi2String *) { return fmi2Discard; }

} // extern "C"

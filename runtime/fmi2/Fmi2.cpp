// The FMI 2.0 C API (Model Exchange and Co-Simulation) over an eqc model table, linked into the
// shared library of an FMU by `eqc compile --fmu`. The types and signatures follow the FMI 2.0
// specification (fmi-standard.org, "Functional Mock-up Interface for Model Exchange and
// Co-Simulation", version 2.0, sections 2.1 and 3/4); they are written here from the text, not
// taken from a header.
//
// Value references (the layout eqc's modelDescription.xml uses): state i is i, the derivative of
// state i is n + i, algebraic variable i is 2n + i, parameter i is 2n + m + i (n states, m
// algebraic variables).
#include "eqc/eqc_external.h"
#include "eqc/eqc_model.h"

#include "../src/Bytes.h"

#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
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

/// The states of an instance (FMI 2.0, sections 3.2.3 and 4.2.4), as bits. Co-Simulation steps are
/// synchronous: there is no stepInProgress or stepCanceled.
enum State : unsigned {
  Instantiated = 1u << 0,
  Initialization = 1u << 1,
  Event = 1u << 2,        ///< Model Exchange
  Continuous = 1u << 3,   ///< Model Exchange
  StepComplete = 1u << 4, ///< Co-Simulation
  StepFailed = 1u << 5,   ///< Co-Simulation
  Terminated = 1u << 6,
  Error = 1u << 7,
};
constexpr unsigned Live = Instantiated | Initialization | Event | Continuous | StepComplete | StepFailed | Terminated | Error;
constexpr unsigned Readable = Initialization | Event | Continuous | StepComplete | StepFailed | Terminated | Error;

const char *stateName(unsigned state) {
  switch (state) {
  case Instantiated: return "Instantiated";
  case Initialization: return "Initialization Mode";
  case Event: return "Event Mode";
  case Continuous: return "Continuous-Time Mode";
  case StepComplete: return "stepComplete";
  case StepFailed: return "stepFailed";
  case Terminated: return "Terminated";
  case Error: return "Error";
  }
  return "?";
}

enum class Interface { Both, ModelExchange, CoSimulation };

// The FMI 2.0 state tables (Model Exchange: section 3.2.3; Co-Simulation: section 4.2.4): for each
// function, the interface it belongs to and the states in which it may be called.
#define FMI2_CALLS(X)                                                                                                  \
  X(SetDebugLogging, Both, Live)                                                                                     \
  X(SetupExperiment, Both, Instantiated)                                                                             \
  X(EnterInitializationMode, Both, Instantiated)                                                                     \
  X(ExitInitializationMode, Both, Initialization)                                                                    \
  X(Terminate, Both, Event | Continuous | StepComplete | StepFailed)                                                 \
  X(Reset, Both, Live)                                                                                               \
  X(GetReal, Both, Readable)                                                                                         \
  X(GetInteger, Both, Readable)                                                                                      \
  X(GetBoolean, Both, Readable)                                                                                      \
  X(GetString, Both, Readable)                                                                                       \
  X(SetReal, Both, Instantiated | Initialization | Event | Continuous | StepComplete)                                 \
  X(SetInteger, Both, Instantiated | Initialization | Event | StepComplete)                                          \
  X(SetBoolean, Both, Instantiated | Initialization | Event | StepComplete)                                          \
  X(SetString, Both, Instantiated | Initialization | Event | StepComplete)                                           \
  X(GetFMUstate, Both, Live)                                                                                         \
  X(SetFMUstate, Both, Live)                                                                                         \
  X(FreeFMUstate, Both, Live)                                                                                        \
  X(SerializedFMUstateSize, Both, Live)                                                                              \
  X(SerializeFMUstate, Both, Live)                                                                                   \
  X(DeSerializeFMUstate, Both, Live)                                                                                 \
  X(GetDirectionalDerivative, Both, Readable)                                                                        \
  X(EnterEventMode, ModelExchange, Event | Continuous)                                                               \
  X(NewDiscreteStates, ModelExchange, Event)                                                                         \
  X(EnterContinuousTimeMode, ModelExchange, Event)                                                                   \
  X(CompletedIntegratorStep, ModelExchange, Continuous)                                                              \
  X(SetTime, ModelExchange, Event | Continuous)                                                                      \
  X(SetContinuousStates, ModelExchange, Continuous)                                                                  \
  X(GetEventIndicators, ModelExchange, Initialization | Event | Continuous | Terminated | Error)                      \
  X(GetContinuousStates, ModelExchange, Initialization | Event | Continuous | Terminated | Error)                     \
  X(GetDerivatives, ModelExchange, Event | Continuous | Terminated | Error)                                           \
  X(GetNominalsOfContinuousStates, ModelExchange, Instantiated | Event | Continuous | Terminated | Error)             \
  X(SetRealInputDerivatives, CoSimulation, Instantiated | Initialization | StepComplete)                             \
  X(GetRealOutputDerivatives, CoSimulation, StepComplete | StepFailed | Terminated | Error)                          \
  X(DoStep, CoSimulation, StepComplete)                                                                              \
  X(CancelStep, CoSimulation, 0u)                                                                                    \
  X(GetStatus, CoSimulation, StepComplete | StepFailed | Terminated)                                                 \
  X(GetRealStatus, CoSimulation, StepComplete | StepFailed | Terminated)                                             \
  X(GetIntegerStatus, CoSimulation, StepComplete | StepFailed | Terminated)                                          \
  X(GetBooleanStatus, CoSimulation, StepComplete | StepFailed | Terminated)                                          \
  X(GetStringStatus, CoSimulation, StepComplete | StepFailed | Terminated)

enum class Call {
#define FMI2_CALL_ENUM(Name, Kind, States) Name,
  FMI2_CALLS(FMI2_CALL_ENUM)
#undef FMI2_CALL_ENUM
};

struct CallRule {
  const char *name;
  Interface kind;
  unsigned states;
};

const CallRule kCallRules[] = {
#define FMI2_CALL_RULE(Name, Kind, States) {"fmi2" #Name, Interface::Kind, States},
    FMI2_CALLS(FMI2_CALL_RULE)
#undef FMI2_CALL_RULE
};

enum class Category {
#define FMI2_LOG_CATEGORY(Name, Description) Name,
#include "LogCategories.def"
};
const char *const kCategoryNames[] = {
#define FMI2_LOG_CATEGORY(Name, Description) #Name,
#include "LogCategories.def"
};
constexpr size_t kCategories = sizeof(kCategoryNames) / sizeof(kCategoryNames[0]);

/// What an FMU state keeps of an instance (both have these fields, by these names), in the order
/// fmi2SerializeFMUstate writes them: everything calls change, besides the integration.
#define FMU_STATE_FIELDS(X)                                                                                          \
  X(state) X(t) X(tolerance) X(stopTime) X(lastSuccessfulTime) X(toleranceDefined) X(dirty) X(x) X(dx) X(a) X(p)  \
  X(paramGiven) X(stateGiven)

/// What fmi2GetFMUstate keeps: everything of an instance that calls change, with a copy of its
/// Co-Simulation integration.
struct Snapshot {
  Snapshot() = default;
  Snapshot(const Snapshot &) = delete;
  Snapshot &operator=(const Snapshot &) = delete;
  ~Snapshot() { eqc_sim_free(sim); }
  const void *owner = nullptr; ///< the instance it was taken of
  unsigned state = 0;
  double t = 0, tolerance = 0, stopTime = 0, lastSuccessfulTime = 0;
  bool toleranceDefined = false, dirty = true;
  std::vector<double> x, dx, a, p;
  std::vector<unsigned char> paramGiven, stateGiven;
  eqc_sim *sim = nullptr;

  /// The fields that fmi2SerializeFMUstate writes, in its order (the integration follows them).
  template <typename Self, typename Field> static void fields(Self &s, Field &&f) {
#define FMU_STATE_FIELD(name) f(s.name);
    FMU_STATE_FIELDS(FMU_STATE_FIELD)
#undef FMU_STATE_FIELD
  }
};

struct Instance {
  Instance(const eqc_model *m, fmi2Type type, std::string name) : m(m), type(type), name(std::move(name)) {}
  const eqc_model *m;
  fmi2Type type;
  std::string name;
  fmi2CallbackLogger logger = nullptr;
  fmi2ComponentEnvironment environment = nullptr;
  bool categories[kCategories] = {}; ///< enabled by fmi2SetDebugLogging
  unsigned state = Instantiated;
  double t = 0, tolerance = 1e-6;
  bool toleranceDefined = false;
  double stopTime = INFINITY; ///< from fmi2SetupExperiment when defined
  std::vector<double> x, dx, a, p;
  std::vector<unsigned char> paramGiven, stateGiven; ///< set with fmi2SetReal before initialization
  bool dirty = true;       ///< dx and a are not those of (t, x)
  eqc_sim *sim = nullptr;  ///< Co-Simulation: the integration
  double lastSuccessfulTime = 0;

  void log(fmi2Status status, Category category, const std::string &message) const {
    // Errors are always reported; other messages when their category is on.
    if (logger && (categories[static_cast<size_t>(category)] || status >= fmi2Error))
      logger(environment, name.c_str(), status, kCategoryNames[static_cast<size_t>(category)], "%s", message.c_str());
  }
  fmi2Status fail(const std::string &message) {
    log(fmi2Error, Category::logStatusError, message);
    return fmi2Error;
  }
  /// eqc_sim_warning_fn: a warning-level assertion of the model failed.
  static void warnAssertion(void *user, double t, int, const char *message) {
    auto *inst = static_cast<Instance *>(user);
    inst->log(fmi2Warning, Category::logStatusWarning,
              "at time " + std::to_string(t) + ": assertion failed: " + message);
  }
  /// A failure of the model itself: the instance goes to the Error state (FMI 2.0, 2.1.3).
  fmi2Status modelFailed(const std::string &message) {
    state = Error;
    return fail(message);
  }
  /// Whether `call` may be called now (the state tables); logs the call under logCalls and a
  /// refusal as an error.
  bool allows(Call call) const {
    const CallRule &rule = kCallRules[static_cast<size_t>(call)];
    log(fmi2OK, Category::logCalls, std::string(rule.name) + " in state " + stateName(state));
    const bool rightInterface = rule.kind == Interface::Both ||
                                (rule.kind == Interface::ModelExchange) == (type == fmi2ModelExchange);
    if (!rightInterface) {
      log(fmi2Error, Category::logStatusError,
          std::string(rule.name) + ": a " + (type == fmi2ModelExchange ? "Model Exchange" : "Co-Simulation") +
              " instance does not have this function");
      return false;
    }
    if (!(rule.states & state)) {
      log(fmi2Error, Category::logStatusError,
          std::string(rule.name) + ": not allowed in state " + stateName(state) + " (FMI 2.0, section " +
              (type == fmi2ModelExchange ? "3.2.3" : "4.2.4") + ")");
      return false;
    }
    return true;
  }
  void reset() {
    x.assign(m->state_start, m->state_start + m->n_states);
    dx.assign(m->n_states, 0.0);
    a.assign(m->algebraic_start ? m->algebraic_start : nullptr,
             m->algebraic_start ? m->algebraic_start + m->n_algebraics : nullptr);
    a.resize(m->n_algebraics, 0.0);
    p.assign(m->param_defaults, m->param_defaults + m->n_params);
    paramGiven.assign(p.size(), 0);
    p.resize(static_cast<size_t>(std::max(m->n_p, m->n_params)), 0.0); // the discrete part from initialization
    stateGiven.assign(x.size(), 0);
    if (sim)
      eqc_sim_free(sim);
    sim = nullptr;
    dirty = true;
    state = Instantiated;
    t = 0;
    tolerance = 1e-6;
    toleranceDefined = false;
    stopTime = INFINITY;
  }
  /// dx and a at (t, x).
  fmi2Status evaluate() {
    if (!dirty)
      return fmi2OK;
    if (int code = m->rhs(t, x.data(), dx.data(), a.data(), p.data()))
      return modelFailed("at time " + std::to_string(t) + ": the model's right-hand side failed (code " +
                         std::to_string(code) + ")");
    dirty = false;
    return fmi2OK;
  }
  size_t n() const { return static_cast<size_t>(m->n_states); }
  /// Time-dependent values as the integration (sim) left them.
  void takeFromSimulation() {
    std::copy(eqc_sim_parameters(sim), eqc_sim_parameters(sim) + p.size(), p.begin());
    std::copy(eqc_sim_states(sim), eqc_sim_states(sim) + m->n_states, x.begin());
    std::copy(eqc_sim_derivatives(sim), eqc_sim_derivatives(sim) + m->n_states, dx.begin());
    std::copy(eqc_sim_algebraics(sim), eqc_sim_algebraics(sim) + m->n_algebraics, a.begin());
  }
  /// Copies this instance's state into `s` (false without memory).
  bool save(Snapshot &s) const {
    eqc_sim *copy = nullptr;
    if (sim && !(copy = eqc_sim_copy(sim)))
      return false;
    eqc_sim_free(s.sim);
    s.sim = copy;
    s.owner = this;
#define FMU_STATE_FIELD(name) s.name = name;
    FMU_STATE_FIELDS(FMU_STATE_FIELD)
#undef FMU_STATE_FIELD
    return true;
  }
  /// Sets this instance's state from `s` (false without memory).
  bool restore(const Snapshot &s) {
    eqc_sim *copy = nullptr;
    if (s.sim && !(copy = eqc_sim_copy(s.sim)))
      return false;
    eqc_sim_free(sim);
    sim = copy;
    if (sim) // a state saved by another instance or deserialized warns through this one
      eqc_sim_set_warning_callback(sim, warnAssertion, this);
#define FMU_STATE_FIELD(name) name = s.name;
    FMU_STATE_FIELDS(FMU_STATE_FIELD)
#undef FMU_STATE_FIELD
    return true;
  }
  unsigned char kindOf(size_t param) const { return m->param_kind ? m->param_kind[param] : static_cast<unsigned char>(EQC_PARAM_FREE); }
  /// Before initialization: the dependent parameters and the start values that follow the
  /// parameters set (fmi2SetReal), as eqc_sim does.
  fmi2Status bindParameters() {
    if (m->bind)
      if (int code = m->bind(paramGiven.data(), p.data()))
        return modelFailed("the dependent parameters cannot be computed (code " + std::to_string(code) + ")");
    if (m->start) {
      std::vector<double> starts(x);
      if (int code = m->start(p.data(), starts.data()))
        return modelFailed("the start values cannot be computed (code " + std::to_string(code) + ")");
      for (size_t i = 0; i < x.size(); ++i)
        if (!stateGiven[i])
          x[i] = starts[i];
    }
    return fmi2OK;
  }
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
    // Discrete Real variables (Integer and Boolean ones are fmi2GetInteger's and fmi2GetBoolean's).
    const size_t j = vr - 2 * ns - na - np;
    if (j < static_cast<size_t>(m->n_discretes) && m->discrete_kind[j] == EQC_DISCRETE_REAL) {
      isComputed = true;
      return &p[np + j];
    }
    return nullptr;
  }
  /// Discrete variable `vr` of `kind` (fmi2GetInteger/Boolean's value references are indices
  /// among the discretes), or nullptr.
  const double *discrete(fmi2ValueReference vr, unsigned char kind) const {
    if (vr >= static_cast<fmi2ValueReference>(m->n_discretes) || m->discrete_kind[vr] != kind)
      return nullptr;
    return &p[static_cast<size_t>(m->n_params) + vr];
  }
};

/// The instance behind `c` if `call` may be called on it now, else nullptr (the refusal logged).
Instance *checked(fmi2Component c, Call call) {
  auto *inst = static_cast<Instance *>(c);
  return inst && inst->allows(call) ? inst : nullptr;
}

/// For the functions with array arguments: `name` is NULL although `count` entries were asked for.
bool missing(Instance *inst, const char *function, const char *name, const void *array, size_t count) {
  if (count == 0 || array)
    return false;
  inst->fail(std::string(function) + ": " + name + " is NULL");
  return true;
}

// Variables that cannot be set (the model's Integer and Boolean variables are discrete locals,
// computed by it; it has no String variables).
template <Call call, typename T>
fmi2Status noVariables(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, T) {
  Instance *inst = checked(c, call);
  if (!inst)
    return fmi2Error;
  if (nvr == 0)
    return fmi2OK;
  return inst->fail(std::string(kCallRules[static_cast<size_t>(call)].name) + ": unknown value reference " +
                    (vr ? std::to_string(vr[0]) : std::string("(vr is NULL)")));
}

/// fmi2GetInteger, fmi2GetBoolean and fmi2GetString: the discrete variables of that kind.
template <Call call, typename T>
fmi2Status getDiscretes(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, T value[], unsigned char kind) {
  Instance *inst = checked(c, call);
  const char *name = kCallRules[static_cast<size_t>(call)].name;
  if (!inst || missing(inst, name, "vr", vr, nvr) || missing(inst, name, "value", value, nvr))
    return fmi2Error;
  for (size_t k = 0; k < nvr; ++k) {
    const double *v = inst->discrete(vr[k], kind);
    if (!v)
      return inst->fail(std::string(name) + ": unknown value reference " + std::to_string(vr[k]));
    if constexpr (std::is_same_v<T, fmi2String>)
      value[k] = eqc_string_text(*v); // lives as long as the process
    else
      value[k] = static_cast<T>(*v);
  }
  return fmi2OK;
}
/// A call whose only effect is a change of state (the state tables say when it is allowed).
fmi2Status transition(fmi2Component c, Call call, State to) {
  Instance *inst = checked(c, call);
  if (!inst)
    return fmi2Error;
  inst->state = to;
  return fmi2OK;
}

/// Checks the size and pointer of a state-sized array argument.
bool badStates(Instance *inst, const char *function, const void *array, size_t nx) {
  if (nx != inst->n()) {
    inst->fail(std::string(function) + ": expected " + std::to_string(inst->n()) + " states, got " + std::to_string(nx));
    return true;
  }
  return missing(inst, function, "the array", array, nx);
}

constexpr uint32_t kStateTag = 0x32494D46; // "FMI2"

/// Writes `s` into `out` (NULL: only counts); returns the bytes it takes.
size_t serialize(const Snapshot &s, unsigned char *out, size_t size) {
  eqc::rt::ByteWriter w{out, size};
  w(kStateTag);
  Snapshot::fields(s, w);
  const size_t simBytes = s.sim ? eqc_sim_serialized_size(s.sim) : 0;
  w(simBytes);
  if (s.sim && out && w.used + simBytes <= size)
    eqc_sim_serialize(s.sim, out + w.used, simBytes);
  return w.used + simBytes;
}

/// Reads a snapshot of `inst`'s model from `in`; false when the bytes are not one.
bool deserialize(const Instance &inst, const unsigned char *in, size_t size, Snapshot &s) {
  s.x.resize(inst.x.size());
  s.dx.resize(inst.dx.size());
  s.a.resize(inst.a.size());
  s.p.resize(inst.p.size());
  s.paramGiven.resize(inst.paramGiven.size());
  s.stateGiven.resize(inst.stateGiven.size());
  eqc::rt::ByteReader r{in, size};
  uint32_t tag = 0;
  r(tag);
  if (tag != kStateTag)
    return false;
  Snapshot::fields(s, r);
  size_t simBytes = 0;
  r(simBytes);
  if (!r.ok || r.used + simBytes != size)
    return false;
  if (simBytes && !(s.sim = eqc_sim_deserialize(inst.m, in + r.used, simBytes)))
    return false;
  s.owner = &inst;
  return true;
}

} // namespace

extern "C" {

const char *fmi2GetTypesPlatform(void) { return "default"; }
const char *fmi2GetVersion(void) { return "2.0"; }

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories, const fmi2String categories[]) {
  Instance *inst = checked(c, Call::SetDebugLogging);
  if (!inst || missing(inst, "fmi2SetDebugLogging", "categories", categories, nCategories))
    return fmi2Error;
  // No categories: all of them (FMI 2.0, 2.1.5); else the ones named, each one of <LogCategories>.
  bool chosen[kCategories] = {};
  for (size_t k = 0; k < nCategories; ++k) {
    size_t found = kCategories;
    for (size_t j = 0; j < kCategories && categories[k]; ++j)
      if (std::strcmp(categories[k], kCategoryNames[j]) == 0)
        found = j;
    if (found == kCategories)
      return inst->fail(std::string("fmi2SetDebugLogging: unknown log category '") +
                        (categories[k] ? categories[k] : "(null)") + "'");
    chosen[found] = true;
  }
  for (size_t j = 0; j < kCategories; ++j)
    if (nCategories == 0 || chosen[j])
      inst->categories[j] = loggingOn != 0;
  return fmi2OK;
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID, fmi2String,
                              const fmi2CallbackFunctions *functions, fmi2Boolean, fmi2Boolean loggingOn) {
  const eqc_model *m = eqc_fmu_model();
  auto complain = [&](const std::string &message) -> fmi2Component {
    if (functions && functions->logger)
      functions->logger(functions->componentEnvironment, instanceName ? instanceName : "", fmi2Error,
                        "logStatusError", "%s", message.c_str());
    return nullptr;
  };
  if (!functions || !functions->logger)
    return complain("fmi2Instantiate: the callback functions and their logger are required");
  if (!instanceName || !*instanceName)
    return complain("fmi2Instantiate: the instance name must not be NULL or empty");
  if (!m)
    return complain("fmi2Instantiate: the FMU has no model");
  if (!fmuGUID || std::strcmp(fmuGUID, eqc_fmu_guid()) != 0)
    return complain(std::string("fmi2Instantiate: the GUID ") + (fmuGUID ? fmuGUID : "(null)") +
                    " does not match this FMU's modelDescription.xml (" + eqc_fmu_guid() + ")");
  if (fmuType != fmi2ModelExchange && fmuType != fmi2CoSimulation)
    return complain("fmi2Instantiate: unknown FMU type " + std::to_string(static_cast<int>(fmuType)));
  try {
    auto *inst = new Instance(m, fmuType, instanceName);
    inst->logger = functions->logger;
    inst->environment = functions->componentEnvironment;
    for (bool &on : inst->categories)
      on = loggingOn != 0;
    inst->reset();
    return inst;
  } catch (...) {
    return complain("fmi2Instantiate: out of memory");
  }
}

void fmi2FreeInstance(fmi2Component c) {
  if (!c)
    return;
  Instance *inst = static_cast<Instance *>(c);
  if (inst->sim)
    eqc_sim_free(inst->sim);
  delete inst;
}

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance, fmi2Real startTime,
                               fmi2Boolean stopTimeDefined, fmi2Real stopTime) {
  Instance *inst = checked(c, Call::SetupExperiment);
  if (!inst)
    return fmi2Error;
  if (toleranceDefined && (!(tolerance > 0) || !std::isfinite(tolerance)))
    return inst->fail("fmi2SetupExperiment: the tolerance must be positive");
  if (!std::isfinite(startTime))
    return inst->fail("fmi2SetupExperiment: the start time must be finite");
  if (stopTimeDefined && !(stopTime >= startTime))
    return inst->fail("fmi2SetupExperiment: the stop time " + std::to_string(stopTime) + " is before the start time " +
                      std::to_string(startTime));
  inst->toleranceDefined = toleranceDefined != 0;
  inst->tolerance = toleranceDefined ? tolerance : 1e-6;
  inst->stopTime = stopTimeDefined ? stopTime : INFINITY;
  inst->t = startTime;
  inst->dirty = true;
  return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) { return transition(c, Call::EnterInitializationMode, Initialization); }

fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  Instance *inst = checked(c, Call::ExitInitializationMode);
  if (!inst)
    return fmi2Error;
  const eqc_model *m = inst->m;
  if (fmi2Status s = inst->bindParameters(); s != fmi2OK) // the instance's copy, for fmi2GetReal
    return s;
  // Both interfaces initialize as eqc_sim does (and eqc simulate): dependent parameters, start
  // values, the model's init, and for index-reduced models the projection onto the invariants
  // holding the fixed states and those the environment set; Co-Simulation keeps the simulation.
  inst->sim = eqc_sim_new(m);
  if (!inst->sim)
    return inst->modelFailed("fmi2ExitInitializationMode: cannot create the simulation");
  eqc_sim_set_warning_callback(inst->sim, Instance::warnAssertion, inst);
  // The tolerance of fmi2SetupExperiment, else the model's own (its experiment annotation).
  const double tolerance = inst->toleranceDefined || !(m->tolerance > 0) ? inst->tolerance : m->tolerance;
  eqc_options o;
  eqc_options_default(&o);
  o.rtol = tolerance;
  o.atol = tolerance;
  eqc_sim_set_options(inst->sim, &o);
  // What the environment set; eqc_sim binds the rest.
  for (int i = 0; i < m->n_params; ++i)
    if (inst->kindOf(static_cast<size_t>(i)) == EQC_PARAM_INPUT)
      eqc_sim_set_input(inst->sim, i, inst->p[i]);
    else if (inst->paramGiven[static_cast<size_t>(i)])
      eqc_sim_set_param(inst->sim, i, inst->p[i]);
  for (int i = 0; i < m->n_states; ++i)
    if (inst->stateGiven[static_cast<size_t>(i)])
      eqc_sim_set_state(inst->sim, i, inst->x[i]);
  eqc_sim_set_time(inst->sim, inst->t);
  if (eqc_sim_initialize(inst->sim) != EQC_OK)
    return inst->modelFailed(std::string("fmi2ExitInitializationMode: ") + eqc_sim_last_error(inst->sim));
  inst->takeFromSimulation();
  inst->dirty = false;
  if (inst->type == fmi2CoSimulation) {
    inst->lastSuccessfulTime = inst->t;
    inst->state = StepComplete;
    return fmi2OK;
  }
  // Model Exchange keeps the simulation for its events (eqc_sim_event).
  inst->state = Event; // Model Exchange: Event Mode after initialization (FMI 2.0, 3.2.3)
  return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component c) {
  Instance *inst = checked(c, Call::Terminate);
  if (!inst)
    return fmi2Error;
  // The terminal event (terminal() of MLS 3.5, 3.7.2), at the environment's time and states for
  // Model Exchange (first the event iteration there, as fmi2NewDiscreteStates).
  bool terminal = false;
  for (int j = 0; inst->m->discrete_kind && j < inst->m->n_discretes; ++j)
    terminal = terminal || inst->m->discrete_kind[j] == EQC_DISCRETE_TERMINAL;
  if (terminal && inst->sim) {
    int changed = 0;
    if (inst->type == fmi2ModelExchange && eqc_sim_event(inst->sim, inst->t, inst->x.data(), &changed) != EQC_OK)
      return inst->modelFailed(std::string("fmi2Terminate: ") + eqc_sim_last_error(inst->sim));
    if (eqc_sim_terminate(inst->sim, &changed) != EQC_OK)
      return inst->modelFailed(std::string("fmi2Terminate: ") + eqc_sim_last_error(inst->sim));
    inst->takeFromSimulation();
  }
  inst->state = Terminated;
  return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component c) {
  Instance *inst = checked(c, Call::Reset);
  if (!inst)
    return fmi2Error;
  inst->reset();
  return fmi2OK;
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]) {
  Instance *inst = checked(c, Call::GetReal);
  if (!inst || missing(inst, "fmi2GetReal", "vr", vr, nvr) || missing(inst, "fmi2GetReal", "value", value, nvr))
    return fmi2Error;
  bool computedWanted = false;
  for (size_t k = 0; k < nvr; ++k) {
    bool isParameter, isComputed;
    if (!inst->slot(vr[k], isParameter, isComputed))
      return inst->fail("fmi2GetReal: unknown value reference " + std::to_string(vr[k]));
    computedWanted = computedWanted || isComputed;
  }
  if (computedWanted && inst->state != Initialization)
    if (fmi2Status s = inst->evaluate(); s != fmi2OK)
      return s;
  for (size_t k = 0; k < nvr; ++k) {
    bool isParameter, isComputed;
    value[k] = *inst->slot(vr[k], isParameter, isComputed);
  }
  return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]) {
  Instance *inst = checked(c, Call::SetReal);
  if (!inst || missing(inst, "fmi2SetReal", "vr", vr, nvr) || missing(inst, "fmi2SetReal", "value", value, nvr))
    return fmi2Error;
  const bool beforeInit = inst->state == Instantiated || inst->state == Initialization;
  for (size_t k = 0; k < nvr; ++k) {
    bool isParameter, isComputed;
    double *slot = inst->slot(vr[k], isParameter, isComputed);
    const std::string which = "fmi2SetReal: value reference " + std::to_string(vr[k]);
    if (!slot)
      return inst->fail("fmi2SetReal: unknown value reference " + std::to_string(vr[k]));
    if (isComputed)
      return inst->fail(which + " is computed by the model");
    // Parameters are fixed (modelDescription.xml); states are set before initialization, and in
    // Model Exchange also in Event and Continuous-Time Mode (FMI 2.0.1, as fmi2SetContinuousStates).
    bool isInput = false;
    if (isParameter) {
      const size_t param = vr[k] - 2 * inst->n() - static_cast<size_t>(inst->m->n_algebraics);
      isInput = inst->kindOf(param) == EQC_PARAM_INPUT;
      if (inst->kindOf(param) == EQC_PARAM_DEPENDENT)
        return inst->fail(which + " is a calculated parameter (its binding computes it from the others)");
      if (inst->kindOf(param) == EQC_PARAM_STRUCTURAL)
        return inst->fail(which + " is a constant: it fixes the model's structure");
      if (inst->kindOf(param) == EQC_PARAM_OBJECT)
        return inst->fail(which + " is an external object of the model, not a value");
    }
    if (isParameter && !isInput && !beforeInit)
      return inst->fail(which + " is a fixed parameter: it can be set only before fmi2ExitInitializationMode");
    if (!isParameter && !beforeInit && inst->type != fmi2ModelExchange)
      return inst->fail(which + " is a state: a Co-Simulation instance takes it only before fmi2ExitInitializationMode");
    if (!std::isfinite(value[k]))
      return inst->fail(which + ": not a finite number");
  }
  for (size_t k = 0; k < nvr; ++k) {
    bool isParameter, isComputed;
    *inst->slot(vr[k], isParameter, isComputed) = value[k];
    const size_t param = vr[k] - 2 * inst->n() - static_cast<size_t>(inst->m->n_algebraics);
    if (isParameter && inst->kindOf(param) == EQC_PARAM_INPUT) {
      // An input: held from now on (the integration of a Co-Simulation step, the events of
      // Model Exchange take it from the simulation).
      if (inst->sim)
        eqc_sim_set_input(inst->sim, static_cast<int>(param), value[k]);
      continue;
    }
    if (beforeInit)
      (isParameter ? inst->paramGiven[param] : inst->stateGiven[vr[k]]) = 1;
  }
  inst->dirty = true;
  return fmi2OK;
}

fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Integer v[]) {
  return getDiscretes<Call::GetInteger>(c, vr, nvr, v, EQC_DISCRETE_INTEGER);
}
fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Boolean v[]) {
  return getDiscretes<Call::GetBoolean>(c, vr, nvr, v, EQC_DISCRETE_BOOLEAN);
}
fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String v[]) {
  return getDiscretes<Call::GetString>(c, vr, nvr, v, EQC_DISCRETE_STRING);
}
fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer v[]) {
  return noVariables<Call::SetInteger>(c, vr, nvr, v);
}
fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Boolean v[]) {
  return noVariables<Call::SetBoolean>(c, vr, nvr, v);
}
fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2String v[]) {
  return noVariables<Call::SetString>(c, vr, nvr, v);
}

// FMU states (FMI 2.0, 2.1.8): a snapshot of the instance, its Co-Simulation integration
// included, so that a step after fmi2SetFMUstate gives the bits it gave the first time.
fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *FMUstate) {
  Instance *inst = checked(c, Call::GetFMUstate);
  if (!inst || missing(inst, "fmi2GetFMUstate", "FMUstate", FMUstate, 1))
    return fmi2Error;
  auto *snapshot = static_cast<Snapshot *>(*FMUstate); // not NULL: overwritten (FMI 2.0, 2.1.8)
  if (snapshot && snapshot->owner != inst)
    return inst->fail("fmi2GetFMUstate: the FMU state was taken of another instance");
  std::unique_ptr<Snapshot> fresh(snapshot ? nullptr : new (std::nothrow) Snapshot);
  if (!snapshot && !fresh)
    return inst->fail("fmi2GetFMUstate: out of memory");
  if (!inst->save(snapshot ? *snapshot : *fresh))
    return inst->fail("fmi2GetFMUstate: out of memory");
  if (fresh)
    *FMUstate = fresh.release();
  return fmi2OK;
}
fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate FMUstate) {
  Instance *inst = checked(c, Call::SetFMUstate);
  if (!inst || missing(inst, "fmi2SetFMUstate", "FMUstate", FMUstate, 1))
    return fmi2Error;
  const auto *snapshot = static_cast<const Snapshot *>(FMUstate);
  if (snapshot->owner != inst)
    return inst->fail("fmi2SetFMUstate: the FMU state was taken of another instance");
  return inst->restore(*snapshot) ? fmi2OK : inst->fail("fmi2SetFMUstate: out of memory");
}
fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *FMUstate) {
  Instance *inst = checked(c, Call::FreeFMUstate);
  if (!inst || missing(inst, "fmi2FreeFMUstate", "FMUstate", FMUstate, 1))
    return fmi2Error;
  delete static_cast<Snapshot *>(*FMUstate);
  *FMUstate = nullptr;
  return fmi2OK;
}
// Serialized FMU states: a tag, the snapshot's fields, then the integration's bytes
// (eqc_sim_serialize), for the same FMU on the same kind of machine.
fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate FMUstate, size_t *size) {
  Instance *inst = checked(c, Call::SerializedFMUstateSize);
  if (!inst || missing(inst, "fmi2SerializedFMUstateSize", "FMUstate", FMUstate, 1) ||
      missing(inst, "fmi2SerializedFMUstateSize", "size", size, 1))
    return fmi2Error;
  const auto &snapshot = *static_cast<const Snapshot *>(FMUstate);
  *size = serialize(snapshot, nullptr, 0);
  return fmi2OK;
}
fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate FMUstate, fmi2Byte serializedState[], size_t size) {
  Instance *inst = checked(c, Call::SerializeFMUstate);
  if (!inst || missing(inst, "fmi2SerializeFMUstate", "FMUstate", FMUstate, 1) ||
      missing(inst, "fmi2SerializeFMUstate", "serializedState", serializedState, 1))
    return fmi2Error;
  const auto &snapshot = *static_cast<const Snapshot *>(FMUstate);
  const size_t needed = serialize(snapshot, nullptr, 0);
  if (size < needed)
    return inst->fail("fmi2SerializeFMUstate: " + std::to_string(size) + " bytes given, " + std::to_string(needed) +
                      " needed (fmi2SerializedFMUstateSize)");
  serialize(snapshot, reinterpret_cast<unsigned char *>(serializedState), size);
  return fmi2OK;
}
fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[], size_t size,
                                   fmi2FMUstate *FMUstate) {
  Instance *inst = checked(c, Call::DeSerializeFMUstate);
  if (!inst || missing(inst, "fmi2DeSerializeFMUstate", "serializedState", serializedState, 1) ||
      missing(inst, "fmi2DeSerializeFMUstate", "FMUstate", FMUstate, 1))
    return fmi2Error;
  std::unique_ptr<Snapshot> snapshot(new (std::nothrow) Snapshot);
  if (!snapshot || !deserialize(*inst, reinterpret_cast<const unsigned char *>(serializedState), size, *snapshot))
    return inst->fail("fmi2DeSerializeFMUstate: the bytes are not a serialized state of this FMU");
  delete static_cast<Snapshot *>(*FMUstate);
  *FMUstate = snapshot.release();
  return fmi2OK;
}
// Directional derivatives with respect to the states (FMI 2.0, 2.1.9): those of the state
// derivatives from the generated sparse Jacobian, exactly; those of the outputs (algebraic
// variables) by one forward difference of the model along the seed.
fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference vUnknown[], size_t nUnknown,
                                        const fmi2ValueReference vKnown[], size_t nKnown, const fmi2Real dvKnown[],
                                        fmi2Real dvUnknown[]) {
  Instance *inst = checked(c, Call::GetDirectionalDerivative);
  const char *name = "fmi2GetDirectionalDerivative";
  if (!inst || missing(inst, name, "vUnknown_ref", vUnknown, nUnknown) ||
      missing(inst, name, "vKnown_ref", vKnown, nKnown) || missing(inst, name, "dvKnown", dvKnown, nKnown) ||
      missing(inst, name, "dvUnknown", dvUnknown, nUnknown))
    return fmi2Error;
  const eqc_model *m = inst->m;
  const size_t n = inst->n(), na = static_cast<size_t>(m->n_algebraics);
  std::vector<double> seed(n, 0.0), inputSeed(static_cast<size_t>(m->n_params), 0.0);
  bool inputsSeeded = false;
  for (size_t k = 0; k < nKnown; ++k) {
    const size_t param = vKnown[k] - 2 * n - na;
    if (vKnown[k] >= 2 * n + na && param < static_cast<size_t>(m->n_params) && inst->kindOf(param) == EQC_PARAM_INPUT) {
      inputSeed[param] += dvKnown[k];
      inputsSeeded = inputsSeeded || dvKnown[k] != 0.0;
      continue;
    }
    if (vKnown[k] >= n)
      return inst->fail(std::string(name) + ": known " + std::to_string(vKnown[k]) +
                        " is not a continuous state or an input");
    seed[vKnown[k]] += dvKnown[k];
  }
  bool outputs = false;
  for (size_t k = 0; k < nUnknown; ++k) {
    if (vUnknown[k] >= 2 * n + na)
      return inst->fail(std::string(name) + ": unknown " + std::to_string(vUnknown[k]) +
                        " is not a state derivative or an output");
    outputs = outputs || vUnknown[k] >= 2 * n;
  }
  if (fmi2Status s = inst->evaluate(); s != fmi2OK)
    return s;
  // J seed from the sparse Jacobian (d f_i / d x_j, compressed columns).
  std::vector<double> derivative(n, 0.0);
  // With inputs seeded, everything by one forward difference (inputs have no generated Jacobian).
  const bool exact = m->jac && !inputsSeeded;
  if (exact) {
    const eqc_sparsity &pattern = *m->jac_pattern;
    std::vector<double> values(static_cast<size_t>(pattern.nnz));
    if (int code = m->jac(inst->t, inst->x.data(), inst->dx.data(), inst->a.data(), inst->p.data(), values.data()))
      return inst->modelFailed(std::string(name) + ": the model's Jacobian failed (code " + std::to_string(code) + ")");
    for (size_t j = 0; j < n; ++j)
      if (seed[j] != 0.0)
        for (int k = pattern.col_start[j]; k < pattern.col_start[j + 1]; ++k)
          derivative[static_cast<size_t>(pattern.row_index[k])] += values[static_cast<size_t>(k)] * seed[j];
  }
  std::vector<double> output(na, 0.0);
  if (outputs || !exact) {
    // Forward difference along the seed: h * |seed| about sqrt(eps) of the knowns' size.
    double seedNorm = 0.0, size = 1.0;
    for (size_t j = 0; j < n; ++j) {
      seedNorm = std::max(seedNorm, std::fabs(seed[j]));
      size = std::max(size, std::fabs(inst->x[j]));
    }
    for (size_t j = 0; j < inputSeed.size(); ++j)
      if (inputSeed[j] != 0.0) {
        seedNorm = std::max(seedNorm, std::fabs(inputSeed[j]));
        size = std::max(size, std::fabs(inst->p[j]));
      }
    if (seedNorm > 0.0) {
      const double h = 1.4901161193847656e-08 * size / seedNorm;
      std::vector<double> x(inst->x), dx(n), a(inst->a), p(inst->p);
      for (size_t j = 0; j < n; ++j)
        x[j] += h * seed[j];
      for (size_t j = 0; j < inputSeed.size(); ++j)
        p[j] += h * inputSeed[j];
      if (int code = m->rhs(inst->t, x.data(), dx.data(), a.data(), p.data()))
        return inst->fail(std::string(name) + ": the model failed along the seed (code " + std::to_string(code) + ")");
      for (size_t i = 0; i < na; ++i)
        output[i] = (a[i] - inst->a[i]) / h;
      if (!exact)
        for (size_t i = 0; i < n; ++i)
          derivative[i] = (dx[i] - inst->dx[i]) / h;
    }
  }
  for (size_t k = 0; k < nUnknown; ++k) {
    const fmi2ValueReference vr = vUnknown[k];
    dvUnknown[k] = vr < n ? seed[vr] : vr < 2 * n ? derivative[vr - n] : output[vr - 2 * n];
  }
  return fmi2OK;
}

// ---- Model Exchange ----

fmi2Status fmi2EnterEventMode(fmi2Component c) { return transition(c, Call::EnterEventMode, Event); }

fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *info) {
  Instance *inst = checked(c, Call::NewDiscreteStates);
  if (!inst || missing(inst, "fmi2NewDiscreteStates", "fmi2EventInfo", info, 1))
    return fmi2Error;
  *info = fmi2EventInfo{0, 0, 0, 0, 0, 0.0};
  // The event iteration at the environment's time and states: it settles in this one call.
  int changed = 0;
  if (eqc_sim_event(inst->sim, inst->t, inst->x.data(), &changed) != EQC_OK)
    return inst->modelFailed(std::string("fmi2NewDiscreteStates: ") + eqc_sim_last_error(inst->sim));
  inst->takeFromSimulation();
  inst->dirty = false;
  info->terminateSimulation = eqc_sim_terminated(inst->sim) ? 1 : 0;
  info->valuesOfContinuousStatesChanged = changed ? 1 : 0;
  return fmi2OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) { return transition(c, Call::EnterContinuousTimeMode, Continuous); }

fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean, fmi2Boolean *enterEventMode,
                                       fmi2Boolean *terminateSimulation) {
  Instance *inst = checked(c, Call::CompletedIntegratorStep);
  if (!inst || missing(inst, "fmi2CompletedIntegratorStep", "enterEventMode", enterEventMode, 1) ||
      missing(inst, "fmi2CompletedIntegratorStep", "terminateSimulation", terminateSimulation, 1))
    return fmi2Error;
  *enterEventMode = 0;
  *terminateSimulation = 0;
  if ((inst->m->n_asserts > 0 || inst->m->n_delays > 0) && inst->sim) {
    int status = eqc_sim_check_assertions(inst->sim, inst->t, inst->x.data());
    if (status != EQC_OK)
      return inst->modelFailed(std::string("fmi2CompletedIntegratorStep: ") + eqc_sim_last_error(inst->sim));
  }
  // An index-reduced model: once the environment's integration drifts off the invariants by
  // more than the tolerance, a step event projects it back (fmi2NewDiscreteStates reports the
  // states changed).
  const eqc_model *m = inst->m;
  if (m->n_invariants > 0 && m->invariants_jac) {
    std::vector<double> g(static_cast<size_t>(m->n_invariants));
    if (int code = m->invariants(inst->t, inst->x.data(), inst->p.data(), g.data()))
      return inst->modelFailed("fmi2CompletedIntegratorStep: the invariants failed (code " + std::to_string(code) + ")");
    double drift = 0.0, size = 1.0;
    for (double v : g)
      drift = std::max(drift, std::fabs(v));
    for (double v : inst->x)
      size = std::max(size, std::fabs(v));
    const double tolerance = inst->toleranceDefined || !(m->tolerance > 0) ? inst->tolerance : m->tolerance;
    *enterEventMode = !(drift <= tolerance * size) ? 1 : 0;
  }
  return fmi2OK;
}

fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
  Instance *inst = checked(c, Call::SetTime);
  if (!inst)
    return fmi2Error;
  if (!std::isfinite(time))
    return inst->fail("fmi2SetTime: the time must be finite");
  if (time > inst->stopTime)
    return inst->fail("fmi2SetTime: time " + std::to_string(time) + " is past the stop time " +
                      std::to_string(inst->stopTime) + " of fmi2SetupExperiment");
  inst->t = time;
  inst->dirty = true;
  return fmi2OK;
}


fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx) {
  Instance *inst = checked(c, Call::SetContinuousStates);
  if (!inst || badStates(inst, "fmi2SetContinuousStates", x, nx))
    return fmi2Error;
  for (size_t i = 0; i < nx; ++i)
    if (!std::isfinite(x[i]))
      return inst->fail("fmi2SetContinuousStates: state " + std::to_string(i) + " is not a finite number");
  std::copy(x, x + nx, inst->x.begin());
  inst->dirty = true;
  return fmi2OK;
}

fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx) {
  Instance *inst = checked(c, Call::GetDerivatives);
  if (!inst || badStates(inst, "fmi2GetDerivatives", derivatives, nx))
    return fmi2Error;
  if (fmi2Status s = inst->evaluate(); s != fmi2OK)
    return s;
  std::copy(inst->dx.begin(), inst->dx.end(), derivatives);
  return fmi2OK;
}

fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t ni) {
  Instance *inst = checked(c, Call::GetEventIndicators);
  if (!inst)
    return fmi2Error;
  const int nz = inst->m->n_indicators;
  if (ni != static_cast<size_t>(nz))
    return inst->fail("fmi2GetEventIndicators: the FMU has " + std::to_string(nz) + " event indicators, not " +
                      std::to_string(ni));
  if (ni == 0)
    return fmi2OK;
  if (missing(inst, "fmi2GetEventIndicators", "eventIndicators", z, ni))
    return fmi2Error;
  if (!inst->sim) // Initialization Mode: the indicators at the start values
    return inst->fail("fmi2GetEventIndicators: the event indicators are known after fmi2ExitInitializationMode");
  if (eqc_sim_indicators(inst->sim, inst->t, inst->x.data(), z) != EQC_OK)
    return inst->modelFailed(std::string("fmi2GetEventIndicators: ") + eqc_sim_last_error(inst->sim));
  return fmi2OK;
}

fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
  Instance *inst = checked(c, Call::GetContinuousStates);
  if (!inst || badStates(inst, "fmi2GetContinuousStates", x, nx))
    return fmi2Error;
  std::copy(inst->x.begin(), inst->x.end(), x);
  return fmi2OK;
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[], size_t nx) {
  Instance *inst = checked(c, Call::GetNominalsOfContinuousStates);
  if (!inst || badStates(inst, "fmi2GetNominalsOfContinuousStates", x_nominal, nx))
    return fmi2Error;
  std::fill(x_nominal, x_nominal + nx, 1.0);
  return fmi2OK;
}

// ---- Co-Simulation ----

fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                       const fmi2Integer order[], const fmi2Real v[]) {
  (void)order;
  return noVariables<Call::SetRealInputDerivatives>(c, vr, nvr, v); // the model has no inputs
}
fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                        const fmi2Integer order[], fmi2Real v[]) {
  (void)order;
  return noVariables<Call::GetRealOutputDerivatives>(c, vr, nvr, v); // maxOutputDerivativeOrder = 0
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,
                      fmi2Boolean) {
  Instance *inst = checked(c, Call::DoStep);
  if (!inst)
    return fmi2Error;
  if (!(communicationStepSize > 0) || !std::isfinite(communicationStepSize))
    return inst->fail("fmi2DoStep: the communication step size must be positive");
  if (std::fabs(currentCommunicationPoint - inst->t) > 1e-9 * std::max(1.0, std::fabs(inst->t)))
    return inst->fail("fmi2DoStep: the communication point " + std::to_string(currentCommunicationPoint) +
                      " is not the FMU's time " + std::to_string(inst->t));
  const double tEnd = inst->t + communicationStepSize;
  if (tEnd > inst->stopTime * (1 + 1e-12) + 1e-12)
    return inst->fail("fmi2DoStep: the step to " + std::to_string(tEnd) + " goes past the stop time " +
                      std::to_string(inst->stopTime) + " of fmi2SetupExperiment");
  int status = eqc_sim_run(inst->sim, tEnd, nullptr, nullptr);
  inst->takeFromSimulation();
  inst->t = eqc_sim_time(inst->sim);
  inst->dirty = false;
  if (status != EQC_OK)
    return inst->modelFailed(std::string("fmi2DoStep: ") + eqc_sim_last_error(inst->sim));
  inst->lastSuccessfulTime = inst->t;
  if (eqc_sim_terminated(inst->sim)) {
    // The model called terminate() within the step: it ended there (FMI 2.0, 4.2.3: fmi2Discard,
    // and fmi2GetBooleanStatus(fmi2Terminated) is true).
    inst->log(fmi2Discard, Category::logEvents, "fmi2DoStep: the model called terminate() at time " +
                                                    std::to_string(inst->t));
    return fmi2Discard;
  }
  return fmi2OK;
}

fmi2Status fmi2CancelStep(fmi2Component c) {
  checked(c, Call::CancelStep); // steps are synchronous: never in stepInProgress
  return fmi2Error;
}

fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind, fmi2Status *value) {
  Instance *inst = checked(c, Call::GetStatus);
  if (!inst || missing(inst, "fmi2GetStatus", "value", value, 1))
    return fmi2Error;
  return fmi2Discard; // no step is pending: fmi2DoStep is synchronous
}
fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *value) {
  Instance *inst = checked(c, Call::GetRealStatus);
  if (!inst || missing(inst, "fmi2GetRealStatus", "value", value, 1))
    return fmi2Error;
  if (s != fmi2LastSuccessfulTime)
    return fmi2Discard;
  *value = inst->lastSuccessfulTime;
  return fmi2OK;
}
fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind, fmi2Integer *) {
  return checked(c, Call::GetIntegerStatus) ? fmi2Discard : fmi2Error;
}
fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value) {
  Instance *inst = checked(c, Call::GetBooleanStatus);
  if (!inst || missing(inst, "fmi2GetBooleanStatus", "value", value, 1))
    return fmi2Error;
  if (s != fmi2Terminated)
    return fmi2Discard;
  *value = inst->sim && eqc_sim_terminated(inst->sim) ? 1 : 0;
  return fmi2OK;
}
fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind, fmi2String *) {
  return checked(c, Call::GetStringStatus) ? fmi2Discard : fmi2Error;
}

} // extern "C"

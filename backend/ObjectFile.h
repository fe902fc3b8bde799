// Ahead-of-time output of a compiled model: the same IR and optimization as the JIT, plus the
// model's constant function table (eqc_model, runtime/include/eqc/eqc_model.h) behind one exported
// accessor, written as an object file, assembly or LLVM IR.
#pragma once

#include "middle/FlatSystem.h"
#include "middle/OdeModel.h"

#include <string>
#include <vector>

namespace eqc {

/// The values the function table holds besides the functions.
/// The event part of a model's table (eqc_model.h, ABI 3): the arrays that n_discretes ..
/// state_integrated point at.
struct EventDescription {
  size_t params = 0;                              ///< n_params (n_p follows from the sizes)
  std::vector<std::string> discreteNames;
  std::vector<unsigned char> discreteKinds;       ///< EQC_DISCRETE_*
  std::vector<int> indicatorDiscrete;             ///< per indicator: its condition among the discretes
  std::vector<unsigned char> indicatorAtZero;     ///< per indicator: a <= b
  std::vector<int> preContinuousSource;           ///< eqc_model.pre_continuous_source
  std::vector<int> stateLevel;                    ///< empty unless index-reduced
  std::vector<unsigned char> stateIntegrated;     ///< likewise
  int delays = 0; ///< eqc_model.n_delays
  int sensitivities = 0;                 ///< eqc_model.n_sensitivities
  std::vector<int> sensitivityState;     ///< eqc_model.sensitivity_state
  std::vector<int> sensitivityEventTime; ///< eqc_model.sensitivity_event_time
  /// eqc_model.delay_context: the entry of p after the parameters and the event part.
  int delayContext() const {
    const size_t nd = discreteNames.size(), npc = preContinuousSource.size();
    return static_cast<int>(nd == 0 && npc == 0 ? params : params + 2 * nd + npc + 1);
  }
  /// eqc_model.n_p
  int pSize() const { return delayContext() + (delays > 0 ? 1 : 0); }
};

struct ModelDescription {
  std::string name;
  std::string description, reduction;
  std::vector<std::string> stateNames, algebraicNames, paramNames;
  std::vector<std::string> stateDescriptions, algebraicDescriptions, paramDescriptions;
  std::vector<double> params, states, algebraics; ///< defaults and consistent start values
  std::vector<unsigned char> paramKinds;          ///< EQC_PARAM_* per parameter (eqc_model.param_kind)
  std::vector<unsigned char> stateFixed;          ///< per state: its start value is fixed (eqc_model.state_fixed)
  /// Per algebraic variable and per state: a declared top-level output (both empty when the model
  /// declares none: then an FMU makes every algebraic variable an output).
  std::vector<unsigned char> algebraicOutputs, stateOutputs;
  /// Non-empty for an FMU: the object also defines `eqc_fmu_model()` (the table) and
  /// `eqc_fmu_guid()` (this string), which the FMI 2.0 layer (runtime/fmi2) calls.
  std::string fmuGuid;
  double tolerance = 0; ///< the model's experiment Tolerance, 0 when none (eqc_model.tolerance)
  EventDescription events;
  std::vector<unsigned char> assertKinds; ///< per assertion: EQC_ASSERT_* flags (eqc_model.assert_kind)
};

enum class EmitKind { Object, Assembly, LLVMIR };

struct EmitOptions {
  EmitKind kind = EmitKind::Object;
  std::string triple; ///< empty: the host's
  /// empty: the target's baseline (x86-64 with SSE2 on x86_64, "generic" elsewhere), so that the
  /// code runs on any CPU of the target; "native": the host's CPU and features (as the JIT; the
  /// host's triple only); otherwise an LLVM CPU name of the target (e.g. x86-64-v3, skylake).
  std::string cpu;
  int optLevel = 2;
};


/// What linking an object of a target needs to know about it.
struct TargetFacts {
  bool hostMachine = false; ///< the host's architecture and OS: the host's C compiler and runtime link it
  bool linux64 = false;     ///< x86_64 Linux: FMI 2.0's platform folder binaries/linux64
};

/// Checks `options.triple` and `options.cpu` (as emitModel will use them) before any work is done;
/// false with `error` set ("unknown target …", "unknown CPU …").
bool checkEmitTarget(const EmitOptions &options, TargetFacts &facts, std::string &error);

/// The exported accessor of a model's table: `eqc_model_<name>`.
std::string modelAccessorName(const std::string &modelName);

/// Requires: a causalized OdeModel. Ensures: `path` holds the whole output (written to a temporary
/// file and renamed) and true, or nothing new at `path` and false with `error` set (an unknown
/// target, an unwritable path). The object defines `const eqc_model *eqc_model_<name>(void)` and
/// the functions it points at (`eqc_<name>_rhs`, ...), which call eqc_solve_block and
/// eqc_linsolve from libeqcrt and libm.
bool emitModel(FlatSystem &flat, const OdeModel &model, const ModelDescription &description, const EmitOptions &options,
               const std::string &path, std::string &error);

} // namespace eqc

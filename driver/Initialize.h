// Consistent initial values of a compiled model (shared by `simulate` and `reduce`).
#pragma once

#include "driver/ExitCodes.h"
#include "driver/Inputs.h"
#include "driver/Invariants.h"
#include "driver/Pipeline.h"
#include "runtime/include/eqc/eqc_model.h"
#include "runtime/include/eqc/eqc_runtime.h"

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace eqc {

/// Tolerance of the projection onto the hidden constraints (scaled as eqc_project documents).
constexpr double kProjectionTol = EQC_PROJECTION_TOLERANCE; // eqc_sim projects with it too

/// Frees the external objects (MLS 3.5, 12.9.7) that a copy of p holds, at its end.
class ObjectRelease {
public:
  ObjectRelease(eqc_model_release_fn release, std::vector<double> p) : release_(release), p_(std::move(p)) {}
  ~ObjectRelease() {
    if (release_)
      release_(p_.data());
  }
  ObjectRelease(const ObjectRelease &) = delete;
  ObjectRelease &operator=(const ObjectRelease &) = delete;

private:
  eqc_model_release_fn release_;
  std::vector<double> p_;
};

/// The run-time arrays at a consistent point.
struct InitialPoint {
  std::vector<double> p, x, dx, a;
  /// The external objects p holds: freed with the last copy of this point (null: none).
  std::shared_ptr<ObjectRelease> objects;
};

/// Requires: a Compilation with its JIT model. Ensures: `ip` holds the parameters evaluated (with
/// `-p` overrides and the inputs at t0 from `inputs`, may be null; p sized to the model's p with
/// the discrete part 0), the states' and algebraic variables' start values, dx 0; or errors
/// (a bad -p: ExitUsage) and the exit code.
ExitCode startPoint(Compilation &c, const std::vector<std::pair<std::string, std::string>> &parameters, double t0,
                    InitialPoint &ip, std::ostream &err, const InputSeries *inputs = nullptr);

/// Requires: a Compilation with its JIT model. Ensures: parameters evaluated (with `-p`
/// overrides), states from start values made consistent (the generated init, or for index-reduced
/// models the minimum-norm projection of the non-fixed states onto every hidden constraint, then
/// rhs), with `projector` set for index-reduced models; or errors naming the constraint, loop or
/// variable, and the exit code. `inputs` (may be null) gives the inputs' values at t0.
/// Models with events: the conditions (the discrete variables of relations) set to what their
/// relations give at (t, ip.x) (rhs then the event indicators; with `fromAlgebraics`, the
/// indicators of the point as it is: the values an initialization reached); whether any changed.
/// False too when the model cannot be evaluated there (the conditions keep their values).
bool startConditions(Compilation &c, double t, InitialPoint &ip, bool fromAlgebraics = false);

ExitCode consistentInitialPoint(Compilation &c, const std::vector<std::pair<std::string, std::string>> &parameters,
                                double t0, InitialPoint &ip, std::unique_ptr<InvariantProjector> &projector,
                                std::ostream &err, const InputSeries *inputs = nullptr);

/// One line for a non-zero code of a generated function (which loop failed, and how).
std::string describeModelCode(const Compilation &c, const CausalSystem &cs, const EquationSystem &sys, int code);
/// Reports a non-zero code of a generated function (a failed loop, a failed projection).
void reportModelCode(Compilation &c, const CausalSystem &cs, const EquationSystem &sys, int code, double t);
/// An assertion of the model that failed at time t (an error, or a warning), at its place, with
/// its message (formatted at that point) and the component it belongs to.
void reportAssertion(Compilation &c, int assertion, const std::string &message, double t, bool warning);

} // namespace eqc

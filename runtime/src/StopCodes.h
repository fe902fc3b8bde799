// The codes that eqc's own callbacks return through the integrators (EQC_ERR_RHS with
// eqc_stats.rhs_code), besides the generated model's failure codes: one list, in a range of its
// own. Model codes stay below it: loop k fails with EQC_MODEL_LOOP_FAILURE_BASE + k, user
// function f with EQC_MODEL_FUNCTION_FAILURE_BASE + 1024 f + reason (f below 2^19).
#ifndef EQC_RUNTIME_STOP_CODES_H
#define EQC_RUNTIME_STOP_CODES_H

namespace eqc::rt {

enum class StopCode : int {
  First = 0x20000000,
  EventUnsettled = First + 1,        ///< the event iteration does not settle (EventIteration::unsettled)
  EventIdle = First + 2,             ///< many events in a row changed nothing
  InputFailure = First + 3,          ///< eqc_sim's input function failed
  Cancelled = First + 4,             ///< eqc_sim's step callback asked to stop (an interrupt, a new
                                     ///< state selection of dummy derivatives: the caller knows which)
  AssertionFailed = First + 5,       ///< an assertion of the model failed (eqc_sim_failed_assertion)
  SensitivityUndefined = First + 6,  ///< an event's time does not depend smoothly on the parameters
                                     ///< (its indicator touches zero: SensitivityJump)
  ProjectionFailure = First + 0x100, ///< + the eqc_status of the failed projection (below 0x100)
  Last = First + 0x1FF,
};
constexpr int stopCode(StopCode c) { return static_cast<int>(c); }
/// Whether `code` is one of these (not a model's failure).
constexpr bool isStopCode(int code) { return code >= stopCode(StopCode::First) && code <= stopCode(StopCode::Last); }
/// The projection's failure with `status`, and back.
constexpr int projectionFailure(int status) { return stopCode(StopCode::ProjectionFailure) + status; }
constexpr bool isProjectionFailure(int code) {
  return code >= stopCode(StopCode::ProjectionFailure) && code < stopCode(StopCode::ProjectionFailure) + 0x100;
}
constexpr int projectionStatus(int code) { return code - stopCode(StopCode::ProjectionFailure); }

} // namespace eqc::rt

#endif // EQC_RUNTIME_STOP_CODES_H

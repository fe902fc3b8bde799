// Status messages and default options of the eqc runtime's C ABI.
#include "eqc/eqc_runtime.h"

#include <cmath>

extern "C" const char *eqc_status_message(int status) {
  switch (status) {
  case EQC_OK:
    return "The operation succeeded.";
  case EQC_ERR_ARGUMENT:
    return "An argument was invalid: a negative size, a null pointer or an "
           "out-of-range option.";
  case EQC_ERR_RHS:
    return "The model's right-hand side (or its Jacobian, invariants or "
           "post-step hook) returned a non-zero code.";
  case EQC_ERR_NONFINITE:
    return "A state or derivative became NaN or infinite.";
  case EQC_ERR_STEP_UNDERFLOW:
    return "The step size fell below the smallest step representable at the "
           "current time.";
  case EQC_ERR_MAX_STEPS:
    return "The step-count limit was reached before the end time.";
  case EQC_ERR_NEWTON:
    return "The Newton iteration of an algebraic block, of a projection onto "
           "invariants or of an implicit integration step did not converge.";
  case EQC_ERR_SINGULAR:
    return "A matrix in a linear solve was singular.";
  case EQC_ERR_STOPPED:
    return "The output callback asked to stop the integration.";
  case EQC_ERR_CHATTERING:
    return "Too many state events occurred too close together (chattering).";
  case EQC_ERR_ASSERTION:
    return "An assertion of the model failed.";
  default:
    return "unknown status";
  }
}

extern "C" void eqc_options_default(eqc_options *opt) {
  if (!opt)
    return;
  opt->method = EQC_METHOD_AUTO;
  opt->t_start = 0.0;
  opt->t_end = 1.0;
  opt->dt = 1e-3;
  opt->interval = 0.0;
  opt->rtol = 1e-6;
  opt->atol = 1e-9;
  opt->atol_vector = nullptr;
  opt->h_init = 0.0;
  opt->h_max = 0.0;
  opt->max_steps = 0;
  opt->output_origin = NAN;
}

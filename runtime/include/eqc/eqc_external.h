/* eqc compiled models: what external C functions (MLS 3.5, 12.9) of a model meet at run time.
 *
 * A model's code brackets every call of an external function with eqc_external_enter and
 * eqc_external_leave; ModelicaError (12.9.6) called inside jumps back to the call, which then
 * fails with code EQC_MODEL_FUNCTION_FAILURE_BASE + 1024 * function + 0, and
 * eqc_external_error() gives the message on that thread. The Modelica utility functions of 12.9.6
 * (ModelicaMessage, ModelicaFormatError, ModelicaAllocateString, ...) are defined by this runtime
 * for compiled models that link it; messages and warnings go to stderr. */
#ifndef EQC_EXTERNAL_H
#define EQC_EXTERNAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes a model reserves for the jump buffer passed to eqc_external_enter (>= sizeof(jmp_buf)). */
#define EQC_EXTERNAL_JMP_BUF_SIZE 512

/** Makes `jump_buffer` (set by _setjmp just before) the place ModelicaError returns to on this
 * thread, until eqc_external_leave. */
void eqc_external_enter(void *jump_buffer);
/** Ends the call begun by the matching eqc_external_enter. */
void eqc_external_leave(void);
/** The message of the last ModelicaError on this thread ("" if none). */
const char *eqc_external_error(void);

/** The utility functions as a table, for code that cannot link this runtime's symbols (eqc's
 * JIT loads external C code compiled with forwarders to these). */
struct eqc_external_utilities {
  void (*message)(const char *text);
  void (*warning)(const char *text);
  void (*error)(const char *text); /* does not return */
  char *(*allocate_string)(size_t length, int error_return);
};
const struct eqc_external_utilities *eqc_external_utilities_table(void);

#ifdef __cplusplus
}
#endif

#endif

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

/* Strings that functions make when the model runs (MLS 3.5, 3.6.6 and 3.7.1): each is kept, per
 * thread, until the outermost function call that made it returns; that call takes a mark when
 * it starts and releases back to it when it returns. */
size_t eqc_strings_mark(void);
/** Frees the strings kept since `mark` (eqc_strings_mark) on this thread. */
void eqc_strings_release(size_t mark);
/** A kept copy of `text` ("" for NULL): what an external function returns lives only until the
 * next external call (ModelicaAllocateString), a function's String value longer. */
const char *eqc_string_keep(const char *text);
/** `text` itself (a literal of the model's code, which lives as long as the code). */
const char *eqc_string_literal(const char *text);
/** a + b, kept. */
const char *eqc_string_concat(const char *a, const char *b);
/** String(value, ...) (MLS 3.5, 3.7.1), kept: `format` is a printf conversion of one value;
 * one ending in d, i, u, o, x or X formats value as a long long, one ending in s the name
 * value selects from `names` (its lines, the first for value 1: an enumeration's literals) or,
 * when names is empty, "true" or "false"; others format value as a double. */
const char *eqc_string_format(double value, const char *format, const char *names);
/** The sign of strcmp(a, b): -1, 0 or 1 (the relations of Strings, MLS 3.5, 3.5). */
int eqc_string_compare(const char *a, const char *b);
/** The handle of `text` ("" for NULL): a String variable of a model (MLS 3.5, 3.6.6, 4.8.4) holds
 * its text as this number, the same for the same text for the rest of the process (0 is ""), so
 * that its changes and pre() compare as numbers do. Thread-safe. */
int eqc_string_handle(const char *text);
/** The text of a handle that eqc_string_handle gave ("" for any other number); it lives as long
 * as the process. Thread-safe. */
const char *eqc_string_text(double handle);
/** The message of an assert that fails in a function whose text the function computed: what
 * eqc_external_error() gives on this thread until the next external call or message. */
void eqc_function_message(const char *text);

#ifdef __cplusplus
}
#endif

#endif

// SIGINT and SIGTERM during a simulation: the run stops at the next model call, keeps what it
// computed under `<output>.partial`, and exits with 128 + the signal number (driver-internal).
#pragma once

namespace eqc {

/// Installs the handlers: the first SIGINT or SIGTERM is recorded (pendingInterrupt), a second
/// one terminates at once with the default action. SIGPIPE is ignored, so that a closed stderr or
/// stdout pipe shows as a write error instead of killing eqc with a temporary file left behind.
void installInterruptHandlers();

/// The signal received since installInterruptHandlers, or 0.
int pendingInterrupt();

/// "SIGINT", "SIGTERM" or "signal N".
const char *interruptName(int signal);

} // namespace eqc

// Signal handling for simulations: record the first interrupt, let the run stop cleanly.
#include "driver/Interrupt.h"

#include <csignal>
#include <cstdio>

namespace eqc {

namespace {

volatile std::sig_atomic_t received = 0;

extern "C" void onInterrupt(int signal) {
  if (received) {
    // The second interrupt: the user wants out now.
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  received = signal;
}

} // namespace

void installInterruptHandlers() {
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
}

int pendingInterrupt() { return received; }

const char *interruptName(int signal) {
  if (signal == SIGINT)
    return "SIGINT";
  if (signal == SIGTERM)
    return "SIGTERM";
  static char buf[32];
  std::snprintf(buf, sizeof buf, "signal %d", signal);
  return buf;
}

} // namespace eqc

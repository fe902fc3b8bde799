// Running a command from a driver test.
#pragma once

#include <cstdio>
#include <string>

/// Runs `command` through the shell; returns its stdout and stderr together, `status` its exit
/// status as pclose gives it (-1 if it could not start).
inline std::string run(const std::string &command, int &status) {
  std::string out;
  FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) {
    status = -1;
    return out;
  }
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;)
    out.append(buf, n);
  status = pclose(pipe);
  return out;
}

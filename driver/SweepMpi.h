// `eqc sweep` under mpirun (Debian's OpenMPI, an optional build feature): rank 0 writes the file
// and hands out runs on request; the other ranks run them on their cores and send the results
// back with their next request (driver-internal). Without MPI, or outside mpirun, one rank.
#pragma once

#include "driver/SweepFile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace eqc::mpi {

/// Whether eqc was built with MPI.
bool available();
/// Starts MPI when eqc runs under mpirun (its environment says so); returns this process's rank
/// and the number of ranks (0 and 1 otherwise). Call from the thread that makes every MPI call.
void start(int &rank, int &size);
/// Ends MPI if start() began it.
void stop();
int rank();
int size();

/// The largest of every rank's `code` (each rank calls it).
int maxOf(int code);
/// Rank 0's `value` on every rank (each rank calls it).
std::uint64_t broadcast(std::uint64_t value);

/// A request of a worker rank: the results of the runs it was given last, and whether it stops
/// (interrupted, or failed with `error`).
struct Request {
  int from = -1;
  std::vector<RunResult> results;
  bool stopping = false;
  std::string error;
};

/// Rank 0: the next request that has arrived, without waiting; false when none has.
bool poll(Request &request);
/// Rank 0: the runs for rank `to` (none: it stops).
void reply(int to, const std::vector<std::uint64_t> &runs);
/// A worker rank: sends its results (and whether it stops) and waits for its next runs (none:
/// the study is over for it).
std::vector<std::uint64_t> request(const std::vector<RunResult> &results, bool stopping, const std::string &error);

} // namespace eqc::mpi

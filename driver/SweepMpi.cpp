// The messages between the ranks of a sweep: requests carrying results, replies carrying runs.
#include "driver/SweepMpi.h"

#include <cstdlib>
#include <cstring>

#ifdef EQC_HAVE_MPI
#define OMPI_SKIP_MPICXX 1 // the C API only (the C++ bindings are deprecated and need their library)
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace eqc::mpi {
namespace {

int worldRank = 0, worldSize = 1;
bool started = false;

/// Run results as bytes: what a worker rank sends and rank 0 writes.
class Bytes {
public:
  std::vector<char> data;
  size_t at = 0;
  template <typename T> void put(const T &v) {
    const char *p = reinterpret_cast<const char *>(&v);
    data.insert(data.end(), p, p + sizeof v);
  }
  void putString(const std::string &s) {
    put<std::uint64_t>(s.size());
    data.insert(data.end(), s.begin(), s.end());
  }
  template <typename T> void putVector(const std::vector<T> &v) {
    put<std::uint64_t>(v.size());
    const char *p = reinterpret_cast<const char *>(v.data());
    data.insert(data.end(), p, p + v.size() * sizeof(T));
  }
  template <typename T> T get() {
    T v{};
    if (at + sizeof v <= data.size())
      std::memcpy(&v, data.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string getString() {
    auto n = static_cast<size_t>(get<std::uint64_t>());
    std::string s(data.data() + std::min(at, data.size()), std::min(n, data.size() - std::min(at, data.size())));
    at += n;
    return s;
  }
  template <typename T> std::vector<T> getVector() {
    auto n = static_cast<size_t>(get<std::uint64_t>());
    std::vector<T> v(std::min(n, (data.size() - std::min(at, data.size())) / sizeof(T)));
    if (!v.empty())
      std::memcpy(v.data(), data.data() + at, v.size() * sizeof(T));
    at += n * sizeof(T);
    return v;
  }
};

[[maybe_unused]] void encode(Bytes &b, const RunResult &r) {
  b.put<std::uint64_t>(r.run);
  b.put<std::uint8_t>(r.ok);
  b.put<std::int32_t>(r.status);
  b.putString(r.message);
  for (double v : {r.seconds, r.steps, r.rejected, r.rhsEvaluations, r.events, r.endTime})
    b.put(v);
  b.putVector(r.finals);
  b.putVector(r.values); // only when rank 0 summarizes in memory (else freed by pack)
  b.put<std::uint64_t>(r.packed.size());
  for (const auto &chunk : r.packed)
    b.putVector(chunk);
}

[[maybe_unused]] RunResult decode(Bytes &b) {
  RunResult r;
  r.run = static_cast<size_t>(b.get<std::uint64_t>());
  r.ok = b.get<std::uint8_t>() != 0;
  r.status = b.get<std::int32_t>();
  r.message = b.getString();
  for (double *v : {&r.seconds, &r.steps, &r.rejected, &r.rhsEvaluations, &r.events, &r.endTime})
    *v = b.get<double>();
  r.finals = b.getVector<double>();
  r.values = b.getVector<double>();
  r.packed.resize(static_cast<size_t>(b.get<std::uint64_t>()));
  for (auto &chunk : r.packed)
    chunk = b.getVector<unsigned char>();
  return r;
}

constexpr int kRequestTag = 1, kReplyTag = 2;

} // namespace

#ifdef EQC_HAVE_MPI

bool available() { return true; }

void start(int &rank, int &size) {
  // Only under a launcher: a plain `eqc sweep` stays a single process without MPI's start-up.
  if (std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK")) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
    MPI_Comm_size(MPI_COMM_WORLD, &worldSize);
    started = true;
  }
  rank = worldRank;
  size = worldSize;
}

void stop() {
  if (started)
    MPI_Finalize();
  started = false;
}

int maxOf(int code) {
  if (!started)
    return code;
  int out = code;
  MPI_Allreduce(&code, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

std::uint64_t broadcast(std::uint64_t value) {
  if (started)
    MPI_Bcast(&value, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return value;
}

bool poll(Request &request) {
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &arrived, &status);
  if (!arrived)
    return false;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  Bytes b;
  b.data.resize(static_cast<size_t>(count));
  MPI_Recv(b.data.data(), count, MPI_BYTE, status.MPI_SOURCE, kRequestTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  request = Request{};
  request.from = status.MPI_SOURCE;
  request.stopping = b.get<std::uint8_t>() != 0;
  request.error = b.getString();
  auto n = static_cast<size_t>(b.get<std::uint64_t>());
  for (size_t k = 0; k < n && b.at <= b.data.size(); ++k)
    request.results.push_back(decode(b));
  return true;
}

void reply(int to, const std::vector<std::uint64_t> &runs) {
  MPI_Send(runs.data(), static_cast<int>(runs.size()), MPI_UINT64_T, to, kReplyTag, MPI_COMM_WORLD);
}

std::vector<std::uint64_t> request(const std::vector<RunResult> &results, bool stopping, const std::string &error) {
  Bytes b;
  b.put<std::uint8_t>(stopping);
  b.putString(error);
  b.put<std::uint64_t>(results.size());
  for (const RunResult &r : results)
    encode(b, r);
  MPI_Send(b.data.data(), static_cast<int>(b.data.size()), MPI_BYTE, 0, kRequestTag, MPI_COMM_WORLD);
  MPI_Status status;
  MPI_Probe(0, kReplyTag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_UINT64_T, &count);
  std::vector<std::uint64_t> runs(static_cast<size_t>(count));
  MPI_Recv(runs.data(), count, MPI_UINT64_T, 0, kReplyTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return runs;
}

#else

bool available() { return false; }
void start(int &rank, int &size) {
  rank = 0;
  size = 1;
}
void stop() {}
int maxOf(int code) { return code; }
std::uint64_t broadcast(std::uint64_t value) { return value; }
bool poll(Request &) { return false; }
void reply(int, const std::vector<std::uint64_t> &) {}
std::vector<std::uint64_t> request(const std::vector<RunResult> &, bool, const std::string &) { return {}; }

#endif

int rank() { return worldRank; }
int size() { return worldSize; }

} // namespace eqc::mpi

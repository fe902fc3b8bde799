// The HDF5 file of a study (Debian's libhdf5, C API): created whole, written per batch, summarized.
#include "driver/SweepFile.h"

#include "driver/Hdf5.h"

#include <hdf5.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <atomic>
#include <map>
#include <thread>
#include <sstream>

namespace eqc {
namespace {

using namespace h5;

bool readAttrU64(hid_t obj, const char *name, std::uint64_t &value) {
  if (H5Aexists(obj, name) <= 0)
    return false;
  Handle a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  return a.ok() && H5Aread(a, H5T_NATIVE_UINT64, &value) >= 0;
}

/// Trajectories are stored in chunks of one run and this many time points, so that the summary
/// reads blocks of time points without decompressing whole trajectories again and again.
constexpr size_t kChunkPoints = 1024;
size_t chunkPoints(size_t timePoints) { return std::min(timePoints, kChunkPoints); }

/// The summary is computed from values kept in memory while the study runs when they take at
/// most this many bytes (else the file is read back in blocks of that size): memory stays
/// bounded whatever the number of runs.
constexpr size_t kSummaryBytes = 32u << 20;

/// The deflate level of every compressed dataset: level 1 packs smooth trajectories nearly as
/// well as higher ones at a fraction of the time.
constexpr int kDeflateLevel = 1;

/// A chunked, shuffled and deflated dataset of doubles (NaN where nothing was written).
Handle createCompressed(hid_t loc, const std::string &name, std::vector<hsize_t> dims, std::vector<hsize_t> chunk) {
  Handle sp(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  double nan = NAN;
  H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data());
  H5Pset_shuffle(dcpl);
  H5Pset_deflate(dcpl, kDeflateLevel);
  H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &nan);
  return {H5Dcreate2(loc, name.c_str(), H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose};
}

/// Writes rows [first, first + count) of a 2-D dataset (or elements of a 1-D one).
bool writeRows(hid_t d, hsize_t first, hsize_t count, hsize_t width, const void *data, hid_t type) {
  Handle file(H5Dget_space(d), H5Sclose);
  int rank = H5Sget_simple_extent_ndims(file);
  hsize_t start[2] = {first, 0}, n[2] = {count, width};
  H5Sselect_hyperslab(file, H5S_SELECT_SET, start, nullptr, n, nullptr);
  Handle mem(H5Screate_simple(rank, n, nullptr), H5Sclose);
  return H5Dwrite(d, type, mem, file, H5P_DEFAULT, data) >= 0;
}

/// The quantile q of the values by linear interpolation between order statistics (Hyndman and
/// Fan's type 7, the default of R and NumPy), by selection: the values are reordered.
double quantile(std::vector<double> &values, double q) {
  double h = (static_cast<double>(values.size()) - 1) * q;
  size_t lo = static_cast<size_t>(std::floor(h));
  std::nth_element(values.begin(), values.begin() + static_cast<long>(lo), values.end());
  double low = values[lo];
  if (lo + 1 >= values.size())
    return low;
  double high = *std::min_element(values.begin() + static_cast<long>(lo) + 1, values.end());
  return low + (h - static_cast<double>(lo)) * (high - low);
}

} // namespace

struct SweepFile::Impl {
  Handle file;
  const SweepLayout *layout = nullptr;
  std::vector<Handle> trajectories, finals; ///< per variable
  Handle state, status, message, statistics;
  std::vector<signed char> states; ///< per run, as in /runs/state once flushed
  std::vector<size_t> unflushed;   ///< runs written whose state is not yet in the file
  /// summarizesInMemory: per variable, its values time-major (time points x runs), for the
  /// summary; empty otherwise.
  std::vector<std::vector<double>> memory;
};

std::uint64_t SweepLayout::fingerprint() const {
  std::uint64_t h = 1469598103934665603ull; // FNV-1a
  auto bytes = [&h](const void *p, size_t n) {
    for (size_t i = 0; i < n; ++i)
      h = (h ^ static_cast<const unsigned char *>(p)[i]) * 1099511628211ull;
  };
  auto str = [&](const std::string &s) { bytes(s.c_str(), s.size() + 1); };
  str(model);
  for (auto &s : parameters)
    str(s);
  for (auto &row : *runs)
    bytes(row.data(), row.size() * sizeof(double));
  for (auto &s : variables)
    str(s);
  bytes(time.data(), time.size() * sizeof(double));
  bytes(&finalOnly, sizeof finalOnly);
  return h;
}

SweepFile::~SweepFile() { close(); }

void SweepFile::close() {
  if (!impl_)
    return;
  if (impl_->file.ok()) {
    std::ostringstream ignored; // closing after a failure: nothing more to say
    flush(ignored);
  }
  impl_.reset();
}

/// The file access: HDF5's messages off (eqc reports its own), a small chunk cache (for the
/// batches of end values and statistics between flushes; trajectories bypass it).
Handle fileAccess() {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_cache(fapl, 0, 521, 1u << 20, 0.75);
  return fapl;
}

std::unique_ptr<SweepFile> SweepFile::create(const std::string &path, const SweepLayout &layout, std::ostream &err) {
  const std::string partial = path + ".partial";
  const hsize_t runs = layout.runs->size(), params = layout.parameters.size(), nt = layout.time.size();
  Handle file(H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fileAccess()), H5Fclose);
  if (!file.ok()) {
    err << "eqc: error: cannot create '" << partial << "' (HDF5)\n";
    return nullptr;
  }
  bool ok = attrString(file, "model", layout.model) && attrString(file, "generator", "eqc sweep") &&
            attrU64(file, "fingerprint", layout.fingerprint());
  ok = ok && writeDoubles(file, "time", layout.time, {nt});
  ok = ok && writeStrings(file, "variables", layout.variables);
  Handle runsGroup(H5Gcreate2(file, "runs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  ok = ok && runsGroup.ok() && writeStrings(runsGroup, "parameter_names", layout.parameters);
  std::vector<double> table;
  for (auto &row : *layout.runs)
    table.insert(table.end(), row.begin(), row.end());
  ok = ok && writeDoubles(runsGroup, "parameters", table, {runs, params});
  ok = ok && writeStrings(runsGroup, "statistics_names",
                          {"seconds", "steps", "rejected steps", "rhs evaluations", "events", "end time"});
  std::vector<signed char> pending(runs, static_cast<signed char>(RunState8::Pending));
  ok = ok && writeRows(Handle(H5Dcreate2(runsGroup, "state", H5T_NATIVE_SCHAR, space({runs}), H5P_DEFAULT,
                                         H5P_DEFAULT, H5P_DEFAULT),
                              H5Dclose),
                       0, runs, 1, pending.data(), H5T_NATIVE_SCHAR);
  std::vector<int> zeros(runs, 0);
  ok = ok && writeRows(Handle(H5Dcreate2(runsGroup, "status", H5T_NATIVE_INT, space({runs}), H5P_DEFAULT,
                                         H5P_DEFAULT, H5P_DEFAULT),
                              H5Dclose),
                       0, runs, 1, zeros.data(), H5T_NATIVE_INT);
  ok = ok && Handle(H5Dcreate2(runsGroup, "message", stringType(), space({runs}), H5P_DEFAULT, H5P_DEFAULT,
                               H5P_DEFAULT),
                    H5Dclose)
                 .ok();
  ok = ok && createCompressed(runsGroup, "statistics", {runs, 6}, {std::min<hsize_t>(runs, 1024), 6}).ok();
  Handle traj, fin(H5Gcreate2(file, "final", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  if (!layout.finalOnly)
    traj = Handle(H5Gcreate2(file, "trajectories", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  for (const std::string &v : layout.variables) {
    ok = ok && createCompressed(fin, component(v), {runs}, {std::min<hsize_t>(runs, 4096)}).ok();
    // Chunks of one run, compressed by the worker that ran it (pack) and written as they are.
    if (traj.ok())
      ok = ok && createCompressed(traj, component(v), {runs, nt}, {1, chunkPoints(nt)}).ok();
  }
  fin.reset();
  traj.reset();
  runsGroup.reset();
  if (!ok || H5Fflush(file, H5F_SCOPE_GLOBAL) < 0) {
    err << "eqc: error: writing '" << partial << "' failed (HDF5)\n";
    return nullptr;
  }
  file.reset();
  std::vector<char> done;
  std::unique_ptr<SweepFile> f = resume(path, layout, done, err);
  if (f && summarizesInMemory(layout, false))
    f->impl_->memory.assign(layout.variables.size(), std::vector<double>(runs * nt, NAN));
  return f;
}

std::unique_ptr<SweepFile> SweepFile::resume(const std::string &path, const SweepLayout &layout,
                                             std::vector<char> &done, std::ostream &err) {
  auto f = std::unique_ptr<SweepFile>(new SweepFile);
  f->path_ = path;
  f->partial_ = path + ".partial";
  f->impl_ = std::make_unique<Impl>();
  Impl &m = *f->impl_;
  m.layout = &layout;
  m.file = Handle(H5Fopen(f->partial_.c_str(), H5F_ACC_RDWR, fileAccess()), H5Fclose);
  if (!m.file.ok()) {
    err << "eqc: error: --resume: '" << f->partial_ << "' cannot be opened as the HDF5 file of an interrupted "
        << "study\n";
    return nullptr;
  }
  std::uint64_t print = 0;
  if (!readAttrU64(m.file, "fingerprint", print) || print != layout.fingerprint()) {
    err << "eqc: error: --resume: '" << f->partial_ << "' holds another study (model, parameter sets, variables "
        << "or output grid differ); run without --resume to start anew\n";
    return nullptr;
  }
  auto open = [&](const std::string &name) { return Handle(H5Dopen2(m.file, name.c_str(), H5P_DEFAULT), H5Dclose); };
  m.state = open("runs/state");
  m.status = open("runs/status");
  m.message = open("runs/message");
  m.statistics = open("runs/statistics");
  bool ok = m.state.ok() && m.status.ok() && m.message.ok() && m.statistics.ok();
  for (const std::string &v : layout.variables) {
    m.finals.push_back(open("final/" + component(v)));
    ok = ok && m.finals.back().ok();
    if (!layout.finalOnly) {
      m.trajectories.push_back(open("trajectories/" + component(v)));
      ok = ok && m.trajectories.back().ok();
    }
  }
  m.states.assign(layout.runs->size(), 0);
  ok = ok && H5Dread(m.state, H5T_NATIVE_SCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, m.states.data()) >= 0;
  if (!ok) {
    err << "eqc: error: '" << f->partial_ << "' is damaged (a dataset of the study is missing)\n";
    return nullptr;
  }
  done.assign(m.states.size(), 0);
  for (size_t r = 0; r < m.states.size(); ++r)
    done[r] = m.states[r] != static_cast<signed char>(RunState8::Pending);
  return f;
}

bool SweepFile::summarizesInMemory(const SweepLayout &layout, bool resumed) {
  return !resumed && !layout.finalOnly &&
         layout.runs->size() * layout.time.size() * layout.variables.size() * sizeof(double) <= kSummaryBytes;
}

void SweepFile::pack(RunResult &result, size_t timePoints, bool keepValues) {
  // HDF5's shuffle filter (byte k of every value together), then its deflate filter (a zlib
  // stream): the pipeline the datasets declare, so that every reader decompresses them. An edge
  // chunk is whole in the file: padded with NaN (the datasets' fill value).
  const size_t width = chunkPoints(timePoints), chunks = (timePoints + width - 1) / std::max<size_t>(width, 1);
  const size_t nv = timePoints ? result.values.size() / timePoints : 0, bytes = width * sizeof(double);
  std::vector<double> block(width);
  std::vector<unsigned char> shuffled(bytes);
  result.packed.assign(nv * chunks, {});
  for (size_t v = 0; v < nv; ++v)
    for (size_t c = 0; c < chunks; ++c) {
      const double *from = result.values.data() + v * timePoints + c * width;
      const size_t n = std::min(width, timePoints - c * width);
      std::copy(from, from + n, block.begin());
      std::fill(block.begin() + static_cast<long>(n), block.end(), NAN);
      const auto *in = reinterpret_cast<const unsigned char *>(block.data());
      for (size_t i = 0; i < width; ++i)
        for (size_t b = 0; b < sizeof(double); ++b)
          shuffled[b * width + i] = in[i * sizeof(double) + b];
      uLongf size = compressBound(bytes);
      std::vector<unsigned char> &out = result.packed[v * chunks + c];
      out.resize(size);
      compress2(out.data(), &size, shuffled.data(), bytes, kDeflateLevel);
      out.resize(size);
    }
  if (!keepValues)
    result.values = {};
}

bool SweepFile::write(std::vector<RunResult> &batch, std::ostream &err) {
  Impl &m = *impl_;
  const SweepLayout &layout = *m.layout;
  const size_t nv = layout.variables.size(), nt = layout.time.size(), runs = layout.runs->size();
  std::sort(batch.begin(), batch.end(), [](const RunResult &a, const RunResult &b) { return a.run < b.run; });
  bool ok = true;
  // Contiguous runs in one write per dataset.
  for (size_t i = 0; i < batch.size() && ok;) {
    size_t j = i + 1;
    while (j < batch.size() && batch[j].run == batch[j - 1].run + 1)
      ++j;
    const hsize_t first = batch[i].run, count = j - i;
    std::vector<double> buffer, stats;
    std::vector<int> status;
    std::vector<signed char> state;
    std::vector<const char *> messages;
    for (size_t k = i; k < j; ++k) {
      const RunResult &r = batch[k];
      stats.insert(stats.end(), {r.seconds, r.steps, r.rejected, r.rhsEvaluations, r.events, r.endTime});
      status.push_back(r.status);
      state.push_back(static_cast<signed char>(r.ok ? RunState8::Done : RunState8::Failed));
      messages.push_back(r.message.c_str());
    }
    for (size_t v = 0; v < nv && ok; ++v) {
      buffer.clear();
      for (size_t k = i; k < j; ++k)
        buffer.push_back(batch[k].finals[v]);
      ok = writeRows(m.finals[v], first, count, 1, buffer.data(), H5T_NATIVE_DOUBLE);
      for (size_t k = i; k < j && ok && !layout.finalOnly; ++k) {
        const size_t chunks = batch[k].packed.size() / nv;
        for (size_t c = 0; c < chunks && ok; ++c) {
          const std::vector<unsigned char> &chunk = batch[k].packed[v * chunks + c];
          hsize_t offset[2] = {batch[k].run, c * chunkPoints(nt)};
          ok = H5Dwrite_chunk(m.trajectories[v], H5P_DEFAULT, 0, offset, chunk.size(), chunk.data()) >= 0;
        }
      }
    }
    if (!m.memory.empty())
      for (size_t k = i; k < j; ++k) {
        // Time-major per variable: each time point's values across the runs contiguous.
        const std::vector<double> &values = batch[k].values;
        for (size_t v = 0; v < nv && values.size() == nv * nt; ++v)
          for (size_t t = 0; t < nt; ++t)
            m.memory[v][t * runs + batch[k].run] = values[v * nt + t];
        batch[k].values = {};
      }
    Handle type = stringType();
    ok = ok && writeRows(m.statistics, first, count, 6, stats.data(), H5T_NATIVE_DOUBLE) &&
         writeRows(m.status, first, count, 1, status.data(), H5T_NATIVE_INT) &&
         writeRows(m.message, first, count, 1, messages.data(), type);
    for (size_t k = i; k < j; ++k) {
      m.states[batch[k].run] = state[k - i];
      m.unflushed.push_back(batch[k].run);
    }
    i = j;
  }
  if (!ok) {
    err << "eqc: error: writing '" << partial_ << "' failed (HDF5)\n";
    return false;
  }
  return true;
}

bool SweepFile::flush(std::ostream &err) {
  Impl &m = *impl_;
  // The values first, then the runs' states: a run counts as finished only once its values are
  // in the file.
  bool ok = H5Fflush(m.file, H5F_SCOPE_GLOBAL) >= 0;
  std::sort(m.unflushed.begin(), m.unflushed.end());
  for (size_t i = 0; i < m.unflushed.size() && ok;) {
    size_t j = i + 1;
    while (j < m.unflushed.size() && m.unflushed[j] == m.unflushed[j - 1] + 1)
      ++j;
    ok = writeRows(m.state, m.unflushed[i], j - i, 1, &m.states[m.unflushed[i]], H5T_NATIVE_SCHAR);
    i = j;
  }
  m.unflushed.clear();
  if (!ok || H5Fflush(m.file, H5F_SCOPE_GLOBAL) < 0) {
    err << "eqc: error: writing '" << partial_ << "' failed (HDF5)\n";
    return false;
  }
  return true;
}

namespace {

/// The summary of one variable: per time point over the successful runs.
struct VariableSummary {
  std::vector<double> mean, stdev, lo, hi, count, q; ///< q: quantiles x time points
  VariableSummary(size_t nt, size_t nq) : mean(nt), stdev(nt), lo(nt), hi(nt), count(nt), q(nq * nt) {}

  /// Time points [t0, t0 + width) from `byTime` (width x runs, time-major) with `states` per run.
  void columns(const double *byTime, size_t runs, size_t t0, size_t width, const std::vector<signed char> &states,
               const std::vector<double> &levels, std::vector<double> &scratch) {
    const size_t nt = mean.size();
    for (size_t t = 0; t < width; ++t) {
      scratch.clear();
      const double *column = byTime + t * runs;
      for (size_t r = 0; r < runs; ++r)
        if (states[r] == static_cast<signed char>(RunState8::Done) && std::isfinite(column[r]))
          scratch.push_back(column[r]);
      const size_t at = t0 + t;
      count[at] = static_cast<double>(scratch.size());
      if (scratch.empty()) {
        mean[at] = stdev[at] = lo[at] = hi[at] = NAN;
        for (size_t k = 0; k < levels.size(); ++k)
          q[k * nt + at] = NAN;
        continue;
      }
      // Welford's update: no cancellation for large means.
      double mu = 0, m2 = 0;
      for (size_t k = 0; k < scratch.size(); ++k) {
        double delta = scratch[k] - mu;
        mu += delta / static_cast<double>(k + 1);
        m2 += delta * (scratch[k] - mu);
      }
      mean[at] = mu;
      stdev[at] = scratch.size() > 1 ? std::sqrt(m2 / static_cast<double>(scratch.size() - 1)) : 0.0;
      auto [low, high] = std::minmax_element(scratch.begin(), scratch.end());
      lo[at] = *low;
      hi[at] = *high;
      for (size_t k = 0; k < levels.size(); ++k)
        q[k * nt + at] = quantile(scratch, levels[k]);
    }
  }
};

/// sum.columns over [t0, t0 + width) of a time-major block, the time points split over the cores.
void summarizeBlock(VariableSummary &sum, const double *byTime, size_t runs, size_t t0, size_t width,
                    const std::vector<signed char> &states, const std::vector<double> &levels) {
  const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 16);
  std::vector<std::thread> pool;
  for (size_t w = 0; w < std::min(threads, width); ++w)
    pool.emplace_back([&, w] {
      std::vector<double> scratch;
      for (size_t t = w; t < width; t += threads)
        sum.columns(byTime + t * runs, runs, t0 + t, 1, states, levels, scratch);
    });
  for (std::thread &t : pool)
    t.join();
}

/// Time points [t0, t0 + width) of every run of a trajectories dataset, time-major into byTime
/// (NaN where a run left none): the compressed chunks read as they are stored (one thread), then
/// inflated and unshuffled on every core, so that reading back costs no more than writing did.
bool readBlock(hid_t d, size_t runs, size_t nt, size_t t0, size_t width, std::vector<double> &byTime) {
  const size_t chunk = chunkPoints(nt), first = t0 / chunk, last = (t0 + width - 1) / chunk;
  const size_t per = last - first + 1;
  std::vector<std::vector<unsigned char>> raw(runs * per);
  for (size_t r = 0; r < runs; ++r)
    for (size_t c = first; c <= last; ++c) {
      hsize_t offset[2] = {r, c * chunk}, bytes = 0;
      if (H5Dget_chunk_storage_size(d, offset, &bytes) < 0 || bytes == 0)
        continue; // never written: the run failed before any output, or did not run
      std::vector<unsigned char> &buf = raw[r * per + (c - first)];
      buf.resize(bytes);
      uint32_t filters = 0;
      if (H5Dread_chunk(d, H5P_DEFAULT, offset, &filters, buf.data()) < 0 || filters != 0)
        return false;
    }
  const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 16);
  std::atomic<bool> ok{true};
  std::vector<std::thread> pool;
  for (size_t w = 0; w < std::min(threads, runs); ++w)
    pool.emplace_back([&, w] {
      std::vector<unsigned char> shuffled(chunk * sizeof(double));
      std::vector<double> values(chunk);
      for (size_t r = w; r < runs; r += threads)
        for (size_t c = first; c <= last; ++c) {
          const std::vector<unsigned char> &buf = raw[r * per + (c - first)];
          if (buf.empty())
            continue;
          uLongf size = shuffled.size();
          if (uncompress(shuffled.data(), &size, buf.data(), buf.size()) != Z_OK || size != shuffled.size()) {
            ok = false;
            return;
          }
          auto *out = reinterpret_cast<unsigned char *>(values.data());
          for (size_t i = 0; i < chunk; ++i)
            for (size_t b = 0; b < sizeof(double); ++b)
              out[i * sizeof(double) + b] = shuffled[b * chunk + i];
          for (size_t i = 0; i < chunk; ++i) {
            const size_t t = c * chunk + i;
            if (t >= t0 && t < t0 + width)
              byTime[(t - t0) * runs + r] = values[i];
          }
        }
    });
  for (std::thread &t : pool)
    t.join();
  return ok;
}

} // namespace

bool SweepFile::summarizeFromFile(size_t v, VariableSummaryRef out) {
  Impl &m = *impl_;
  const SweepLayout &layout = *m.layout;
  VariableSummary &sum = *static_cast<VariableSummary *>(out);
  const hsize_t runs = layout.runs->size();
  const size_t nt = sum.mean.size();
  // Blocks of time points within the memory budget: whole chunks where a chunk of every run
  // fits, else part of a chunk (each chunk is then decompressed once per block it spans).
  const size_t chunk = layout.finalOnly ? 1 : chunkPoints(nt);
  const size_t budget = std::max<size_t>(1, kSummaryBytes / sizeof(double) / std::max<hsize_t>(runs, 1));
  const size_t block = std::min(nt, budget >= chunk ? budget / chunk * chunk : budget);
  std::vector<double> values, byTime;
  hid_t d = layout.finalOnly ? m.finals[v] : m.trajectories[v];
  Handle file(H5Dget_space(d), H5Sclose);
  for (size_t t0 = 0; t0 < nt; t0 += block) {
    const size_t width = std::min(block, nt - t0);
    byTime.assign(runs * width, NAN);
    if (layout.finalOnly) {
      if (runs && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, byTime.data()) < 0)
        return false;
    } else if (!readBlock(d, runs, nt, t0, width, byTime)) {
      return false;
    }
    summarizeBlock(sum, byTime.data(), runs, t0, width, m.states, layout.quantiles);
  }
  return true;
}

bool SweepFile::finish(Summary &summary, std::ostream &err) {
  if (!flush(err))
    return false;
  Impl &m = *impl_;
  const SweepLayout &layout = *m.layout;
  const size_t runs = layout.runs->size(), nv = layout.variables.size();
  const size_t nt = layout.finalOnly ? 1 : layout.time.size(), nq = layout.quantiles.size();
  for (signed char st : m.states)
    (st == static_cast<signed char>(RunState8::Done) ? summary.ok : summary.failed) += 1;
  std::vector<VariableSummary> sums(nv, VariableSummary(nt, nq));
  bool ok = true;
  for (size_t v = 0; v < nv && ok; ++v)
    if (!m.memory.empty())
      summarizeBlock(sums[v], m.memory[v].data(), runs, 0, nt, m.states, layout.quantiles);
    else
      ok = summarizeFromFile(v, &sums[v]);
  Handle group(H5Gcreate2(m.file, "summary", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  ok = ok && group.ok() && writeDoubles(group, "quantile_levels", layout.quantiles, {nq}) &&
       writeDoubles(group, "time", layout.finalOnly ? std::vector<double>{layout.time.back()} : layout.time, {nt});
  summary.final.assign(nv, {});
  for (size_t v = 0; v < nv && ok; ++v) {
    const VariableSummary &sum = sums[v];
    Handle g(H5Gcreate2(group, component(layout.variables[v]).c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
             H5Gclose);
    ok = g.ok() && writeDoubles(g, "mean", sum.mean, {nt}) && writeDoubles(g, "std", sum.stdev, {nt}) &&
         writeDoubles(g, "min", sum.lo, {nt}) && writeDoubles(g, "max", sum.hi, {nt}) &&
         writeDoubles(g, "count", sum.count, {nt}) && writeDoubles(g, "quantiles", sum.q, {nq, nt});
    summary.final[v] = {sum.mean[nt - 1], sum.stdev[nt - 1], sum.lo[nt - 1], sum.hi[nt - 1]};
    for (size_t k = 0; k < nq; ++k)
      summary.final[v].push_back(sum.q[k * nt + nt - 1]);
  }
  group.reset();
  if (!ok) {
    err << "eqc: error: writing the summary to '" << partial_ << "' failed (HDF5)\n";
    return false;
  }
  impl_.reset(); // closes every handle, then the file
  if (std::rename(partial_.c_str(), path_.c_str()) != 0) {
    err << "eqc: error: cannot rename '" << partial_ << "' to '" << path_ << "': " << std::strerror(errno) << "\n";
    return false;
  }
  return true;
}

} // namespace eqc

// The compiled-model cache (backend/ObjectCache.h).
#include "backend/ObjectCache.h"
#include "backend/Jit.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA1.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include <unistd.h>

namespace eqc {

namespace {

namespace fs = std::filesystem;

/// Bumped whenever the path from IR to machine code changes in eqc (backend/Optimize.cpp, the
/// JIT's target options): entries of other formats are never read.
constexpr const char *kFormat = "eqc-object-cache-2";
constexpr const char *kPrefix = "eqc-cache-";
constexpr char kMagic[8] = {'E', 'Q', 'C', 'O', 'B', 'J', '1', '\n'};
constexpr size_t kHeader = sizeof kMagic + 8 + 20;

/// A stream that hashes what is written into it (the module's bitcode is never held whole), in
/// 64 KiB chunks. The digest is of the same bytes however they are buffered.
class HashStream : public llvm::raw_ostream {
public:
  explicit HashStream(llvm::SHA1 &sha) : sha_(sha) { SetBufferSize(1 << 16); }
  ~HashStream() override { flush(); }

private:
  void write_impl(const char *p, size_t n) override {
    sha_.update(llvm::StringRef(p, n));
    pos_ += n;
  }
  uint64_t current_pos() const override { return pos_; }
  llvm::SHA1 &sha_;
  uint64_t pos_ = 0;
};

std::string hostSignature() {
  std::string s = llvm::sys::getProcessTriple() + "|" + llvm::sys::getHostCPUName().str() + "|";
  llvm::StringMap<bool> features;
  if (llvm::sys::getHostCPUFeatures(features)) {
    std::vector<std::string> on;
    for (auto &f : features)
      on.push_back((f.second ? "+" : "-") + f.first().str());
    std::sort(on.begin(), on.end());
    for (auto &f : on)
      s += f + ",";
  }
  return s;
}

} // namespace

std::string defaultCacheDirectory() {
  if (const char *dir = std::getenv("EQC_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/eqc";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/eqc";
  return "";
}

bool isCacheKey(const std::string &identifier) { return identifier.rfind(kPrefix, 0) == 0; }

ModelObjectCache::ModelObjectCache(std::string directory) : directory_(std::move(directory)) {}

std::string ModelObjectCache::digest(const llvm::Module &m) {
  llvm::SHA1 sha;
  {
    HashStream os(sha);
    // The bitcode: a lossless form of the module, written in a third of the time its text takes
    // (10^5-state cascade: 0.4 s against 1.1 s).
    llvm::WriteBitcodeToFile(m, os);
  }
  return llvm::toHex(sha.final(), true);
}

std::string ModelObjectCache::key(const std::string &moduleDigest, int optLevel) {
  static const std::string host = hostSignature();
  llvm::SHA1 sha;
  sha.update(llvm::StringRef(kFormat));
  sha.update(llvm::StringRef("|" LLVM_VERSION_STRING "|"));
  sha.update(llvm::StringRef(host));
  sha.update(llvm::StringRef("|O" + std::to_string(optLevel) + "|"));
  sha.update(llvm::StringRef(moduleDigest));
  return kPrefix + llvm::toHex(sha.final(), true);
}

std::string ModelObjectCache::key(const llvm::Module &m, int optLevel) { return key(digest(m), optLevel); }

std::string ModelObjectCache::path(const std::string &key) const { return directory_ + "/" + key + ".obj"; }

bool ModelObjectCache::prepare(const std::string &key) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (loaded_.count(key))
      return true;
  }
  auto file = llvm::MemoryBuffer::getFile(path(key), /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!file)
    return false;
  llvm::StringRef data = (*file)->getBuffer();
  if (data.size() < kHeader || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    return false;
  uint64_t length = 0;
  std::memcpy(&length, data.data() + sizeof kMagic, 8);
  if (length != data.size() - kHeader)
    return false;
  llvm::StringRef object = data.substr(kHeader);
  auto digest = llvm::SHA1::hash(llvm::arrayRefFromStringRef(object));
  if (std::memcmp(digest.data(), data.data() + sizeof kMagic + 8, 20) != 0)
    return false;
  std::lock_guard<std::mutex> lock(mutex_);
  loaded_[key] = llvm::MemoryBuffer::getMemBufferCopy(object, key);
  return true;
}

std::unique_ptr<llvm::MemoryBuffer> ModelObjectCache::getObject(const llvm::Module *m) {
  return take(m->getModuleIdentifier());
}

std::unique_ptr<llvm::MemoryBuffer> ModelObjectCache::take(const std::string &key) {
  if (!prepare(key))
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = loaded_.find(key);
  if (it == loaded_.end())
    return nullptr;
  std::unique_ptr<llvm::MemoryBuffer> object = std::move(it->second);
  loaded_.erase(it);
  ++hits_;
  return object;
}

void ModelObjectCache::notifyObjectCompiled(const llvm::Module *m, llvm::MemoryBufferRef object) {
  if (isCacheKey(m->getModuleIdentifier()))
    store(m->getModuleIdentifier(), object);
}

void ModelObjectCache::store(const std::string &key, llvm::MemoryBufferRef object) {
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) {
    std::lock_guard<std::mutex> lock(mutex_);
    lastError_ = "cannot create '" + directory_ + "': " + ec.message();
    return;
  }
  fs::permissions(directory_, fs::perms::owner_all, fs::perm_options::replace, ec);
  // A temporary file in the same directory, renamed over the entry: readers see all or nothing.
  std::string tmp = path(key) + ".tmp-" + std::to_string(::getpid()) + "-" +
                    std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()) & 0xffffff);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    llvm::StringRef data = object.getBuffer();
    uint64_t length = data.size();
    auto digest = llvm::SHA1::hash(llvm::arrayRefFromStringRef(data));
    out.write(kMagic, sizeof kMagic);
    out.write(reinterpret_cast<const char *>(&length), 8);
    out.write(reinterpret_cast<const char *>(digest.data()), 20);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      std::lock_guard<std::mutex> lock(mutex_);
      lastError_ = "cannot write '" + tmp + "'";
      return;
    }
  }
  fs::rename(tmp, path(key), ec);
  if (ec) {
    fs::remove(tmp, ec);
    return;
  }
  ++stores_;
  prune();
}

void ModelObjectCache::prune() {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  for (auto it = fs::directory_iterator(directory_, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path &p = it->path();
    if (p.extension() == ".obj" && isCacheKey(p.filename().string()))
      entries.emplace_back(it->last_write_time(ec), p);
    // A temporary entry of a process that ended while writing it (eqc does not wait for an
    // optimized tier at exit): removed once it is an hour old.
    else if (isCacheKey(p.filename().string()) && p.filename().string().find(".obj.tmp-") != std::string::npos &&
             it->last_write_time(ec) < fs::file_time_type::clock::now() - std::chrono::hours(1))
      fs::remove(p, ec);
  }
  if (static_cast<int>(entries.size()) <= kMaxEntries)
    return;
  std::sort(entries.begin(), entries.end());
  for (size_t i = 0; i + kMaxEntries < entries.size(); ++i)
    fs::remove(entries[i].second, ec);
}

std::string ModelObjectCache::lastError() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lastError_;
}

} // namespace eqc

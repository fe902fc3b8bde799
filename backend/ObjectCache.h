// The compiled-model cache: machine code of generated modules on disk, keyed by a hash of the
// module's IR and of everything else that decides the code (LLVM version, host CPU and features,
// optimization level), so that a second `eqc simulate` of an unchanged model skips LLVM.
#pragma once

#include <llvm/ExecutionEngine/ObjectCache.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace llvm {
class Module;
class MemoryBuffer;
class MemoryBufferRef;
} // namespace llvm

namespace eqc {

/// Entries are files `<key>.obj` in one directory: a header (magic, length, SHA-1 of the object)
/// and the object file. They are written to a temporary file and renamed, so a reader sees a whole
/// entry or none; an entry whose checksum does not match is ignored (and replaced). With more than
/// kMaxEntries entries, the least recently written are removed. Thread-safe (the JIT's background
/// tier stores from its own thread).
class ModelObjectCache : public llvm::ObjectCache {
public:
  static constexpr int kMaxEntries = 256;

  /// Requires: `directory` non-empty. It is created (mode 0700) when first written.
  explicit ModelObjectCache(std::string directory);

  /// The key of a module compiled at `optLevel` for this host: "eqc-cache-" and 40 hex digits.
  static std::string key(const llvm::Module &m, int optLevel);
  /// The same from the module's digest (its IR hashed once for several levels).
  static std::string digest(const llvm::Module &m);
  static std::string key(const std::string &moduleDigest, int optLevel);

  /// Whether a valid entry exists for `key`; when it does, it is read and kept for getObject.
  bool prepare(const std::string &key);
  /// The object of entry `key` (counted as a hit), or nullptr when there is no valid entry.
  std::unique_ptr<llvm::MemoryBuffer> take(const std::string &key);
  /// Writes `object` as entry `key` (counted as a store; a failure is kept for lastError()).
  void store(const std::string &key, llvm::MemoryBufferRef object);

  // llvm::ObjectCache, called by the JIT's compiler with modules whose identifier is a key.
  void notifyObjectCompiled(const llvm::Module *m, llvm::MemoryBufferRef object) override;
  std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module *m) override;

  int hits() const { return hits_; }
  int stores() const { return stores_; }
  std::string lastError() const;

private:
  std::string path(const std::string &key) const;
  void prune();

  std::string directory_;
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> loaded_;
  std::atomic<int> hits_{0}, stores_{0};
  std::string lastError_;
};

/// Whether a module identifier is a cache key.
bool isCacheKey(const std::string &identifier);

} // namespace eqc

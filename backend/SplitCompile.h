// Machine code for a model's simulation functions on several threads: the code generator writes
// them as several modules, each in a context of its own (LLVM compiles in parallel only across
// contexts; backend/Codegen.h, ModuleSplit), and a ParallelCompiler turns each into an object file
// on worker threads as soon as it is written, while the next one is being generated.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Support/Error.h>

namespace llvm {
class LLVMContext;
class Module;
class MemoryBuffer;
} // namespace llvm

namespace eqc {

class ModelObjectCache;

/// Compiles modules to object files on `threads` threads: threads - 1 workers start at once and
/// take modules as they are added; finish() compiles the rest on the calling thread too. Each
/// module is optimized at `optLevel` first. With a cache, a module's object is taken from it by
/// the module's identifier (a cache key, given or derived from the module on the worker) or
/// stored into it once compiled.
class ParallelCompiler {
public:
  ParallelCompiler(llvm::orc::JITTargetMachineBuilder target, int optLevel, ModelObjectCache *cache,
                   unsigned threads);
  ~ParallelCompiler();
  ParallelCompiler(const ParallelCompiler &) = delete;
  ParallelCompiler &operator=(const ParallelCompiler &) = delete;

  /// Requires: the module's target set; nothing else uses `context`. `key`: the module's cache
  /// key, or empty to hash the module on the worker (with a cache).
  void add(std::unique_ptr<llvm::LLVMContext> context, std::unique_ptr<llvm::Module> module, std::string key);
  /// Ensures: the objects in the order the modules were added, or the first error.
  llvm::Expected<std::vector<std::unique_ptr<llvm::MemoryBuffer>>> finish();

  double optimizeSeconds() const { return optimizeSeconds_; } ///< summed over the threads
  /// After finish(), with a cache: the modules' keys in the order added.
  std::vector<std::string> keys() const;

private:
  struct Job;
  void work(bool untilEmpty);
  void compile(Job &job, llvm::TargetMachine &machine);

  llvm::orc::JITTargetMachineBuilder target_;
  int optLevel_;
  ModelObjectCache *cache_;
  std::vector<std::unique_ptr<Job>> jobs_;
  std::deque<Job *> queue_;
  bool closed_ = false;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<std::thread> workers_;
  double optimizeSeconds_ = 0;
};

} // namespace eqc

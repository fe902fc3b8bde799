// Modules compiled on several threads (backend/SplitCompile.h).
#include "backend/SplitCompile.h"

#include "backend/ObjectCache.h"
#include "backend/Optimize.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <chrono>
#include <system_error>

namespace eqc {

struct ParallelCompiler::Job {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::string key;
  std::unique_ptr<llvm::MemoryBuffer> object;
  std::string error;
  double optimizeSeconds = 0;
};

ParallelCompiler::ParallelCompiler(llvm::orc::JITTargetMachineBuilder target, int optLevel, ModelObjectCache *cache,
                                   unsigned threads)
    : target_(std::move(target)), optLevel_(optLevel), cache_(cache) {
  // The machine scheduler is a process-wide switch (backend/Optimize.h): set before the workers
  // read it; the modules of a split model are large.
  if (optLevel > 0)
    setMachineScheduler(false);
  // A thread that cannot be started (its stack is memory too) leaves its share to the others and
  // to finish()'s caller.
  for (unsigned k = 1; k < threads; ++k)
    try {
      workers_.emplace_back([this] { work(false); });
    } catch (const std::system_error &) {
      break;
    }
}

ParallelCompiler::~ParallelCompiler() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    queue_.clear();
  }
  ready_.notify_all();
  for (std::thread &t : workers_)
    if (t.joinable())
      t.join();
}

void ParallelCompiler::add(std::unique_ptr<llvm::LLVMContext> context, std::unique_ptr<llvm::Module> module,
                           std::string key) {
  auto job = std::make_unique<Job>();
  job->context = std::move(context);
  job->module = std::move(module);
  job->key = std::move(key);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(job.get());
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
}

void ParallelCompiler::work(bool untilEmpty) {
  auto machine = llvm::orc::JITTargetMachineBuilder(target_).createTargetMachine();
  for (;;) {
    Job *job = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!untilEmpty)
        ready_.wait(lock, [this] { return closed_ || !queue_.empty(); });
      if (queue_.empty())
        return;
      job = queue_.front();
      queue_.pop_front();
    }
    if (!machine)
      job->error = llvm::toString(machine.takeError());
    else
      compile(*job, **machine);
  }
}

void ParallelCompiler::compile(Job &job, llvm::TargetMachine &machine) {
  if (cache_) {
    if (job.key.empty())
      job.key = ModelObjectCache::key(*job.module, optLevel_);
    if ((job.object = cache_->take(job.key))) {
      job.module.reset();
      job.context.reset();
      return;
    }
  }
  auto start = std::chrono::steady_clock::now();
  optimize(*job.module, machine, optLevel_);
  job.optimizeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  llvm::orc::SimpleCompiler compiler(machine);
  auto object = compiler(*job.module);
  job.module.reset(); // memory: no module outlives its compilation
  job.context.reset();
  if (!object) {
    job.error = llvm::toString(object.takeError());
    return;
  }
  if (cache_)
    cache_->store(job.key, (*object)->getMemBufferRef());
  job.object = std::move(*object);
}

std::vector<std::string> ParallelCompiler::keys() const {
  std::vector<std::string> out;
  for (const auto &job : jobs_)
    out.push_back(job->key);
  return out;
}

llvm::Expected<std::vector<std::unique_ptr<llvm::MemoryBuffer>>> ParallelCompiler::finish() {
  work(true); // this thread helps with what is left
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  ready_.notify_all();
  for (std::thread &t : workers_)
    t.join();
  workers_.clear();
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  for (auto &job : jobs_) {
    optimizeSeconds_ += job->optimizeSeconds;
    if (!job->error.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", job->error.c_str());
    objects.push_back(std::move(job->object));
  }
  return objects;
}

} // namespace eqc

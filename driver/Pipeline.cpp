// parse → flatten → causalize → codegen → optimize → jit, with --dump-after and --time-passes.
#include "driver/Pipeline.h"

#include "middle/Sensitivities.h"
#include "middle/SimpleEquations.h"

#include <pthread.h>
#include "backend/Jit.h"

#include "frontend/Parser.h"
#include "frontend/Flatten.h"
#include "frontend/External.h"
#include "frontend/Library.h"
#include "middle/Events.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>
#include <fstream>
#include <iostream>
#include <sstream>

namespace eqc {

const std::vector<std::string> &passNames() {
  static const std::vector<std::string> names{"flatten", "reduce", "causalize", "codegen", "optimize"};
  return names;
}

namespace {

/// Reads a file whole; false when it cannot be read or is not a regular file.
/// Whether `s` is a dotted class name (A.B.C), not a file name.
bool isClassName(const std::string &s) {
  bool start = true;
  for (char ch : s) {
    const bool letter = std::isalpha(static_cast<unsigned char>(ch)) || ch == '_';
    if (start ? !letter : !(letter || std::isdigit(static_cast<unsigned char>(ch)) || ch == '.'))
      return false;
    start = ch == '.';
  }
  return !s.empty() && !start;
}

bool fileExists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

bool readFile(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    return false;
  text = ss.str();
  return true;
}

/// Destroys `files` on a thread of its own, with eqc's large stack (a syntax tree is as deep as
/// its longest sum, and its destructor recurses); the returned handle joins it when released.
/// Without a thread, destroys them at once.
std::shared_ptr<void> releaseInBackground(std::vector<ast::File> files) {
  struct Release {
    std::vector<ast::File> files;
    pthread_t thread{};
  };
  auto *r = new Release{std::move(files)};
  pthread_attr_t attr;
  bool started = pthread_attr_init(&attr) == 0;
  started = started && pthread_attr_setstacksize(&attr, kStackBytes) == 0 &&
            pthread_create(&r->thread, &attr,
                           [](void *p) -> void * {
                             static_cast<Release *>(p)->files.clear();
                             return nullptr;
                           },
                           r) == 0;
  pthread_attr_destroy(&attr);
  if (!started) {
    delete r;
    return nullptr;
  }
  return std::shared_ptr<void>(r, [](void *p) {
    auto *release = static_cast<Release *>(p);
    pthread_join(release->thread, nullptr);
    delete release;
  });
}

/// The files of `--lib` arguments read at once (a file as given, a directory's *.eq files in name
/// order), and the library path read on demand: a directory with a package.mo is a package itself,
/// any other directory is searched for `Name.mo` and `Name/package.mo` (MLS 3.5, 13.4), then the
/// directories of MODELICAPATH.
bool libraryFiles(const std::vector<std::string> &libs, std::vector<std::string> &files, LibraryPath &path,
                  std::ostream &err) {
  for (const std::string &lib : libs) {
    struct stat st;
    if (stat(lib.c_str(), &st) != 0) {
      err << "eqc: error: cannot read library '" << lib << "'\n";
      return false;
    }
    if (!S_ISDIR(st.st_mode)) {
      files.push_back(lib);
      continue;
    }
    if (stat((lib + "/package.mo").c_str(), &st) == 0) {
      path.addPackageDirectory(lib);
      continue;
    }
    path.addDirectory(lib);
    DIR *dir = opendir(lib.c_str());
    if (!dir) {
      err << "eqc: error: cannot read library directory '" << lib << "'\n";
      return false;
    }
    std::vector<std::string> found;
    while (dirent *entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > 3 && name.compare(name.size() - 3, 3, ".eq") == 0)
        found.push_back(lib + "/" + name);
    }
    closedir(dir);
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return true;
}

class PassTimer {
public:
  PassTimer(Compilation &c, const char *name) : c_(c), name_(name), start_(std::chrono::steady_clock::now()) {}
  ~PassTimer() {
    c_.timings.emplace_back(name_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }

private:
  Compilation &c_;
  const char *name_;
  std::chrono::steady_clock::time_point start_;
};

/// Structural conversion, the Σ-method, Pantelides, the seeds' reduction by rows where the form
/// asks for it, and the causal ODE model of the form in effect (`reduce` and `causalize`).
ExitCode reduceAndCausalize(const PipelineOptions &options, Compilation &c, Diagnostics &diags) {
  const Experiment &ex = c.flat->experiment;
  const double t0 = ex.hasStartTime ? ex.startTime : 0.0;
  {
    PassTimer t(c, "simple equations");
    c.simpleEquations = substituteSimpleEquations(*c.flat);
  }
  {
    PassTimer t(c, "parameter equations");
    c.simpleEquations.promoted = promoteParameterUnknowns(*c.flat);
    unlinkUnreadDerivatives(*c.flat);
  }
  // `pre(v) = e` in initial equations whose e read unknowns: parameters now, or an error.
  for (auto [v, loc] : c.flat->preStarts)
    for (int w : collectAllVars(c.flat->vars[v].binding))
      if (c.flat->vars[w].role != VarRole::Parameter) {
        diags.error(loc, "an initial equation pre(" + c.flat->vars[v].name +
                             ") = ... gives the start value of a "
                             "discrete variable: a value of parameters and constants, but this one reads '" +
                             c.flat->vars[w].name + "', which equations do not fix from parameters alone");
        return ExitStructure;
      }
  {
    // Models whose matrix of highest derivatives is singular although structure says otherwise
    // get the combination of equations that shows the hidden constraint (the linear-combination method).
    PassTimer t(c, "convert");
    std::optional<std::vector<StructureConversion>> conversions = convertForStructure(*c.flat, t0, diags);
    if (!conversions)
      return ExitStructure;
    c.conversions = std::move(*conversions);
  }
  if (options.sigmaMethod) // before Pantelides adds derivative variables to the flat system
    c.sigma = runSigmaMethod(*c.flat);
  c.reductionForm = !options.reductionForm.empty() ? options.reductionForm
                    : !ex.reduction.empty()       ? ex.reduction
                    : !ex.stabilize.empty()       ? "invariants"
                                                  : "dummy";
  {
    PassTimer t(c, "reduce");
    const size_t sourceVars = c.flat->vars.size();
    c.reduced = reduceIndex(*c.flat, diags);
    if (c.reduced && c.reduced->differentiated() && (c.reductionForm == "invariants" || options.rowReport)) {
      // The seeds' reduction works on the equations as written, without Pantelides' derivatives.
      c.rowFlat = c.flat->prefixCopy(sourceVars);
      c.rows = reduceByRows(*c.rowFlat, startPoint(*c.rowFlat, t0), t0, options.rowReport, diags);
      if (!c.rows)
        return ExitStructure;
    }
  }
  if (!c.reduced)
    return ExitStructure;
  std::vector<int> inputs = c.flat->differentiatedInputs; // variable indices agree in the row copy
  if (c.rowFlat)
    for (int v : c.rowFlat->differentiatedInputs)
      if (std::find(inputs.begin(), inputs.end(), v) == inputs.end())
        inputs.push_back(v);
  if (!inputs.empty()) {
    const FlatSystem &flat = *c.flat;
    for (int v : inputs)
      diags.error(flat.vars[v].loc, "the index reduction differentiates equations that contain the input '" +
                                        flat.vars[v].name + "', but an input is given as values over time, without "
                                        "derivatives (make it a state of the model, or reformulate so that no "
                                        "equation with it needs differentiating)");
    return ExitStructure;
  }
  if (!c.flat->differentiatedDelays.empty() || (c.rowFlat && !c.rowFlat->differentiatedDelays.empty())) {
    const FlatSystem &flat = *c.flat;
    std::vector<int> delays = flat.differentiatedDelays;
    if (c.rowFlat)
      delays.insert(delays.end(), c.rowFlat->differentiatedDelays.begin(), c.rowFlat->differentiatedDelays.end());
    std::sort(delays.begin(), delays.end());
    delays.erase(std::unique(delays.begin(), delays.end()), delays.end());
    for (int k : delays)
      diags.error(static_cast<size_t>(k) < flat.delayLocs.size() ? flat.delayLocs[k] : flat.loc,
                  "the index reduction differentiates an equation that contains this delay(), and eqc has no "
                  "derivative of a delay (MLS 3.5, 3.7.2.1): reformulate so that no equation with a delay needs "
                  "differentiating");
    return ExitStructure;
  }
  if (options.dumpAfter == "reduce")
    printReduction(std::cout, *c.flat, *c.reduced);
  PassTimer t(c, "causalize");
  // The model's own __eqc annotation decides what the command line left open.
  ReductionOptions reduction = options.reduction;
  if (!options.stabilizationGiven && !ex.stabilize.empty())
    reduction.stabilization = ex.stabilize == "none"         ? Stabilization::None
                              : ex.stabilize == "baumgarte" ? Stabilization::Baumgarte
                                                            : Stabilization::Projection;
  if (!options.etaGiven && !std::isnan(ex.eta))
    reduction.eta = ex.eta;
  if (!options.omegaGiven && !std::isnan(ex.omega))
    reduction.omega = ex.omega;
  c.reduction = reduction;
  if (c.rows && c.rows->applies() && c.reductionForm == "invariants" && !options.rowReport) {
    // Simulate, compile and check the seeds' ODE with invariants.
    c.pantelidesFlat = std::move(c.flat);
    c.flat = std::move(c.rowFlat);
    c.rowFlat.reset();
    c.rowForm = true;
    c.model = setupRowReducedModel(*c.flat, *c.rows, reduction, diags);
  } else {
    c.model = setupOdeModel(*c.flat, *c.reduced, reduction, diags);
  }
  if (diags.hasErrors() || !causalizeOdeModel(*c.flat, *c.model, diags)) {
    c.model.reset();
    return ExitStructure;
  }
  return ExitOk;
}

} // namespace

ExitCode runPipeline(const std::string &path, const PipelineOptions &options, Compilation &c, std::ostream &err) {
  c.diags = std::make_unique<Diagnostics>(c.sources, &err);
  Diagnostics &diags = *c.diags;
  auto dumping = [&](const char *pass) { return options.dumpAfter == pass; };
  std::vector<uint32_t> buffers;
  std::string modelName = options.modelName;
  std::string text;
  if (readFile(path, text)) {
    buffers.push_back(c.sources.addBuffer(path, std::move(text)));
  } else if (isClassName(path) && !fileExists(path)) {
    // `eqc simulate Lib.Sub.Model`: a class of the library path.
    if (modelName.empty())
      modelName = path;
  } else {
    err << "eqc: error: cannot read '" << path << "'\n";
    return ExitInput;
  }
  LibraryPath library({}, c.sources, diags);
  std::vector<std::string> libs;
  if (!libraryFiles(options.libraries, libs, library, err))
    return ExitInput;
  for (const std::string &dir : modelicaPath())
    library.addDirectory(dir);
  for (const std::string &lib : libs) {
    std::string libText;
    if (!readFile(lib, libText)) {
      err << "eqc: error: cannot read library '" << lib << "'\n";
      return ExitInput;
    }
    buffers.push_back(c.sources.addBuffer(lib, std::move(libText)));
  }

  std::vector<ast::File> files;
  {
    PassTimer t(c, "parse");
    bool ok = true;
    for (uint32_t b : buffers) {
      std::optional<ast::File> file = parseBuffer(c.sources, b, diags);
      ok = ok && file;
      if (file)
        files.push_back(std::move(*file));
    }
    if (!ok)
      return ExitModel;
  }
  {
    PassTimer t(c, "flatten");
    std::vector<const ast::File *> all;
    for (const ast::File &f : files)
      all.push_back(&f);
    // External C code is built into the compiled-model cache (a temporary folder without it).
    c.external = std::make_unique<ExternalCode>(options.externalCache ? defaultCacheDirectory() : "");
    c.flat = flattenModel(all, modelName, diags, &library, c.external.get());
    c.libraryFilesRead = library.filesRead();
    for (ast::File &f : library.takeFiles())
      files.push_back(std::move(f));
    if (c.flat)
      extractConditions(*c.flat);
    // Nothing after flattening refers to the syntax trees: at 10^4 equations they were 40% of the
    // peak memory, which codegen reached while they were still held. Freeing them takes about 2%
    // of the compile time, so a second thread does it while the passes go on.
    c.releasedTrees = releaseInBackground(std::move(files));
  }
  if (!c.flat)
    return ExitModel;
  if (!options.sensitivities.empty()) {
    PassTimer t(c, "sensitivities");
    if (!addSensitivities(*c.flat, options.sensitivities, diags))
      return ExitUsage;
  }
  if (dumping("flatten"))
    c.flat->print(std::cout);
  if (ExitCode e = reduceAndCausalize(options, c, diags); e != ExitOk)
    return e;
  if (!c.flat->sensitivities.empty() &&
      !checkSensitivityStates(*c.flat, c.model->states, c.model->discretes, diags))
    return ExitUsage;
  if (dumping("causalize")) {
    c.model->ode.print(std::cout, *c.flat, c.model->simulation);
    c.model->init.print(std::cout, *c.flat, c.model->initialization);
  }
  if (!options.jit)
    return ExitOk;
  BackendOptions backend;
  backend.optLevel = options.optLevel;
  c.optLevel = options.optLevel;
  backend.loops = c.loops = options.loops;
  if (options.cache) {
    backend.cacheDirectory = defaultCacheDirectory();
    c.cacheDirectory = backend.cacheDirectory;
  }
  if (dumping("codegen"))
    backend.dumpIR = [](const std::string &ir) { std::cout << ir; };
  if (dumping("optimize"))
    backend.dumpOptimizedIR = [](const std::string &ir) { std::cout << ir; };
  backend.timePhase = [&c](const char *phase, double s) { c.timings.emplace_back(phase, s); };
  std::string error;
  c.jit = jitCompile(*c.flat, *c.model, backend, error);
  if (!c.jit) {
    err << "eqc: internal error: JIT compilation failed: " << error << "\n";
    return ExitInternal;
  }
  return ExitOk;
}

bool Compilation::tierPending() const {
  auto pending = [](const std::unique_ptr<JitModel> &j) { return j && j->tiered() && j->tierSeconds() < 0; };
  return pending(jit) || std::any_of(retiredJits.begin(), retiredJits.end(), pending);
}

} // namespace eqc

// The compiler pipeline as one straight-line function over the passes.
#pragma once

#include "backend/Jit.h"
#include "driver/ExitCodes.h"
#include "frontend/External.h"
#include "middle/DummyDerivatives.h"
#include "middle/FlatSystem.h"
#include "middle/OdeModel.h"
#include "middle/RowReduction.h"
#include "middle/SigmaMethod.h"
#include "middle/SimpleEquations.h"
#include "support/Diagnostics.h"

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace eqc {

struct PipelineOptions {
  std::string modelName;  ///< which model of the file (default: the last)
  /// Library files, or directories whose *.eq files are read (`--lib`): their classes are visible
  /// to the model.
  std::vector<std::string> libraries;
  std::string dumpAfter;  ///< pass whose output is printed to stdout
  bool timePasses = false;
  bool jit = true;        ///< stop after the middle end when false (`eqc check`)
  int optLevel = -1;      ///< -1: automatic (O2, or two tiers for large models, backend/Jit.h)
  bool loops = true;      ///< runs of alike steps as loops (backend/Codegen.h); `--no-loops`
  /// The compiled-model cache (backend/ObjectCache.h) in defaultCacheDirectory(); `--no-cache`.
  bool cache = false;
  /// External C code (Include code, libraries built from their sources) kept in the cache's
  /// `external` folder, for every command (`eqc compile` too); false with `--no-cache`.
  bool externalCache = true;
  ReductionOptions reduction;
  bool stabilizationGiven = false, etaGiven = false, omegaGiven = false; ///< on the command line
  bool sigmaMethod = false; ///< run the Σ-method on the flat system before index reduction (`eqc reduce`)
  /// "dummy" or "invariants" (`--reduction`); empty: the model's __eqc annotation decides, else
  /// "invariants" when it sets a stabilization, else "dummy".
  std::string reductionForm;
  /// Reduce by rows (the seeds' procedure) for the report even when the form is "dummy" (`eqc reduce`).
  bool rowReport = false;
  /// Parameters whose forward sensitivities are added to the model (`--sensitivities`).
  std::vector<std::string> sensitivities;
};

/// Everything the pipeline produced; later stages are empty when an earlier one failed.
/// The stack of the threads that run passes or free their data (driver/main.cpp): 1 GiB of address
/// space, of which only what a model's nesting needs is touched.
constexpr size_t kStackBytes = size_t(1) << 30;

struct Compilation {
  SourceManager sources;
  std::unique_ptr<Diagnostics> diags;
  std::optional<FlatSystem> flat;
  std::optional<SigmaResult> sigma; ///< with PipelineOptions::sigmaMethod: Σ-method of the original system
  ReductionOptions reduction; ///< in effect: the command line's, else the model's __eqc annotation
  /// Equations replaced by combinations before structural analysis (convertForStructure).
  std::vector<StructureConversion> conversions;
  SimpleEquations simpleEquations; ///< substituted before structural analysis (--stats)
  std::optional<ReducedSystem> reduced;
  /// "dummy" or "invariants": the reduction in effect for index-reduced models.
  std::string reductionForm = "dummy";
  /// The seeds' reduction by rows of an index-reduced model (form "invariants", or `eqc reduce`), on a
  /// flat system of its own (rowFlat) since it creates other derivatives than Pantelides.
  std::optional<RowReduction> rows;
  std::optional<FlatSystem> rowFlat;
  /// `model` is the row-reduced ODE with invariants: then `flat` is the rows' flat system and
  /// `pantelidesFlat` the one that `reduced` refers to.
  bool rowForm = false;
  std::optional<FlatSystem> pantelidesFlat;
  std::optional<OdeModel> model;
  std::unique_ptr<JitModel> jit;
  /// The compiled state selections of a dummy-derivative run, kept after it so that the process
  /// need not wait for their optimized tiers (driver/main.cpp); never called again.
  std::vector<std::unique_ptr<JitModel>> retiredJits;
  /// The syntax trees, being freed on a second thread after flattening; joined when destroyed.
  std::shared_ptr<void> releasedTrees;
  /// Whether some compiled model's optimized tier is still being compiled.
  bool tierPending() const;
  std::vector<std::pair<std::string, double>> timings;
  /// The code of external functions, loaded while flattening (never unloaded: models call it).
  std::unique_ptr<ExternalCode> external;
  size_t libraryFilesRead = 0; ///< files of the library path read for the model (MLS 3.5, 13.4)
  std::string cacheDirectory; ///< of the compiled-model cache, empty for none
  int optLevel = -1; ///< for code compiled later (state selections of dummy derivatives)
  bool loops = true; ///< likewise (PipelineOptions::loops)
  /// `eqc reduce` of an index-reduced model: the dummy-derivative selection at the consistent
  /// initial point (time, every variable's value), when it could be computed.
  std::optional<StateSelection> initialSelection;
  double initialTime = 0;
  std::vector<double> initialValues;
};

/// Names of the passes accepted by --dump-after.
const std::vector<std::string> &passNames();

/// Runs parse → flatten → causalize → codegen → optimize → jit on `path`.
/// Ensures: ExitOk with every stage filled in, or the exit code of the failing stage with its
/// diagnostics already printed to `err`.
ExitCode runPipeline(const std::string &path, const PipelineOptions &options, Compilation &c, std::ostream &err);

} // namespace eqc

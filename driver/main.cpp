// `eqc`: the command-line driver (check, simulate, compile, reduce); thin on top of the pipeline.
#include "driver/Compile.h"
#include "driver/Pipeline.h"
#include "driver/RunState.h"
#include "driver/Reduce.h"
#include "driver/Simulate.h"
#include "driver/Sweep.h"
#include "driver/SweepMpi.h"
#include "middle/ExprOps.h"

#include <cstdio>
#include <unistd.h>
#include <new>
#include <cstdlib>
#include <pthread.h>
#include <cstring>
#include <iostream>
#include <sstream>

using namespace eqc;

namespace {

const char *kVersion = "eqc 0.1.0";

const char *kUsage = R"(usage: eqc <command> [options] model.eq

commands:
  check       parse and check the model, print the flat system
  simulate    compile the model (JIT) and simulate it, write CSV
  sweep       compile once, simulate an ensemble (grids, Monte Carlo) on every core, write HDF5
  compile     compile the model to an object file and a C header (or assembly, LLVM IR)
  reduce      show the index reduction: Σ-method, Pantelides, hidden constraints, the final ODE
  help CMD    show the options of a command

Run 'eqc help simulate' for the options of a command.
)";

const char *kCommonHelp = R"(  --model NAME         the model to use when the file has several (default: the last);
                       dotted for a model in a package (Lib.Examples.RLC)
  --lib PATH           a library: a file; a Modelica package directory (with package.mo);
                       or a directory searched for Name.mo and Name/package.mo (read when the
                       model names them) whose *.eq files are read (repeatable); then the
                       directories of MODELICAPATH. The model may be a class of the library
                       path instead of a file: eqc simulate Lib.Examples.Model --lib DIR
  --dump-after=PASS    print the result of a pass: flatten, reduce, causalize, codegen, optimize
  --time-passes        print the time of each pass to stderr
  -h, --help           this help
)";

const char *kCheckHelp = R"(usage: eqc check [options] model.eq

Parses and checks the model, prints the flat system (variables, parameters, equations) and
the evaluation order (BLT blocks, explicit assignments, algebraic loops).

options:
)";

const char *kSimulateHelp = R"(usage: eqc simulate [options] model.eq

Compiles the model to native code (LLVM ORC JIT) and integrates it; writes a CSV with a header
row (time and every unknown by default). Defaults come from annotation(experiment(...)).

options:
  -o, --output FILE    the result: CSV ('-' for stdout; default <Model>.csv), or by extension
                       .mat (MAT v4 as Dymola and OpenModelica write it), .h5 (HDF5), .eqcres
  --method M           auto (default: dopri5, switching to radau5 where stiffness is detected) |
                       euler | heun | rk4 | beuler (fixed step; beuler: backward Euler with the
                       generated Jacobian, for stiff models) | dopri5 | dop853 (variable step,
                       dense output) | radau5 (stiff, variable step, generated Jacobian)
  --linear-solver L    auto (default) | dense | sparse: the Newton matrices of beuler and radau5;
                       auto takes the sparse LU for 64 or more states with at most 10% of the
                       Jacobian's entries structurally non-zero
  --dt H               step size of the fixed-step methods (default: min(interval, span/100))
  --t-start T          start time (default: StartTime or 0)
  --t-end T            stop time (default: StopTime or start + 1)
  --interval H         output spacing (default: Interval or span/500)
  --rtol R, --atol A   tolerances of the variable-step methods (default: Tolerance or 1e-6;
                       atol = rtol)
  --max-steps N        limit on the number of steps
  --vars a,b,der(x)    the columns to write (default: all unknowns)
  -p NAME=VALUE        override a parameter (repeatable)
  --input FILE.csv     values of the model's inputs over time: a header `time,u1,...` and rows
                       with non-decreasing times, interpolated linearly (a time given twice is a
                       jump); the end values hold outside; inputs not named keep their start value
  --stats              print solver statistics and the time of each phase to stderr
  --sensitivities p,q  also integrate the forward sensitivities d(x)/d(p) of every unknown x to
                       these parameters (the sensitivity equations generated symbolically with
                       the model, with their jumps at events; written as columns d(x)/d(p))
  --plot FILE.svg      also draw the written columns against time as an SVG line plot
  --quiet              no progress bar (shown on a terminal for runs longer than a second)
  --every N            keep every N-th output row (and the last)
  --binary             write the compact .eqcres format (the default for -o FILE.eqcres)
  -O0 .. -O3           LLVM optimization level (default: two tiers: -O0 code at once, replaced
                       by -O2 code compiled on a second thread, from when the run has lasted as
                       long as the -O0 code took to compile, once ready; both compute the same
                       numbers; Jacobians at -O0)
  --no-cache           neither read nor write the compiled-model cache ($EQC_CACHE_DIR, else
                       $XDG_CACHE_HOME/eqc or ~/.cache/eqc): machine code keyed by a hash of the
                       generated IR, the LLVM version, the host CPU and the -O level
  --no-loops           write every step of the evaluation sequence as straight-line code (by
                       default, runs of alike steps, e.g. an array equation's, are loops)

index-reduced models (differential index > 1):
  --reduction R        dummy (default): dummy derivatives, dof states chosen numerically at the
                       consistent initial point and chosen again where their block degrades or a
                       step fails; where no choice can go on, the run falls back to the ODE with
                       invariants and projection (--stats says when and why);
                       invariants: the seeds' ODE in the original unknowns, every hidden
                       constraint [algK] found by row operations on [E | G] kept as an invariant
  --stabilize S        projection (default): project onto the invariants after every step;
                       baumgarte: C'' + 2*eta*omega*C' + omega^2*C = 0 (and the analogous form of
                       other orders); none
  --eta E, --omega W   Baumgarte damping ratio (default 1) and frequency (default 10)
)";

const char *kSweepHelp = R"(usage: eqc sweep [options] model.eq

Compiles the model once and simulates every run of a study through the runtime (one eqc_sim per
run, on every core); writes one HDF5 file: the parameter table, each run's status, message and
statistics, the variables' trajectories on the common output grid (runs x time per variable), their
end values, and summary statistics across the successful runs per variable and time. A failed run
is recorded and the others go on. Interrupted (Ctrl-C), the finished runs stay in FILE.partial.
@MPI@
the runs (the Cartesian product of the blocks below, the last fastest):
  -p NAME=V            a parameter (or a state's start value) held at V for every run
  -p NAME=V1,V2,...    a list of values
  -p NAME=A:STEP:B     a range (B included when on the grid); A:B steps by 1
  -p NAME~DIST(a,b)    a random parameter, one of:
@DISTRIBUTIONS@  --samples N          Monte Carlo samples of the random parameters (drawn jointly)
  --seed S             the random numbers' seed (default 1): the same seed, the same runs
  --lhs                Latin hypercube sampling: each of N equally likely bins of every random
                       parameter once
  --runs FILE.csv      parameter sets: a header of names, one run per row

options:
  -o, --output FILE    the HDF5 file (default: <Model>-sweep.h5)
  -j, --jobs N         worker threads (default: every core)
  --vars a,b,der(x)    the variables recorded (default: all unknowns)
  --final-only         keep only each run's end values (for very large ensembles)
  --quantiles Q,...    the summary's quantile levels (default 0.05,0.5,0.95; linear
                       interpolation between order statistics, as R's and NumPy's default)
  --summary            print the runs' counts and each variable's statistics at the stop time
  --resume             continue the interrupted study in FILE.partial (same model and options)
  --stats              print the runs' throughput to stderr
  --quiet              no progress line
  --method, --linear-solver, --dt, --t-start, --t-end, --interval, --rtol, --atol,
  --max-steps, --reduction, --stabilize, --eta, --omega, --sensitivities, -O0..-O3,
  --no-cache, --no-loops: as for simulate
)";

const char *kReduceHelp = R"(usage: eqc reduce [options] model.eq

Prints the index-reduction derivation of the model: the signature matrix of Pryce's Σ-method with
the offsets c and d, the structural index and the degrees of freedom; Pantelides' differentiations;
the differentiated equations; the hidden constraints [alg1], [alg2], ...; the state vector; the
final ODE (its evaluation sequence) with its invariants and stabilization.

options:
  --format F           text (default) | markdown | latex (a fragment for a document with amsmath)
  --stabilize S        projection (default) | baumgarte | none: as for 'eqc simulate'
  --eta E, --omega W   Baumgarte damping ratio (default 1) and frequency (default 10)
)";

struct Args {
  bool reductionGiven = false, stabilizeGiven = false;
  std::string command, file;
  PipelineOptions pipeline;
  SimulateOptions simulate;
  SweepOptions sweep;
  CompileOptions compile;
  ReportFormat format = ReportFormat::Text;
};

int usageError(const std::string &message) {
  std::cerr << "eqc: error: " << message << "\n" << "Run 'eqc --help' for usage.\n";
  return ExitUsage;
}

bool number(const std::string &flag, const char *text, double &out, std::string &error) {
  char *end = nullptr;
  out = std::strtod(text, &end);
  if (!*text || *end || !std::isfinite(out)) {
    error = flag + " expects a number, got '" + text + "'";
    return false;
  }
  return true;
}

const char *kCompileHelp = R"(usage: eqc compile [options] model.eq

Compiles the model ahead of time with the same code generation as `simulate`: an object file
holding the generated functions and the model's constant function table, and a C header next to
it declaring `const eqc_model *eqc_model_<Model>(void)` (runtime/include/eqc/eqc_model.h). Link
the object with libeqcrt (and -lstdc++ -lm) and run it with eqc_sim_new.

options:
  -o FILE              the output (default: <Model>.o, .s, .ll or lib<Model>.so); the header is
                       FILE's stem + .h
  --emit K             obj (default) | asm | llvm
  --shared             a shared library: the object linked with the static runtime by the system's
                       C compiler ($CC, else cc); it exports only the model's symbols
  --fmu                an FMI 2.0 FMU (default <Model>.fmu): modelDescription.xml and
                       binaries/linux64/<Model>.so with the FMI 2.0 API for Model Exchange and
                       Co-Simulation (the bundled integrator: auto)
  --target TRIPLE      an LLVM target triple, e.g. aarch64-linux-gnu (default: this machine's);
                       with --shared or --fmu for another machine, CC names its C compiler and
                       EQC_RUNTIME_LIBRARY a libeqcrt.a built for it
  --cpu CPU            the CPU the code may assume (default: the target's baseline, x86-64 with
                       SSE2 on x86_64, so that objects, libraries and FMUs run on any machine of
                       the target); native: this machine's CPU and features (as simulate's JIT);
                       or an LLVM CPU name, e.g. x86-64-v2, x86-64-v3, skylake
  -O0 .. -O3           LLVM optimization level (default -O2)
)";

void printHelp(const std::string &command) {
  if (command == "check")
    std::cout << kCheckHelp << kCommonHelp;
  else if (command == "simulate")
    std::cout << kSimulateHelp << kCommonHelp;
  else if (command == "reduce")
    std::cout << kReduceHelp << kCommonHelp;
  else if (command == "sweep") {
    std::string help = kSweepHelp;
    help.replace(help.find("@DISTRIBUTIONS@"), 15, distributionHelp());
    help.replace(help.find("@MPI@"), 5,
                 mpi::available() ? "Under `mpirun -n N` the runs spread over the ranks, each on its -j workers, and rank\n"
                                    "0 writes the file: the same runs, bit for bit.\n"
                                  : "This eqc is built without MPI: under mpirun each rank would run the whole study.\n");
    std::cout << help << kCommonHelp;
  }
  else if (command == "compile")
    std::cout << kCompileHelp << kCommonHelp;
  else
    std::cout << kUsage;
}

/// Appends the non-empty items of a comma-separated list (`--vars a,b`, `--sensitivities p,q`);
/// a comma inside brackets or parentheses belongs to its item (`m[1,2]`).
void appendList(const char *text, std::vector<std::string> &out) {
  std::string item;
  int depth = 0;
  for (const char *p = text;; ++p) {
    if (*p == '\0' || (*p == ',' && depth == 0)) {
      if (!item.empty())
        out.push_back(item);
      item.clear();
      if (*p == '\0')
        return;
      continue;
    }
    depth += (*p == '[' || *p == '(') - (*p == ']' || *p == ')');
    item += *p;
  }
}

/// The options of eqc sweep alone: true when `a` is one (with `error` set when its value is bad).
template <typename Next> bool sweepOption(const std::string &a, Next &next, SweepOptions &opt, std::string &error) {
  const char *v = nullptr;
  auto count = [&](const char *what, double &out) {
    if (!next(v) || !number(a, v, out, error))
      return;
    if (out < 1 || out != std::floor(out) || out > 1e9)
      error = a + " expects a whole number of " + what + " (1 or more), got '" + v + "'";
  };
  double n = 0;
  if (a == "--samples") {
    count("samples", n);
    opt.design.samples = static_cast<long>(n);
  } else if (a == "--seed") {
    if (next(v) && number(a, v, n, error) && (n < 0 || n != std::floor(n) || n > 9e15))
      error = "--seed expects a whole number from 0, got '" + std::string(v) + "'";
    opt.design.seed = static_cast<std::uint64_t>(n);
  } else if (a == "--lhs") {
    opt.design.latinHypercube = true;
  } else if (a == "--runs") {
    if (next(v))
      opt.design.runsFile = v;
  } else if (a == "-j" || a == "--jobs") {
    count("workers", n);
    opt.jobs = static_cast<int>(std::min(n, 4096.0));
  } else if (a == "--final-only") {
    opt.finalOnly = true;
  } else if (a == "--summary") {
    opt.summary = true;
  } else if (a == "--resume") {
    opt.resume = true;
  } else if (a == "--quantiles") {
    if (!next(v))
      return true;
    opt.quantiles.clear();
    std::stringstream ss(v);
    std::string item;
    while (error.empty() && std::getline(ss, item, ',')) {
      double q;
      if (number(a, item.c_str(), q, error) && !(q > 0 && q < 1))
        error = "--quantiles: " + item + " is not in (0, 1)";
      opt.quantiles.push_back(q);
    }
  } else {
    return false;
  }
  return true;
}

/// Parses argv; returns -1 to continue, else an exit code.
int parseArgs(int argc, char **argv, Args &args) {
  if (argc < 2)
    return usageError("no command given");
  args.command = argv[1];
  if (args.command == "--help" || args.command == "-h") {
    std::cout << kUsage;
    return ExitOk;
  }
  if (args.command == "--version") {
    std::cout << kVersion << "\n";
    return ExitOk;
  }
  if (args.command == "help") {
    printHelp(argc > 2 ? argv[2] : "");
    return ExitOk;
  }
  if (args.command != "check" && args.command != "simulate" && args.command != "reduce" &&
      args.command != "compile" && args.command != "sweep")
    return usageError("unknown command '" + args.command + "'");
  bool sw = args.command == "sweep";
  bool sim = args.command == "simulate" || sw; // sweep takes simulate's options of a run
  bool simOnly = args.command == "simulate";
  bool comp = args.command == "compile";
  bool red = args.command == "reduce";
  bool noCache = false;
  std::string error;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    std::string value;
    bool hasInline = false;
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      hasInline = true;
    }
    auto next = [&](const char *&out) {
      if (hasInline) {
        out = argv[i] + (std::strchr(argv[i], '=') - argv[i]) + 1;
        return true;
      }
      if (i + 1 >= argc) {
        error = a + " needs a value";
        return false;
      }
      out = argv[++i];
      return true;
    };
    const char *v = nullptr;
    auto num = [&](double &out) { return next(v) && number(a, v, out, error); };
    if (a == "-h" || a == "--help") {
      printHelp(args.command);
      return ExitOk;
    } else if (a == "--model") {
      if (!next(v))
        break;
      args.pipeline.modelName = v;
    } else if (a == "--lib") {
      if (!next(v))
        break;
      args.pipeline.libraries.push_back(v);
    } else if (a == "--dump-after") {
      if (!next(v))
        break;
      args.pipeline.dumpAfter = v;
      bool known = false;
      for (const std::string &p : passNames())
        known = known || p == v;
      if (!known) {
        error = std::string("unknown pass '") + v + "' (known: flatten, reduce, causalize, codegen, optimize)";
        break;
      }
    } else if (a == "--time-passes") {
      args.pipeline.timePasses = true;
    } else if (comp && (a == "-o" || a == "--output")) {
      if (!next(v))
        break;
      args.compile.output = v;
    } else if (comp && a == "--emit") {
      if (!next(v))
        break;
      args.compile.emit = v;
    } else if (comp && a == "--shared") {
      args.compile.shared = true;
    } else if (comp && a == "--fmu") {
      args.compile.fmu = true;
    } else if (comp && a == "--target") {
      if (!next(v))
        break;
      args.compile.target = v;
    } else if (comp && a == "--cpu") {
      if (!next(v))
        break;
      args.compile.cpu = v;
    } else if (sim && (a == "-o" || a == "--output")) {
      if (!next(v))
        break;
      args.simulate.output = v;
    } else if (sim && a == "--method") {
      if (!next(v))
        break;
      args.simulate.method = v;
    } else if (sim && a == "--linear-solver") {
      if (!next(v))
        break;
      args.simulate.linearSolver = v;
    } else if (sim && a == "--dt") {
      if (!num(args.simulate.dt))
        break;
    } else if (sim && a == "--t-start") {
      if (!num(args.simulate.tStart))
        break;
    } else if (sim && (a == "--t-end" || a == "--stop-time")) {
      if (!num(args.simulate.tEnd))
        break;
    } else if (sim && a == "--interval") {
      if (!num(args.simulate.interval))
        break;
    } else if (sim && a == "--rtol") {
      if (!num(args.simulate.rtol))
        break;
    } else if (sim && a == "--atol") {
      if (!num(args.simulate.atol))
        break;
    } else if (sim && a == "--max-steps") {
      double n;
      if (!num(n))
        break;
      if (n < 1) {
        error = "--max-steps must be at least 1";
        break;
      }
      args.simulate.maxSteps = static_cast<long>(n);
    } else if (sim && a == "--vars") {
      if (!next(v))
        break;
      appendList(v, args.simulate.vars);
    } else if (sim && a.rfind("-p", 0) == 0) {
      std::string assignment = a.size() > 2 ? a.substr(2) : "";
      if (assignment.empty()) {
        if (!next(v))
          break;
        assignment = v;
      }
      if (sw) {
        Factor factor;
        if (!parseFactor(assignment, factor, error))
          break;
        args.sweep.design.factors.push_back(std::move(factor));
        continue;
      }
      size_t eq = assignment.find('=');
      if (eq == std::string::npos || eq == 0) {
        error = "-p expects NAME=VALUE, got '" + assignment + "'";
        break;
      }
      args.simulate.parameters.emplace_back(assignment.substr(0, eq), assignment.substr(eq + 1));
    } else if (sim && a == "--reduction") {
      if (!next(v))
        break;
      if (std::string(v) != "invariants" && std::string(v) != "dummy") {
        error = std::string("unknown reduction '") + v + "' (known: dummy, invariants)";
        break;
      }
      args.pipeline.reductionForm = v;
      args.reductionGiven = true;
    } else if (red && a == "--format") {
      if (!next(v))
        break;
      if (!parseReportFormat(v, args.format)) {
        error = std::string("unknown format '") + v + "' (known: text, markdown, latex)";
        break;
      }
    } else if ((sim || red) && a == "--stabilize") {
      if (!next(v))
        break;
      args.stabilizeGiven = true;
      args.pipeline.stabilizationGiven = true;
      std::string s = v;
      if (s == "none")
        args.pipeline.reduction.stabilization = Stabilization::None;
      else if (s == "projection" || s == "project")
        args.pipeline.reduction.stabilization = Stabilization::Projection;
      else if (s == "baumgarte")
        args.pipeline.reduction.stabilization = Stabilization::Baumgarte;
      else {
        error = "unknown stabilization '" + s + "' (known: none, projection, baumgarte)";
        break;
      }
    } else if ((sim || red) && a == "--eta") {
      if (!num(args.pipeline.reduction.eta))
        break;
      args.pipeline.etaGiven = true;
    } else if ((sim || red) && a == "--omega") {
      if (!num(args.pipeline.reduction.omega))
        break;
      args.pipeline.omegaGiven = true;
    } else if (simOnly && a == "--input") {
      if (!next(v))
        break;
      args.simulate.input = v;
    } else if (simOnly && a == "--plot") {
      if (!next(v))
        break;
      args.simulate.plot = v;
    } else if (simOnly && a == "--every") {
      double n;
      if (!num(n))
        break;
      if (n < 1 || n != std::floor(n)) {
        error = "--every expects a positive whole number";
        break;
      }
      args.simulate.every = static_cast<long>(n);
    } else if (simOnly && a == "--binary") {
      args.simulate.binary = true;
    } else if (sw && sweepOption(a, next, args.sweep, error)) {
      if (!error.empty())
        break;
    } else if (sim && a == "--sensitivities") {
      if (!next(v))
        break;
      appendList(v, args.pipeline.sensitivities);
    } else if (sim && a == "--quiet") {
      args.simulate.quiet = true;
    } else if (sim && a == "--no-cache") {
      noCache = true;
    } else if (sim && a == "--no-loops") {
      args.pipeline.loops = false;
    } else if (sim && a == "--stats") {
      args.simulate.stats = true;
    } else if ((sim || comp) && a.size() == 3 && a.rfind("-O", 0) == 0 && a[2] >= '0' && a[2] <= '3') {
      args.pipeline.optLevel = a[2] - '0';
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      error = "unknown option '" + a + "' for '" + args.command + "'";
      break;
    } else if (args.file.empty()) {
      args.file = a;
    } else {
      error = "more than one model file given ('" + args.file + "' and '" + a + "')";
      break;
    }
  }
  args.pipeline.cache = sim && !noCache;
  args.pipeline.externalCache = !noCache;
  // --stabilize is about the invariants form; alone it selects that form.
  if (args.stabilizeGiven && !args.reductionGiven)
    args.pipeline.reductionForm = "invariants";
  if (args.stabilizeGiven && args.pipeline.reductionForm == "dummy")
    error = "--stabilize applies to --reduction invariants (dummy derivatives keep the constraints exactly)";
  if (!error.empty())
    return usageError(error);
  if (args.file.empty())
    return usageError("no model file given");
  return -1;
}

} // namespace

namespace {

int run(int argc, char **argv) {
  Args args;
  int early = parseArgs(argc, argv, args);
  if (early >= 0)
    return early;
  bool sim = args.command == "simulate" || args.command == "sweep";
  // reduce compiles too: the dummy-derivative selection needs the consistent initial point.
  // compile too: the function table holds the consistent initial point.
  args.pipeline.jit = sim || args.command == "reduce" || args.command == "compile";
  args.pipeline.sigmaMethod = args.command == "reduce";
  args.pipeline.rowReport = args.command == "reduce";
  if (args.command == "compile")
    if (ExitCode bad = checkCompileOptions(args.compile, std::cerr); bad != ExitOk)
      return bad;
  // eqc sweep under mpirun: rank 0 compiles first (into the compiled-model cache, which the other
  // ranks then read) and reports; the other ranks report nothing rank 0 reports too.
  int rank = 0, ranks = 1;
  if (args.command == "sweep")
    mpi::start(rank, ranks);
  std::ostringstream quiet;
  std::ostream &err = rank == 0 ? std::cerr : quiet;
  if (rank != 0)
    mpi::maxOf(0);
  Compilation c;
  ExitCode code = runPipeline(args.file, args.pipeline, c, err);
  if (rank == 0 && ranks > 1)
    mpi::maxOf(0);
  if (ranks > 1 && mpi::maxOf(code) != ExitOk) {
    mpi::stop();
    return code != ExitOk ? code : ExitModel;
  }
  if (code == ExitOk && args.command == "reduce" && args.pipeline.dumpAfter.empty()) {
    if (c.reduced->differentiated()) {
      const Experiment &ex = c.flat->experiment;
      computeInitialSelection(c, ex.hasStartTime ? ex.startTime : 0.0, std::cerr);
    }
    code = printReductionReport(c, args.format, std::cout);
  }
  if (code == ExitOk && args.command == "check" && args.pipeline.dumpAfter.empty()) {
    c.flat->print(std::cout);
    std::cout << "\n";
    if (c.rowForm) {
      printRowReduction(std::cout, *c.flat, *c.rows);
      std::cout << "// (eqc reduce shows the derivation; this is the ODE with invariants)\n";
    } else if (c.reduced->differentiated()) {
      printReduction(std::cout, *c.flat, *c.reduced);
      std::cout << "// (eqc reduce shows the derivation; this is the ODE with invariants)\n";
    }
    c.model->ode.print(std::cout, *c.flat, c.model->simulation);
    if (!c.flat->initialEquations.empty())
      c.model->init.print(std::cout, *c.flat, c.model->initialization);
  }
  if (code == ExitOk && args.command == "compile" && args.pipeline.dumpAfter.empty()) {
    args.compile.optLevel = args.pipeline.optLevel < 0 ? 2 : args.pipeline.optLevel;
    code = compileModel(c, args.compile, std::cerr);
  }
  if (code == ExitOk && args.command == "sweep") {
    if (args.simulate.output.empty())
      args.simulate.output = c.flat->modelName + "-sweep.h5";
    code = sweep(c, args.simulate, args.sweep, std::cout, err);
    mpi::stop();
  }
  if (code == ExitOk && args.command == "simulate") {
    if (args.simulate.output.empty())
      args.simulate.output = c.flat->modelName + (args.simulate.binary ? ".eqcres" : ".csv");
    const std::string &o = args.simulate.output;
    if (o.size() > 7 && o.compare(o.size() - 7, 7, ".eqcres") == 0)
      args.simulate.binary = true;
    code = simulate(c, args.simulate, std::cerr);
  }
  if (args.pipeline.timePasses)
    for (auto &[phase, secs] : c.timings)
      std::cerr << "time " << phase << ": " << formatNumber(std::round(secs * 1e6) / 1e3) << " ms\n";
  // An optimized tier may still be compiling when the run is over (backend/Jit.h). Nobody waits
  // for it: the run did not need it (a run long enough to profit has it in use, and stored in the
  // compiled-model cache, by then); the -O0 code is in the cache already. Everything is written
  // by now (result files are renamed into place before simulate returns, cache entries are
  // renamed into place whole), so the process ends here.
  if (c.tierPending()) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}

} // namespace

/// The compiler's passes recurse on the nesting depth of expressions (and the parser's tree is as
/// deep as a long sum is long), so eqc runs on a thread with a large stack: 1 GiB of address space,
/// of which only what a model needs is ever touched. Beyond that, the parser's depth limit
/// (frontend/Parser.cpp) reports the expression instead of overflowing.
int main(int argc, char **argv) {
  // Out of memory is a limit of the machine, not a bug: say so and exit with its own status, from
  // C++ allocations and from LLVM's. Nothing is written half: result files are renamed into place
  // only when whole.
  static auto outOfMemory = []() {
    static const char message[] =
        "eqc: error: out of memory: the model needs more memory than is available (eqc check reports its size)\n";
    (void)!::write(2, message, sizeof message - 1);
    std::_Exit(eqc::ExitMemory);
  };
  std::set_new_handler(outOfMemory);
  eqc::setLlvmOutOfMemoryHandler(outOfMemory);
  struct Call {
    int argc;
    char **argv;
    int result;
  } call{argc, argv, ExitInternal};
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, kStackBytes) == 0 &&
      pthread_create(&thread, &attr,
                     [](void *p) -> void * {
                       auto *c = static_cast<Call *>(p);
                       c->result = run(c->argc, c->argv);
                       return nullptr;
                     },
                     &call) == 0) {
    pthread_attr_destroy(&attr);
    pthread_join(thread, nullptr);
    return call.result;
  }
  return run(argc, argv); // no thread: the process's own stack
}

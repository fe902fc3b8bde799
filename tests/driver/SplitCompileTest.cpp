// A large model's simulation functions written as several modules and compiled on several threads
// (backend/SplitCompile.h) compute bitwise what the one-module compilation computes: entry points
// dealt over the modules, helpers (user functions, nonlinear blocks) copied into each module that
// calls them, the parts of the invariants, events and assertions; and the modules are cached.
#include "backend/Jit.h"
#include "backend/Codegen.h"
#include "driver/ModelTable.h"
#include "middle/JacobianPattern.h"
#include "Shell.h"
#include "tests/TestModels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

using namespace eqc;

namespace {

std::string pendula(int n) { return test::pendulaModel(n); }

/// n cells, each with a nonlinear block and a user function, plus an event and an assertion.
std::string cells(int n) {
  std::ostringstream s;
  s << "model Cells\n  parameter Integer n = " << n << ";\n  parameter Real r = 0.2;\n"
    << "  function soft\n    input Real u;\n    output Real y;\n  algorithm\n    y := u / (1 + abs(u));\n"
    << "  end soft;\n  Real x[n](each start = 0.5, each fixed = true), z[n];\n"
    << "  discrete Integer hits(start = 0);\nequation\n  for i in 1:n loop\n"
    << "    z[i] + r*sin(z[i]) = x[i];\n    der(x[i]) = -soft(z[i]) + 0.01*i/n;\n  end for;\n"
    << "  when x[1] < 0.25 then\n    hits = pre(hits) + 1;\n  end when;\n"
    << "  assert(x[n] < 10, \"x[n] stays bounded\");\nend Cells;\n";
  return s.str();
}

struct Compiled {
  Compilation c;
  std::ostringstream err;
  std::unique_ptr<ModelTable> table;

  Compiled(const std::string &name, const std::string &text) {
    const std::string path = std::string(EQC_SCRATCH_DIR) + "/" + name + ".eq";
    std::filesystem::create_directories(EQC_SCRATCH_DIR);
    std::ofstream(path) << text;
    PipelineOptions options;
    options.optLevel = 0;
    if (runPipeline(path, options, c, err) == ExitOk)
      table = ModelTable::build(c, 0.0, err);
  }

  std::unique_ptr<JitModel> compile(int optLevel, unsigned threads, const std::string &cache = "") {
    BackendOptions options;
    options.optLevel = optLevel;
    options.threads = threads;
    options.cacheDirectory = cache;
    // Straight-line code: these models' arrays would otherwise be loops too small to split
    // (tests/backend/LoopsTest.cpp); models without such regularity split as these do.
    options.loops = false;
    std::string error;
    auto jit = jitCompile(*c.flat, *c.model, options, error);
    EXPECT_TRUE(jit) << error;
    return jit;
  }
};

/// Everything the simulation functions write at one random point, as bits.
std::vector<double> outputs(JitModel &jit, const eqc_model &m, const OdeModel &model, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-0.9, 0.9);
  std::vector<double> x(static_cast<size_t>(m.n_states)), p(static_cast<size_t>(m.n_p), 0.0);
  for (double &v : x)
    v = u(gen);
  std::copy(m.param_defaults, m.param_defaults + m.n_params, p.begin());
  std::vector<double> dx(x.size()), a(static_cast<size_t>(m.n_algebraics) + 1);
  std::vector<double> out;
  EXPECT_EQ(jit.rhs(0.25, x.data(), dx.data(), a.data(), p.data()), 0);
  out.insert(out.end(), dx.begin(), dx.end());
  out.insert(out.end(), a.begin(), a.end());
  if (m.n_invariants > 0) {
    std::vector<double> g(static_cast<size_t>(m.n_invariants)), h(static_cast<size_t>(m.n_initial_constraints));
    EXPECT_EQ(jit.invariants(0.25, x.data(), p.data(), g.data()), 0);
    EXPECT_EQ(jit.initialConstraints(0.25, x.data(), p.data(), h.data()), 0);
    out.insert(out.end(), g.begin(), g.end());
    out.insert(out.end(), h.begin(), h.end());
    // The constraint Jacobians (compiled on first use, split like the simulation functions).
    std::vector<double> gx(constraintJacobianPattern(model, model.invariants.residuals).nnz());
    std::vector<double> hx(constraintJacobianPattern(model, model.initialConstraints.residuals).nnz());
    eqc_model_invjac_fn gJac = jit.invariantJacobian(), hJac = jit.initialConstraintJacobian();
    EXPECT_TRUE(gJac && hJac);
    if (!gJac || !hJac)
      return {};
    EXPECT_EQ(gJac(0.25, x.data(), p.data(), gx.data()), 0);
    EXPECT_EQ(hJac(0.25, x.data(), p.data(), hx.data()), 0);
    out.insert(out.end(), gx.begin(), gx.end());
    out.insert(out.end(), hx.begin(), hx.end());
  }
  if (m.n_indicators > 0) {
    std::vector<double> z(static_cast<size_t>(m.n_indicators));
    EXPECT_EQ(jit.zc(0.25, x.data(), dx.data(), a.data(), p.data(), z.data()), 0);
    out.insert(out.end(), z.begin(), z.end());
  }
  return out;
}

bool sameBits(const std::vector<double> &a, const std::vector<double> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

void expectSplitComputesTheSame(Compiled &m) {
  ASSERT_TRUE(m.table) << m.err.str();
  const eqc_model &table = m.table->model();
  std::unique_ptr<JitModel> one = m.compile(0, 1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->modules(), 1u);
  const std::vector<double> reference = outputs(*one, table, *m.c.model, 11);
  ASSERT_GT(reference.size(), 0u);
  for (int level : {0, 2}) {
    std::unique_ptr<JitModel> many = m.compile(level, 3);
    ASSERT_TRUE(many);
    EXPECT_GT(many->modules(), 1u) << "the model is large enough to be split";
    EXPECT_EQ(many->threads(), 3u);
    EXPECT_TRUE(sameBits(outputs(*many, table, *m.c.model, 11), reference)) << "-O" << level;
  }
}

TEST(SplitCompile, IndexThreePendulaComputeTheSameBitsInOneModuleAndInMany) {
  Compiled m("split_pendula", pendula(600));
  ASSERT_TRUE(m.table) << m.err.str();
  EXPECT_GE(m.table->model().n_invariants, 1200); // at least length and its rate per pendulum
  ASSERT_GT(modulesFor(constraintJacobianItems(*modelRuns(*m.c.flat, *m.c.model, false)), 3), 1u)
      << "the constraint Jacobians split too";
  ASSERT_NO_FATAL_FAILURE(expectSplitComputesTheSame(m));
}

TEST(SplitCompile, HelpersEventsAndAssertionsAreTheSameInEveryModule) {
  Compiled m("split_cells", cells(1200));
  ASSERT_NO_FATAL_FAILURE(expectSplitComputesTheSame(m));
  EXPECT_GT(m.table->model().n_indicators, 0);
  // The assertion's check, defined in one module, runs and holds.
  const std::string dir = std::string(EQC_SCRATCH_DIR) + "/split_cells_run";
  std::filesystem::create_directories(dir);
  int status = 0;
  const std::string out = run(std::string(EQC_BINARY) + " simulate " + EQC_SCRATCH_DIR +
                                  "/split_cells.eq --t-end 2 --no-cache --stats -o " + dir + "/out.csv",
                              status);
  ASSERT_EQ(status, 0) << out;
  if (std::thread::hardware_concurrency() >= 2) { // eqc simulate splits on every hardware thread
    EXPECT_NE(out.find(" modules compiled on "), std::string::npos) << out;
  }
}

TEST(SplitCompile, EveryModuleIsCachedAndTakenFromTheCacheNextTime) {
  Compiled m("split_cached", pendula(400));
  ASSERT_TRUE(m.table) << m.err.str();
  const std::string cache = std::string(EQC_SCRATCH_DIR) + "/split-cache";
  std::filesystem::remove_all(cache);
  std::vector<double> cold, warm;
  {
    std::unique_ptr<JitModel> first = m.compile(0, 2, cache);
    ASSERT_TRUE(first);
    ASSERT_GT(first->modules(), 1u);
    EXPECT_EQ(first->cacheHits(), 0);
    EXPECT_EQ(first->cacheStores(), static_cast<int>(first->modules()));
    cold = outputs(*first, m.table->model(), *m.c.model, 5);
  }
  std::unique_ptr<JitModel> second = m.compile(0, 2, cache);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->cacheHits(), static_cast<int>(second->modules()));
  EXPECT_EQ(second->cacheStores(), 0);
  warm = outputs(*second, m.table->model(), *m.c.model, 5);
  EXPECT_TRUE(sameBits(cold, warm));
  std::filesystem::remove_all(cache);
}

} // namespace

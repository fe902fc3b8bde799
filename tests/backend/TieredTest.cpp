// Two-tier compilation (backend/Jit.h): the -O0 tier is there at once, the -O2 tier replaces it
// when ready, and both compute bitwise the same right-hand side.
#include "backend/Jit.h"
#include "frontend/Flatten.h"
#include "frontend/Parser.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>
#include <sstream>
#include <thread>

namespace eqc {
namespace {

/// A chain of n nonlinear oscillators: 2n states.
std::string chain(int n) {
  std::ostringstream s;
  s << "model Chain\n  parameter Integer n = " << n << ";\n  parameter Real k = 4, c = 0.1;\n"
    << "  Real x[n](each start = 0.1, each fixed = true), v[n](each start = 0, each fixed = true);\n"
    << "equation\n  for i in 1:n loop\n    der(x[i]) = v[i];\n  end for;\n"
    << "  der(v[1]) = -k*(2*x[1] - x[2]) - c*v[1] + sin(x[1])*exp(-x[1]^2);\n"
    << "  for i in 2:n-1 loop\n"
    << "    der(v[i]) = -k*(2*x[i] - x[i-1] - x[i+1]) - c*v[i] + sin(x[i])*exp(-x[i]^2);\n  end for;\n"
    << "  der(v[n]) = -k*(2*x[n] - x[n-1]) - c*v[n] + sin(x[n])*exp(-x[n]^2);\nend Chain;\n";
  return s.str();
}

struct Model {
  SourceManager sources;
  std::ostringstream messages;
  std::unique_ptr<Diagnostics> diags;
  std::optional<FlatSystem> flat;
  std::optional<OdeModel> model;

  explicit Model(const std::string &text) {
    diags = std::make_unique<Diagnostics>(sources, &messages);
    auto file = parseBuffer(sources, sources.addBuffer("chain.eq", text), *diags);
    if (file)
      flat = flattenModel(*file, "", *diags);
    if (flat)
      model = buildOdeModel(*flat, *diags);
    if (!model || diags->hasErrors() || !causalizeOdeModel(*flat, *model, *diags))
      model.reset();
  }
  std::unique_ptr<JitModel> compile(int optLevel, const std::string &cache = "") {
    BackendOptions options;
    options.optLevel = optLevel;
    options.cacheDirectory = cache;
    std::string error;
    auto jit = jitCompile(*flat, *model, options, error);
    EXPECT_TRUE(jit) << error;
    return jit;
  }
};

std::vector<double> rhsAt(eqc_model_rhs_fn rhs, const OdeModel &m, const std::vector<double> &x,
                          const std::vector<double> &p) {
  std::vector<double> dx(x.size()), a(m.algebraics.size() + 1);
  EXPECT_EQ(rhs(0.5, x.data(), dx.data(), a.data(), p.data()), 0);
  return dx;
}

TEST(Tiered, ModelRunsAtOnceAndSwitchesToTheOptimizedCodeWithTheSameNumbers) {
  if (std::thread::hardware_concurrency() < 2)
    GTEST_SKIP() << "two tiers need a second hardware thread";
  Model m(chain(1500));
  ASSERT_TRUE(m.model) << m.messages.str();
  std::vector<double> x(m.model->states.size()), p(m.model->pSize(), 0.0);
  ASSERT_EQ(x.size(), 3000u);
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double &v : x)
    v = u(gen);
  for (size_t i = 0; i < m.model->params.size(); ++i)
    p[i] = m.flat->vars[m.model->params[i]].name == "k" ? 4 : m.flat->vars[m.model->params[i]].name == "c" ? 0.1 : 1500;

  std::unique_ptr<JitModel> automatic = m.compile(-1);
  ASSERT_TRUE(automatic);
  ASSERT_TRUE(automatic->tiered());
  eqc_model_rhs_fn first = automatic->rhs;
  std::vector<double> dxFirst = rhsAt(first, *m.model, x, p);
  // The optimized tier starts when asked (eqc simulate asks once a run has lasted as long as the
  // first tier took); wait for it (it compiles in well under a second here; a minute is a hang).
  EXPECT_FALSE(automatic->tierStarted());
  automatic->startTier();
  EXPECT_TRUE(automatic->tierStarted());
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (automatic->tierSeconds() < 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_GE(automatic->tierSeconds(), 0) << "the optimized tier did not finish";
  EXPECT_EQ(automatic->tierError(), "");
  eqc_model_rhs_fn second = automatic->rhs;
  EXPECT_NE(first, second);
  std::vector<double> dxSecond = rhsAt(second, *m.model, x, p);
  // Bitwise: the tiers differ in speed only.
  EXPECT_EQ(0, std::memcmp(dxFirst.data(), dxSecond.data(), dxFirst.size() * sizeof(double)));
  // And both equal the code compiled at -O2 directly (not tiered, as asked).
  std::unique_ptr<JitModel> o2 = m.compile(2);
  ASSERT_TRUE(o2);
  EXPECT_FALSE(o2->tiered());
  std::vector<double> dxO2 = rhsAt(o2->rhs, *m.model, x, p);
  EXPECT_EQ(0, std::memcmp(dxFirst.data(), dxO2.data(), dxFirst.size() * sizeof(double)));
  // Destroying a JitModel whose tier is still compiling waits for it (no use after free).
  std::unique_ptr<JitModel> abandoned = m.compile(-1);
  ASSERT_TRUE(abandoned);
  abandoned.reset();
}

TEST(Tiered, TheOptimizedTierIsCachedAndTheNextCompilationStartsWithIt) {
  if (std::thread::hardware_concurrency() < 2)
    GTEST_SKIP() << "two tiers need a second hardware thread";
  std::string cache = std::string(::testing::TempDir()) + "eqc-tiered-cache";
  std::filesystem::remove_all(cache);
  Model m(chain(1500));
  ASSERT_TRUE(m.model) << m.messages.str();
  {
    std::unique_ptr<JitModel> first = m.compile(-1, cache);
    ASSERT_TRUE(first);
    EXPECT_TRUE(first->tiered());
    EXPECT_EQ(first->cacheHits(), 0);
    first->waitForTier(); // starts the optimized tier and waits for it: it stores its code
  }
  std::unique_ptr<JitModel> second = m.compile(-1, cache);
  ASSERT_TRUE(second);
  EXPECT_FALSE(second->tiered()) << "the cached -O2 code is in use at once";
  // Nothing compiled: the -O2 object, and a split model's first-tier modules (keyed by their own
  // digests, which key the whole), all from the cache.
  EXPECT_EQ(second->cacheStores(), 0);
  EXPECT_EQ(second->cacheHits(), second->modules() > 1 ? static_cast<int>(second->modules()) + 1 : 1);
  std::vector<double> x(m.model->states.size(), 0.25), p(m.model->pSize(), 1.0);
  std::vector<double> cached = rhsAt(second->rhs, *m.model, x, p);
  std::unique_ptr<JitModel> fresh = m.compile(2);
  std::vector<double> compiled = rhsAt(fresh->rhs, *m.model, x, p);
  EXPECT_EQ(0, std::memcmp(cached.data(), compiled.data(), cached.size() * sizeof(double)));
  std::filesystem::remove_all(cache);
}

TEST(Tiered, AnExplicitLevelIsCompiledOnceAndASmallModelIsTieredToo) {
  Model m(chain(10));
  ASSERT_TRUE(m.model) << m.messages.str();
  for (int level : {0, 1, 2, 3}) {
    std::unique_ptr<JitModel> jit = m.compile(level);
    ASSERT_TRUE(jit);
    EXPECT_FALSE(jit->tiered()) << level;
  }
  if (std::thread::hardware_concurrency() >= 2) {
    std::unique_ptr<JitModel> automatic = m.compile(-1);
    ASSERT_TRUE(automatic);
    EXPECT_TRUE(automatic->tiered());
  }
}

} // namespace
} // namespace eqc

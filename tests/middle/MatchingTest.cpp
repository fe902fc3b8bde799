// Tests of Hopcroft–Karp matching, the Dulmage–Mendelsohn singular parts and BLT sorting, against
// brute-force references on small random graphs and on 10^5-long chains.
#include "middle/Matching.h"
#include "middle/Blt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <set>
#include <vector>

namespace eqc {
namespace {

BipartiteGraph makeGraph(int rows, int cols, std::vector<std::vector<int>> adj) {
  BipartiteGraph g;
  g.rows = rows;
  g.cols = cols;
  g.adj = std::move(adj);
  return g;
}

BipartiteGraph randomGraph(std::mt19937 &rng, int rows, int cols, double density) {
  BipartiteGraph g = makeGraph(rows, cols, std::vector<std::vector<int>>(rows));
  std::bernoulli_distribution edge(density);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c)
      if (edge(rng))
        g.adj[r].push_back(c);
    std::shuffle(g.adj[r].begin(), g.adj[r].end(), rng); // the order must not matter
  }
  return g;
}

/// Maximum matching size by exhaustive search over the sets of used columns (cols <= ~16).
int bruteForceMatchingSize(const BipartiteGraph &g) {
  std::set<unsigned> reachable{0};
  for (int r = 0; r < g.rows; ++r) {
    std::set<unsigned> next = reachable;
    for (unsigned used : reachable)
      for (int c : g.adj[r])
        if (!(used & (1u << c)))
          next.insert(used | (1u << c));
    reachable = std::move(next);
  }
  int best = 0;
  for (unsigned used : reachable)
    best = std::max(best, __builtin_popcount(used));
  return best;
}

/// Checks that `m` is a matching of `g` whose two directions agree and whose size is right.
void expectConsistent(const BipartiteGraph &g, const Matching &m) {
  ASSERT_EQ(m.rowToCol.size(), static_cast<size_t>(g.rows));
  ASSERT_EQ(m.colToRow.size(), static_cast<size_t>(g.cols));
  int matchedRows = 0, matchedCols = 0;
  for (int r = 0; r < g.rows; ++r) {
    int c = m.rowToCol[r];
    if (c < 0)
      continue;
    ++matchedRows;
    ASSERT_LT(c, g.cols);
    EXPECT_EQ(m.colToRow[c], r) << "row " << r;
    EXPECT_NE(std::find(g.adj[r].begin(), g.adj[r].end(), c), g.adj[r].end())
        << "row " << r << " is matched to column " << c << ", which it does not use";
  }
  for (int c = 0; c < g.cols; ++c) {
    int r = m.colToRow[c];
    if (r < 0)
      continue;
    ++matchedCols;
    ASSERT_LT(r, g.rows);
    EXPECT_EQ(m.rowToCol[r], c) << "column " << c;
  }
  EXPECT_EQ(matchedRows, m.size);
  EXPECT_EQ(matchedCols, m.size);
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ---- maximumMatching ----

TEST(MatchingTest, EmptyGraph) {
  Matching m = maximumMatching(makeGraph(0, 0, {}));
  EXPECT_EQ(m.size, 0);
  Matching isolated = maximumMatching(makeGraph(2, 3, {{}, {}}));
  EXPECT_EQ(isolated.size, 0);
  EXPECT_EQ(isolated.rowToCol, (std::vector<int>{-1, -1}));
  EXPECT_EQ(isolated.colToRow, (std::vector<int>{-1, -1, -1}));
}

TEST(MatchingTest, AugmentsPastAGreedyChoice) {
  // Greedy gives row 0 column 0; the maximum needs row 0 on column 1.
  BipartiteGraph g = makeGraph(2, 2, {{0, 1}, {0}});
  Matching m = maximumMatching(g);
  EXPECT_EQ(m.size, 2);
  EXPECT_EQ(m.rowToCol, (std::vector<int>{1, 0}));
  expectConsistent(g, m);
}

TEST(MatchingTest, RandomGraphsMatchTheBruteForceMaximum) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 600; ++trial) {
    int rows = std::uniform_int_distribution<int>(0, 12)(rng);
    int cols = std::uniform_int_distribution<int>(0, 12)(rng);
    double density = std::uniform_real_distribution<double>(0.05, 0.5)(rng);
    BipartiteGraph g = randomGraph(rng, rows, cols, density);
    Matching m = maximumMatching(g);
    SCOPED_TRACE("trial " + std::to_string(trial));
    expectConsistent(g, m);
    ASSERT_EQ(m.size, bruteForceMatchingSize(g)) << rows << "x" << cols << " density " << density;
  }
}

TEST(MatchingTest, LongChainMatchesPerfectlyThroughOneLongAugmentingPath) {
  // Row i uses columns i+1 and i (in that order, so the greedy start takes i+1); the last row uses
  // only column n-1, so the only perfect matching is the diagonal, reached by a path of length n.
  const int n = 100000;
  BipartiteGraph g = makeGraph(n, n, std::vector<std::vector<int>>(n));
  for (int i = 0; i + 1 < n; ++i)
    g.adj[i] = {i + 1, i};
  g.adj[n - 1] = {n - 1};
  auto start = std::chrono::steady_clock::now();
  Matching m = maximumMatching(g);
  EXPECT_LT(secondsSince(start), 2.0);
  ASSERT_EQ(m.size, n);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(m.rowToCol[i], i) << "row " << i;
  expectConsistent(g, m);
}

TEST(MatchingTest, LongChainInGreedyOrderMatchesPerfectly) {
  const int n = 100000;
  BipartiteGraph g = makeGraph(n, n, std::vector<std::vector<int>>(n));
  for (int i = 0; i + 1 < n; ++i)
    g.adj[i] = {i, i + 1};
  g.adj[n - 1] = {n - 1};
  Matching m = maximumMatching(g);
  ASSERT_EQ(m.size, n);
  expectConsistent(g, m);
}

// ---- singularParts ----

TEST(SingularPartsTest, OverAndUnderDeterminedParts) {
  // Rows 0 and 1 both use only column 0 (over-determined); row 2 has columns 1 and 2 to
  // itself (under-determined).
  BipartiteGraph g = makeGraph(3, 3, {{0}, {0}, {1, 2}});
  Matching m = maximumMatching(g);
  ASSERT_EQ(m.size, 2);
  SingularParts parts = singularParts(g, m);
  EXPECT_EQ(parts.overRows, (std::vector<int>{0, 1}));
  EXPECT_EQ(parts.overCols, (std::vector<int>{0}));
  EXPECT_EQ(parts.underRows, (std::vector<int>{2}));
  EXPECT_EQ(parts.underCols, (std::vector<int>{1, 2}));
}

TEST(SingularPartsTest, PartsFollowAlternatingPaths) {
  // Three rows compete for columns {0, 1}, linked by alternating paths through row 1; row 3 has
  // column 2 to itself, and column 3 appears in no row.
  BipartiteGraph g = makeGraph(4, 4, {{0}, {0, 1}, {1}, {2}});
  Matching m = maximumMatching(g);
  ASSERT_EQ(m.size, 3);
  SingularParts parts = singularParts(g, m);
  EXPECT_EQ(parts.overRows, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parts.overCols, (std::vector<int>{0, 1}));
  EXPECT_TRUE(parts.underRows.empty());
  EXPECT_EQ(parts.underCols, (std::vector<int>{3}));
}

TEST(SingularPartsTest, PerfectMatchingHasNoSingularParts) {
  BipartiteGraph g = makeGraph(3, 3, {{0, 1}, {1, 2}, {2}});
  Matching m = maximumMatching(g);
  ASSERT_EQ(m.size, 3);
  SingularParts parts = singularParts(g, m);
  EXPECT_TRUE(parts.overRows.empty());
  EXPECT_TRUE(parts.overCols.empty());
  EXPECT_TRUE(parts.underRows.empty());
  EXPECT_TRUE(parts.underCols.empty());
}

TEST(SingularPartsTest, RandomGraphsPartsAreClosedUnderAlternatingSteps) {
  // Every row of the over-determined part has all its columns in that part, and those columns are
  // matched; symmetrically for the under-determined part. The parts do not depend on which
  // maximum matching was found, so |overRows| - |overCols| = unmatched rows.
  std::mt19937 rng(99);
  for (int trial = 0; trial < 300; ++trial) {
    int rows = std::uniform_int_distribution<int>(1, 10)(rng);
    int cols = std::uniform_int_distribution<int>(1, 10)(rng);
    BipartiteGraph g = randomGraph(rng, rows, cols, 0.25);
    Matching m = maximumMatching(g);
    SingularParts parts = singularParts(g, m);
    SCOPED_TRACE("trial " + std::to_string(trial));
    std::set<int> overCols(parts.overCols.begin(), parts.overCols.end());
    for (int r : parts.overRows)
      for (int c : g.adj[r]) {
        EXPECT_TRUE(overCols.count(c)) << "row " << r << " column " << c;
        EXPECT_GE(m.colToRow[c], 0) << "an unmatched column would give an augmenting path";
      }
    EXPECT_EQ(parts.overRows.size() - parts.overCols.size(), static_cast<size_t>(rows - m.size));
    std::set<int> underRows(parts.underRows.begin(), parts.underRows.end());
    for (int r = 0; r < rows; ++r)
      for (int c : g.adj[r])
        if (std::binary_search(parts.underCols.begin(), parts.underCols.end(), c)) {
          EXPECT_TRUE(underRows.count(r)) << "row " << r << " column " << c;
          EXPECT_GE(m.rowToCol[r], 0);
        }
    EXPECT_EQ(parts.underCols.size() - parts.underRows.size(), static_cast<size_t>(cols - m.size));
  }
}

// ---- sortBlt ----

/// A square graph with a perfect matching hidden under random extra edges.
BipartiteGraph randomSquareGraph(std::mt19937 &rng, int n, double density) {
  BipartiteGraph g = randomGraph(rng, n, n, density);
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (int r = 0; r < n; ++r)
    if (std::find(g.adj[r].begin(), g.adj[r].end(), perm[r]) == g.adj[r].end())
      g.adj[r].push_back(perm[r]);
  return g;
}

/// SCCs of the row dependency graph by transitive closure: the class of each row.
std::vector<std::set<int>> bruteForceSccs(const BipartiteGraph &g, const Matching &m) {
  int n = g.rows;
  std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
  for (int r = 0; r < n; ++r) {
    reach[r][r] = 1;
    for (int c : g.adj[r])
      reach[r][m.colToRow[c]] = 1;
  }
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        reach[i][j] = reach[i][j] || (reach[i][k] && reach[k][j]);
  std::vector<std::set<int>> scc(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (reach[i][j] && reach[j][i])
        scc[i].insert(j);
  return scc;
}

/// Checks that `blocks` partition the rows and are in evaluation order.
void expectTopologicalPartition(const BipartiteGraph &g, const Matching &m,
                                const std::vector<std::vector<int>> &blocks) {
  std::vector<int> blockOf(g.rows, -1);
  for (size_t b = 0; b < blocks.size(); ++b)
    for (int r : blocks[b]) {
      ASSERT_GE(r, 0);
      ASSERT_LT(r, g.rows);
      ASSERT_EQ(blockOf[r], -1) << "row " << r << " is in two blocks";
      blockOf[r] = static_cast<int>(b);
    }
  for (int r = 0; r < g.rows; ++r) {
    ASSERT_GE(blockOf[r], 0) << "row " << r << " is in no block";
    for (int c : g.adj[r])
      ASSERT_LE(blockOf[m.colToRow[c]], blockOf[r])
          << "row " << r << " uses column " << c << ", computed by row " << m.colToRow[c] << " later";
  }
}

TEST(BltTest, TriangularSystemGivesSingletonsInDependencyOrder) {
  // Row 0 uses columns 0, 1, 2; row 1 uses 1, 2; row 2 uses 2: solve row 2, then 1, then 0.
  BipartiteGraph g = makeGraph(3, 3, {{0, 1, 2}, {1, 2}, {2}});
  Matching m = maximumMatching(g);
  ASSERT_EQ(m.size, 3);
  EXPECT_EQ(sortBlt(g, m), (std::vector<std::vector<int>>{{2}, {1}, {0}}));
}

TEST(BltTest, CoupledRowsFormOneBlock) {
  // Rows 0 and 1 use each other's columns; row 2 depends on both.
  BipartiteGraph g = makeGraph(3, 3, {{0, 1}, {0, 1}, {0, 2}});
  Matching m = maximumMatching(g);
  ASSERT_EQ(m.size, 3);
  EXPECT_EQ(sortBlt(g, m), (std::vector<std::vector<int>>{{0, 1}, {2}}));
}

TEST(BltTest, RandomGraphsBlocksAreTheSccsInTopologicalOrder) {
  std::mt19937 rng(4242);
  int nontrivial = 0;
  for (int trial = 0; trial < 400; ++trial) {
    int n = std::uniform_int_distribution<int>(1, 12)(rng);
    double density = std::uniform_real_distribution<double>(0.0, 0.3)(rng);
    BipartiteGraph g = randomSquareGraph(rng, n, density);
    Matching m = maximumMatching(g);
    ASSERT_EQ(m.size, n);
    std::vector<std::vector<int>> blocks = sortBlt(g, m);
    SCOPED_TRACE("trial " + std::to_string(trial));
    expectTopologicalPartition(g, m, blocks);
    std::vector<std::set<int>> scc = bruteForceSccs(g, m);
    for (const std::vector<int> &block : blocks) {
      EXPECT_TRUE(std::is_sorted(block.begin(), block.end()));
      std::set<int> asSet(block.begin(), block.end());
      for (int r : block)
        ASSERT_EQ(asSet, scc[r]) << "the block of row " << r << " is not its strongly connected component";
      nontrivial += block.size() > 1;
    }
  }
  EXPECT_GT(nontrivial, 50) << "the random graphs should produce algebraic loops";
}

TEST(BltTest, LongDependencyChainIsSortedIteratively) {
  // Row i uses columns i and i+1: row i needs row i+1, so the order is n-1, n-2, ..., 0 and the
  // depth-first search goes 10^5 deep.
  const int n = 100000;
  BipartiteGraph g = makeGraph(n, n, std::vector<std::vector<int>>(n));
  for (int i = 0; i + 1 < n; ++i)
    g.adj[i] = {i, i + 1};
  g.adj[n - 1] = {n - 1};
  Matching m = maximumMatching(g);
  ASSERT_EQ(m.size, n);
  auto start = std::chrono::steady_clock::now();
  std::vector<std::vector<int>> blocks = sortBlt(g, m);
  EXPECT_LT(secondsSince(start), 2.0);
  ASSERT_EQ(blocks.size(), static_cast<size_t>(n));
  for (int b = 0; b < n; ++b)
    ASSERT_EQ(blocks[b], std::vector<int>{n - 1 - b});
}

TEST(BltTest, LongCycleIsOneBlock) {
  const int n = 100000;
  BipartiteGraph g = makeGraph(n, n, std::vector<std::vector<int>>(n));
  for (int i = 0; i < n; ++i)
    g.adj[i] = {i, (i + 1) % n};
  Matching m = maximumMatching(g);
  ASSERT_EQ(m.size, n);
  std::vector<std::vector<int>> blocks = sortBlt(g, m);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].size(), static_cast<size_t>(n));
  EXPECT_TRUE(std::is_sorted(blocks[0].begin(), blocks[0].end()));
}

} // namespace
} // namespace eqc

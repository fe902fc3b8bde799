// Bipartite matching of equations to unknowns (Hopcroft–Karp) and the alternating-path closure used to
// name the over- and under-determined parts of a structurally singular system.
#pragma once

#include <vector>

namespace eqc {

/// Rows are equations, columns unknowns; adj[r] lists the columns occurring in row r.
struct BipartiteGraph {
  int rows = 0, cols = 0;
  std::vector<std::vector<int>> adj;
};

/// rowToCol[r] / colToRow[c] are -1 when unmatched.
struct Matching {
  std::vector<int> rowToCol, colToRow;
  int size = 0;
};

/// Maximum-cardinality matching by Hopcroft–Karp, O(E √V), iterative (no recursion depth limit).
/// Ensures: a maximum matching; rowToCol and colToRow are mutually consistent.
Matching maximumMatching(const BipartiteGraph &graph);

/// Dulmage–Mendelsohn coarse parts of an imperfect matching.
struct SingularParts {
  std::vector<int> overRows, overCols;   ///< rows reachable from unmatched rows, and their columns
  std::vector<int> underRows, underCols; ///< columns reachable from unmatched columns, and their rows
};

/// Requires: `m` is a maximum matching of `graph`.
SingularParts singularParts(const BipartiteGraph &graph, const Matching &m);

} // namespace eqc

// Block-lower-triangular ordering: strongly connected components of the equation dependency graph.
#pragma once

#include "middle/Matching.h"

#include <vector>

namespace eqc {

/// Requires: a perfect matching of `graph`. Ensures: blocks of rows in evaluation order: every row's
/// columns are matched to rows of the same or an earlier block (Tarjan, iterative).
std::vector<std::vector<int>> sortBlt(const BipartiteGraph &graph, const Matching &matching);

} // namespace eqc

// Tarjan's strongly connected components, iterative so that 10^6-long chains do not overflow the stack.
#include "middle/Blt.h"

#include <algorithm>
#include <cassert>

namespace eqc {

std::vector<std::vector<int>> sortBlt(const BipartiteGraph &g, const Matching &m) {
  assert(m.size == g.rows && g.rows == g.cols && "sortBlt needs a perfect matching");
  // Row r depends on row colToRow[c] for every column c it uses (other than its own).
  const int n = g.rows;
  std::vector<int> index(n, -1), low(n, 0);
  std::vector<char> onStack(n, 0);
  std::vector<int> sccStack;
  std::vector<std::pair<int, size_t>> callStack;
  std::vector<std::vector<int>> blocks;
  int counter = 0;
  for (int root = 0; root < n; ++root) {
    if (index[root] >= 0)
      continue;
    callStack.push_back({root, 0});
    index[root] = low[root] = counter++;
    sccStack.push_back(root);
    onStack[root] = 1;
    while (!callStack.empty()) {
      auto &[v, edge] = callStack.back();
      if (edge < g.adj[v].size()) {
        int w = m.colToRow[g.adj[v][edge++]];
        if (w == v)
          continue;
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          sccStack.push_back(w);
          onStack[w] = 1;
          callStack.push_back({w, 0});
        } else if (onStack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      int done = v;
      callStack.pop_back();
      if (!callStack.empty())
        low[callStack.back().first] = std::min(low[callStack.back().first], low[done]);
      if (low[done] == index[done]) {
        std::vector<int> block;
        int w;
        do {
          w = sccStack.back();
          sccStack.pop_back();
          onStack[w] = 0;
          block.push_back(w);
        } while (w != done);
        std::sort(block.begin(), block.end());
        blocks.push_back(std::move(block));
      }
    }
  }
  return blocks;
}

} // namespace eqc

// Hopcroft–Karp maximum matching and Dulmage–Mendelsohn reachability.
#include "middle/Matching.h"

#include <algorithm>
#include <climits>
#include <queue>

namespace eqc {

Matching maximumMatching(const BipartiteGraph &g) {
  Matching m;
  m.rowToCol.assign(g.rows, -1);
  m.colToRow.assign(g.cols, -1);
  // Cheap greedy start: most rows of simulation models match on the first try.
  for (int r = 0; r < g.rows; ++r)
    for (int c : g.adj[r])
      if (m.colToRow[c] < 0) {
        m.rowToCol[r] = c;
        m.colToRow[c] = r;
        ++m.size;
        break;
      }
  std::vector<int> dist(g.rows);
  std::vector<size_t> next(g.rows);
  std::vector<int> stack;
  const int inf = INT_MAX;
  while (true) {
    // BFS from free rows builds the layered graph.
    std::queue<int> q;
    for (int r = 0; r < g.rows; ++r) {
      dist[r] = m.rowToCol[r] < 0 ? 0 : inf;
      if (!dist[r])
        q.push(r);
    }
    int found = inf;
    while (!q.empty()) {
      int r = q.front();
      q.pop();
      if (dist[r] >= found)
        continue;
      for (int c : g.adj[r]) {
        int r2 = m.colToRow[c];
        if (r2 < 0)
          found = std::min(found, dist[r] + 1);
        else if (dist[r2] == inf) {
          dist[r2] = dist[r] + 1;
          q.push(r2);
        }
      }
    }
    if (found == inf)
      break;
    // Iterative DFS along the layers for vertex-disjoint shortest augmenting paths.
    std::fill(next.begin(), next.end(), 0);
    for (int root = 0; root < g.rows; ++root) {
      if (m.rowToCol[root] >= 0)
        continue;
      stack.assign(1, root);
      bool augmented = false;
      while (!stack.empty() && !augmented) {
        int r = stack.back();
        if (next[r] == g.adj[r].size()) {
          dist[r] = inf; // dead end: never revisit in this phase
          stack.pop_back();
          continue;
        }
        int c = g.adj[r][next[r]++];
        int r2 = m.colToRow[c];
        if (r2 < 0) {
          if (dist[r] + 1 != found)
            continue;
          // Augment along the stack: each row on it takes the column it advanced through.
          for (size_t i = stack.size(); i-- > 0;) {
            int row = stack[i];
            int col = g.adj[row][next[row] - 1];
            m.rowToCol[row] = col;
            m.colToRow[col] = row;
          }
          ++m.size;
          augmented = true;
        } else if (dist[r2] == dist[r] + 1) {
          stack.push_back(r2);
        }
      }
    }
  }
  return m;
}

SingularParts singularParts(const BipartiteGraph &g, const Matching &m) {
  SingularParts parts;
  std::vector<std::vector<int>> colAdj(g.cols);
  for (int r = 0; r < g.rows; ++r)
    for (int c : g.adj[r])
      colAdj[c].push_back(r);
  // Over-determined: from free rows, row → any column, column → its matched row.
  std::vector<char> rowSeen(g.rows, 0), colSeen(g.cols, 0);
  std::vector<int> work;
  for (int r = 0; r < g.rows; ++r)
    if (m.rowToCol[r] < 0) {
      rowSeen[r] = 1;
      work.push_back(r);
    }
  while (!work.empty()) {
    int r = work.back();
    work.pop_back();
    parts.overRows.push_back(r);
    for (int c : g.adj[r]) {
      if (colSeen[c])
        continue;
      colSeen[c] = 1;
      parts.overCols.push_back(c);
      int r2 = m.colToRow[c];
      if (r2 >= 0 && !rowSeen[r2]) {
        rowSeen[r2] = 1;
        work.push_back(r2);
      }
    }
  }
  // Under-determined: from free columns, column → any row, row → its matched column.
  std::fill(rowSeen.begin(), rowSeen.end(), 0);
  std::fill(colSeen.begin(), colSeen.end(), 0);
  for (int c = 0; c < g.cols; ++c)
    if (m.colToRow[c] < 0) {
      colSeen[c] = 1;
      work.push_back(c);
    }
  while (!work.empty()) {
    int c = work.back();
    work.pop_back();
    parts.underCols.push_back(c);
    for (int r : colAdj[c]) {
      if (rowSeen[r])
        continue;
      rowSeen[r] = 1;
      parts.underRows.push_back(r);
      int c2 = m.rowToCol[r];
      if (c2 >= 0 && !colSeen[c2]) {
        colSeen[c2] = 1;
        work.push_back(c2);
      }
    }
  }
  for (auto *v : {&parts.overRows, &parts.overCols, &parts.underRows, &parts.underCols})
    std::sort(v->begin(), v->end());
  return parts;
}

} // namespace eqc

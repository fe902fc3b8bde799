// Overdetermined connectors (MLS 3.5, 9.4): the virtual connection graph of overdetermined
// records and types in connectors, its roots and spanning trees, and the connection equations
// they decide (a record's equality on tree edges, `0 = equalityConstraint(A.R, B.R)` elsewhere).
#include "frontend/FlattenImpl.h"

#include <algorithm>
#include <deque>
#include <numeric>

namespace eqc::frontend {
namespace {

/// The operators whose value is known once every connect is: the graph's, and cardinality.
bool isConnectionQuery(const std::string &fn) {
  return fn == "Connections.isRoot" || fn == "Connections.rooted" || fn == "rooted" || fn == "cardinality";
}

bool mentionsConnectionQuery(const ast::Expr &e) {
  if (e.kind == ast::ExprKind::Call && isConnectionQuery(e.text))
    return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const ast::ExprPtr &a) { return a && mentionsConnectionQuery(*a); });
}

/// Union-find over the graph's nodes.
struct Forest {
  std::vector<int> parent;
  explicit Forest(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
};

} // namespace

bool Flattener::asksConnections(const ast::Equation &eq) {
  if (eq.kind == ast::EquationKind::Call)
    return eq.lhs && mentionsConnectionQuery(*eq.lhs);
  return std::any_of(eq.conditions.begin(), eq.conditions.end(),
                     [](const ast::ExprPtr &c) { return c && mentionsConnectionQuery(*c); });
}

Value Flattener::lowerCardinality(const ast::Expr &call, Scope &scope) {
  // MLS 3.5, 3.7.2.3 (deprecated, still in MSL's asserts): the number of connect-equations
  // that name connector c, inside and outside.
  if (!graphBuilt_) {
    diags_.error(call.nameRange, "cardinality() is supported in asserts and in the conditions of if-equations, "
                                 "not here (MLS 3.5, 3.7.2.3)");
    return fail();
  }
  if (call.args.size() != 1) {
    diags_.error(call.nameRange, "cardinality() takes 1 argument");
    return fail();
  }
  endDisabled_ = false;
  auto ends = connectorEnds(*call.args[0], scope);
  if (!ends)
    return fail();
  if (ends->size() != 1 && !endDisabled_) {
    diags_.error(call.args[0]->range, "cardinality() takes one connector, not an array of " +
                                          std::to_string(ends->size()));
    return fail();
  }
  int count = 0;
  if (!endDisabled_) {
    const ConnectorEnd &end = ends->front();
    if (end.inst) {
      auto it = cardinality_.find(end.inst);
      count = it == cardinality_.end() ? 0 : it->second;
    } else {
      auto it = cardinalityVar_.find(end.var);
      count = it == cardinalityVar_.end() ? 0 : it->second;
    }
  }
  return Value::scalar(ctx().constant(count), Type::Integer);
}

int Flattener::graphNode(Instance *record, int firstVar, const std::vector<int> &dims, const ClassInfo *cls, const std::string &path) {
  auto [it, isNew] = graphNodeIds_.emplace(std::pair{record, record ? -1 : firstVar}, static_cast<int>(graphNodes_.size()));
  if (!isNew)
    return it->second;
  GraphNode n;
  n.record = record;
  n.firstVar = firstVar;
  n.dims = dims;
  n.cls = cls;
  n.path = path;
  if (record) {
    std::vector<ConnectorLeaf> leaves;
    collectLeaves(*record, "", leaves);
    for (const ConnectorLeaf &l : leaves)
      graphVars_.insert(l.var);
  } else {
    for (size_t k = 0; k < product(dims); ++k)
      graphVars_.insert(firstVar + static_cast<int>(k));
  }
  graphNodes_.push_back(std::move(n));
  return it->second;
}

int Flattener::graphNodeOf(const ast::Expr &ref, Scope &scope) {
  if (ref.kind != ast::ExprKind::Name || !scope.inst) {
    diags_.error(ref.range, "the Connections operators take an overdetermined record or type in a connector (MLS 3.5, 9.4)");
    return -1;
  }
  Instance *owner = scope.inst;
  std::string path = owner->path;
  for (size_t p = 0; p < ref.ref.size(); ++p) {
    const ast::RefPart &part = ref.ref[p];
    const int idx = owner->cls->find(part.name);
    if (idx < 0) {
      diags_.error(part.range, "'" + owner->cls->name + "' has no element '" + part.name + "'");
      return -1;
    }
    Symbol &s = symbol(*owner, idx);
    if (s.disabled)
      return -2;
    if (s.kind == Symbol::Failed)
      return -1;
    path += (path.empty() ? "" : ".") + part.name;
    const bool last = p + 1 == ref.ref.size();
    if (last && s.kind == Symbol::Variable && part.subscripts.empty() && overdeterminedSize(s.cls))
      return graphNode(nullptr, s.firstVar, s.dims, s.cls, path); // an array is one unit (9.4)
    std::vector<int> picked;
    auto k = subscriptIndices(s.dims, part.subscripts, scope, path, picked);
    if (!k)
      return -1;
    if (s.kind != Symbol::Component || k->size() != 1) {
      diags_.error(part.range, "'" + path + "' is not " + (last ? "an overdetermined record or type" : "one component") +
                                   " (the Connections operators take one instance of a record or type that has a "
                                   "function equalityConstraint, MLS 3.5, 9.4)");
      return -1;
    }
    owner = s.instances[(*k)[0]].get();
    path = owner->path;
    if (last) {
      if (!overdeterminedSize(s.cls)) {
        diags_.error(ref.range, "'" + path + "' (a '" + s.cls->name + "') is not an overdetermined record: its class "
                                "has no function equalityConstraint (MLS 3.5, 9.4.1)");
        return -1;
      }
      return graphNode(owner, -1, {}, s.cls, path);
    }
  }
  return -1;
}

void Flattener::lowerGraphStatement(const ast::Expr &call, Scope &scope) {
  const std::string &fn = call.text;
  if (graphBuilt_ || collect_) {
    diags_.error(call.nameRange, fn + "() cannot be inside an if-equation whose condition " +
                                     (collect_ ? "changes in time" : "asks the connection graph") +
                                     ": the graph must be known first (MLS 3.5, 9.4)");
    return;
  }
  const size_t want = fn == "Connections.branch" ? 2 : 1;
  const size_t most = fn == "Connections.potentialRoot" ? 2 : want;
  if (call.args.size() < want || call.args.size() > most) {
    diags_.error(call.nameRange, fn + "() takes " + std::to_string(want) + (most > want ? " or 2" : "") + " argument" +
                                     (most > 1 ? "s" : "") + " but " + std::to_string(call.args.size()) +
                                     (call.args.size() == 1 ? " was" : " were") + " given");
    return;
  }
  const int a = graphNodeOf(*call.args[0], scope);
  if (a < 0)
    return;
  if (fn == "Connections.branch") {
    const int b = graphNodeOf(*call.args[1], scope);
    if (b < 0)
      return;
    if (graphNodes_[a].cls != graphNodes_[b].cls) {
      diags_.error(call.range, "Connections.branch() joins '" + graphNodes_[a].path + "' (a '" + graphNodes_[a].cls->name +
                                   "') and '" + graphNodes_[b].path + "' (a '" + graphNodes_[b].cls->name +
                                   "'): they must be of the same class (MLS 3.5, 9.4)");
      return;
    }
    graphEdges_.push_back(GraphEdge{a, b, true, call.range, scope.inst});
  } else if (fn == "Connections.root") {
    graphNodes_[a].definiteRoot = true;
  } else {
    int priority = 0;
    if (call.args.size() == 2) {
      if (!call.argNames[1].empty() && call.argNames[1] != "priority") {
        diags_.error(call.args[1]->range, "Connections.potentialRoot() has no argument '" + call.argNames[1] + "'");
        return;
      }
      Value v = lower(*call.args[1], scope);
      if (!v.ok || !expectType(v, *call.args[1], Type::Integer))
        return;
      std::optional<double> p = structural(v, call.args[1]->range, "the priority of a potential root");
      if (!p)
        return;
      if (*p < 0) {
        diags_.error(call.args[1]->range, "the priority of a potential root must be >= 0 (MLS 3.5, 9.4)");
        return;
      }
      priority = static_cast<int>(*p);
    }
    GraphNode &n = graphNodes_[a];
    n.priority = n.priority < 0 ? priority : std::min(n.priority, priority);
  }
}

Value Flattener::lowerGraphQuery(const ast::Expr &call, Scope &scope) {
  const std::string &fn = call.text;
  if (!graphBuilt_) {
    diags_.error(call.nameRange, fn + "() is supported in the conditions of if-equations (where the connection graph "
                                      "decides which equations a model has), not here");
    return fail();
  }
  if (call.args.size() != 1) {
    diags_.error(call.nameRange, fn + "() takes 1 argument");
    return fail();
  }
  const int a = graphNodeOf(*call.args[0], scope);
  if (a < 0)
    return fail();
  if (fn == "Connections.isRoot")
    return Value::scalar(ctx().boolean(graphNodes_[a].selected), Type::Boolean);
  // rooted(A.R): A.R is the first argument of exactly one Connections.branch(A.R, B.R); true
  // when A.R is the nearer to the root of the spanning tree.
  const GraphEdge *branch = nullptr;
  for (const GraphEdge &e : graphEdges_)
    if (e.required && e.a == a) {
      if (branch) {
        diags_.error(call.range, fn + "('" + graphNodes_[a].path + "'): it is the first argument of more than one "
                                      "Connections.branch(); rooted() needs exactly one (MLS 3.5, 9.4)");
        return fail();
      }
      branch = &e;
    }
  if (!branch) {
    diags_.error(call.range, fn + "('" + graphNodes_[a].path + "'): it is the first argument of no Connections.branch(); "
                                  "rooted() needs exactly one (MLS 3.5, 9.4)");
    return fail();
  }
  return Value::scalar(ctx().boolean(graphNodes_[a].depth < graphNodes_[branch->b].depth), Type::Boolean);
}

void Flattener::addConnectEdges(Instance &x, Instance &y, SourceRange at, Instance *owner) {
  // The overdetermined records and types directly in the two connectors (sub-connectors are
  // connected, and so visited, on their own), and in their plain records.
  for (size_t i = 0; i < x.cls->elements.size() && i < x.symbols.size(); ++i) {
    Symbol &sx = x.symbols[i];
    if (sx.connector || (sx.kind != Symbol::Component && sx.kind != Symbol::Variable))
      continue;
    const int j = y.cls->find(x.cls->elements[i].comp->name);
    if (j < 0 || static_cast<size_t>(j) >= y.symbols.size())
      continue; // connectEnds reported it
    Symbol &sy = y.symbols[static_cast<size_t>(j)];
    if (sy.kind != sx.kind || sy.instances.size() != sx.instances.size())
      continue;
    const std::string &name = x.cls->elements[i].comp->name;
    const bool over = overdeterminedSize(sx.cls).has_value();
    if (sx.kind == Symbol::Variable) {
      if (over)
        graphEdges_.push_back(GraphEdge{graphNode(nullptr, sx.firstVar, sx.dims, sx.cls, x.path + "." + name),
                                        graphNode(nullptr, sy.firstVar, sy.dims, sy.cls, y.path + "." + name),
                                        false, at, owner});
      continue;
    }
    for (size_t k = 0; k < sx.instances.size(); ++k) {
      Instance &rx = *sx.instances[k], &ry = *sy.instances[k];
      if (over)
        graphEdges_.push_back(GraphEdge{graphNode(&rx, -1, {}, sx.cls, rx.path), graphNode(&ry, -1, {}, sy.cls, ry.path),
                                        false, at, owner});
      else
        addConnectEdges(rx, ry, at, owner);
    }
  }
}

void Flattener::selectRoots() {
  // Subgraphs: the nodes that edges join. In one without a definite root, the potential root of
  // the lowest priority number (the first declared among equals) is selected (9.4.2).
  Forest sub(graphNodes_.size());
  for (const GraphEdge &e : graphEdges_)
    sub.parent[sub.find(e.a)] = sub.find(e.b);
  std::map<int, std::vector<int>> subgraphs;
  for (size_t v = 0; v < graphNodes_.size(); ++v)
    subgraphs[sub.find(static_cast<int>(v))].push_back(static_cast<int>(v));
  for (auto &[_, members] : subgraphs) {
    int best = -1;
    bool definite = false;
    for (int v : members) {
      GraphNode &node = graphNodes_[v];
      node.selected = node.definiteRoot;
      definite = definite || node.definiteRoot;
      if (node.priority >= 0 && (best < 0 || node.priority < graphNodes_[best].priority))
        best = v;
    }
    if (!definite && best >= 0)
      graphNodes_[best].selected = true;
    if (!definite && best < 0)
      warnRootless(members);
  }
}

void Flattener::warnRootless(const std::vector<int> &members) {
  // A subgraph with edges but no root: nothing determines its records' values (a component
  // checked alone has such subgraphs; a model to simulate is then singular). An isolated node
  // that only a query named is left alone.
  const GraphEdge *edge = nullptr;
  for (const GraphEdge &e : graphEdges_)
    if (!edge && std::find(members.begin(), members.end(), e.a) != members.end())
      edge = &e;
  if (!edge)
    return;
  std::string names;
  for (size_t k = 0; k < members.size() && k < 4; ++k)
    names += (k ? ", '" : "'") + graphNodes_[members[k]].path + "'";
  if (members.size() > 4)
    names += ", ...";
  diags_.warning(edge->at, "the connection graph of " + names + " has no root: nothing determines " +
                               (members.size() == 1 ? "it" : "them") +
                               "; a model to simulate needs Connections.root or Connections.potentialRoot on one "
                               "(MLS 3.5, 9.4.2)");
}

void Flattener::spanningTrees() {
  // One tree per selected root: every required edge (Connections.branch), then the optional
  // ones (connect) in the order written, each joining two trees unless both have a root.
  Forest tree(graphNodes_.size());
  std::vector<char> rooted(graphNodes_.size());
  for (size_t v = 0; v < graphNodes_.size(); ++v)
    rooted[v] = graphNodes_[v].selected;
  auto join = [&](GraphEdge &e) {
    const int ra = tree.find(e.a), rb = tree.find(e.b);
    if (ra == rb || (rooted[ra] && rooted[rb]))
      return false;
    tree.parent[ra] = rb;
    rooted[rb] = rooted[rb] || rooted[ra];
    e.inTree = true;
    return true;
  };
  for (GraphEdge &e : graphEdges_)
    if (e.required && !join(e))
      diags_.error(e.at, "Connections.branch('" + graphNodes_[e.a].path + "', '" + graphNodes_[e.b].path + "') " +
                             (tree.find(e.a) == tree.find(e.b) ? "closes a loop of branches" : "joins two roots") +
                             ": the branches must be part of spanning trees with one root each (MLS 3.5, 9.4.2)");
  for (GraphEdge &e : graphEdges_)
    if (!e.required)
      join(e);
}

void Flattener::treeDepths() {
  // Breadth-first along the tree edges from the roots (a subgraph without a root: from its first
  // node).
  const size_t n = graphNodes_.size();
  std::vector<std::vector<int>> adjacent(n);
  for (const GraphEdge &e : graphEdges_)
    if (e.inTree) {
      adjacent[e.a].push_back(e.b);
      adjacent[e.b].push_back(e.a);
    }
  std::deque<int> queue;
  auto search = [&]() {
    while (!queue.empty()) {
      const int v = queue.front();
      queue.pop_front();
      for (int w : adjacent[v])
        if (graphNodes_[w].depth < 0) {
          graphNodes_[w].depth = graphNodes_[v].depth + 1;
          queue.push_back(w);
        }
    }
  };
  auto from = [&](size_t v) {
    graphNodes_[v].depth = 0;
    queue.push_back(static_cast<int>(v));
  };
  for (size_t v = 0; v < n; ++v)
    if (graphNodes_[v].selected)
      from(v);
  search();
  for (size_t v = 0; v < n; ++v)
    if (graphNodes_[v].depth < 0) {
      from(v);
      search();
    }
}

void Flattener::buildConnectionGraph() {
  graphBuilt_ = true;
  selectRoots();
  spanningTrees();
  treeDepths();
  std::vector<DeferredEquation> deferred = std::move(deferred_);
  for (DeferredEquation &d : deferred) {
    const int savedPart = forPart_;
    forPart_ = d.forPart;
    lowerEquation(*d.eq, d.scope, d.number, d.initial);
    forPart_ = savedPart;
  }
}

void Flattener::generateGraphEquations() {
  for (const GraphEdge &e : graphEdges_) {
    if (e.required)
      continue; // a branch makes no equation: the model that declares it has them
    const GraphNode &a = graphNodes_[e.a], &b = graphNodes_[e.b];
    auto value = [&](const GraphNode &node) {
      if (node.record)
        return recordValue(*node.record, e.at);
      Value v;
      v.ok = true;
      v.type = Type::Real;
      v.dims = node.dims;
      for (size_t k = 0; k < product(node.dims); ++k)
        v.elems.push_back(ctx().var(node.firstVar + static_cast<int>(k)));
      return v;
    };
    Value va = value(a), vb = value(b);
    if (!va.ok || !vb.ok || va.elems.size() != vb.elems.size())
      continue;
    const int originId = static_cast<int>(sys_.origins.size());
    size_t generated = 0;
    if (e.inTree) {
      sys_.origins.push_back("connect(" + a.path + ", " + b.path + ")");
      for (size_t k = 0; k < va.elems.size(); ++k)
        if (va.elems[k]->kind() == ExprKind::Var) {
          addEquation(va.elems[k], vb.elems[k], e.at, 1, originId, false);
          ++generated;
        }
    } else {
      sys_.origins.push_back("connect(" + a.path + ", " + b.path + ") outside the spanning trees");
      const size_t size = overdeterminedSize(a.cls).value_or(0);
      if (size > 0) {
        ClassInfo *fn = member(a.cls, "equalityConstraint");
        Value residue = callSpecialized(fn, {va, vb}, e.at, e.at, 0, nullptr);
        if (!residue.ok)
          continue;
        for (const Expr *r : residue.elems) {
          addEquation(ctx().zero(), r, e.at, 1, originId, false);
          ++generated;
        }
      }
    }
    (e.owner ? e.owner : root_)->equations += generated;
  }
}

} // namespace eqc::frontend

// connect(): connector ends, hierarchical connectors, expandable connectors (MLS 3.5, 9.1.3),
// and the connection sets that become equality and zero-sum equations (9.2).
#include "frontend/FlattenImpl.h"

#include <algorithm>
#include <map>

namespace eqc::frontend {

std::optional<std::vector<ConnectorEnd>> Flattener::connectorEnds(const ast::Expr &ref, Scope &scope) {
  if (ref.kind != ast::ExprKind::Name || !scope.inst) {
    diags_.error(ref.range, "connect() takes connectors");
    return std::nullopt;
  }
  // MLS 3.5, 9.1: `c`, `c.sub…` (a connector of this instance: outside) or `comp.c`, `comp.c.sub…`
  // (a connector of a component: inside), each part after the first a connector (any element
  // of an expandable connector is one). An element an expandable connector does not have is an
  // end that adds it (9.1.3).
  std::vector<Instance *> owners{scope.inst};
  std::vector<ConnectorEnd> ends;
  bool outside = true;
  std::string path;
  for (size_t p = 0; p < ref.ref.size(); ++p) {
    const ast::RefPart &part = ref.ref[p];
    const bool last = p + 1 == ref.ref.size();
    path += (p ? "." : "") + part.name;
    std::vector<Instance *> next;
    for (Instance *owner : owners) {
      const int idx = owner->cls->find(part.name);
      Symbol *found = idx >= 0 ? &symbol(*owner, idx) : owner->expandable ? busElement(*owner, part.name) : nullptr;
      if (!found && owner->expandable) {
        if (!last || !part.subscripts.empty()) {
          diags_.error(part.range, "'" + owner->path + "' (expandable connector '" + owner->cls->name +
                                       "') has no element '" + part.name + "': connect() adds one only when it "
                                       "names it whole, without subscripts or elements of its own");
          return std::nullopt;
        }
        ConnectorEnd end;
        end.bus = owner;
        end.element = part.name;
        end.outside = outside;
        end.name = ref.text;
        ends.push_back(end);
        continue;
      }
      if (!found) {
        std::vector<std::string> names;
        for (const Element &el : owner->cls->elements)
          names.push_back(el.comp->name);
        std::string hint = closest(part.name, names);
        if (p == 0)
          diags_.error(part.range, "undefined name '" + part.name + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
        else
          diags_.error(part.range, "'" + owner->cls->name + "' has no connector '" + part.name + "'" +
                                       (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
        return std::nullopt;
      }
      Symbol &s = *found;
      if (s.disabled) {
        endDisabled_ = true;
        return std::vector<ConnectorEnd>{};
      }
      if (s.kind == Symbol::Failed)
        return std::nullopt;
      const bool connector = s.connector || owner->expandable;
      if (p == 0 && !connector) {
        if (s.kind != Symbol::Component || last) {
          diags_.error(ref.range, "'" + ref.text + "' is not a connector (connect() takes connectors, or connectors of components)");
          return std::nullopt;
        }
        outside = false; // a component: its connectors are seen from outside it
      } else if (p > 0 && !connector) {
        diags_.error(part.range, "'" + owner->path + "." + part.name + "' is not a connector");
        return std::nullopt;
      }
      if (p == 1 && !outside && idx >= 0 && owner->cls->elements[idx].decl->isProtected) {
        diags_.error(part.range, "'" + part.name + "' is protected in '" + owner->cls->name + "'");
        return std::nullopt;
      }
      std::vector<int> pickedDims;
      auto picked = subscriptIndices(s.dims, part.subscripts, scope, owner->path.empty() ? path : owner->path + "." + part.name,
                                     pickedDims);
      if (!picked)
        return std::nullopt;
      for (size_t k : *picked) {
        if (!last) {
          if (s.kind != Symbol::Component) {
            diags_.error(ref.ref[p + 1].range, "'" + path + "' is a variable: it has no element '" + ref.ref[p + 1].name + "'");
            return std::nullopt;
          }
          next.push_back(s.instances[k].get());
          continue;
        }
        ConnectorEnd end;
        end.outside = outside;
        end.name = ref.text;
        if (s.kind == Symbol::Component) {
          end.inst = s.instances[k].get();
        } else if (s.kind == Symbol::Variable) {
          end.var = s.firstVar + static_cast<int>(k);
          end.type = s.type;
        } else {
          diags_.error(part.range, "'" + path + "' is a constant, not a connector");
          return std::nullopt;
        }
        ends.push_back(end);
      }
    }
    owners = std::move(next);
  }
  return ends;
}


void Flattener::collectLeaves(Instance &inst, const std::string &prefix, std::vector<ConnectorLeaf> &out) {
  for (size_t i = 0; i < inst.cls->elements.size() && i < inst.symbols.size(); ++i) {
    Symbol &s = inst.symbols[i];
    const std::string name = prefix + inst.cls->elements[i].comp->name;
    if (s.kind == Symbol::Variable) {
      if (s.role == VarRole::Parameter)
        continue;
      size_t count = 1;
      for (int d : s.dims)
        count *= static_cast<size_t>(d);
      for (size_t k = 0; k < count; ++k)
        out.push_back(ConnectorLeaf{variableName(name, s.dims, k), s.firstVar + static_cast<int>(k), s.flow,
                                    s.type, s.stream});
    } else if (s.kind == Symbol::Component && !s.connector) { // (a sub-connector is a node of its own)
      for (auto &child : s.instances)
        collectLeaves(*child, child->path.substr(inst.path.size() + 1) + ".", out);
    }
  }
}

std::vector<ConnectorLeaf> Flattener::connectorLeaves(const ConnectorEnd &end) {
  std::vector<ConnectorLeaf> leaves;
  if (end.inst)
    collectLeaves(*end.inst, "", leaves);
  else
    leaves.push_back(ConnectorLeaf{"", end.var, false, end.type});
  return leaves;
}

int Flattener::find(int node) {
  while (nodes_[node].parent != node) {
    nodes_[node].parent = nodes_[nodes_[node].parent].parent;
    node = nodes_[node].parent;
  }
  return node;
}

int Flattener::connectionNode(const ConnectorEnd &end) {
  int *slot;
  if (end.inst)
    slot = end.outside ? &end.inst->outsideNode : &end.inst->insideNode;
  else
    slot = &(end.outside ? primitiveOutside_ : primitiveInside_).emplace(end.var, -1).first->second;
  if (*slot < 0) {
    *slot = static_cast<int>(nodes_.size());
    Node n;
    n.end = end;
    n.parent = *slot;
    n.text = end.inst ? end.inst->path : sys_.vars[end.var].name;
    nodes_.push_back(n);
  }
  return *slot;
}

void Flattener::lowerConnect(const ast::Equation &eq, Scope &scope) {
  endDisabled_ = false;
  auto a = connectorEnds(*eq.lhs, scope);
  auto b = connectorEnds(*eq.rhs, scope);
  if (endDisabled_ || !a || !b)
    return; // a connection to a disabled conditional component is removed (MLS 3.5, 4.4.5)
  if (graphBuilt_) {
    diags_.error(eq.range, "connect() cannot be inside an if-equation whose condition asks what connections make "
                           "(Connections.isRoot, rooted, cardinality): those must be known first");
    return;
  }
  for (const auto *ends : {&*a, &*b})
    for (const ConnectorEnd &end : *ends) {
      if (end.inst)
        ++cardinality_[end.inst];
      else if (end.var >= 0)
        ++cardinalityVar_[end.var];
    }
  if (a->size() != b->size()) {
    diags_.error(eq.range, "connect(): '" + eq.lhs->text + "' has " + std::to_string(a->size()) + " connector(s) and '" +
                               eq.rhs->text + "' has " + std::to_string(b->size()));
    return;
  }
  for (size_t k = 0; k < a->size(); ++k) {
    ConnectorEnd x = (*a)[k], y = (*b)[k];
    if (x.bus && y.bus) {
      diags_.error(eq.range, "connect(): neither '" + x.bus->path + "." + x.element + "' nor '" + y.bus->path + "." +
                                 y.element + "' exists, so neither gives the other its type (MLS 3.5, 9.1.3); declare "
                                 "one of them in its expandable connector");
      continue;
    }
    // An element an expandable connector does not have yet is added of the other end's type.
    for (auto [end, other] : {std::pair{&x, &y}, std::pair{&y, &x}})
      if (end->bus) {
        Symbol &added = addBusElement(*end->bus, end->element, *other, eq.range);
        end->inst = added.kind == Symbol::Component ? added.instances[0].get() : nullptr;
        end->var = added.kind == Symbol::Variable ? added.firstVar : -1;
        end->type = added.type;
        end->bus = nullptr;
      }
    connectEnds(x, y, eq.range, scope.inst);
  }
}

void Flattener::connectEnds(const ConnectorEnd &x, const ConnectorEnd &y, SourceRange range, Instance *owner) {
  const std::string nx = x.inst ? x.inst->path : sys_.vars[x.var].name;
  const std::string ny = y.inst ? y.inst->path : sys_.vars[y.var].name;
  auto kind = [](const ConnectorEnd &e) {
    return e.inst ? "'" + e.inst->cls->name + "'" : std::string("a ") + typeName(e.type) + " connector";
  };
  const bool busX = x.inst && x.inst->expandable, busY = y.inst && y.inst->expandable;
  if (busX || busY) {
    // MLS 3.5, 9.1.3: expandable connectors connect to expandable connectors only; their
    // elements are joined once every connect is known (completeExpandableConnectors).
    if (busX != busY)
      diags_.error(range, "cannot connect '" + nx + "' (" + kind(x) + ") and '" + ny + "' (" + kind(y) +
                              "): an expandable connector connects only to an expandable connector (MLS 3.5, 9.1.3)");
    else
      joinBuses(x, y, range, owner);
    return;
  }
  std::vector<ConnectorLeaf> lx = connectorLeaves(x), ly = connectorLeaves(y);
  std::string problem;
  if (lx.size() != ly.size()) {
    problem = kind(x) + " has " + std::to_string(lx.size()) + " variables and " + kind(y) + " has " + std::to_string(ly.size());
  } else {
    for (size_t i = 0; i < lx.size() && problem.empty(); ++i) {
      if (lx[i].name != ly[i].name && x.inst && y.inst)
        problem = "'" + nx + "." + lx[i].name + "' has no counterpart '" + ny + "." + lx[i].name + "'";
      else if (lx[i].flow != ly[i].flow)
        problem = "'" + lx[i].name + "' is a flow variable in one and not in the other";
      else if (lx[i].stream != ly[i].stream)
        problem = "'" + lx[i].name + "' is a stream variable in one and not in the other (MLS 3.5, 15.1)";
      else if ((lx[i].type == Type::Boolean) != (ly[i].type == Type::Boolean))
        problem = "'" + lx[i].name + "' has different types";
    }
  }
  if (!problem.empty()) {
    diags_.error(range, "cannot connect '" + nx + "' (" + kind(x) + ") and '" + ny + "' (" + kind(y) + "): " + problem);
    return;
  }
  if (x.inst && x.inst == y.inst && x.outside == y.outside) {
    // MSL 4.0.0 has `connect(p, p)` (SwitchedCapacitor): no equation, as other tools take it.
    diags_.warning(range, "connect(): '" + nx + "' is connected to itself; this adds no equation");
    return;
  }
  int p = connectionNode(x), q = connectionNode(y);
  for (int node : {p, q})
    if (!nodes_[node].connect.valid()) {
      nodes_[node].connect = range;
      nodes_[node].owner = owner;
    }
  int rp = find(p), rq = find(q);
  if (rp != rq)
    nodes_[std::max(rp, rq)].parent = std::min(rp, rq);
  if (x.inst && y.inst) {
    addConnectEdges(*x.inst, *y.inst, range, owner);
    connectSubConnectors(x, y, range, owner);
  }
}

void Flattener::connectSubConnectors(const ConnectorEnd &x, const ConnectorEnd &y, SourceRange range, Instance *owner) {
  // MLS 3.5, 9.1: the connectors inside two connected connectors are connected pairwise (a
  // multi-phase plug's pins); each is a node of its own, so that connecting the part alone
  // (`connect(plug.pin[1], p)`) joins the same set.
  Instance &a = *x.inst, &b = *y.inst;
  for (size_t i = 0; i < a.cls->elements.size() && i < a.symbols.size(); ++i) {
    Symbol &sa = a.symbols[i];
    if (sa.kind != Symbol::Component || !sa.connector)
      continue;
    const std::string &name = a.cls->elements[i].comp->name;
    const int j = b.cls->find(name);
    Symbol *sb = j >= 0 && static_cast<size_t>(j) < b.symbols.size() ? &b.symbols[static_cast<size_t>(j)] : nullptr;
    if (!sb || sb->kind != Symbol::Component || sb->instances.size() != sa.instances.size()) {
      diags_.error(range, "cannot connect '" + a.path + "' and '" + b.path + "': '" + a.path + "." + name +
                              "' has no counterpart '" + b.path + "." + name + "'");
      return;
    }
    for (size_t k = 0; k < sa.instances.size(); ++k) {
      ConnectorEnd ea = x, eb = y;
      ea.inst = sa.instances[k].get();
      eb.inst = sb->instances[k].get();
      ea.name = ea.inst->path;
      eb.name = eb.inst->path;
      connectEnds(ea, eb, range, owner);
    }
  }
}

// ---- expandable connectors (MLS 3.5, 9.1.3) ----

int Flattener::busNode(Instance *bus, bool outside, SourceRange connect, Instance *owner) {
  auto [it, isNew] = busNodeIds_.emplace(std::pair{bus, outside}, static_cast<int>(busNodes_.size()));
  if (isNew)
    busNodes_.push_back(BusNode{bus, outside, it->second, connect, owner});
  return it->second;
}

int Flattener::findBus(int node) {
  while (busNodes_[node].parent != node) {
    busNodes_[node].parent = busNodes_[busNodes_[node].parent].parent;
    node = busNodes_[node].parent;
  }
  return node;
}

bool Flattener::joinBuses(const ConnectorEnd &x, const ConnectorEnd &y, SourceRange connect, Instance *owner) {
  const int p = findBus(busNode(x.inst, x.outside, connect, owner));
  const int q = findBus(busNode(y.inst, y.outside, connect, owner));
  if (p == q)
    return false;
  busNodes_[std::max(p, q)].parent = std::min(p, q);
  return true;
}

Symbol *Flattener::busElement(Instance &bus, const std::string &name) {
  const int idx = bus.cls->find(name);
  if (idx >= 0)
    return &symbol(bus, idx);
  auto it = bus.added.find(name);
  return it == bus.added.end() ? nullptr : &it->second;
}

Symbol &Flattener::addBusElement(Instance &bus, const std::string &name, const ConnectorEnd &like, SourceRange where) {
  Symbol &sym = bus.added[name];
  sym.state = Symbol::Done;
  sym.connector = true;
  const std::string path = bus.path + "." + name;
  if (like.inst) {
    // A connector instance of the other end's class (a sub-bus when that is expandable).
    const ClassInfo *cls = like.inst->cls;
    auto child = std::make_unique<Instance>();
    child->cls = cls;
    child->parent = &bus;
    child->path = path;
    child->declared = where;
    child->origin = static_cast<int>(sys_.origins.size());
    sys_.origins.push_back(path);
    Instance *raw = child.get();
    sym.kind = Symbol::Component;
    sym.cls = cls;
    sym.instances.push_back(std::move(child));
    instances_.push_back(raw);
    resolveClass(const_cast<ClassInfo &>(*cls));
    if (cls->def->expandable) {
      raw->expandable = true;
      raw->symbols.resize(cls->elements.size());
    } else {
      connectors_.push_back(raw);
      instantiateElements(*raw);
    }
    return sym;
  }
  // A variable of the other end's type (and role: Integer and Boolean signals are discrete).
  const Variable &model = sys_.vars[like.var];
  sym.kind = Symbol::Variable;
  sym.type = like.type;
  sym.role = model.role == VarRole::Input ? VarRole::Unknown : model.role;
  sym.firstVar = static_cast<int>(sys_.vars.size());
  Variable v;
  v.name = path;
  v.role = sym.role;
  v.type = model.type;
  v.unit = model.unit;
  v.loc = where;
  sys_.vars.push_back(std::move(v));
  growPerVariable();
  bindings_[sym.firstVar] = PendingBinding{nullptr, 0, PendingBinding::None, {}};
  if (sym.role == VarRole::Unknown)
    ++bus.unknowns;
  return sym;
}

void Flattener::completeExpandableConnectors() {
  // MLS 3.5, 9.1.3: the members of a set of connected expandable connectors have the union of
  // their elements (declared ones that are present — connected or named — and added ones), and
  // the elements of one name are connected across the set. Sub-buses joined that way join their
  // own sets: repeated until nothing changes.
  if (busNodes_.empty())
    return;
  for (bool changed = true; changed && !diags_.hasErrors();) {
    changed = false;
    std::map<int, std::vector<int>> sets;
    for (size_t n = 0; n < busNodes_.size(); ++n)
      sets[findBus(static_cast<int>(n))].push_back(static_cast<int>(n));
    for (auto &[root, members] : sets) {
      // The union of the members' elements, each with an end that has its type.
      std::map<std::string, ConnectorEnd> elements;
      auto endOf = [](Symbol &s) {
        ConnectorEnd e;
        if (s.kind == Symbol::Component && !s.instances.empty())
          e.inst = s.instances[0].get();
        else if (s.kind == Symbol::Variable && product(s.dims) > 0) {
          e.var = s.firstVar;
          e.type = s.type;
        }
        return e;
      };
      for (int m : members) {
        Instance &bus = *busNodes_[m].bus;
        for (size_t i = 0; i < bus.symbols.size(); ++i)
          if (bus.symbols[i].state == Symbol::Done && (bus.symbols[i].kind == Symbol::Variable || bus.symbols[i].kind == Symbol::Component))
            elements.emplace(bus.cls->elements[i].comp->name, endOf(bus.symbols[i]));
        for (auto &[name, s] : bus.added)
          elements.emplace(name, endOf(s));
      }
      const BusNode first = busNodes_[members[0]]; // joinBuses may grow busNodes_
      for (auto &[name, like] : elements) {
        if (!like.inst && like.var < 0)
          continue; // an empty array
        std::vector<ConnectorEnd> ends;
        for (int m : members) {
          Instance &bus = *busNodes_[m].bus;
          Symbol *s = busElement(bus, name);
          if (!s) {
            s = &addBusElement(bus, name, like, busNodes_[m].connect);
            changed = true;
          }
          if (s->kind == Symbol::Failed)
            continue;
          ConnectorEnd end = endOf(*s);
          end.outside = busNodes_[m].outside;
          end.name = bus.path + "." + name;
          if (end.inst || end.var >= 0)
            ends.push_back(end);
        }
        for (size_t k = 1; k < ends.size(); ++k) {
          if (ends[0].inst && ends[0].inst->expandable && ends[k].inst && ends[k].inst->expandable) {
            changed = joinBuses(ends[0], ends[k], first.connect, first.owner) || changed;
            continue;
          }
          connectEnds(ends[0], ends[k], first.connect, first.owner);
        }
      }
    }
  }
}


void Flattener::generateConnectionEquations() {
  // Every connector is in a set as seen from outside its component (Modelica's inside connector);
  // one that no connect names is a set of its own, whose flows are zero.
  for (Instance *c : connectors_) {
    bool isNew = c->insideNode < 0;
    ConnectorEnd inside;
    inside.inst = c;
    inside.name = c->path;
    int node = connectionNode(inside);
    if (isNew) {
      nodes_[node].owner = c->parent ? c->parent->parent : nullptr;
      nodes_[node].declared = c->declared;
    }
  }
  std::map<int, std::vector<int>> &sets = connectionSets_;
  for (size_t n = 0; n < nodes_.size(); ++n)
    sets[find(static_cast<int>(n))].push_back(static_cast<int>(n));
  for (auto &[root, members] : sets) {
    std::vector<std::vector<ConnectorLeaf>> leaves;
    for (int m : members)
      leaves.push_back(connectorLeaves(nodes_[m].end));
    const Node &first = nodes_[members[0]];
    SourceRange loc = first.connect;
    Instance *owner = first.owner;
    for (int m : members)
      if (nodes_[m].connect.valid()) {
        loc = nodes_[m].connect;
        owner = nodes_[m].owner;
        break;
      }
    if (!loc.valid())
      loc = first.declared;
    std::string text;
    if (members.size() == 1) {
      text = "unconnected connector " + first.text + " (flows zero)";
    } else {
      text = "connection set {";
      for (size_t i = 0; i < members.size(); ++i)
        text += (i ? ", " : "") + nodes_[members[i]].text;
      text += "}";
    }
    int originId = -1;
    auto ensureOrigin = [&]() {
      if (originId < 0) {
        originId = static_cast<int>(sys_.origins.size());
        sys_.origins.push_back(text);
      }
      return originId;
    };
    size_t generated = 0;
    for (size_t j = 0; j < leaves[0].size(); ++j) {
      if (leaves[0][j].flow) {
        std::vector<const Expr *> terms;
        for (size_t m = 0; m < members.size(); ++m) {
          const Expr *v = ctx().var(leaves[m][j].var);
          terms.push_back(nodes_[members[m]].end.outside ? ctx().neg(v) : v);
        }
        addEquation(ctx().add(terms), ctx().zero(), loc, 1, ensureOrigin(), false);
        ++generated;
      } else if (leaves[0][j].stream) {
        continue; // (stream variables are not equated: generateOutsideStreamEquations, 15.2)
      } else if (!graphVars_.count(leaves[0][j].var)) { // (the graph's edges equate those)
        for (size_t m = 1; m < members.size(); ++m) {
          bool isBool = leaves[0][j].type == Type::Boolean;
          const Expr *a = ctx().var(leaves[0][j].var, isBool), *b = ctx().var(leaves[m][j].var, isBool);
          if (isBool || sys_.vars[leaves[0][j].var].role == VarRole::Discrete) {
            sys_.discreteEquations.push_back(DiscreteEquation{leaves[m][j].var, a, loc, 1, ensureOrigin()});
          } else {
            addEquation(a, b, loc, 1, ensureOrigin(), false);
          }
          ++generated;
        }
      }
    }
    generateOutsideStreamEquations(members, leaves, loc, ensureOrigin, generated);
    if (owner)
      owner->equations += generated;
    else if (root_)
      root_->equations += generated;
  }
  generateInStreamEquations();
}

} // namespace eqc::frontend

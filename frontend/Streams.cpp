// Stream connectors (MLS 3.5, 15): inStream and actualStream, and the connection equations of
// stream variables.
//
// A stream variable h of connector c is the value the carried quantity has where the matter
// leaves the component through c. inStream(c.h) is the value it has where matter enters through c:
// the mixing, in the connection set where c is an inside connector, of what the set's other
// members bring. Until every connect is known it is a variable of its own (inStreamVariable);
// generateInStreamEquations then defines it by 15.2's recommended regularized mixing. An outside
// connector's stream variable gets the mixing of the other members of its set
// (generateOutsideStreamEquations): that is how the value propagates up the hierarchy.
#include "frontend/FlattenImpl.h"

namespace eqc::frontend {

namespace {
/// 15.2's eps: below this sum of flows into the set (relative to the flow's nominal value), the
/// mixing blends smoothly to the mean of the members' values.
constexpr double kStreamRelativeEps = 1e-6;

/// The flow variable among a connector's leaves (-1: none).
int flowOf(const std::vector<ConnectorLeaf> &leaves) {
  for (const ConnectorLeaf &leaf : leaves)
    if (leaf.flow)
      return leaf.var;
  return -1;
}

/// The size of flow variable `flow` that 15.2's eps is relative to: its nominal value, else 1.
double flowNominal(const std::vector<Variable> &vars, int flow) {
  const Expr *nominal = flow >= 0 ? vars[static_cast<size_t>(flow)].nominal : nullptr;
  return nominal && nominal->isConst() && nominal->value() != 0 ? std::abs(nominal->value()) : 1.0;
}
} // namespace

int Flattener::streamFlow(Instance &conn) {
  std::vector<ConnectorLeaf> leaves;
  collectLeaves(conn, "", leaves);
  return flowOf(leaves);
}

int Flattener::inStreamVariable(int var) {
  auto [it, isNew] = inStreamVars_.emplace(var, -1);
  if (!isNew)
    return it->second;
  Variable v;
  v.name = "inStream(" + sys_.vars[var].name + ")";
  v.role = VarRole::Unknown;
  v.loc = sys_.vars[var].loc;
  v.generated = true;
  it->second = static_cast<int>(sys_.vars.size());
  sys_.vars.push_back(std::move(v));
  growPerVariable();
  bindings_[it->second] = PendingBinding{nullptr, 0, PendingBinding::None, {}};
  inStreamPending_.push_back(var);
  return it->second;
}

Value Flattener::lowerStreamOperator(const std::string &fn, const ast::Expr &call, Scope &scope) {
  if (call.args.size() != 1 || !call.argNames[0].empty()) {
    diags_.error(call.nameRange,
                 fn + "() takes one argument, a stream variable of a connector (MLS 3.5, 15.2)");
    return fail();
  }
  if (scope.fn || scope.context == Context::Parameter || scope.context == Context::Start) {
    diags_.error(call.nameRange,
                 fn + "() is used in a model's equations and algorithms, where the connections "
                      "that define it are (MLS 3.5, 15.2)");
    return fail();
  }
  Value v = lower(*call.args[0], scope);
  if (!v.ok)
    return fail();
  ExprContext &c = ctx();
  Value out = v;
  for (size_t i = 0; i < v.size(); ++i) {
    const Expr *h = v.elems[i];
    auto owner = h->kind() == ExprKind::Var ? streamConnector_.find(h->var()) : streamConnector_.end();
    if (owner == streamConnector_.end()) {
      diags_.error(call.args[0]->range,
                   "'" + call.args[0]->text + "' is not a stream variable: " + fn +
                       "() takes a variable declared 'stream' in a connector (MLS 3.5, 15.2)");
      return fail();
    }
    const Expr *in = c.var(inStreamVariable(h->var()));
    if (fn == "inStream") {
      out.elems[i] = in;
      continue;
    }
    // 15.3: actualStream(c.h) = if c.m_flow > 0 then inStream(c.h) else c.h.
    const int flow = streamFlow(*owner->second);
    if (flow < 0) {
      diags_.error(call.args[0]->range, "the connector of '" + call.args[0]->text + "' has no flow variable");
      return fail();
    }
    const Expr *value = c.ifThenElse(c.lt(c.zero(), c.var(flow)), in, h);
    actualStreams_.emplace(value, std::pair{c.noEvent(value), flow});
    out.elems[i] = value;
  }
  return out;
}

void Flattener::smoothActualStreamProducts(Value &a, Value &b) {
  // 15.3: "der(U) = c.m_flow*actualStream(c.h_outflow)": the value jumps where the flow is zero,
  // the product does not; it is smooth(0, ...) and generates no event.
  if (actualStreams_.empty())
    return;
  auto smooth = [&](Value &x, const Value &y) {
    if (!y.isScalar() && y.size() != x.size())
      return;
    for (size_t i = 0; i < x.size(); ++i) {
      auto it = actualStreams_.find(x.elems[i]);
      const Expr *other = y.elems[y.isScalar() ? 0 : i];
      if (it != actualStreams_.end() && other->kind() == ExprKind::Var && other->var() == it->second.second)
        x.elems[i] = it->second.first;
    }
  };
  smooth(a, b);
  smooth(b, a);
}

std::vector<std::pair<const Expr *, const Expr *>>
Flattener::streamSources(const std::vector<int> &members,
                         const std::vector<std::vector<ConnectorLeaf>> &leaves, size_t leaf, size_t except) {
  ExprContext &c = ctx();
  std::vector<std::pair<const Expr *, const Expr *>> sources;
  for (size_t m = 0; m < members.size(); ++m) {
    if (m == except)
      continue;
    const int flowVar = flowOf(leaves[m]);
    if (flowVar < 0)
      continue;
    const Variable &flow = sys_.vars[flowVar];
    // An inside connector's flow is positive into its component: it brings its stream variable
    // when negative. An outside connector's is positive into this model: it brings what comes
    // from outside, its inStream, when positive.
    if (nodes_[members[m]].end.outside) {
      if (flow.max && flow.max->isConst() && flow.max->value() <= 0)
        continue;
      sources.emplace_back(c.var(flowVar), c.var(inStreamVariable(leaves[m][leaf].var)));
    } else {
      if (flow.min && flow.min->isConst() && flow.min->value() >= 0)
        continue;
      sources.emplace_back(c.neg(c.var(flowVar)), c.var(leaves[m][leaf].var));
    }
  }
  return sources;
}

const Expr *Flattener::streamMixing(const std::vector<std::pair<const Expr *, const Expr *>> &sources,
                                    const Expr *alone, double nominal) {
  // 15.2's recommended implementation: exact mixing where the flow into the set is not small; the
  // cases of none or one source need no division (an unconnected port, a one-to-one connection).
  if (sources.empty())
    return alone;
  if (sources.size() == 1)
    return sources[0].second;
  ExprContext &c = ctx();
  const Expr *eps = c.constant(kStreamRelativeEps * nominal);
  std::vector<const Expr *> inflows;
  for (const auto &[flow, value] : sources)
    inflows.push_back(c.call(Builtin::Max, {flow, c.zero()}));
  // alpha: 1 where the total inflow s exceeds eps, 0 where it is 0, a C1 cubic between; each
  // member's weight max(flow, 0) blends into eps, so the denominator never vanishes and all
  // flows zero give the members' mean.
  const Expr *s = c.add(inflows), *r = c.div(s, eps);
  const Expr *alpha = c.noEvent(c.ifThenElse(
      c.gt(s, eps), c.one(),
      c.ifThenElse(c.gt(s, c.zero()),
                   c.mul(c.pow(r, c.constant(2)), c.sub(c.constant(3), c.mul(c.constant(2), r))), c.zero())));
  std::vector<const Expr *> numerator, denominator;
  for (size_t k = 0; k < sources.size(); ++k) {
    const Expr *weight = c.add(c.mul(alpha, inflows[k]), c.mul(c.sub(c.one(), alpha), eps));
    numerator.push_back(c.mul(weight, sources[k].second));
    denominator.push_back(weight);
  }
  return c.div(c.add(numerator), c.add(denominator));
}

void Flattener::generateOutsideStreamEquations(const std::vector<int> &members,
                                               const std::vector<std::vector<ConnectorLeaf>> &leaves,
                                               SourceRange loc, const std::function<int()> &origin,
                                               size_t &generated) {
  for (size_t j = 0; j < leaves[0].size(); ++j) {
    if (!leaves[0][j].stream)
      continue;
    for (size_t q = 0; q < members.size(); ++q) {
      if (!nodes_[members[q]].end.outside)
        continue;
      auto sources = streamSources(members, leaves, j, q);
      const Expr *mixing = streamMixing(sources, ctx().zero(), flowNominal(sys_.vars, flowOf(leaves[q])));
      addEquation(ctx().var(leaves[q][j].var), mixing, loc, 1, origin(), false);
      ++generated;
    }
  }
}

void Flattener::generateInStreamEquations() {
  while (!inStreamPending_.empty()) {
    const int h = inStreamPending_.back();
    inStreamPending_.pop_back();
    Instance &conn = *streamConnector_.at(h);
    const int var = inStreamVars_.at(h);
    {
      Variable &in = sys_.vars[var]; // (streamSources below may add variables)
      const Variable &stream = sys_.vars[h];
      in.unit = stream.unit;
      in.nominal = stream.nominal;
      in.binding = stream.binding; // (a start value: the same guess)
      in.hasStart = stream.hasStart;
      in.loc = stream.loc;
    }
    // The set where the connector is an inside connector (one of its own when nothing connects
    // it from outside: then inStream is the variable itself, 15.2's N = 1).
    ConnectorEnd inside;
    inside.inst = &conn;
    inside.name = conn.path;
    const int self = connectionNode(inside);
    std::vector<int> single{self};
    auto set = connectionSets_.find(find(self));
    const std::vector<int> &members = set == connectionSets_.end() ? single : set->second;
    std::vector<std::vector<ConnectorLeaf>> leaves;
    size_t selfIndex = 0, leaf = 0;
    for (size_t m = 0; m < members.size(); ++m) {
      leaves.push_back(connectorLeaves(nodes_[members[m]].end));
      if (members[m] == self) {
        selfIndex = m;
        for (size_t j = 0; j < leaves[m].size(); ++j)
          if (leaves[m][j].var == h)
            leaf = j;
      }
    }
    const Expr *mixing = streamMixing(streamSources(members, leaves, leaf, selfIndex), ctx().var(h),
                                      flowNominal(sys_.vars, flowOf(leaves[selfIndex])));
    const int originId = static_cast<int>(sys_.origins.size());
    sys_.origins.push_back(sys_.vars[var].name);
    addEquation(ctx().var(var), mixing, sys_.vars[var].loc, 1, originId, false);
  }
}

} // namespace eqc::frontend

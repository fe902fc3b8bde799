#include "middle/ConstantUnknowns.h"

#include "middle/ExprOps.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace eqc {

namespace {

/// The value an equation fixes its only unknown `x` to, or null: the residual is a·x + b with
/// a, b constants and a ≠ 0.
const Expr *fixedValue(ExprContext &ctx, const Expr *residual, int x) {
  if (!isLinearIn(residual, x))
    return nullptr;
  const Expr *at0 = substitute(ctx, residual, {{x, ctx.zero()}});
  const Expr *at1 = substitute(ctx, residual, {{x, ctx.one()}});
  if (at0->kind() != ExprKind::Const || at1->kind() != ExprKind::Const)
    return nullptr;
  const double a = at1->value() - at0->value();
  if (a == 0 || !std::isfinite(a) || !std::isfinite(at0->value()))
    return nullptr;
  return ctx.constant(-at0->value() / a);
}

} // namespace

size_t substituteConstantUnknowns(FlatSystem &flat) {
  ExprContext &ctx = *flat.ctx;
  auto replaceable = [&](int v) {
    const Variable &var = flat.vars[v];
    return var.role == VarRole::Unknown && var.type == ValueType::Real && var.derivative < 0;
  };
  // The unknowns each equation reads, and the equations that read each unknown.
  std::vector<std::vector<int>> reads(flat.equations.size());
  std::unordered_map<int, std::vector<size_t>> readers;
  std::vector<size_t> work;
  for (size_t i = 0; i < flat.equations.size(); ++i) {
    if (flat.equations[i].number == kAlgorithmSection)
      continue; // an algorithm's outputs are computed together, as written
    for (int v : collectVars(flat.residual(flat.equations[i])))
      if (!flat.vars[v].isKnown()) {
        reads[i].push_back(v);
        readers[v].push_back(i);
      }
    work.push_back(i);
  }
  std::vector<char> defining(flat.equations.size(), 0), replaced(flat.vars.size(), 0);
  size_t count = 0;
  while (!work.empty()) {
    const size_t i = work.back();
    work.pop_back();
    if (defining[i] || reads[i].size() != 1 || !replaceable(reads[i][0]) || replaced[reads[i][0]])
      continue;
    const int x = reads[i][0];
    const Expr *value = fixedValue(ctx, flat.residual(flat.equations[i]), x);
    if (!value)
      continue;
    defining[i] = 1;
    replaced[x] = 1;
    ++count;
    for (size_t j : readers[x]) {
      if (j == i || defining[j])
        continue;
      Equation &eq = flat.equations[j];
      eq.lhs = substitute(ctx, eq.lhs, {{x, value}});
      eq.rhs = substitute(ctx, eq.rhs, {{x, value}});
      // What it reads now: substitution may have cancelled other unknowns too (0·y).
      reads[j].clear();
      for (int v : collectVars(flat.residual(eq)))
        if (!flat.vars[v].isKnown())
          reads[j].push_back(v);
      work.push_back(j);
    }
  }
  return count;
}

size_t unlinkUnreadDerivatives(FlatSystem &flat) {
  // Every variable any expression reads (pre() and delay() included); one walk over the DAG.
  std::vector<char> read(flat.vars.size(), 0), visited;
  std::vector<const Expr *> stack;
  auto mark = [&](const Expr *e) {
    if (e)
      stack.push_back(e);
    while (!stack.empty()) {
      const Expr *n = stack.back();
      stack.pop_back();
      if (n->id() >= visited.size())
        visited.resize(std::max<size_t>(n->id() + 1, visited.size() * 2), 0);
      if (visited[n->id()])
        continue;
      visited[n->id()] = 1;
      if (n->kind() == ExprKind::Var || n->kind() == ExprKind::Pre)
        read[n->var()] = 1;
      stack.insert(stack.end(), n->ops().begin(), n->ops().end());
    }
  };
  for (const Variable &var : flat.vars) {
    mark(var.binding);
    mark(var.nominal);
    mark(var.min);
    mark(var.max);
    mark(var.relation);
  }
  for (const std::vector<Equation> *section : {&flat.equations, &flat.initialEquations})
    for (const Equation &eq : *section) {
      mark(eq.lhs);
      mark(eq.rhs);
    }
  for (const WhenClause &w : flat.whens)
    for (const WhenBranch &br : w.branches) {
      for (const Expr *c : br.conditions)
        mark(c);
      for (auto &[v, e] : br.assignments)
        mark(e);
      for (auto &[v, e] : br.reinits) {
        read[v] = 1;
        mark(e);
      }
    }
  for (const DiscreteEquation &eq : flat.discreteEquations)
    mark(eq.value);
  for (const Assertion &a : flat.assertions) {
    mark(a.condition);
    for (const MessagePart &part : a.message)
      mark(part.value);
  }
  size_t count = 0;
  for (size_t x = 0; x < flat.vars.size(); ++x) {
    Variable &var = flat.vars[x];
    if (var.role != VarRole::Unknown || var.derivative < 0 || read[var.derivative] || var.fixed)
      continue;
    Variable &d = flat.vars[var.derivative];
    if (d.derivative >= 0)
      continue;
    d.role = VarRole::Parameter;
    d.derivativeOf = -1;
    d.binding = flat.ctx->zero();
    d.generated = true;
    d.structural = true;
    var.derivative = -1;
    ++count;
  }
  return count;
}

} // namespace eqc

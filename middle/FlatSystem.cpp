// Textual form of the flat system (`eqc check`, `--dump-after=flatten`).
#include "middle/FlatSystem.h"

#include "middle/ExprOps.h"
#include "middle/Function.h"

#include <algorithm>
#include <unordered_map>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <ostream>
#include <sstream>

namespace eqc {

std::string FlatSystem::varName(int v) const { return vars[v].name; }

std::string FlatSystem::equationLabel(const Equation &eq, const char *kind) const {
  std::string label = eq.number == kAlgorithmSection
                          ? std::string("the algorithm section")
                          : std::string(kind) + " " + std::to_string(eq.number) +
                                (eq.part ? "." + std::to_string(eq.part) : std::string());
  if (eq.origin < 0)
    return label;
  const std::string &origin = origins[eq.origin];
  if (origin.compare(0, 8, "connect(") == 0 || origin.compare(0, 11, "connection ") == 0)
    return origin;
  // "i = 5" is a loop index; anything else names a component, possibly followed by loop indices.
  size_t eqSign = origin.find(" = ");
  size_t comma = origin.find(", ");
  if (eqSign != std::string::npos && (comma == std::string::npos || eqSign < comma))
    return label + " (" + origin + ")";
  if (comma != std::string::npos)
    return label + " of " + origin.substr(0, comma) + " (" + origin.substr(comma + 2) + ")";
  return label + " of " + origin;
}

int FlatSystem::derivativeVar(int v) {
  if (vars[v].derivative < 0) {
    Variable d;
    d.name = "der(" + vars[v].name + ")";
    d.role = VarRole::Derivative;
    d.loc = vars[v].loc;
    d.derivativeOf = v;
    vars[v].derivative = static_cast<int>(vars.size());
    vars.push_back(std::move(d));
  }
  return vars[v].derivative;
}

std::vector<int> FlatSystem::sourceOrders() const {
  std::vector<int> order(vars.size(), 0);
  for (const Equation &eq : equations)
    for (int v : collectVars(residual(eq))) {
      int k = 0, base = v;
      while (vars[base].role == VarRole::Derivative) {
        base = vars[base].derivativeOf;
        ++k;
      }
      order[base] = std::max(order[base], k);
    }
  return order;
}

void FlatSystem::forEachExpr(const std::function<void(const Expr *&)> &f) {
  auto visit = [&](const Expr *&e) {
    if (e)
      f(e);
  };
  for (Variable &var : vars) {
    visit(var.binding);
    visit(var.nominal);
    visit(var.min);
    visit(var.max);
    visit(var.relation);
  }
  for (std::vector<Equation> *section : {&equations, &initialEquations})
    for (Equation &eq : *section) {
      visit(eq.lhs);
      visit(eq.rhs);
    }
  for (WhenClause &w : whens)
    for (WhenBranch &br : w.branches) {
      for (const Expr *&c : br.conditions)
        visit(c);
      for (auto &assignment : br.assignments)
        visit(assignment.second);
      for (auto &reinit : br.reinits)
        visit(reinit.second);
    }
  for (DiscreteEquation &eq : discreteEquations)
    visit(eq.value);
  for (Assertion &a : assertions) {
    visit(a.condition);
    for (MessagePart &part : a.message)
      visit(part.value);
  }
  for (SensitivityParameter &s : sensitivities)
    for (auto &indicator : s.indicators)
      visit(indicator.second);
}

FlatSystem FlatSystem::prefixCopy(size_t count) const {
  FlatSystem copy = *this;
  copy.vars.resize(count);
  for (Variable &v : copy.vars)
    if (v.derivative >= static_cast<int>(count))
      v.derivative = -1;
  return copy;
}

void FlatSystem::print(std::ostream &os) const {
  VarNamer namer = [this](int v) { return varName(v); };
  size_t states = 0, algebraics = 0, params = 0, discretes = 0;
  for (size_t i = 0; i < vars.size(); ++i) {
    if (vars[i].role == VarRole::Parameter)
      ++params;
    else if (vars[i].role == VarRole::Discrete)
      ++discretes;
    else if (vars[i].role == VarRole::Unknown)
      (isState(static_cast<int>(i)) ? states : algebraics)++;
  }
  os << "model " << modelName;
  if (!description.empty())
    os << " \"" << description << "\"";
  os << "\n  // " << states + algebraics << " unknowns (" << states << " differentiated, " << algebraics
     << " algebraic), " << equations.size() << " equations, " << params << " parameters";
  if (discretes)
    os << ", " << discretes << " discrete";
  if (!whens.empty())
    os << ", " << whens.size() << " when-clause" << (whens.size() == 1 ? "" : "s");
  os << "\n";
  if (!componentSizes.empty()) {
    os << "  // components (scalar unknowns / equations):\n";
    size_t width = 0;
    for (const ComponentSize &c : componentSizes)
      width = std::max(width, c.name.size() + c.className.size() + 3);
    for (const ComponentSize &c : componentSizes) {
      std::string head = c.name + " (" + c.className + ")";
      os << "  //   " << head << std::string(width - head.size() + 2, ' ') << c.unknowns << " / " << c.equations
         << "\n";
    }
  }
  for (size_t f = 0; f < ctx->numFunctions(); ++f) {
    std::ostringstream text;
    printFunction(text, ctx->function(static_cast<int>(f)));
    std::istringstream lines(text.str());
    for (std::string line; std::getline(lines, line);)
      os << "  // " << line << "\n";
  }
  for (size_t i = 0; i < vars.size(); ++i) {
    const Variable &v = vars[i];
    if (v.role == VarRole::Parameter) {
      const char *type = valueTypeName(v.type);
      os << "  parameter " << type << " " << v.name << " = " << toString(v.binding, namer) << ";\n";
    } else if (v.role == VarRole::Input) {
      os << "  input Real " << v.name;
      if (v.binding)
        os << "(start = " << toString(v.binding, namer) << ")";
      os << ";\n";
    }
  }
  for (size_t i = 0; i < vars.size(); ++i) {
    const Variable &v = vars[i];
    if (v.role != VarRole::Discrete || v.relation)
      continue;
    const char *type = valueTypeName(v.type);
    os << "  discrete " << type << " " << v.name;
    if (v.hasStart)
      os << "(start = " << toString(v.binding, namer) << ")";
    os << ";\n";
  }
  for (size_t i = 0; i < vars.size(); ++i) {
    const Variable &v = vars[i];
    if (v.role != VarRole::Unknown)
      continue;
    os << "  Real " << v.name;
    std::string mods;
    if (v.hasStart)
      mods += "start = " + toString(v.binding, namer);
    if (v.fixed)
      mods += std::string(mods.empty() ? "" : ", ") + "fixed = true";
    if (!mods.empty())
      os << "(" << mods << ")";
    os << ";  // " << (isState(static_cast<int>(i)) ? "state" : "algebraic") << "\n";
  }
  for (size_t i = 0; i < vars.size(); ++i)
    if (vars[i].role == VarRole::Derivative && isState(static_cast<int>(i)))
      os << "  // " << vars[i].name << ": state (first-order form of " << vars[vars[i].derivative].name << ")\n";
  os << "equation\n";
  for (const Equation &eq : equations)
    os << "  " << toString(eq.lhs, namer) << " = " << toString(eq.rhs, namer) << ";\n";
  for (const DiscreteEquation &eq : discreteEquations)
    os << "  " << varName(eq.var) << " = " << toString(eq.value, namer) << ";\n";
  for (const WhenClause &w : whens) {
    for (size_t b = 0; b < w.branches.size(); ++b) {
      const WhenBranch &br = w.branches[b];
      os << "  " << (b ? "elsewhen " : "when ");
      if (br.conditions.size() == 1) {
        os << toString(br.conditions[0], namer);
      } else {
        os << "{";
        for (size_t k = 0; k < br.conditions.size(); ++k)
          os << (k ? ", " : "") << toString(br.conditions[k], namer);
        os << "}";
      }
      os << " then\n";
      for (auto &[v, e] : br.assignments)
        os << "    " << varName(v) << " = " << toString(e, namer) << ";\n";
      for (auto &[v, e] : br.reinits)
        os << "    reinit(" << varName(v) << ", " << toString(e, namer) << ");\n";
      if (br.terminates)
        os << "    terminate(\"" << br.terminate << "\");\n";
    }
    os << "  end when;\n";
  }
  if (!initialEquations.empty()) {
    os << "initial equation\n";
    for (const Equation &eq : initialEquations)
      os << "  " << toString(eq.lhs, namer) << " = " << toString(eq.rhs, namer) << ";\n";
  }
  os << "end " << modelName << ";\n";
}

std::vector<int> dependentParameters(const FlatSystem &flat, const std::vector<int> &params) {
  std::unordered_map<int, int> position;
  for (size_t i = 0; i < params.size(); ++i)
    position.emplace(params[i], static_cast<int>(i));
  std::vector<int> order;
  std::vector<char> state(params.size(), 0); // 0 unvisited, 1 visiting, 2 done
  std::vector<char> dependent(params.size(), 0);
  // Depth first through the bindings (iterative: long chains of parameters do not recurse).
  for (size_t root = 0; root < params.size(); ++root) {
    if (state[root])
      continue;
    std::vector<std::pair<int, std::vector<int>>> stack;
    auto reads = [&](int k) {
      std::vector<int> deps;
      if (flat.vars[params[k]].role == VarRole::Input)
        return deps; // an input's default (its start value) is not recomputed: it is the caller's
      if (const Expr *b = flat.vars[params[k]].binding)
        for (int v : collectVars(b))
          if (auto it = position.find(v); it != position.end())
            deps.push_back(it->second);
      return deps;
    };
    stack.emplace_back(static_cast<int>(root), reads(static_cast<int>(root)));
    state[root] = 1;
    while (!stack.empty()) {
      auto &[k, deps] = stack.back();
      if (!deps.empty()) {
        int d = deps.back();
        deps.pop_back();
        dependent[k] = 1;
        if (!state[d]) {
          state[d] = 1;
          stack.emplace_back(d, reads(d));
        }
        continue;
      }
      state[k] = 2;
      if (dependent[k] || flat.vars[params[k]].object)
        order.push_back(k);
      stack.pop_back();
    }
  }
  return order;
}

std::vector<size_t> assignmentOrder(const WhenBranch &br) {
  const size_t n = br.assignments.size();
  std::vector<size_t> order;
  if (!br.equations) {
    for (size_t i = 0; i < n; ++i)
      order.push_back(i);
    return order;
  }
  std::unordered_map<int, size_t> assigned;
  for (size_t i = 0; i < n; ++i)
    assigned.emplace(br.assignments[i].first, i);
  // Depth first: an assignment after the ones it reads (those on the current path are a cycle
  // and are not waited for).
  std::vector<char> state(n, 0); // 0 new, 1 on the path, 2 placed
  std::function<void(size_t)> place = [&](size_t i) {
    state[i] = 1;
    for (int v : collectVars(br.assignments[i].second))
      if (auto it = assigned.find(v); it != assigned.end() && it->second != i && state[it->second] == 0)
        place(it->second);
    state[i] = 2;
    order.push_back(i);
  };
  for (size_t i = 0; i < n; ++i)
    if (state[i] == 0)
      place(i);
  return order;
}

std::vector<int> objectParameters(const FlatSystem &flat, const std::vector<int> &params) {
  std::vector<int> result;
  if (std::none_of(params.begin(), params.end(), [&](int v) { return flat.vars[v].object; }))
    return result; // most models: no dependency order to compute
  std::vector<int> order = dependentParameters(flat, params);
  std::unordered_set<int> made; // variables of the result so far: the order puts what they read first
  for (int k : order) {
    const int var = params[static_cast<size_t>(k)];
    bool reads = flat.vars[var].object;
    if (!reads)
      if (const Expr *b = flat.vars[var].binding)
        for (int v : collectVars(b))
          if (made.count(v)) {
            reads = true;
            break;
          }
    if (reads) {
      made.insert(var);
      result.push_back(k);
    }
  }
  return result;
}

std::vector<int> parameterDependentStarts(const FlatSystem &flat, const std::vector<int> &states,
                                          const std::vector<int> &params) {
  std::unordered_set<int> isParam(params.begin(), params.end());
  std::vector<int> result;
  for (size_t i = 0; i < states.size(); ++i)
    if (const Expr *b = flat.vars[states[i]].binding)
      for (int v : collectVars(b))
        if (isParam.count(v)) {
          result.push_back(static_cast<int>(i));
          break;
        }
  return result;
}

} // namespace eqc

// Textual form of the flat system (`eqc check`, `--dump-after=flatten`).
#include "middle/FlatSystem.h"

#include "middle/ExprOps.h"

#include <ostream>

namespace eqc {

std::string FlatSystem::varName(int v) const { return vars[v].name; }

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

void FlatSystem::print(std::ostream &os) const {
  VarNamer namer = [this](int v) { return varName(v); };
  size_t states = 0, algebraics = 0, params = 0;
  for (size_t i = 0; i < vars.size(); ++i) {
    if (vars[i].role == VarRole::Parameter)
      ++params;
    else if (vars[i].role == VarRole::Unknown)
      (isState(static_cast<int>(i)) ? states : algebraics)++;
  }
  os << "model " << modelName;
  if (!description.empty())
    os << " \"" << description << "\"";
  os << "\n  // " << states + algebraics << " unknowns (" << states << " differentiated, " << algebraics
     << " algebraic), " << equations.size() << " equations, " << params << " parameters\n";
  for (size_t i = 0; i < vars.size(); ++i) {
    const Variable &v = vars[i];
    if (v.role == VarRole::Parameter) {
      const char *type = v.type == ValueType::Boolean ? "Boolean" : v.type == ValueType::Integer ? "Integer" : "Real";
      os << "  parameter " << type << " " << v.name << " = " << toString(v.binding, namer) << ";\n";
    }
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
  if (!initialEquations.empty()) {
    os << "initial equation\n";
    for (const Equation &eq : initialEquations)
      os << "  " << toString(eq.lhs, namer) << " = " << toString(eq.rhs, namer) << ";\n";
  }
  os << "end " << modelName << ";\n";
}

} // namespace eqc

// Name resolution, type checks and lowering of one model to scalar equations.
#include "frontend/Flatten.h"

#include "middle/ExprOps.h"
#include "middle/TimeDerivative.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

namespace eqc {
namespace {

enum class Context { Equation, Parameter, Start };

/// A lowered expression: its node (nullptr after an error) and whether it is Boolean.
struct Typed {
  const Expr *expr = nullptr;
  bool isBool = false;
};

/// Optimal-string-alignment distance: edits plus adjacent transpositions ("gian" → "gain" is 1).
size_t editDistance(const std::string &a, const std::string &b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

class Flattener {
public:
  Flattener(const ast::Model &model, Diagnostics &diags) : model_(model), diags_(diags) {
    sys_.ctx = std::make_shared<ExprContext>();
    sys_.modelName = model.name;
    sys_.description = model.description;
    sys_.loc = model.range;
    differentiator_ = std::make_unique<Differentiator>(*sys_.ctx);
  }

  std::optional<FlatSystem> run() {
    checkEndName();
    declare();
    lowerParameters();
    lowerAttributes();
    lowerEquations(model_.equations, sys_.equations, false);
    lowerEquations(model_.initialEquations, sys_.initialEquations, true);
    readAnnotation();
    if (!diags_.hasErrors())
      checkBalance();
    if (diags_.hasErrors())
      return std::nullopt;
    return std::move(sys_);
  }

private:
  ExprContext &ctx() { return *sys_.ctx; }

  void checkEndName() {
    if (model_.endName.empty()) {
      diags_.error(model_.range, "model '" + model_.name + "' must end with 'end " + model_.name + ";'");
    } else if (model_.endName != model_.name) {
      diags_.error(model_.endRange, "'end " + model_.endName + "' does not match model name '" +
                                        model_.name + "'");
      diags_.note(model_.range, "model '" + model_.name + "' starts here");
    }
  }

  struct Symbol {
    enum Kind { Var, Constant } kind;
    int var = -1;                            ///< Var: index in sys_.vars
    const ast::Component *component = nullptr;
    const ast::Declaration *decl = nullptr;
    enum State { Unvisited, Visiting, Done } state = Unvisited; ///< Constant evaluation
    const Expr *value = nullptr;             ///< Constant: folded value
  };

  void declare() {
    for (const ast::Declaration &d : model_.declarations) {
      ValueType type;
      if (d.typeName == "Real")
        type = ValueType::Real;
      else if (d.typeName == "Integer")
        type = ValueType::Integer;
      else if (d.typeName == "Boolean")
        type = ValueType::Boolean;
      else {
        diags_.error(d.typeRange, "unknown type '" + d.typeName + "' (known types: Real, Integer, Boolean)");
        continue;
      }
      if (d.prefix == ast::Prefix::None && type != ValueType::Real) {
        diags_.error(d.typeRange, "time-varying " + d.typeName +
                                      " variables are not supported yet; declare it 'parameter' or use Real");
        continue;
      }
      for (const ast::Component &c : d.components) {
        if (c.name == "time") {
          diags_.error(c.range, "'time' is a reserved name and cannot be declared");
          continue;
        }
        auto prev = symbols_.find(c.name);
        if (prev != symbols_.end()) {
          diags_.error(c.range, "duplicate declaration of '" + c.name + "'");
          diags_.note(prev->second.component->range, "previous declaration of '" + c.name + "' is here");
          continue;
        }
        Symbol sym;
        sym.component = &c;
        sym.decl = &d;
        if (d.prefix == ast::Prefix::Constant) {
          sym.kind = Symbol::Constant;
        } else {
          sym.kind = Symbol::Var;
          Variable v;
          v.name = c.name;
          v.role = d.prefix == ast::Prefix::Parameter ? VarRole::Parameter : VarRole::Unknown;
          v.type = type;
          v.loc = c.range;
          v.description = c.description;
          sym.var = static_cast<int>(sys_.vars.size());
          sys_.vars.push_back(std::move(v));
        }
        symbols_.emplace(c.name, sym);
        order_.push_back(c.name);
      }
    }
  }

  const ast::Modifier *findModifier(const ast::Component &c, const char *name) {
    for (const ast::Modifier &m : c.modifiers)
      if (m.name == name)
        return &m;
    return nullptr;
  }

  /// Constants fold to numbers; detects cycles among them.
  const Expr *constantValue(Symbol &sym, SourceRange use) {
    if (sym.state == Symbol::Done)
      return sym.value;
    if (sym.state == Symbol::Visiting) {
      diags_.error(use, "constant '" + sym.component->name + "' is defined in terms of itself");
      return nullptr;
    }
    sym.state = Symbol::Visiting;
    const ast::Expr *def = sym.component->binding.get();
    if (!def) {
      diags_.error(sym.component->range, "constant '" + sym.component->name + "' has no value");
    } else {
      Typed t = lower(*def, Context::Parameter);
      if (t.expr && !t.expr->isConst() && t.expr->kind() != ExprKind::BoolConst) {
        diags_.error(def->range, "the value of constant '" + sym.component->name +
                                     "' must be computable at compile time (only literals and constants)");
        t.expr = nullptr;
      }
      sym.value = t.expr;
    }
    sym.state = Symbol::Done;
    return sym.value;
  }

  void lowerParameters() {
    for (const std::string &name : order_) {
      Symbol &sym = symbols_.at(name);
      if (sym.kind == Symbol::Constant) {
        constantValue(sym, sym.component->range);
        continue;
      }
      Variable &v = sys_.vars[sym.var];
      if (v.role != VarRole::Parameter)
        continue;
      const ast::Expr *def = sym.component->binding.get();
      if (!def)
        if (const ast::Modifier *start = findModifier(*sym.component, "start"))
          def = start->value.get();
      if (!def) {
        diags_.error(sym.component->range, "parameter '" + name + "' has no value; write 'parameter " +
                                               sym.decl->typeName + " " + name + " = ...;'");
        v.binding = ctx().zero();
        continue;
      }
      Typed t = lower(*def, Context::Parameter);
      if (t.expr && t.isBool != (v.type == ValueType::Boolean)) {
        diags_.error(def->range, std::string("parameter '") + name + "' is " + sym.decl->typeName +
                                     " but its value is " + (t.isBool ? "Boolean" : "Real"));
        t.expr = nullptr;
      }
      if (v.type == ValueType::Integer && t.expr && t.expr->isConst() &&
          t.expr->value() != std::floor(t.expr->value()))
        diags_.error(def->range, "Integer parameter '" + name + "' has a non-integer value");
      sys_.vars[sym.var].binding = t.expr ? t.expr : ctx().zero();
    }
    checkParameterCycles();
  }

  void checkParameterCycles() {
    // Depth-first search over parameter → parameters its binding uses (iterative).
    std::vector<int> state(sys_.vars.size(), 0); // 0 new, 1 on stack, 2 done
    for (size_t root = 0; root < sys_.vars.size(); ++root) {
      if (sys_.vars[root].role != VarRole::Parameter || state[root])
        continue;
      std::vector<std::pair<int, std::vector<int>>> stack;
      stack.push_back({static_cast<int>(root), collectVars(sys_.vars[root].binding)});
      state[root] = 1;
      while (!stack.empty()) {
        auto &[v, pending] = stack.back();
        if (pending.empty()) {
          state[v] = 2;
          stack.pop_back();
          continue;
        }
        int w = pending.back();
        pending.pop_back();
        if (state[w] == 1) {
          diags_.error(sys_.vars[v].loc, "parameter '" + sys_.vars[v].name + "' depends on itself through '" +
                                             sys_.vars[w].name + "'");
          return;
        }
        if (state[w] == 0) {
          state[w] = 1;
          stack.push_back({w, collectVars(sys_.vars[w].binding)});
        }
      }
    }
  }

  const Expr *realAttribute(const ast::Modifier &m) {
    if (!m.value) {
      diags_.error(m.range, "attribute '" + m.name + "' needs a value");
      return nullptr;
    }
    Typed t = lower(*m.value, Context::Start);
    if (t.expr && t.isBool) {
      diags_.error(m.value->range, "attribute '" + m.name + "' must be a Real expression");
      return nullptr;
    }
    return t.expr;
  }

  void lowerAttributes() {
    for (const std::string &name : order_) {
      Symbol &sym = symbols_.at(name);
      if (sym.kind != Symbol::Var)
        continue;
      Variable &v = sys_.vars[sym.var];
      for (const ast::Modifier &m : sym.component->modifiers) {
        if (m.name == "start") {
          if (v.role == VarRole::Unknown) {
            v.binding = realAttribute(m);
            v.hasStart = v.binding != nullptr;
          }
        } else if (m.name == "fixed") {
          Typed t = m.value ? lower(*m.value, Context::Start) : Typed{};
          if (!t.expr || t.expr->kind() != ExprKind::BoolConst) {
            diags_.error(m.value ? m.value->range : m.range, "attribute 'fixed' must be true or false");
            continue;
          }
          v.fixed = t.expr->boolValue();
        } else if (m.name == "nominal") {
          v.nominal = realAttribute(m);
        } else if (m.name == "min") {
          v.min = realAttribute(m);
        } else if (m.name == "max") {
          v.max = realAttribute(m);
        } else if (m.name == "unit" || m.name == "displayUnit" || m.name == "quantity") {
          if (!m.value || m.value->kind != ast::ExprKind::String) {
            diags_.error(m.range, "attribute '" + m.name + "' must be a string");
            continue;
          }
          if (m.name == "unit")
            v.unit = m.value->text;
        } else if (m.name == "stateSelect") {
          static const std::pair<const char *, StateSelect> kinds[] = {
              {"StateSelect.never", StateSelect::Never}, {"StateSelect.avoid", StateSelect::Avoid},
              {"StateSelect.default", StateSelect::Default}, {"StateSelect.prefer", StateSelect::Prefer},
              {"StateSelect.always", StateSelect::Always}};
          bool ok = false;
          for (auto &[text, kind] : kinds)
            if (m.value && m.value->kind == ast::ExprKind::Name && m.value->text == text) {
              v.stateSelect = kind;
              ok = true;
            }
          if (!ok)
            diags_.error(m.value ? m.value->range : m.range,
                         "stateSelect must be one of StateSelect.never, avoid, default, prefer, always");
        } else {
          diags_.error(m.range, "unknown attribute '" + m.name + "' (known: start, fixed, nominal, min, max, "
                                "unit, displayUnit, quantity, stateSelect)");
        }
      }
      // `Real x = expr;` is an equation of the model.
      if (v.role == VarRole::Unknown && sym.component->binding)
        declarationEquations_.push_back(sym.component);
    }
  }

  void lowerEquations(const std::vector<ast::Equation> &in, std::vector<Equation> &out, bool initial) {
    int number = 0;
    for (const ast::Equation &eq : in) {
      ++number;
      if (!initial && eq.lhs->kind == ast::ExprKind::Name) {
        auto it = symbols_.find(eq.lhs->text);
        if (it != symbols_.end() && (it->second.kind == Symbol::Constant ||
                                     sys_.vars[it->second.var].role == VarRole::Parameter)) {
          const char *what = it->second.kind == Symbol::Constant ? "constant" : "parameter";
          diags_.error(eq.lhs->range, std::string("cannot assign to ") + what + " '" + eq.lhs->text +
                                          "' in an equation section; give it its value in the declaration");
          diags_.note(it->second.component->range, std::string(what) + " '" + eq.lhs->text + "' is declared here");
          continue;
        }
      }
      addEquation(*eq.lhs, *eq.rhs, eq.range, number, out, initial);
    }
    if (!initial)
      for (const ast::Component *c : declarationEquations_) {
        ast::Expr lhs;
        lhs.kind = ast::ExprKind::Name;
        lhs.text = c->name;
        lhs.range = c->range;
        addEquation(lhs, *c->binding, c->range, ++number, out, false);
      }
  }

  void addEquation(const ast::Expr &lhsAst, const ast::Expr &rhsAst, SourceRange range, int number,
                   std::vector<Equation> &out, bool initial) {
    Typed lhs = lower(lhsAst, Context::Equation);
    Typed rhs = lower(rhsAst, Context::Equation);
    if (!lhs.expr || !rhs.expr)
      return;
    if (lhs.isBool || rhs.isBool) {
      diags_.error(lhs.isBool ? lhsAst.range : rhsAst.range,
                   "equations between Boolean expressions are not supported; both sides must be Real");
      return;
    }
    Equation eq{lhs.expr, rhs.expr, range, number};
    bool hasUnknown = false;
    for (int v : collectVars(sys_.residual(eq)))
      hasUnknown = hasUnknown || sys_.vars[v].role != VarRole::Parameter;
    if (!hasUnknown && !initial) {
      diags_.error(range, "equation does not involve any unknown (only parameters, constants and time)");
      return;
    }
    out.push_back(eq);
  }

  /// eqc's own settings of a model: how to reduce its index and stabilize its invariants.
  void readEqcAnnotation(const ast::Modifier &m) {
    Experiment &ex = sys_.experiment;
    for (const ast::Modifier &a : m.args) {
      if (a.name == "reduction" || a.name == "stabilize") {
        static const char *reductions[] = {"dummy", "invariants"};
        static const char *stabilizations[] = {"none", "projection", "baumgarte"};
        bool isReduction = a.name == "reduction";
        bool ok = a.value && a.value->kind == ast::ExprKind::String;
        if (ok) {
          ok = false;
          for (const char *k : isReduction ? std::vector<const char *>(reductions, reductions + 2)
                                           : std::vector<const char *>(stabilizations, stabilizations + 3))
            ok = ok || a.value->text == k;
        }
        if (!ok) {
          diags_.error(a.value ? a.value->range : a.range,
                       isReduction ? "reduction must be \"dummy\" or \"invariants\""
                                   : "stabilize must be \"none\", \"projection\" or \"baumgarte\"");
          continue;
        }
        (isReduction ? ex.reduction : ex.stabilize) = a.value->text;
      } else if (a.name == "eta" || a.name == "omega") {
        Typed t = a.value ? lower(*a.value, Context::Start) : Typed{};
        if (!t.expr || !t.expr->isConst() || !(t.expr->value() > 0)) {
          diags_.error(a.value ? a.value->range : a.range, a.name + " must be a positive number");
          continue;
        }
        (a.name == "eta" ? ex.eta : ex.omega) = t.expr->value();
      } else {
        diags_.warning(a.range, "unknown eqc setting '" + a.name + "' ignored (known: reduction, stabilize, eta, omega)");
      }
    }
  }

  void readAnnotation() {
    for (const ast::Modifier &m : model_.annotation) {
      if (m.name == "__eqc") {
        readEqcAnnotation(m);
        continue;
      }
      if (m.name != "experiment")
        continue; // Unknown annotations are ignored, as in Modelica.
      for (const ast::Modifier &a : m.args) {
        double *slot = a.name == "StartTime"   ? &sys_.experiment.startTime
                       : a.name == "StopTime"  ? &sys_.experiment.stopTime
                       : a.name == "Tolerance" ? &sys_.experiment.tolerance
                       : a.name == "Interval"  ? &sys_.experiment.interval
                                               : nullptr;
        if (!slot) {
          diags_.warning(a.range, "unknown experiment setting '" + a.name +
                                      "' ignored (known: StartTime, StopTime, Tolerance, Interval)");
          continue;
        }
        Typed t = a.value ? lower(*a.value, Context::Start) : Typed{};
        if (!t.expr || !t.expr->isConst()) {
          diags_.error(a.value ? a.value->range : a.range, "experiment setting '" + a.name + "' must be a number");
          continue;
        }
        *slot = t.expr->value();
        if (slot == &sys_.experiment.startTime)
          sys_.experiment.hasStartTime = true;
        else if (*slot <= 0 || !std::isfinite(*slot))
          diags_.error(a.value->range, "experiment setting '" + a.name + "' must be positive");
      }
    }
  }

  void checkBalance() {
    std::vector<std::string> unknowns;
    for (const Variable &v : sys_.vars)
      if (v.role == VarRole::Unknown)
        unknowns.push_back(v.name);
    size_t neq = sys_.equations.size();
    if (neq == unknowns.size())
      return;
    diags_.error(model_.range, "model '" + model_.name + "' has " + plural(neq, "equation") + " but " +
                                   plural(unknowns.size(), "unknown") + " (" +
                                   (neq > unknowns.size() ? "too many equations" : "too few equations") + ")");
    std::string list;
    for (size_t i = 0; i < unknowns.size() && i < 20; ++i)
      list += (i ? ", " : "") + unknowns[i];
    if (unknowns.size() > 20)
      list += ", ...";
    if (!unknowns.empty())
      diags_.note(SourceRange{}, "the unknowns are: " + list);
  }

  // ---- expressions ----

  Typed fail() { return Typed{}; }

  Typed real(const ast::Expr &e, Context cx) {
    Typed t = lower(e, cx);
    if (t.expr && t.isBool) {
      diags_.error(e.range, "expected a Real expression, found a Boolean one");
      return fail();
    }
    return t;
  }

  Typed boolean(const ast::Expr &e, Context cx) {
    Typed t = lower(e, cx);
    if (t.expr && !t.isBool) {
      diags_.error(e.range, "expected a Boolean expression (a condition), found a Real one");
      return fail();
    }
    return t;
  }

  Typed name(const ast::Expr &e, Context cx) {
    if (e.text == "time") {
      if (cx != Context::Equation) {
        diags_.error(e.range, "'time' cannot be used in a parameter value or attribute");
        return fail();
      }
      return {ctx().time(), false};
    }
    auto it = symbols_.find(e.text);
    if (it == symbols_.end()) {
      std::string best;
      size_t bestDist = std::max<size_t>(1, e.text.size() / 3) + 1;
      for (const std::string &n : order_) {
        if (n.size() > e.text.size() + bestDist || e.text.size() > n.size() + bestDist)
          continue;
        size_t d = editDistance(n, e.text);
        if (d < bestDist) {
          bestDist = d;
          best = n;
        }
      }
      diags_.error(e.range, "undefined name '" + e.text + "'" + (best.empty() ? "" : "; did you mean '" + best + "'?"));
      return fail();
    }
    Symbol &sym = it->second;
    if (sym.kind == Symbol::Constant) {
      const Expr *v = constantValue(sym, e.range);
      return v ? Typed{v, v->isBool()} : fail();
    }
    const Variable &v = sys_.vars[sym.var];
    if (v.role == VarRole::Unknown && cx != Context::Equation) {
      diags_.error(e.range, "'" + e.text + "' is a time-varying variable and cannot be used in " +
                                (cx == Context::Parameter ? "a parameter value" : "an attribute"));
      return fail();
    }
    bool isBool = v.type == ValueType::Boolean;
    return {ctx().var(sym.var, isBool), isBool};
  }

  /// der(v) of a variable is the variable der(v); der(expr) is expanded by the chain rule, so
  /// der(x*y) = der(x)*y + x*der(y) and der(der(x)) is a second derivative.
  Typed der(const ast::Expr &e, Context cx) {
    if (cx != Context::Equation) {
      diags_.error(e.range, "der() can only be used in equations");
      return fail();
    }
    const ast::Expr &arg = *e.args[0];
    Typed t = lower(arg, cx);
    if (!t.expr)
      return fail();
    if (t.isBool) {
      diags_.error(arg.range, "der() of a Boolean expression is not defined");
      return fail();
    }
    if (t.expr->kind() == ExprKind::Var && sys_.vars[t.expr->var()].role != VarRole::Parameter)
      return {ctx().var(sys_.derivativeVar(t.expr->var())), false};
    for (const Expr *node : nonDifferentiable(t.expr)) {
      diags_.error(arg.range, "der() of an expression containing '" + std::string(builtinInfo(node->builtin()).name) +
                                  "(...)' is not supported: it is not differentiable where it jumps");
      return fail();
    }
    return {timeDerivative(sys_, *differentiator_, t.expr), false};
  }

  /// Nodes whose derivative would hide a discontinuity (sign, floor, ceil, mod, relations).
  static std::vector<const Expr *> nonDifferentiable(const Expr *e) {
    std::vector<const Expr *> found, stack{e};
    while (!stack.empty() && found.empty()) {
      const Expr *n = stack.back();
      stack.pop_back();
      if (n->kind() == ExprKind::Call && (n->builtin() == Builtin::Sign || n->builtin() == Builtin::Floor ||
                                          n->builtin() == Builtin::Ceil || n->builtin() == Builtin::Mod))
        found.push_back(n);
      for (const Expr *op : n->ops())
        stack.push_back(op);
    }
    return found;
  }

  Typed call(const ast::Expr &e, Context cx) {
    if (e.text == "der") {
      if (e.args.size() != 1) {
        diags_.error(e.nameRange, "function 'der' takes 1 argument but " + std::to_string(e.args.size()) +
                                      (e.args.size() == 1 ? " was" : " were") + " given");
        return fail();
      }
      return der(e, cx);
    }
    Builtin fn;
    if (!lookupBuiltin(e.text, fn)) {
      diags_.error(e.nameRange, "unknown function '" + e.text + "'");
      return fail();
    }
    int arity = builtinInfo(fn).arity;
    if (static_cast<int>(e.args.size()) != arity) {
      diags_.error(e.nameRange, "function '" + e.text + "' takes " + std::to_string(arity) + " argument" +
                                    (arity == 1 ? "" : "s") + " but " + std::to_string(e.args.size()) +
                                    (e.args.size() == 1 ? " was" : " were") + " given");
      return fail();
    }
    std::vector<const Expr *> args;
    bool ok = true;
    for (const auto &a : e.args) {
      Typed t = real(*a, cx);
      ok = ok && t.expr;
      args.push_back(t.expr);
    }
    if (!ok)
      return fail();
    return {ctx().call(fn, std::move(args)), false};
  }

  Typed lower(const ast::Expr &e, Context cx) {
    using K = ast::ExprKind;
    using B = ast::BinaryOp;
    switch (e.kind) {
    case K::Number:
      return {ctx().constant(e.number), false};
    case K::Bool:
      return {ctx().boolean(e.boolean), true};
    case K::String:
      diags_.error(e.range, "a string is not allowed here");
      return fail();
    case K::Name:
      return name(e, cx);
    case K::Call:
      return call(e, cx);
    case K::Unary: {
      if (e.unary == ast::UnaryOp::Not) {
        Typed a = boolean(*e.args[0], cx);
        return a.expr ? Typed{ctx().logicalNot(a.expr), true} : fail();
      }
      Typed a = real(*e.args[0], cx);
      if (!a.expr)
        return fail();
      return {e.unary == ast::UnaryOp::Neg ? ctx().neg(a.expr) : a.expr, false};
    }
    case K::Binary: {
      B op = e.binary;
      if (op == B::And || op == B::Or) {
        Typed a = boolean(*e.args[0], cx), b = boolean(*e.args[1], cx);
        if (!a.expr || !b.expr)
          return fail();
        return {op == B::And ? ctx().logicalAnd(a.expr, b.expr) : ctx().logicalOr(a.expr, b.expr), true};
      }
      Typed a = real(*e.args[0], cx), b = real(*e.args[1], cx);
      if (!a.expr || !b.expr)
        return fail();
      ExprContext &c = ctx();
      switch (op) {
      case B::Add: return {c.add(a.expr, b.expr), false};
      case B::Sub: return {c.sub(a.expr, b.expr), false};
      case B::Mul: return {c.mul(a.expr, b.expr), false};
      case B::Div:
        if (b.expr->isConst(0)) {
          diags_.error(e.args[1]->range, "division by zero");
          return fail();
        }
        return {c.div(a.expr, b.expr), false};
      case B::Pow: return {c.pow(a.expr, b.expr), false};
      case B::Lt: return {c.lt(a.expr, b.expr), true};
      case B::Le: return {c.le(a.expr, b.expr), true};
      case B::Gt: return {c.gt(a.expr, b.expr), true};
      case B::Ge: return {c.ge(a.expr, b.expr), true};
      case B::Eq: return {c.eq(a.expr, b.expr), true};
      case B::Ne: return {c.ne(a.expr, b.expr), true};
      case B::And:
      case B::Or: break;
      }
      return fail();
    }
    case K::If: {
      // args: cond1, then1, ..., else; fold from the last branch outwards.
      size_t n = e.args.size();
      Typed result = lower(*e.args[n - 1], cx);
      bool ok = result.expr != nullptr;
      for (size_t i = n - 1; i >= 2; i -= 2) {
        Typed cond = boolean(*e.args[i - 2], cx);
        Typed then = lower(*e.args[i - 1], cx);
        if (!cond.expr || !then.expr || !result.expr) {
          ok = false;
          continue;
        }
        if (then.isBool != result.isBool) {
          diags_.error(e.args[i - 1]->range, "the branches of an if-expression must have the same type");
          ok = false;
          continue;
        }
        result.expr = ctx().ifThenElse(cond.expr, then.expr, result.expr);
      }
      return ok ? result : fail();
    }
    }
    return fail();
  }

  const ast::Model &model_;
  Diagnostics &diags_;
  FlatSystem sys_;
  std::unique_ptr<Differentiator> differentiator_;
  std::unordered_map<std::string, Symbol> symbols_;
  std::vector<std::string> order_;
  std::vector<const ast::Component *> declarationEquations_;
};

} // namespace

std::optional<FlatSystem> flattenModel(const ast::File &file, const std::string &modelName,
                                       Diagnostics &diags) {
  const ast::Model *model = nullptr;
  for (const ast::Model &m : file.models)
    if (modelName.empty() || m.name == modelName)
      model = &m;
  if (!model) {
    diags.error(SourceRange{}, "no model named '" + modelName + "' in the file");
    return std::nullopt;
  }
  return Flattener(*model, diags).run();
}

} // namespace eqc

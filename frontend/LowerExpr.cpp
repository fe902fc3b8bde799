// Expressions to values: names through instances and packages, subscripts and slices, array
// constructors and ranges, element-wise and matrix arithmetic, builtin and user function calls.
#include "frontend/FlattenImpl.h"

#include "middle/ExprOps.h"
#include "middle/TimeDerivative.h"

#include <filesystem>
#include <algorithm>
#include <deque>
#include <cmath>

namespace eqc::frontend {
namespace {

Type numericType(Type a, Type b) { return a == Type::Integer && b == Type::Integer ? Type::Integer : Type::Real; }

/// Nodes whose derivative would hide a discontinuity (the builtins that jump: middle/Builtins.def).
const Expr *nonDifferentiable(const Expr *e) {
  std::vector<const Expr *> stack{e};
  while (!stack.empty()) {
    const Expr *n = stack.back();
    stack.pop_back();
    if (n->kind() == ExprKind::Call && builtinInfo(n->builtin()).events != BuiltinEvents::Smooth)
      return n;
    for (const Expr *op : n->ops())
      stack.push_back(op);
  }
  return nullptr;
}

} // namespace

const char *typeName(Type t) {
  switch (t) {
  case Type::Real: return "Real";
  case Type::Integer: return "Integer";
  case Type::Boolean: return "Boolean";
  case Type::String: return "String";
  }
  return "?";
}

bool Flattener::expectType(const Value &v, const ast::Expr &e, Type t) {
  if (t == Type::Boolean ? v.type == Type::Boolean : v.isNumeric())
    return true;
  diags_.error(e.range, t == Type::Boolean ? std::string("expected a Boolean expression (a condition), found a ") +
                                                 typeName(v.type) + " one"
                                           : std::string("expected a Real expression, found a ") + typeName(v.type) + " one");
  return false;
}

Value Flattener::lowerReal(const ast::Expr &e, Scope &scope) {
  Value v = lower(e, scope);
  if (v.ok && !expectType(v, e, Type::Real))
    return fail();
  return v;
}

Value Flattener::lowerBool(const ast::Expr &e, Scope &scope) {
  Value v = lower(e, scope);
  if (v.ok && !expectType(v, e, Type::Boolean))
    return fail();
  return v;
}

const Expr *Flattener::scalar(const Value &v, const ast::Expr &e, const char *message) {
  if (!v.ok)
    return nullptr;
  if (!v.isScalar()) {
    diags_.error(e.range, message);
    return nullptr;
  }
  return v.elems[0];
}

Value Flattener::lower(const ast::Expr &e, Scope &scope) {
  using K = ast::ExprKind;
  switch (e.kind) {
  case K::Number: {
    Value v = Value::scalar(ctx().constant(e.number), e.integer && e.number < 9.007199254740992e15 ? Type::Integer : Type::Real);
    return v;
  }
  case K::Bool:
    return Value::scalar(ctx().boolean(e.boolean), Type::Boolean);
  case K::String: {
    // A String value is known at compilation (String parameters and constants, messages): its
    // text; the element is a placeholder. Outside the places that take Strings, an error.
    if (stringContext_ == 0) {
      diags_.error(e.range, "a string is not allowed here");
      return fail();
    }
    Value v = Value::scalar(ctx().zero(), Type::String);
    v.text = e.text;
    return v;
  }
  case K::Name: {
    Value v = lowerName(e, scope);
    if (v.ok && v.type == Type::String && stringContext_ == 0) {
      diags_.error(e.range, "'" + e.text + "' is a String, which is not allowed here");
      return fail();
    }
    return v;
  }
  case K::Call:
    return lowerCall(e, scope);
  case K::Unary: {
    Value a = lower(*e.args[0], scope);
    if (auto overloaded = overloadedUnary(e.unary, a, e.range)) // an operator record's (MLS 3.5, 14.5)
      return *overloaded;
    if (!a.ok || !expectType(a, *e.args[0], e.unary == ast::UnaryOp::Not ? Type::Boolean : Type::Real))
      return fail();
    if (e.unary == ast::UnaryOp::Not) {
      for (const Expr *&x : a.elems)
        x = ctx().logicalNot(x);
      return a;
    }
    if (e.unary == ast::UnaryOp::Plus)
      return a;
    for (const Expr *&x : a.elems)
      x = ctx().neg(x);
    return a;
  }
  case K::Binary:
    return lowerBinary(e, scope);
  case K::If:
    return lowerIf(e, scope);
  case K::Range:
    return lowerRange(e, scope);
  case K::Array:
    return lowerArray(e, scope);
  case K::Matrix:
    return lowerMatrix(e, scope);
  case K::Tuple:
    diags_.error(e.range, "a list of outputs '(a, b)' is only allowed on the left of an equation or assignment");
    return fail();
  case K::End:
    if (endStack_.empty()) {
      diags_.error(e.range, "'end' is only allowed in subscripts, where it is the size of the dimension");
      return fail();
    }
    return Value::scalar(ctx().constant(endStack_.back()), Type::Integer);
  case K::Initial:
    if (scope.context != Context::Equation && scope.context != Context::When) {
      diags_.error(e.range, "initial() can only be used in equations");
      return fail();
    }
    return Value::scalar(ctx().initial(), Type::Boolean);
  }
  return fail();
}

// ---- names ----

/// The element `name` of instances of one class, or an error naming `owner`.
Instance *Flattener::importedConstant(const ClassInfo &c, const std::string &name) {
  for (const ast::Import &imp : c.def->imports) {
    // `import A.B.name;` or `import A.B.*;` (MLS 3.5, 13.2.1): an element of package A.B.
    std::string package;
    if (imp.wildcard)
      package = imp.path;
    else if (imp.alias.empty() && imp.path.size() > name.size() + 1 &&
             imp.path.compare(imp.path.size() - name.size() - 1, std::string::npos, "." + name) == 0)
      package = imp.path.substr(0, imp.path.size() - name.size() - 1);
    if (package.empty())
      continue;
    ClassInfo *pkg = findClass(package, nullptr);
    if (!pkg || !resolveClass(*pkg))
      continue;
    int idx = pkg->find(name);
    if (idx >= 0 && pkg->elements[idx].decl->prefix == ast::Prefix::Constant)
      return packageInstance(pkg);
  }
  return nullptr;
}

Value Flattener::lowerName(const ast::Expr &e, Scope &scope) {
  const std::vector<ast::RefPart> &parts = e.ref;
  const ast::RefPart &head = parts[0];
  const bool global = !e.text.empty() && e.text[0] == '.'; // `.Modelica.Constants.pi`: the top level only
  // for-loop indices and iterators, innermost first.
  if (parts.size() == 1)
    for (auto it = scope.loops.rbegin(); it != scope.loops.rend(); ++it)
      if (it->first == head.name)
        return head.subscripts.empty() ? it->second : applySubscripts(it->second, head.subscripts, scope, head.name);
  if (parts.size() == 1 && head.name == "time" && head.subscripts.empty()) {
    if (scope.context != Context::Equation && scope.context != Context::When) {
      diags_.error(e.range, scope.context == Context::Function
                                ? "'time' cannot be used in a function; pass it as an argument"
                                : "'time' cannot be used in a parameter value or attribute");
      return fail();
    }
    return Value::scalar(ctx().time(), Type::Real);
  }
  if (scope.fn) {
    bool found = false;
    Value v = lowerLocal(e, scope, found);
    if (found)
      return v;
  }
  // Components of the current instance, then constants and classes of the enclosing classes.
  std::vector<Instance *> insts;
  if (!global && scope.inst && scope.inst->cls->find(head.name) >= 0)
    insts.push_back(scope.inst);
  size_t first = 0;
  if (insts.empty()) {
    // A constant of an enclosing class (package constants, constants of the model's packages).
    const ClassInfo *resume = nullptr;
    for (const ClassInfo *c = global ? nullptr : scope.lexical; c && insts.empty();
         c = enclosing(c, resume)) {
      resolveClass(const_cast<ClassInfo &>(*c));
      int idx = c->find(head.name);
      if (idx >= 0 && c->elements[idx].decl->prefix == ast::Prefix::Constant && c != (scope.inst ? scope.inst->cls : nullptr))
        insts.push_back(packageInstance(c));
      else if (Instance *imported = importedConstant(*c, head.name))
        insts.push_back(imported);
    }
    if (insts.empty()) {
      // A dotted name through packages: Lib.Constants.g, Medium.cp (through the class
      // redeclarations of the instance, and through aliases `package Medium = Water`).
      ClassInfo *cls = !global && scope.inst ? instanceRedeclaration(*scope.inst, scope.lexical, head.name) : nullptr;
      if (!cls)
        cls = findFirst(head.name, global ? nullptr : scope.lexical);
      size_t p = 1;
      while (cls && p < parts.size()) {
        cls = aliasTarget(cls);
        ClassInfo *next = member(cls, parts[p].name);
        if (!next)
          break;
        cls = next;
        ++p;
      }
      if (cls && cls->def->isEnumeration) {
        // E.a: the literal's number; E: every literal (for e in E, x[E], max(E)).
        if (p + 1 < parts.size() || cls->def->openEnumeration) {
          diags_.error(e.range, "'" + e.text + "' is not a literal of enumeration '" + cls->name + "'");
          return fail();
        }
        Value v;
        v.ok = true;
        v.type = Type::Integer;
        v.enumeration = cls;
        const auto &literals = cls->def->literals;
        if (p == parts.size()) {
          v.enumerationType = true;
          v.dims = {static_cast<int>(literals.size())};
          for (size_t k = 0; k < literals.size(); ++k)
            v.elems.push_back(ctx().constant(static_cast<double>(k + 1)));
          return v;
        }
        for (size_t k = 0; k < literals.size(); ++k)
          if (literals[k].name == parts[p].name) {
            v.elems.push_back(ctx().constant(static_cast<double>(k + 1)));
            return v;
          }
        std::vector<std::string> names;
        for (const auto &l : literals)
          names.push_back(l.name);
        std::string hint = closest(parts[p].name, names);
        diags_.error(parts[p].range, "enumeration '" + cls->name + "' has no literal '" + parts[p].name + "'" +
                                         (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
        return fail();
      }
      if (cls && p < parts.size()) {
        resolveClass(*cls);
        if (cls->find(parts[p].name) >= 0) {
          insts.push_back(packageInstance(cls));
          first = p;
        }
      } else if (cls) {
        diags_.error(e.range, "'" + e.text + "' is a class, not a value");
        return fail();
      }
    }
  }
  if (insts.empty() && parts.size() == 1 && head.name == "Boolean" && head.subscripts.empty()) {
    // The type Boolean as a value: its two values (for b in Boolean, x[Boolean]; MLS 3.5, 8.3.2.1).
    Value v;
    v.ok = true;
    v.type = Type::Boolean;
    v.dims = {2};
    v.enumerationType = true;
    v.elems = {ctx().boolean(false), ctx().boolean(true)};
    return v;
  }
  if (insts.empty()) {
    std::vector<std::string> names{"time"};
    for (auto &[n, _] : scope.loops)
      names.push_back(n);
    if (scope.inst)
      for (const Element &el : scope.inst->cls->elements)
        names.push_back(el.comp->name);
    if (scope.fn)
      for (auto &[n, _] : localNames(scope))
        names.push_back(n);
    std::string hint = closest(head.name, names);
    diags_.error(head.range, "undefined name '" + head.name + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    return fail();
  }

  std::vector<int> instDims;
  std::string path;
  for (size_t p = first; p < parts.size(); ++p) {
    const ast::RefPart &part = parts[p];
    path += (path.empty() ? "" : ".") + part.name;
    const ClassInfo *cls = insts.empty() ? nullptr : insts[0]->cls;
    int idx = cls ? cls->find(part.name) : -1;
    if (idx < 0 && !insts.empty() && insts[0]->expandable) {
      diags_.error(part.range, "'" + path.substr(0, path.rfind('.')) + "' is an expandable connector of class '" +
                                   cls->name + "', which does not declare '" + part.name + "': eqc reads an element "
                                   "of an expandable connector in an equation only when its class declares it (MLS 3.5, 9.1.3)");
      return fail();
    }
    if (idx < 0) {
      std::vector<std::string> names;
      if (cls)
        for (const Element &el : cls->elements)
          names.push_back(el.comp->name);
      std::string hint = closest(part.name, names);
      diags_.error(part.range, "'" + path.substr(0, path.rfind('.')) + "' has no element '" + part.name + "'" +
                                   (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
      return fail();
    }
    if (p > first && cls->elements[idx].decl->isProtected) {
      diags_.error(part.range, "'" + part.name + "' is protected in '" + cls->name + "' and cannot be used from outside");
      return fail();
    }
    const bool last = p + 1 == parts.size();
    // A component whose instances all exist may be named while its elements are being made (a
    // sibling's binding reads one of its variables: MSL's RadioButtonSource `start(reset =
    // {stop.on})` and `stop(reset = {start.on})`); anything else being made is a cycle.
    auto madeWhileVisited = [](const Symbol &s) {
      return s.kind == Symbol::Component && s.instances.size() == product(s.dims);
    };
    if (insts[0]->symbols.size() > static_cast<size_t>(idx) && insts[0]->symbols[idx].state == Symbol::Visiting &&
        !madeWhileVisited(insts[0]->symbols[idx])) {
      bool isConstant = cls->elements[idx].decl->prefix == ast::Prefix::Constant;
      diags_.error(part.range, std::string(isConstant ? "constant" : "parameter") + " '" + path +
                                   "' is defined in terms of itself");
      return fail();
    }
    Symbol &s0 = symbol(*insts[0], idx);
    if (s0.disabled) {
      diags_.error(part.range, "'" + path + "' is a conditional component whose condition is false: it does not exist, "
                                            "and only connect() may name it (MLS 3.5, 4.4.5)");
      return fail();
    }
    if (s0.kind == Symbol::Failed) {
      if (insts[0]->package)
        diags_.error(part.range, "'" + path + "' is not a constant of package '" + cls->name + "'");
      return fail();
    }
    if (s0.kind == Symbol::Component) {
      const bool wholeRecord = last && s0.cls && s0.cls->kind() == ast::ClassKind::Record;
      if (last && !wholeRecord) {
        diags_.error(part.range, "'" + path + "' is a component of class '" + s0.cls->name +
                                     "', not a value; use one of its variables");
        return fail();
      }
      // Select the instances of every current instance: scalar subscripts pick, others keep a dimension.
      std::vector<Instance *> next;
      std::vector<int> selDims;
      for (size_t k = 0; k < insts.size(); ++k) {
        Symbol &s = symbol(*insts[k], idx);
        if (s.kind != Symbol::Component)
          return fail();
        if (part.subscripts.empty()) {
          for (auto &u : s.instances)
            next.push_back(u.get());
          if (k == 0)
            selDims = s.dims;
          continue;
        }
        std::vector<int> pickedDims;
        std::vector<const Expr *> varying;
        auto picked = subscriptIndices(s.dims, part.subscripts, scope, path, pickedDims, &varying);
        if (!picked)
          return fail();
        if (!varying.empty())
          return componentAtVaryingIndex(e, p, varying, instDims.empty() && insts.size() == 1, scope);
        for (size_t j : *picked) {
          if (j >= s.instances.size()) // the array's instances were not all made (an error reported)
            return fail();
          next.push_back(s.instances[j].get());
        }
        if (k == 0)
          selDims = pickedDims;
      }
      instDims.insert(instDims.end(), selDims.begin(), selDims.end());
      insts = std::move(next);
      if (wholeRecord) // a record, or an array of records, named whole (MLS 3.5, 12.6)
        return recordArrayValue(insts, instDims, s0.cls, part.range);
      if (insts.empty()) {
        Value empty;
        empty.ok = true;
        empty.dims = instDims;
        return empty;
      }
      continue;
    }
    if (!last) {
      diags_.error(parts[p + 1].range, "'" + path + "' is a variable, not a component: it has no element '" +
                                           parts[p + 1].name + "'");
      return fail();
    }
    // Variables and constants, once per selected instance.
    Value result;
    result.ok = true;
    result.dims = instDims;
    for (size_t k = 0; k < insts.size(); ++k) {
      Symbol &s = symbol(*insts[k], idx);
      Value v;
      if (s.kind == Symbol::Constant) {
        v = s.value;
      } else if (s.kind == Symbol::Variable) {
        if (scope.context == Context::Parameter || scope.context == Context::Start) {
          if (s.role != VarRole::Parameter) {
            diags_.error(part.range, "'" + path + "' is a time-varying variable and cannot be used in " +
                                         (scope.context == Context::Parameter ? "a parameter value" : "an attribute"));
            return fail();
          }
        }
        if (scope.context == Context::Function) {
          diags_.error(part.range, "'" + path + "' is a variable of the model; a function sees only its inputs");
          return fail();
        }
        bool isBool = s.type == Type::Boolean;
        // Scalar subscripts address one element directly (no array is built: x[i] in a loop is O(1)).
        bool allScalar = !part.subscripts.empty() && part.subscripts.size() == s.dims.size();
        std::vector<size_t> index;
        std::vector<const Expr *> varying(part.subscripts.size(), nullptr); // subscripts that change in time
        for (size_t d = 0; allScalar && d < part.subscripts.size(); ++d) {
          const ast::Subscript &sub = part.subscripts[d];
          if (!sub.expr || sub.expr->kind == ast::ExprKind::Range) {
            allScalar = false;
            break;
          }
          endStack_.push_back(s.dims[d]);
          Value iv = lower(*sub.expr, scope);
          endStack_.pop_back();
          if (!iv.ok)
            return fail();
          if (!iv.isScalar()) {
            allScalar = false;
            break;
          }
          if (iv.type != Type::Integer) {
            diags_.error(sub.range, std::string("a subscript must be an Integer, not a ") + typeName(iv.type));
            return fail();
          }
          if (!iv.elems[0]->isConst() && changesInTime(iv.elems[0])) {
            // An Integer subscript that changes at events (MLS 3.5, 10.5): the element it selects.
            if (scope.context != Context::Equation && scope.context != Context::When) {
              diags_.error(sub.range, "a subscript that changes in time is only allowed in equations and algorithms");
              return fail();
            }
            varying[d] = iv.elems[0];
            index.push_back(0);
            continue;
          }
          std::optional<double> n = iv.elems[0]->isConst() ? std::optional<double>(iv.elems[0]->value())
                                                            : structural(iv, sub.range, "a subscript");
          if (!n)
            return fail();
          if (*n < 1 || *n > s.dims[d]) {
            diags_.error(sub.range, "index " + formatNumber(*n) + " is out of bounds for '" + path + "' of size " +
                                        shapeText(s.dims));
            return fail();
          }
          index.push_back(static_cast<size_t>(*n) - 1);
        }
        if (allScalar) {
          result.type = s.type;
          result.enumeration = s.enumeration;
          result.object = s.object;
          size_t flat = 0; // the fixed subscripts' part (a varying one counts as its first index)
          for (size_t d = 0; d < index.size(); ++d)
            flat = flat * static_cast<size_t>(s.dims[d]) + index[d];
          const int first = s.firstVar;
          result.elems.push_back(selectElement([&](size_t k) { return ctx().var(first + static_cast<int>(k), isBool); },
                                               s.dims, varying, isBool, 0, flat));
          continue;
        }
        if (s.type == Type::String) { // a String variable's value is the text of its handle (a scalar)
          v = handleText(ctx().var(s.firstVar, false));
        } else {
          v.ok = true;
          v.type = s.type;
          v.enumeration = s.enumeration;
          v.object = s.object;
          v.dims = s.dims;
          size_t count = product(s.dims);
          v.elems.reserve(count);
          for (size_t j = 0; j < count; ++j)
            v.elems.push_back(ctx().var(s.firstVar + static_cast<int>(j), isBool));
        }
      } else {
        return fail();
      }
      if (!part.subscripts.empty()) {
        v = applySubscripts(v, part.subscripts, scope, path);
        if (v.ok && v.type == Type::String && v.isScalar()) // an element of a String array
          v = stringOfElement(v.elems[0]);
      }
      if (!v.ok)
        return fail();
      if (k == 0) {
        result.type = v.type;
        result.text = v.text;
        result.enumeration = v.enumeration;
        result.object = v.object;
        result.dims.insert(result.dims.end(), v.dims.begin(), v.dims.end());
      }
      result.elems.insert(result.elems.end(), v.elems.begin(), v.elems.end());
    }
    return result;
  }
  return fail();
}

bool Flattener::changesInTime(const Expr *e) {
  bool changes = false;
  forEachNode(e, [&](const Expr *n) {
    if (n->kind() == ExprKind::Time || n->kind() == ExprKind::Pre ||
        (n->kind() == ExprKind::Var && sys_.vars[n->var()].role != VarRole::Parameter)) {
      changes = true;
      return Walk::Stop;
    }
    return Walk::Descend;
  });
  return changes;
}

const Expr *Flattener::selectElement(const std::function<const Expr *(size_t)> &element, const std::vector<int> &dims,
                                     const std::vector<const Expr *> &varying, bool isBool, size_t d, size_t flat) {
  size_t stride = 1;
  for (size_t e = d + 1; e < dims.size(); ++e)
    stride *= static_cast<size_t>(dims[e]);
  while (d < dims.size() && !varying[d]) {
    ++d;
    stride = d < dims.size() ? stride / static_cast<size_t>(dims[d]) : 1;
  }
  if (d == dims.size())
    return element(flat);
  // if i == 1 then a[1] elseif ... elseif i == n then a[n] else NaN (out of bounds: a run-time
  // error at the variable it reaches, with the time).
  const Expr *out = isBool ? ctx().boolean(false) : ctx().constant(std::nan(""));
  for (int k = dims[d]; k >= 1; --k)
    out = ctx().ifThenElse(ctx().eq(varying[d], ctx().constant(k)),
                           selectElement(element, dims, varying, isBool, d + 1, flat + static_cast<size_t>(k - 1) * stride),
                           out);
  return out;
}

std::optional<std::vector<size_t>> Flattener::subscriptIndices(const std::vector<int> &dims,
                                                              const std::vector<ast::Subscript> &subs, Scope &scope,
                                                              const std::string &name, std::vector<int> &outDims,
                                                              std::vector<const Expr *> *varying) {
  if (subs.size() > dims.size()) {
    diags_.error(subs[0].range, "'" + name + "' is " + shapeText(dims) + ": too many subscripts (" +
                                    std::to_string(subs.size()) + ")");
    return std::nullopt;
  }
  // Per dimension: the selected indices (0-based), and whether the dimension is kept.
  std::vector<std::vector<int>> picks(dims.size());
  outDims.clear();
  for (size_t d = 0; d < dims.size(); ++d) {
    if (d >= subs.size() || !subs[d].expr) {
      for (int i = 0; i < dims[d]; ++i)
        picks[d].push_back(i);
      outDims.push_back(dims[d]);
      continue;
    }
    endStack_.push_back(dims[d]);
    Value iv = lower(*subs[d].expr, scope);
    endStack_.pop_back();
    if (!iv.ok)
      return std::nullopt;
    if (iv.type != Type::Integer) {
      diags_.error(subs[d].range, std::string("a subscript must be an Integer, not a ") + typeName(iv.type));
      return std::nullopt;
    }
    if (iv.dims.size() > 1) {
      diags_.error(subs[d].range, "a subscript must be an Integer or a vector of them, not " + shapeText(iv.dims));
      return std::nullopt;
    }
    if (!iv.isScalar())
      outDims.push_back(static_cast<int>(iv.size()));
    if (varying && iv.isScalar() && !iv.elems[0]->isConst() &&
        ((changesInTime(iv.elems[0]) &&
          (scope.context == Context::Equation || scope.context == Context::When)) ||
         scope.fn)) {
      // An Integer subscript that changes at events (MLS 3.5, 10.5), or that a function computes
      // (of a constant array: `T.X01Table[addr[i]]`): selected by the caller.
      varying->resize(dims.size(), nullptr);
      (*varying)[d] = iv.elems[0];
      picks[d].push_back(0);
      continue;
    }
    for (const Expr *x : iv.elems) {
      std::optional<double> n = x->isConst() ? std::optional<double>(x->value())
                                             : evaluateStructural(x, subs[d].range, "a subscript");
      if (!n)
        return std::nullopt;
      if (*n < 1 || *n > dims[d]) {
        diags_.error(subs[d].range, "index " + formatNumber(*n) + " is out of bounds for '" + name + "' of size " +
                                        shapeText(dims));
        return std::nullopt;
      }
      picks[d].push_back(static_cast<int>(*n) - 1);
    }
  }
  // Odometer over the picks.
  std::vector<size_t> pos(dims.size(), 0), out;
  size_t total = 1;
  for (auto &p : picks)
    total *= p.size();
  out.reserve(total);
  for (size_t n = 0; n < total; ++n) {
    size_t flat = 0;
    for (size_t d = 0; d < dims.size(); ++d)
      flat = flat * dims[d] + picks[d][pos[d]];
    out.push_back(flat);
    for (size_t d = dims.size(); d-- > 0;) {
      if (++pos[d] < picks[d].size())
        break;
      pos[d] = 0;
    }
  }
  return out;
}

Value Flattener::componentAtVaryingIndex(const ast::Expr &e, size_t p,
                                         const std::vector<const Expr *> &varying, bool leading,
                                         Scope &scope) {
  // `fluidConstants[i].molarMass` with i computed by a function (or changing at events): the
  // field of every element, `fluidConstants[:].molarMass`, subscripted by i.
  const ast::RefPart &part = e.ref[p];
  bool scalarOthers = true;
  for (size_t d = 0; d < part.subscripts.size(); ++d)
    if (!(d < varying.size() && varying[d]) && part.subscripts[d].expr &&
        part.subscripts[d].expr->kind == ast::ExprKind::Range)
      scalarOthers = false;
  if (!leading || !scalarOthers) {
    diags_.error(part.range,
                 "a subscript of component array '" + part.name +
                     "' that is not known when the model is compiled is supported only on the first "
                     "array of a name, with the other subscripts single indices");
    return fail();
  }
  ast::ExprPtr whole = cloneExpr(&e);
  std::vector<ast::Subscript> picks;
  for (size_t d = 0; d < varying.size(); ++d)
    if (varying[d]) {
      picks.push_back(std::move(whole->ref[p].subscripts[d]));
      whole->ref[p].subscripts[d] = ast::Subscript{nullptr, part.subscripts[d].range};
    }
  Value all = lowerName(*whole, scope);
  if (!all.ok)
    return all;
  return applySubscripts(all, picks, scope, part.name);
}

Value Flattener::applySubscripts(const Value &v, const std::vector<ast::Subscript> &subs, Scope &scope,
                                 const std::string &name) {
  Value out;
  std::vector<const Expr *> varying;
  if (v.elems.size() != product(v.dims))
    return fail(); // a value left incomplete by an error (reported)
  auto picked = subscriptIndices(v.dims, subs, scope, name, out.dims, &varying);
  if (!picked)
    return fail();
  out.ok = true;
  out.type = v.type;
  out.enumeration = v.enumeration;
  if (!varying.empty()) {
    // Subscripts that change in time select among the elements, for each element the others
    // pick (`fire[k, :]`: a row chosen at events).
    const bool isBool = v.type == Type::Boolean;
    for (size_t flat : *picked)
      out.elems.push_back(selectElement([&](size_t k) { return v.elems[k]; }, v.dims, varying, isBool, 0, flat));
    return out;
  }
  out.elems.reserve(picked->size());
  for (size_t i : *picked)
    out.elems.push_back(v.elems[i]);
  return out;
}

// ---- operators ----

Value Flattener::elementwise(const Value &a, const Value &b, SourceRange range, const char *op,
                             const std::function<const Expr *(const Expr *, const Expr *)> &f, Type resultType) {
  Value out;
  if (!a.isScalar() && !b.isScalar() && a.dims != b.dims) {
    diags_.error(range, std::string("the operands of '") + op + "' have different shapes: " + shapeText(a.dims) +
                            " and " + shapeText(b.dims));
    return fail();
  }
  out.ok = true;
  out.type = resultType;
  out.dims = a.isScalar() ? b.dims : a.dims;
  // The size of the array operand (which may be empty: a scalar times a Real[0] is a Real[0]).
  const size_t n = !a.isScalar() ? a.size() : !b.isScalar() ? b.size() : 1;
  out.elems.reserve(n);
  for (size_t i = 0; i < n; ++i)
    out.elems.push_back(f(a.isScalar() ? a.elems[0] : a.elems[i], b.isScalar() ? b.elems[0] : b.elems[i]));
  return out;
}

Value Flattener::lowerBinary(const ast::Expr &e, Scope &scope) {
  using B = ast::BinaryOp;
  ExprContext &c = ctx();
  const B op = e.binary;
  if (op == B::And || op == B::Or) {
    Value a = lower(*e.args[0], scope), b = lower(*e.args[1], scope);
    if (auto overloaded = overloadedBinary(op, a, b, e.range)) // an operator record's (MLS 3.5, 14.4)
      return *overloaded;
    if (!a.ok || !b.ok || !expectType(a, *e.args[0], Type::Boolean) || !expectType(b, *e.args[1], Type::Boolean))
      return fail();
    return elementwise(a, b, e.range, op == B::And ? "and" : "or",
                       [&](const Expr *x, const Expr *y) { return op == B::And ? c.logicalAnd(x, y) : c.logicalOr(x, y); },
                       Type::Boolean);
  }
  // The operands of a relation may be Strings (known at compilation: fileName == "NoName").
  const bool relation = op == B::Eq || op == B::Ne || op == B::Lt || op == B::Le || op == B::Gt || op == B::Ge;
  stringContext_ += relation;
  Value a = lower(*e.args[0], scope), b = lower(*e.args[1], scope);
  stringContext_ -= relation;
  if (!a.ok || !b.ok)
    return fail();
  if (auto overloaded = overloadedBinary(op, a, b, e.range)) // an operator record's (MLS 3.5, 14.4)
    return *overloaded;
  if (a.record || b.record) {
    diags_.error(e.range, "a record value ('" + (a.record ? a.record : b.record)->name +
                              "') is used whole only in an equation, a binding or a function call; use its fields");
    return fail();
  }
  if (a.type == Type::String && b.type == Type::String && a.isScalar() && b.isScalar()) {
    // Strings known at compilation: concatenation and comparison fold (MLS 3.5, 3.4); those a
    // function computes are concatenated and compared when it runs.
    if (op == B::Add)
      return concatStrings(a, b);
    if (relation && (a.computedText() || b.computedText())) {
      const Expr *sign = compareStrings(a, b), *zero = c.zero();
      if (!scope.fn) // a model's Strings are made and released in a function (callMakingStrings)
        sign = callMakingStrings(sign);
      const Expr *holds = op == B::Eq   ? c.eq(sign, zero)
                          : op == B::Ne ? c.ne(sign, zero)
                          : op == B::Lt ? c.lt(sign, zero)
                          : op == B::Le ? c.le(sign, zero)
                          : op == B::Gt ? c.lt(zero, sign)
                                        : c.le(zero, sign);
      return Value::scalar(holds, Type::Boolean);
    }
    if (relation) {
      const int cmp = a.text.compare(b.text);
      const bool holds = op == B::Eq ? cmp == 0 : op == B::Ne ? cmp != 0 : op == B::Lt ? cmp < 0 : op == B::Le ? cmp <= 0
                         : op == B::Gt ? cmp > 0 : cmp >= 0;
      return Value::scalar(ctx().boolean(holds), Type::Boolean);
    }
  }
  if (a.enumeration || b.enumeration) {
    // MLS 3.5, 4.8.5: values of an enumeration type are compared with values of the same type;
    // they have no arithmetic (Integer(e) gives the number).
    const bool relation = op == B::Eq || op == B::Ne || op == B::Lt || op == B::Le || op == B::Gt || op == B::Ge;
    const Value &en = a.enumeration ? a : b;
    if (!relation) {
      diags_.error(e.range, "no arithmetic on values of the enumeration type '" + en.enumeration->name +
                                "' (Integer(e) is the number of e)");
      return fail();
    }
    if (a.enumeration != b.enumeration) {
      const Value &other = a.enumeration ? b : a;
      diags_.error(e.range, "cannot compare a value of the enumeration type '" + en.enumeration->name + "' with " +
                                (other.enumeration ? "one of '" + other.enumeration->name + "'"
                                 : other.type == Type::Integer ? std::string("an Integer")
                                                               : std::string("a ") + typeName(other.type)));
      return fail();
    }
  }
  if (op == B::Eq || op == B::Ne) {
    if ((a.type == Type::Boolean) != (b.type == Type::Boolean) || a.type == Type::String || b.type == Type::String) {
      diags_.error(e.range, std::string("cannot compare a ") + typeName(a.type) + " with a " + typeName(b.type));
      return fail();
    }
  } else if (op == B::Lt || op == B::Le || op == B::Gt || op == B::Ge) {
    for (const Value *x : {&a, &b})
      if (!x->isNumeric()) {
        diags_.error(e.args[x == &a ? 0 : 1]->range, std::string("expected a Real expression, found a ") +
                                                         typeName(x->type) + " one");
        return fail();
      }
  } else {
    for (const Value *x : {&a, &b})
      if (!x->isNumeric()) {
        diags_.error(e.args[x == &a ? 0 : 1]->range, std::string("expected a Real expression, found a ") +
                                                         typeName(x->type) + " one");
        return fail();
      }
  }
  if (op == B::Mul || op == B::ElemMul)
    smoothActualStreamProducts(a, b); // c.m_flow*actualStream(c.h_outflow) (MLS 3.5, 15.3)
  const Type num = numericType(a.type, b.type);
  switch (op) {
  case B::Lt:
  case B::Le:
  case B::Gt:
  case B::Ge:
  case B::Eq:
  case B::Ne: {
    if (!a.isScalar() || !b.isScalar()) {
      diags_.error(e.range, "relations compare scalars, not arrays (" + shapeText(a.dims) + " and " +
                                shapeText(b.dims) + ")");
      return fail();
    }
    const Expr *x = a.elems[0], *y = b.elems[0];
    const Expr *r = op == B::Lt ? c.lt(x, y) : op == B::Le ? c.le(x, y) : op == B::Gt ? c.gt(x, y)
                  : op == B::Ge ? c.ge(x, y) : op == B::Eq ? c.eq(x, y) : c.ne(x, y);
    return Value::scalar(r, Type::Boolean);
  }
  case B::Add:
  case B::Sub:
    if (a.dims != b.dims) {
      diags_.error(e.range, std::string("the operands of '") + (op == B::Add ? "+" : "-") + "' have different shapes: " +
                                shapeText(a.dims) + " and " + shapeText(b.dims) +
                                (a.isScalar() || b.isScalar() ? std::string(" (write '") + (op == B::Add ? ".+" : ".-") +
                                                                    "' to apply a scalar to every element)"
                                                              : ""));
      return fail();
    }
    return elementwise(a, b, e.range, "+", [&](const Expr *x, const Expr *y) { return op == B::Add ? c.add(x, y) : c.sub(x, y); }, num);
  case B::ElemAdd:
  case B::ElemSub:
    return elementwise(a, b, e.range, op == B::ElemAdd ? ".+" : ".-",
                       [&](const Expr *x, const Expr *y) { return op == B::ElemAdd ? c.add(x, y) : c.sub(x, y); }, num);
  case B::ElemMul:
    return elementwise(a, b, e.range, ".*", [&](const Expr *x, const Expr *y) { return c.mul(x, y); }, num);
  case B::Div:
  case B::ElemDiv: {
    if (op == B::Div && !b.isScalar()) {
      diags_.error(e.range, "'/' divides by a scalar; write './' to divide element by element");
      return fail();
    }
    for (const Expr *y : b.elems)
      if (y->isConst(0)) {
        diags_.error(e.args[1]->range, "division by zero");
        return fail();
      }
    return elementwise(a, b, e.range, "./", [&](const Expr *x, const Expr *y) { return c.div(x, y); }, Type::Real);
  }
  case B::Pow:
  case B::ElemPow:
    if (op == B::Pow && (!a.isScalar() || !b.isScalar())) {
      diags_.error(e.range, "'^' raises scalars; write '.^' to raise every element");
      return fail();
    }
    return elementwise(a, b, e.range, ".^", [&](const Expr *x, const Expr *y) { return c.pow(x, y); },
                       num == Type::Integer && b.elems.size() && b.elems[0]->isConst() && b.elems[0]->value() >= 0
                           ? Type::Integer
                           : Type::Real);
  case B::Mul: {
    if (a.isScalar() || b.isScalar())
      return elementwise(a, b, e.range, "*", [&](const Expr *x, const Expr *y) { return c.mul(x, y); }, num);
    // Matrix products: vector·vector (a scalar), matrix·vector, vector·matrix, matrix·matrix.
    size_t ra = a.dims.size(), rb = b.dims.size();
    if (ra > 2 || rb > 2) {
      diags_.error(e.range, "'*' multiplies vectors and matrices, not " + shapeText(a.dims) + " and " + shapeText(b.dims));
      return fail();
    }
    int inner = a.dims.back();
    int innerB = b.dims.front();
    if (inner != innerB) {
      diags_.error(e.range, "'*' of " + shapeText(a.dims) + " and " + shapeText(b.dims) +
                                ": the inner sizes differ (write '.*' to multiply element by element)");
      return fail();
    }
    int rows = ra == 2 ? a.dims[0] : 1, cols = rb == 2 ? b.dims[1] : 1;
    Value out;
    out.ok = true;
    out.type = num;
    if (ra == 2)
      out.dims.push_back(rows);
    if (rb == 2)
      out.dims.push_back(cols);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        std::vector<const Expr *> terms;
        for (int k = 0; k < inner; ++k)
          terms.push_back(c.mul(a.elems[i * inner + k], b.elems[k * cols + j]));
        out.elems.push_back(c.add(std::move(terms)));
      }
    return out;
  }
  case B::And:
  case B::Or:
    break;
  }
  return fail();
}

Value Flattener::lowerIf(const ast::Expr &e, Scope &scope) {
  // args: cond1, then1, ..., else. Conditions known when the model is compiled choose their
  // branch, and the others are not lowered (MLS 3.5, 3.6.5: their sizes may differ, as in MSL's
  // `if size(X, 1) == nX then State(X = X) else State(X = cat(1, X, {1 - sum(X)}))`).
  size_t n = e.args.size();
  std::vector<std::optional<Value>> conditions(n); // those lowered here, by their argument
  for (size_t i = 0; i + 1 < n; i += 2) {
    Value &cond = *(conditions[i] = lowerBool(*e.args[i], scope));
    if (!cond.ok)
      return fail();
    if (cond.isScalar() && cond.elems[0]->kind() != ExprKind::BoolConst) {
      // A condition of parameters that already fix sizes (`if n > 1 then linspace(a, b, n) else
      // {(a + b)/2}` of MSL's pipes) is known too: no other parameter becomes structural.
      const std::vector<int> reads = collectAllVars(cond.elems[0]);
      const bool known = !reads.empty() && std::all_of(reads.begin(), reads.end(), [&](int v) {
        return sys_.vars[v].role == VarRole::Parameter && sys_.vars[v].structural;
      });
      if (known && !changesInTime(cond.elems[0]))
        if (std::optional<double> holds =
                evaluateStructural(cond.elems[0], e.args[i]->range, "this condition"))
          cond.elems[0] = ctx().boolean(*holds != 0);
    }
    if (!cond.isScalar() || cond.elems[0]->kind() != ExprKind::BoolConst)
      break;
    if (cond.elems[0]->boolValue())
      return lower(*e.args[i + 1], scope);
    if (i + 3 == n) // every condition false
      return lower(*e.args[n - 1], scope);
  }
  // Otherwise every branch, folded from the last outwards.
  Value result = lower(*e.args[n - 1], scope);
  bool ok = result.ok;
  for (size_t i = n - 1; i >= 2; i -= 2) {
    Value cond = conditions[i - 2] ? std::move(*conditions[i - 2]) : lowerBool(*e.args[i - 2], scope);
    Value then = lower(*e.args[i - 1], scope);
    if (!cond.ok || !then.ok || !result.ok) {
      ok = false;
      continue;
    }
    if (!cond.isScalar()) {
      diags_.error(e.args[i - 2]->range, "the condition of an if-expression must be a scalar");
      ok = false;
      continue;
    }
    bool thenBool = then.type == Type::Boolean, elseBool = result.type == Type::Boolean;
    if ((then.type == Type::String) != (result.type == Type::String)) {
      diags_.error(e.args[i - 1]->range, "the branches of an if-expression must have the same type");
      ok = false;
      continue;
    }
    if (then.type == Type::String &&
        ((scope.fn && readsSlots(cond.elems[0])) || (!scope.fn && changesInTime(cond.elems[0])))) {
      // In a function, a condition it computes chooses between Strings when it runs; so does one
      // that changes in time in a model (a String variable's value, a String passed to a function).
      if (!then.isScalar() || !result.isScalar()) {
        diags_.error(e.range, "the branches of a String if-expression must be scalars");
        ok = false;
        continue;
      }
      result = Value::scalar(
          ctx().ifThenElse(cond.elems[0], computedString(then).elems[0], computedString(result).elems[0]),
          Type::String);
      continue;
    }
    if (then.type == Type::String) { // Strings are known at compilation: so must the condition be
      std::optional<double> holds = cond.elems[0]->kind() == ExprKind::BoolConst
                                        ? std::optional<double>(cond.elems[0]->boolValue())
                                        : evaluateStructural(cond.elems[0], e.args[i - 2]->range, "the condition of a String if-expression");
      if (!holds) {
        ok = false;
        continue;
      }
      if (*holds)
        result.text = then.text;
      continue;
    }
    if (thenBool == elseBool && then.dims != result.dims && parameterExpression(cond.elems[0])) {
      // Branches of different sizes under a parameter condition (MLS 3.5, 3.6.5): the condition
      // is evaluated when the model is compiled and picks one.
      std::optional<double> holds = evaluateStructural(cond.elems[0], e.args[i - 2]->range,
                                                       "the condition of an if-expression whose branches differ in size");
      if (!holds) {
        ok = false;
        continue;
      }
      if (*holds)
        result = then;
      continue;
    }
    if (thenBool != elseBool || then.dims != result.dims || then.enumeration != result.enumeration) {
      diags_.error(e.args[i - 1]->range, "the branches of an if-expression must have the same type and shape (" +
                                             std::string(typeName(then.type)) + " " + shapeText(then.dims) + " and " +
                                             typeName(result.type) + " " + shapeText(result.dims) + ")");
      ok = false;
      continue;
    }
    for (size_t k = 0; k < result.size(); ++k)
      result.elems[k] = ctx().ifThenElse(cond.elems[0], then.elems[k], result.elems[k]);
    if (!thenBool)
      result.type = numericType(then.type, result.type);
  }
  return ok ? result : fail();
}

bool Flattener::iterate(const std::vector<ast::ForIndex> &iterators, Scope &scope, std::vector<int> &shape,
                        const std::function<bool()> &body) {
  std::function<bool(size_t)> loop = [&](size_t k) -> bool {
    if (k == iterators.size())
      return body();
    const ast::ForIndex &it = iterators[k];
    if (!it.in) {
      diags_.error(it.range, "an iterator needs a range: '" + it.name + " in 1:n'");
      return false;
    }
    const ClassInfo *enumeration = nullptr;
    bool boolean = false;
    auto values = iterationValues(*it.in, scope, "the range of '" + it.name + "'", &enumeration, &boolean);
    if (!values)
      return false;
    if (shape.size() <= k)
      shape.push_back(static_cast<int>(values->size()));
    for (double x : *values) {
      if (!countIteration(it.range))
        return false;
      scope.loops.emplace_back(it.name, loopValue(x, enumeration, boolean));
      bool ok = loop(k + 1);
      scope.loops.pop_back();
      if (!ok)
        return false;
    }
    return true;
  };
  return loop(0);
}

std::optional<std::vector<double>> Flattener::implicitRange(const ast::ForIndex &idx,
                                                           const std::vector<const ast::Expr *> &uses, Scope &scope) {
  std::optional<int> size;
  std::string first;
  std::deque<const ast::Expr *> queue(uses.begin(), uses.end()); // in the order of the text
  while (!queue.empty()) {
    const ast::Expr *e = queue.front();
    queue.pop_front();
    if (!e)
      continue;
    for (const auto &a : e->args)
      queue.push_back(a.get());
    for (const ast::RefPart &part : e->ref)
      for (const ast::Subscript &s : part.subscripts)
        queue.push_back(s.expr.get());
    if (e->kind != ast::ExprKind::Name || e->ref.size() != 1)
      continue;
    const ast::RefPart &part = e->ref[0];
    for (size_t k = 0; k < part.subscripts.size(); ++k) {
      const ast::Expr *sub = part.subscripts[k].expr.get();
      if (!sub || sub->kind != ast::ExprKind::Name || sub->text != idx.name || !sub->ref[0].subscripts.empty())
        continue;
      Value v = lower(wholeVariable(*e), scope);
      if (!v.ok)
        return std::nullopt;
      if (k >= v.dims.size()) {
        diags_.error(part.range, "'" + part.name + "' has " + std::to_string(v.dims.size()) + " dimension(s), not " +
                                     std::to_string(k + 1));
        return std::nullopt;
      }
      if (size && *size != v.dims[k]) {
        diags_.error(idx.range, "the range of '" + idx.name + "' is not clear: '" + first + "' gives 1:" +
                                    std::to_string(*size) + " and '" + part.name + "' 1:" + std::to_string(v.dims[k]));
        return std::nullopt;
      }
      size = v.dims[k];
      first = part.name;
    }
  }
  if (!size) {
    diags_.error(idx.range, "'for " + idx.name + " loop' takes its range from the arrays that '" + idx.name +
                                "' subscripts, and there are none: write 'for " + idx.name + " in 1:n loop'");
    return std::nullopt;
  }
  std::vector<double> values;
  for (int i = 1; i <= *size; ++i)
    values.push_back(i);
  return values;
}

Value Flattener::loopValue(double x, const ClassInfo *enumeration, bool boolean) {
  if (boolean)
    return Value::scalar(ctx().boolean(x != 0), Type::Boolean);
  Value v = Value::scalar(ctx().constant(x), x == std::floor(x) ? Type::Integer : Type::Real);
  v.enumeration = enumeration;
  return v;
}

std::optional<std::vector<double>> Flattener::iterationValues(const ast::Expr &e, Scope &scope, const std::string &what,
                                                              const ClassInfo **enumeration, bool *boolean) {
  Value v = lower(e, scope);
  if (!v.ok)
    return std::nullopt;
  if (enumeration)
    *enumeration = v.enumeration;
  if (boolean && v.type == Type::Boolean && v.dims.size() == 1) { // MLS 3.5, 8.3.2.1: a vector of Booleans
    *boolean = true;
    std::vector<double> values;
    for (const Expr *x : v.elems) {
      if (x->kind() != ExprKind::BoolConst) {
        diags_.error(e.range, what + " must be known when the model is compiled");
        return std::nullopt;
      }
      values.push_back(x->boolValue() ? 1 : 0);
    }
    return values;
  }
  if (v.dims.size() != 1 || !v.isNumeric()) {
    diags_.error(e.range, what + " must be a range or a vector of numbers, not " +
                              (v.isScalar() ? std::string("a scalar") : shapeText(v.dims)));
    return std::nullopt;
  }
  std::vector<double> values;
  values.reserve(v.size());
  for (const Expr *x : v.elems) {
    std::optional<double> n = x->isConst() ? std::optional<double>(x->value()) : evaluateStructural(x, e.range, what);
    if (!n)
      return std::nullopt;
    values.push_back(*n);
  }
  return values;
}

Value Flattener::lowerRange(const ast::Expr &e, Scope &scope) {
  std::vector<Value> parts;
  for (const auto &a : e.args) {
    Value v = lowerReal(*a, scope);
    if (!scalar(v, *a, "the bounds of a range must be scalars"))
      return fail();
    parts.push_back(v);
  }
  std::vector<double> x;
  Type type = Type::Integer;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::optional<double> n = parts[i].elems[0]->isConst() ? std::optional<double>(parts[i].elems[0]->value())
                                                           : structural(parts[i], e.args[i]->range, "the bounds of a range");
    if (!n)
      return fail();
    x.push_back(*n);
    type = numericType(type, parts[i].type);
  }
  double start = x[0], step = x.size() == 3 ? x[1] : 1, stop = x.back();
  if (step == 0 || !std::isfinite(start) || !std::isfinite(step) || !std::isfinite(stop)) {
    diags_.error(e.range, "the range " + formatNumber(start) + ":" + formatNumber(step) + ":" + formatNumber(stop) +
                              " has no valid step");
    return fail();
  }
  double count = std::floor((stop - start) / step + (type == Type::Integer ? 0 : 1e-10)) + 1;
  if (count > static_cast<double>(kMaxScalars)) {
    diags_.error(e.range, "the range has " + formatNumber(count) + " elements (more than eqc's limit of 2e7)");
    return fail();
  }
  Value out;
  out.ok = true;
  out.type = type;
  out.dims = {count > 0 ? static_cast<int>(count) : 0};
  for (int i = 0; i < out.dims[0]; ++i)
    out.elems.push_back(ctx().constant(start + i * step));
  return out;
}

Value Flattener::arrayItem(Value v) {
  if (v.ok && v.type == Type::String && v.isScalar()) // an element of a String array (computedString)
    v.elems[0] = computedString(v).elems[0];
  return v;
}

Value Flattener::lowerArray(const ast::Expr &e, Scope &scope) {
  std::vector<Value> items;
  if (!e.iterators.empty()) {
    // {expr for i in r, j in s}: nested, the first iterator outermost.
    std::vector<int> shape;
    bool ok = iterate(e.iterators, scope, shape, [&]() {
      Value v = lower(*e.args[0], scope);
      if (!v.ok)
        return false;
      items.push_back(arrayItem(std::move(v)));
      return true;
    });
    if (!ok)
      return fail();
    Value out;
    out.ok = true;
    out.dims = shape;
    if (!items.empty()) {
      out.type = items[0].type;
      out.dims.insert(out.dims.end(), items[0].dims.begin(), items[0].dims.end());
    }
    if (!items.empty())
      out.record = items[0].record; // an array of records (MLS 3.5, 12.6)
    for (const Value &v : items) {
      if (v.dims != items[0].dims || (v.type == Type::Boolean) != (items[0].type == Type::Boolean) ||
          (v.type == Type::String) != (items[0].type == Type::String) || v.record != items[0].record) {
        diags_.error(e.range, "the elements of an array constructor must have the same type and shape");
        return fail();
      }
      if (v.type != Type::Boolean && v.type != Type::String)
        out.type = numericType(out.type, v.type);
      out.elems.insert(out.elems.end(), v.elems.begin(), v.elems.end());
    }
    return out;
  }
  for (const auto &a : e.args) {
    Value v = lower(*a, scope);
    if (!v.ok)
      return fail();
    items.push_back(arrayItem(std::move(v)));
  }
  Value out;
  out.ok = true;
  out.dims = {static_cast<int>(items.size())};
  if (items.empty())
    return out;
  out.type = items[0].type;
  out.record = items[0].record; // an array of records (MLS 3.5, 12.6)
  out.dims.insert(out.dims.end(), items[0].dims.begin(), items[0].dims.end());
  auto kind = [](const Value &v) {
    return (v.record ? "'" + v.record->name + "'" : std::string(typeName(v.type))) + " " + shapeText(v.dims);
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const Value &v = items[i];
    if (v.dims != items[0].dims || (v.type == Type::Boolean) != (items[0].type == Type::Boolean) ||
        (v.type == Type::String) != (items[0].type == Type::String) || v.record != items[0].record) {
      diags_.error(e.args[i]->range,
                   "the elements of an array constructor must have the same type and shape (" +
                       kind(items[0]) + " and " + kind(v) + ")");
      return fail();
    }
    if (v.type != Type::Boolean && v.type != Type::String)
      out.type = numericType(out.type, v.type);
    out.elems.insert(out.elems.end(), v.elems.begin(), v.elems.end());
  }
  return out;
}

namespace {

/// cat(d, a, b) of arrays of the same number of dimensions (row-major): their sizes but dimension d
/// agree; "" or why not.
std::string concatenate(Value &a, const Value &b, size_t d) {
  for (size_t k = 0; k < a.dims.size(); ++k)
    if (k != d && a.dims[k] != b.dims[k])
      return std::string(d == 0 ? "the rows of a matrix constructor must agree in every size but the first"
                                : "the items of a matrix row must agree in every size but the second") +
             " (" + shapeText(a.dims) + " and " + shapeText(b.dims) + ")";
  size_t outer = 1, inner = 1;
  for (size_t k = 0; k < d; ++k)
    outer *= static_cast<size_t>(a.dims[k]);
  for (size_t k = d + 1; k < a.dims.size(); ++k)
    inner *= static_cast<size_t>(a.dims[k]);
  const size_t blockA = static_cast<size_t>(a.dims[d]) * inner, blockB = static_cast<size_t>(b.dims[d]) * inner;
  std::vector<const Expr *> elems;
  elems.reserve(a.elems.size() + b.elems.size());
  for (size_t o = 0; o < outer; ++o) {
    elems.insert(elems.end(), a.elems.begin() + static_cast<long>(o * blockA), a.elems.begin() + static_cast<long>((o + 1) * blockA));
    elems.insert(elems.end(), b.elems.begin() + static_cast<long>(o * blockB), b.elems.begin() + static_cast<long>((o + 1) * blockB));
  }
  a.elems = std::move(elems);
  a.dims[d] += b.dims[d];
  if (a.type != Type::Boolean)
    a.type = numericType(a.type, b.type);
  return "";
}

/// "" when `items` are all numeric or all Boolean (what an array may hold together), else why not.
std::string sameKind(const std::vector<const Value *> &items) {
  for (const Value *v : items) {
    if (v->type == Type::String)
      return "arrays of Strings are not supported here";
    if ((v->type == Type::Boolean) != (items[0]->type == Type::Boolean))
      return "the items must be all Boolean or all numeric (" + std::string(typeName(items[0]->type)) + " and " +
             typeName(v->type) + ")";
  }
  return "";
}

} // namespace

Value Flattener::lowerMatrix(const ast::Expr &e, Scope &scope) {
  // MLS 3.5, 10.4.2: [a, b; c, d] is cat(1, cat(2, a, b), cat(2, c, d)) of the items promoted to
  // n = max(2, their dimensions) dimensions (scalars are 1x1, vectors columns, trailing sizes 1).
  std::vector<std::vector<Value>> rows;
  std::vector<const Value *> all;
  size_t n = 2;
  for (const auto &row : e.args) {
    rows.emplace_back();
    for (const auto &item : row->args) {
      Value v = lower(*item, scope);
      if (!v.ok)
        return fail();
      n = std::max(n, v.dims.size());
      rows.back().push_back(std::move(v));
    }
  }
  for (const auto &row : rows)
    for (const Value &v : row)
      all.push_back(&v);
  if (std::string why = sameKind(all); !why.empty()) {
    diags_.error(e.range, "matrix constructor: " + why);
    return fail();
  }
  std::vector<Value> joined;
  for (size_t r = 0; r < rows.size(); ++r) {
    Value acc;
    for (size_t k = 0; k < rows[r].size(); ++k) {
      Value &v = rows[r][k];
      v.dims.resize(n, 1);
      if (!acc.ok) {
        acc = std::move(v);
        continue;
      }
      if (std::string why = concatenate(acc, v, 1); !why.empty()) {
        diags_.error(e.args[r]->args[k]->range, why);
        return fail();
      }
    }
    joined.push_back(std::move(acc));
  }
  Value out = std::move(joined[0]);
  for (size_t r = 1; r < joined.size(); ++r)
    if (std::string why = concatenate(out, joined[r], 0); !why.empty()) {
      diags_.error(e.args[r]->range, why);
      return fail();
    }
  return out;
}

Value Flattener::lowerCat(const ast::Expr &e, Scope &scope) {
  // MLS 3.5, 10.4.2: cat(k, A, B, ...) joins arrays of as many dimensions along dimension k (a
  // parameter expression); their other sizes agree.
  if (e.args.size() < 2) {
    diags_.error(e.nameRange, "cat(k, A, B, ...) takes a dimension and at least one array");
    return fail();
  }
  Value k = lower(*e.args[0], scope);
  if (!k.ok)
    return fail();
  std::optional<double> kv =
      k.isScalar() && k.type == Type::Integer ? structural(k, e.args[0]->range, "the dimension of cat()") : std::nullopt;
  if (!kv) {
    if (!k.isScalar() || k.type != Type::Integer)
      diags_.error(e.args[0]->range, "the dimension of cat() must be an Integer");
    return fail();
  }
  std::vector<Value> items;
  std::vector<const Value *> all;
  for (size_t i = 1; i < e.args.size(); ++i) {
    items.push_back(lower(*e.args[i], scope));
    if (!items.back().ok)
      return fail();
  }
  for (const Value &v : items)
    all.push_back(&v);
  if (std::string why = sameKind(all); !why.empty()) {
    diags_.error(e.range, "cat(): " + why);
    return fail();
  }
  const size_t rank = items[0].dims.size();
  if (*kv < 1 || *kv > static_cast<double>(rank)) {
    diags_.error(e.args[0]->range, "cat(" + formatNumber(*kv) + ", ...) of arrays of " + std::to_string(rank) +
                                       " dimension(s): the dimension must be between 1 and " + std::to_string(rank));
    return fail();
  }
  const size_t d = static_cast<size_t>(*kv) - 1;
  Value out = std::move(items[0]);
  for (size_t i = 1; i < items.size(); ++i) {
    if (items[i].dims.size() != rank) {
      diags_.error(e.args[i + 1]->range, "cat(): the arrays must have as many dimensions (" + shapeText(out.dims) +
                                             " and " + shapeText(items[i].dims) + ")");
      return fail();
    }
    std::vector<int> expect = out.dims;
    expect[d] = items[i].dims[d];
    if (items[i].dims != expect) {
      diags_.error(e.args[i + 1]->range, "cat(" + std::to_string(d + 1) + ", ...): the sizes but dimension " +
                                             std::to_string(d + 1) + " must agree (" + shapeText(out.dims) + " and " +
                                             shapeText(items[i].dims) + ")");
      return fail();
    }
    concatenate(out, items[i], d);
  }
  return out;
}

// ---- calls ----

Value Flattener::lowerDer(const ast::Expr &arg, Scope &scope, SourceRange range) {
  if (scope.context != Context::Equation && scope.context != Context::When) {
    diags_.error(range, scope.context == Context::Function ? "der() cannot be used in a function"
                                                           : "der() can only be used in equations");
    return fail();
  }
  Value v = lower(arg, scope);
  if (!v.ok)
    return fail();
  if (!v.isNumeric()) {
    diags_.error(arg.range, std::string("der() of a ") + typeName(v.type) + " expression is not defined");
    return fail();
  }
  for (const Expr *&x : v.elems) {
    for (int input : collectAllVars(x))
      if (sys_.vars[input].isTimeVaryingKnown()) {
        diags_.error(arg.range, "der() of the input '" + sys_.vars[input].name +
                                    "': an input is given as values over time, without derivatives");
        return fail();
      }
    if (x->kind() == ExprKind::Var && !sys_.vars[x->var()].isKnown()) {
      x = ctx().var(sys_.derivativeVar(x->var()));
      continue;
    }
    if (const Expr *bad = nonDifferentiable(x)) {
      diags_.error(arg.range, "der() of an expression containing '" + std::string(builtinInfo(bad->builtin()).name) +
                                  "(...)' is not supported: it is not differentiable where it jumps");
      return fail();
    }
    x = timeDerivative(sys_, *differentiator_, x);
  }
  growPerVariable();
  v.type = Type::Real;
  return v;
}

Value Flattener::lowerEnumerationConversion(const ast::Expr &e, Scope &scope, const ClassInfo &type) {
  // MLS 3.5, 4.8.5.2: E(i) is the literal numbered i (1 .. the number of literals).
  const size_t n = type.def->literals.size();
  if (e.args.size() != 1 || !e.args[0] || (!e.argNames.empty() && !e.argNames[0].empty())) {
    diags_.error(e.nameRange, "'" + type.name + "'(i) takes one Integer, the number of a literal");
    return fail();
  }
  Value v = lower(*e.args[0], scope);
  if (!v.ok)
    return fail();
  if (v.type != Type::Integer || v.enumeration) {
    diags_.error(e.args[0]->range, "'" + type.name + "'(i) takes an Integer, not " +
                                       (v.enumeration ? "a value of enumeration '" + v.enumeration->name + "'"
                                                      : std::string(typeName(v.type))));
    return fail();
  }
  for (const Expr *x : v.elems)
    if (x->isConst() && (x->value() < 1 || x->value() > static_cast<double>(n))) {
      diags_.error(e.args[0]->range, "enumeration '" + type.name + "' has " + std::to_string(n) +
                                         " literals: there is no literal " + formatNumber(x->value()));
      return fail();
    }
  v.enumeration = &type;
  return v;
}

ClassInfo *Flattener::shadowingFunction(const std::string &name, const Scope &scope) {
  if (name.empty() || name.find('.') != std::string::npos || !scope.lexical)
    return nullptr;
  Builtin builtin;
  if (!lookupBuiltin(name, builtin) && std::find(std::begin(kOperatorNames), std::end(kOperatorNames), name) ==
                                           std::end(kOperatorNames))
    return nullptr;
  auto key = std::make_pair(scope.lexical, name);
  if (auto it = shadowing_.find(key); it != shadowing_.end())
    return it->second;
  ClassInfo *found = findClass(name, scope.lexical);
  // Modelica.Math's `external "builtin"` functions are the builtins themselves.
  if (found && (found->kind() != ast::ClassKind::Function ||
                (found->def->external && found->def->external->language == "builtin")))
    found = nullptr;
  shadowing_.emplace(key, found);
  return found;
}

ClassInfo *Flattener::componentFunction(const std::string &dotted, Scope &scope, Instance *&owner) {
  if (!scope.inst || scope.fn)
    return nullptr;
  Instance *inst = scope.inst;
  size_t start = 0;
  for (size_t dot = dotted.find('.'); dot != std::string::npos; start = dot + 1, dot = dotted.find('.', start)) {
    const int idx = inst->cls->find(dotted.substr(start, dot - start));
    if (idx < 0)
      return nullptr;
    Symbol &s = symbol(*inst, idx);
    if (s.kind != Symbol::Component || s.instances.size() != 1 || !s.dims.empty())
      return nullptr;
    inst = s.instances[0].get();
  }
  const std::string name = dotted.substr(start);
  ClassInfo *fn = instanceRedeclaration(*inst, inst->cls, name);
  if (!fn)
    fn = member(inst->cls, name);
  if (!fn || fn->kind() != ast::ClassKind::Function)
    return nullptr;
  owner = inst;
  return fn;
}

Value Flattener::lowerCall(const ast::Expr &e, Scope &scope) {
  if (e.partialApplication) {
    diags_.error(e.range, "`function " + e.text +
                              "(...)` (a partial application) can only be the argument of a functional input of a "
                              "function (MLS 3.5, 12.4.2.1)");
    return fail();
  }
  if (scope.fn && e.ref.size() <= 1) // a call of a functional input (MLS 3.5, 12.4.2)
    if (auto f = scope.fn->functions.find(e.text); f != scope.fn->functions.end())
      return lowerUserCall(e, scope, f->second.target, 0, nullptr, &f->second);
  if (ClassInfo *own = shadowingFunction(e.text, scope))
    return lowerUserCall(e, scope, own, 0, nullptr);
  bool handled = false;
  Value v = lowerBuiltinCall(e, scope, handled);
  if (handled)
    return v;
  ClassInfo *fn = scopedClass(e.text, scope);
  Instance *owner = nullptr;
  if (!fn && e.text.find('.') != std::string::npos)
    if (ClassInfo *f = componentFunction(e.text, scope, owner))
      return lowerUserCall(e, scope, f, 0, nullptr, nullptr, owner);
  if (fn && fn->kind() == ast::ClassKind::Function && isLoadResource(fn->name))
    return lowerLoadResource(e, scope);
  if (fn && fn->kind() == ast::ClassKind::Function)
    return lowerUserCall(e, scope, fn, 0, nullptr);
  // `redeclare record ThermodynamicState = BaseProps_Tpoly` (MSL's incompressible media): the
  // constructor of the record it names (a short record class without modifiers of its own).
  for (int hops = 0; fn && fn->kind() == ast::ClassKind::Record && fn->def->isShort &&
                     fn->def->shortModifiers.empty() && fn->def->shortBase.typeDims.empty() && hops < 50;
       ++hops)
    fn = findClass(fn->def->shortBase.typeName, definitionScope(fn));
  if (fn && fn->kind() == ast::ClassKind::Record && !fn->def->isShort) {
    if (fn->def->isOperator && resolveClass(*fn))
      if (auto made = overloadedConstructor(e, scope, *fn)) // its operator 'constructor' (MLS 3.5, 14.2)
        return *made;
    return lowerRecordConstructor(e, scope, fn);
  }
  if (fn && fn->def->isEnumeration && !fn->def->openEnumeration)
    return lowerEnumerationConversion(e, scope, *fn);
  if (fn && fn->kind() == ast::ClassKind::Class && resolveClass(*fn) && fn->externalObject) {
    if (&e != constructorCall_) {
      diags_.error(e.nameRange, "'" + fn->name + "' is an external object class: it is called only as the value of a "
                                "parameter of its class, which it makes (MLS 3.5, 12.9.7)");
      return fail();
    }
    return lowerUserCall(e, scope, fn->nested.at("constructor"), 0, nullptr);
  }
  if (fn) {
    diags_.error(e.nameRange, "'" + e.text + "' is a " + ast::kindName(fn->kind()) + ", not a function");
    return fail();
  }
  std::vector<std::string> names;
  for (size_t i = 0; i < kBuiltinCount; ++i)
    names.push_back(builtinInfo(static_cast<Builtin>(i)).name);
  for (const char *n : kOperatorNames)
    names.push_back(n);
  std::string hint = closest(e.text, names);
  diags_.error(e.nameRange, "unknown function '" + e.text + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
  return fail();
}

bool Flattener::isLoadResource(const std::string &name) {
  return name == "Modelica.Utilities.Files.loadResource" || name == "ModelicaServices.ExternalReferences.loadResource";
}

Value Flattener::lowerLoadResource(const ast::Expr &e, Scope &scope) {
  // MSL's loadResource(uri) is ModelicaServices': the tool's own (its default implementation
  // takes local names only). eqc resolves `modelica://Class/path` (MLS 3.5, 13.5) and `file://`
  // URIs and local names when the model is compiled, as other tools do.
  if (e.args.size() != 1 || !(e.argNames[0].empty() || e.argNames[0] == "uri")) {
    diags_.error(e.nameRange, "loadResource() takes one argument, the URI");
    return fail();
  }
  Value uri = lower(*e.args[0], scope);
  if (!uri.ok)
    return fail();
  if (uri.type != Type::String || !uri.isScalar()) {
    diags_.error(e.args[0]->range, "the argument of loadResource() must be a String known when the model is compiled");
    return fail();
  }
  std::string path = resolveUri(uri.text, e.args[0]->range);
  if (path.empty())
    return fail();
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  Value v = Value::scalar(ctx().zero(), Type::String);
  v.text = ec ? path : absolute.lexically_normal().string();
  return v;
}

} // namespace eqc::frontend

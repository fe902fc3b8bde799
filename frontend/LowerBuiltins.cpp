// The builtin operators and functions of the language: der, pre, edge, change, noEvent, the
// array functions (size, sum, zeros, fill, transpose, ...) and the scalar functions of
// middle/Builtins.def applied element by element.
#include "frontend/FlattenImpl.h"

#include "middle/ExprOps.h"

#include <algorithm>
#include <cmath>

namespace eqc::frontend {
namespace {

Type numericType(Type a, Type b) { return a == Type::Integer && b == Type::Integer ? Type::Integer : Type::Real; }

std::string argCount(size_t n) { return std::to_string(n) + (n == 1 ? " was" : " were"); }

} // namespace

std::optional<std::vector<int>> Flattener::shapeOf(const ast::Expr &e, Scope &scope) {
  if (e.kind == ast::ExprKind::Name && e.ref.size() == 1 && e.ref[0].subscripts.empty()) {
    const std::string &name = e.ref[0].name;
    bool isLoop = false;
    for (auto &[n, _] : scope.loops)
      isLoop = isLoop || n == name;
    bool isLocal = false;
    if (scope.fn)
      for (auto &[n, _] : localNames(scope))
        isLocal = isLocal || n == name;
    if (!isLoop && !isLocal && scope.inst) {
      int idx = scope.inst->cls->find(name);
      if (idx >= 0) {
        Symbol &s = symbol(*scope.inst, idx);
        if (s.kind == Symbol::Variable || s.kind == Symbol::Constant)
          return s.dims.empty() && s.kind == Symbol::Constant ? s.value.dims : s.dims;
      }
    }
  }
  ++stringContext_; // (size(names, 1) of an array of Strings)
  Value v = lower(e, scope);
  --stringContext_;
  if (!v.ok)
    return std::nullopt;
  return v.dims;
}

std::string builtinName(const std::string &name) {
  // The builtins are in the global scope (MLS 3.5, 5.3.3): MSL's ComplexMath calls `.sqrt` so.
  if (name.size() > 1 && name[0] == '.' && name.find('.', 1) == std::string::npos)
    return name.substr(1);
  return name;
}

Value Flattener::lowerReduction(const ast::Expr &e, Scope &scope) {
  // sum(expr for i in r): the values of expr for every i, combined element by element.
  const std::string fn = builtinName(e.text);
  Value acc;
  std::vector<std::vector<const Expr *>> terms; ///< per element: the values after the first
  std::vector<int> shape;
  bool ok = iterate(e.iterators, scope, shape, [&]() -> bool {
    Value v = lower(*e.args[0], scope);
    if (!v.ok)
      return false;
    if (!v.isNumeric()) {
      diags_.error(e.args[0]->range, fn + "() adds up numbers, not " + typeName(v.type) + " values");
      return false;
    }
    if (!acc.ok) {
      acc = v;
      return true;
    }
    if (v.dims != acc.dims) {
      diags_.error(e.args[0]->range, fn + "(): the values have different shapes (" + shapeText(acc.dims) + " and " +
                                         shapeText(v.dims) + ")");
      return false;
    }
    // Sums and products collect their terms and build one node at the end (adding term by term
    // would copy a growing sum n times).
    if (terms.empty())
      terms.assign(acc.size(), {});
    for (size_t i = 0; i < v.size(); ++i) {
      if (fn == "sum" || fn == "product")
        terms[i].push_back(v.elems[i]);
      else
        acc.elems[i] = ctx().call(fn == "min" ? Builtin::Min : Builtin::Max, {acc.elems[i], v.elems[i]});
    }
    acc.type = numericType(acc.type, v.type);
    return true;
  });
  if (!ok)
    return fail();
  if (acc.ok && (fn == "sum" || fn == "product"))
    for (size_t i = 0; i < acc.size() && i < terms.size(); ++i) {
      terms[i].push_back(acc.elems[i]);
      acc.elems[i] = fn == "sum" ? ctx().add(terms[i]) : ctx().mul(terms[i]);
    }
  if (!acc.ok) { // an empty range
    if (fn == "min" || fn == "max") {
      diags_.error(e.range, fn + "() of an empty range");
      return fail();
    }
    return Value::scalar(ctx().constant(fn == "sum" ? 0 : 1), Type::Integer);
  }
  return acc;
}

Value Flattener::lowerSemiLinear(const ast::Expr &e, Scope &scope) {
  ExprContext &c = ctx();
  // MLS 3.5, 3.7.2: smooth(0, if x >= 0 then positiveSlope*x else negativeSlope*x), element-wise.
  Value x = lowerReal(*e.args[0], scope), kp = lowerReal(*e.args[1], scope), kn = lowerReal(*e.args[2], scope);
  if (!x.ok || !kp.ok || !kn.ok)
    return fail();
  // Vectorized (3.7.2.5): the arguments that are arrays have one shape, the scalars apply to every
  // element (MSL's pipes: semiLinear(m_flow, mediums[i - 1].Xi, mediums[i].Xi)).
  const Value *shape = !x.isScalar() ? &x : !kp.isScalar() ? &kp : &kn;
  for (const Value *k : {&x, &kp, &kn})
    if (!k->isScalar() && k->dims != shape->dims) {
      diags_.error(e.range,
                   "semiLinear(x, positiveSlope, negativeSlope): the arguments that are arrays must have one "
                   "shape (" +
                       shapeText(shape->dims) + " and " + shapeText(k->dims) + ")");
      return fail();
    }
  Value out = *shape;
  out.type = Type::Real;
  for (size_t i = 0; i < shape->size(); ++i) {
    const Expr *xi = x.elems[x.isScalar() ? 0 : i], *p = kp.elems[kp.isScalar() ? 0 : i],
               *m = kn.elems[kn.isScalar() ? 0 : i];
    out.elems[i] = c.noEvent(c.ifThenElse(c.le(c.zero(), xi), c.mul(p, xi), c.mul(m, xi)));
  }
  return out;
}

Value Flattener::lowerVectorAlgebra(const std::string &fn, const ast::Expr &e, Scope &scope) {
  // cross, outerProduct, diagonal and skew (MLS 3.5, 10.3.3 and 10.3.6), their arguments counted.
  ExprContext &c = ctx();
  if (fn == "cross") {
    Value a = lowerReal(*e.args[0], scope), b = lowerReal(*e.args[1], scope);
    if (!a.ok || !b.ok)
      return fail();
    if (a.dims != std::vector<int>{3} || b.dims != std::vector<int>{3}) {
      diags_.error(e.range, "cross() takes two vectors of 3 elements");
      return fail();
    }
    Value out = a;
    out.type = numericType(a.type, b.type);
    auto &x = a.elems, &y = b.elems;
    out.elems = {c.sub(c.mul(x[1], y[2]), c.mul(x[2], y[1])), c.sub(c.mul(x[2], y[0]), c.mul(x[0], y[2])),
                 c.sub(c.mul(x[0], y[1]), c.mul(x[1], y[0]))};
    return out;
  }
  if (fn == "diagonal") { // MLS 3.5, 10.3.3: the square matrix with v on its diagonal
    Value a = lower(*e.args[0], scope);
    if (!a.ok)
      return fail();
    if (a.dims.size() != 1 || !a.isNumeric()) {
      diags_.error(e.args[0]->range, "diagonal() takes a vector of numbers");
      return fail();
    }
    const int m = a.dims[0];
    Value out = a;
    out.dims = {m, m};
    out.elems.assign(static_cast<size_t>(m) * m, c.zero());
    for (int i = 0; i < m; ++i)
      out.elems[static_cast<size_t>(i) * m + i] = a.elems[i];
    return out;
  }
  if (fn == "skew") { // MLS 3.5, 10.3.6: the matrix of x's cross product, skew(x)*y = cross(x, y)
    Value a = lowerReal(*e.args[0], scope);
    if (!a.ok)
      return fail();
    if (a.dims != std::vector<int>{3}) {
      diags_.error(e.range, "skew() takes a vector of 3 elements");
      return fail();
    }
    Value out = a;
    out.dims = {3, 3};
    auto &x = a.elems;
    const Expr *z = c.zero();
    out.elems = {z, c.neg(x[2]), x[1], x[2], z, c.neg(x[0]), c.neg(x[1]), x[0], z};
    return out;
  }
  if (fn == "outerProduct") { // MLS 3.5, 10.3.6: v1[i]*v2[j]
    Value a = lowerReal(*e.args[0], scope), b = lowerReal(*e.args[1], scope);
    if (!a.ok || !b.ok)
      return fail();
    if (a.dims.size() != 1 || b.dims.size() != 1) {
      diags_.error(e.range, "outerProduct() takes two vectors");
      return fail();
    }
    Value out = a;
    out.type = numericType(a.type, b.type);
    out.dims = {a.dims[0], b.dims[0]};
    out.elems.clear();
    for (const Expr *x : a.elems)
      for (const Expr *y : b.elems)
        out.elems.push_back(c.mul(x, y));
    return out;
  }
  return fail();
}

Value Flattener::lowerBuiltinCall(const ast::Expr &e, Scope &scope, bool &handled) {
  handled = true;
  const std::string fn = builtinName(e.text);
  const size_t n = e.args.size();
  ExprContext &c = ctx();
  auto arity = [&](size_t lo, size_t hi) {
    if (n >= lo && n <= hi)
      return true;
    std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
    diags_.error(e.nameRange, "function '" + fn + "' takes " + want + " argument" + (hi == 1 ? "" : "s") + " but " +
                                  argCount(n) + " given");
    return false;
  };
  for (const std::string &name : e.argNames)
    if (!name.empty() && (fn == "der" || fn == "pre" || fn == "sum" || fn == "size")) {
      diags_.error(e.nameRange, "function '" + fn + "' has no named arguments");
      return fail();
    }
  if (!e.iterators.empty()) {
    if (fn == "sum" || fn == "product" || fn == "min" || fn == "max")
      return lowerReduction(e, scope);
    if (fn == "array") // array(e for i in r) is {e for i in r} (MLS 3.5, 10.4.1)
      return lowerArray(e, scope);
    diags_.error(e.nameRange, "'" + fn +
                                  "(... for ...)' is not a reduction (sum, product, min and max are; array "
                                  "constructs an array)");
    return fail();
  }
  if (fn == "Connections.isRoot" || fn == "Connections.rooted" || fn == "rooted")
    return lowerGraphQuery(e, scope);
  if (fn == "cardinality")
    return lowerCardinality(e, scope);
  if (fn == "inStream" || fn == "actualStream")
    return lowerStreamOperator(fn, e, scope);
  if (fn == "der") {
    if (!arity(1, 1))
      return fail();
    return lowerDer(*e.args[0], scope, e.range);
  }
  if (fn == "pre" || fn == "edge" || fn == "change") {
    if (!arity(1, 1))
      return fail();
    if (scope.context != Context::Equation && scope.context != Context::When) {
      diags_.error(e.nameRange, fn + "() can only be used in equations");
      return fail();
    }
    ++stringContext_; // pre(s) and change(s) of a String variable s
    Value v = lower(*e.args[0], scope);
    --stringContext_;
    if (!v.ok)
      return fail();
    if (v.type == Type::String && fn != "edge") { // its handle's pre(): the text it had before the event
      const Expr *handle = textHandle(v);
      if (!handle || handle->kind() != ExprKind::Var || sys_.vars[handle->var()].role != VarRole::Discrete) {
        diags_.error(e.args[0]->range, fn + "() takes a variable, not an expression");
        return fail();
      }
      const Expr *pre = c.pre(handle->var(), false);
      return fn == "pre" ? handleText(pre) : Value::scalar(c.ne(handle, pre), Type::Boolean);
    }
    if (fn == "edge" && v.type != Type::Boolean) {
      diags_.error(e.args[0]->range, "edge() takes a Boolean variable");
      return fail();
    }
    Value out = v;
    for (size_t i = 0; i < v.size(); ++i) {
      const Expr *x = v.elems[i];
      if (x->kind() != ExprKind::Var) {
        if (x->isConst() || x->kind() == ExprKind::BoolConst) {
          out.elems[i] = fn == "pre" ? x : c.boolean(false);
          continue;
        }
        diags_.error(e.args[0]->range, fn + "() takes a variable, not an expression");
        return fail();
      }
      const Variable &var = sys_.vars[x->var()];
      if (var.role == VarRole::Parameter) {
        out.elems[i] = fn == "pre" ? x : c.boolean(false);
        continue;
      }
      if (var.role != VarRole::Discrete && scope.context != Context::When && !whenAssigned_.count(x->var())) {
        // Real variables become discrete when a when-clause assigns them; that is checked later.
        pendingPre_.emplace_back(x->var(), e.range);
      }
      const Expr *pre = c.pre(x->var(), x->isBool());
      if (fn == "pre")
        out.elems[i] = pre;
      else if (fn == "edge")
        out.elems[i] = c.logicalAnd(x, c.logicalNot(pre));
      else
        out.elems[i] = c.ne(x, pre);
    }
    if (fn != "pre")
      out.type = Type::Boolean;
    return out;
  }
  if (fn == "Integer") { // the number of an enumeration literal (MLS 3.5, 4.8.5.2)
    if (!arity(1, 1))
      return fail();
    Value v = lower(*e.args[0], scope);
    if (!v.ok)
      return v;
    // (the loop variables of `for e in E` are Integers here: Integer(e) is their number too)
    if (v.type != Type::Integer || v.enumerationType) {
      diags_.error(e.args[0]->range, "Integer() converts a value of an enumeration type to its number");
      return fail();
    }
    v.enumeration = nullptr;
    return v;
  }
  if (fn == "homotopy")
    return lowerHomotopy(e, scope);
  if (fn == "semiLinear")
    return arity(3, 3) ? lowerSemiLinear(e, scope) : fail();
  if (fn == "noEvent" || fn == "smooth") {
    if (!arity(fn == "smooth" ? 2 : 1, fn == "smooth" ? 2 : 1))
      return fail();
    Value v = lower(*e.args[n - 1], scope);
    if (!v.ok)
      return v;
    for (const Expr *&x : v.elems)
      x = c.noEvent(x);
    return v;
  }
  if (fn == "reinit" || fn == "terminate" || fn == "assert") {
    diags_.error(e.nameRange, fn + "() is " + (fn == "reinit" ? "an equation of when-clauses" : "a statement") +
                                  ", not a value");
    return fail();
  }
  if (fn == "sample")
    return lowerSample(e, scope);
  if (fn == "delay")
    return lowerDelay(e, scope);
  if (fn == "String") // of a value known when compiled; at run time, only in messages (lowerMessage)
    return knownString(e, scope);
  if (fn == "getInstanceName") {
    // getInstanceName() (MLS 3.5, 3.7): the simulated model's name followed by the instance path
    // ("Vehicle.engine.controller"), in a function the function's name (unspecified there); a
    // String known when the model is compiled.
    if (!arity(0, 0))
      return fail();
    Value v = Value::scalar(c.zero(), Type::String);
    if (scope.fn) {
      v.text = scope.fn->cls->name;
    } else if (scope.inst) {
      const Instance *root = scope.inst;
      while (root->parent && !root->package)
        root = root->parent;
      v.text = root->cls->def->name + (scope.inst->path.empty() || scope.inst->package ? "" : "." + scope.inst->path);
    }
    return v;
  }
  if (fn == "terminal")
    return lowerTerminal(e, scope);
  if (fn == "size" || fn == "ndims") {
    if (!arity(1, fn == "size" ? 2 : 1))
      return fail();
    auto dims = shapeOf(*e.args[0], scope);
    if (!dims)
      return fail();
    if (fn == "ndims")
      return Value::scalar(c.constant(static_cast<double>(dims->size())), Type::Integer);
    if (n == 1) {
      Value out;
      out.ok = true;
      out.type = Type::Integer;
      out.dims = {static_cast<int>(dims->size())};
      for (int d : *dims)
        out.elems.push_back(c.constant(d));
      return out;
    }
    Value k = lower(*e.args[1], scope);
    if (!k.ok)
      return fail();
    std::optional<double> kv = k.isScalar() && k.type == Type::Integer ? structural(k, e.args[1]->range, "the dimension of size()")
                                                                       : std::nullopt;
    if (!kv || *kv < 1 || *kv > dims->size()) {
      diags_.error(e.args[1]->range, "size(a, k): k must be an Integer from 1 to " + std::to_string(dims->size()));
      return fail();
    }
    return Value::scalar(c.constant((*dims)[static_cast<size_t>(*kv) - 1]), Type::Integer);
  }
  if (fn == "zeros" || fn == "ones" || fn == "fill") {
    size_t first = fn == "fill" ? 1 : 0;
    if (!arity(first + 1, first + 8))
      return fail();
    Value fillWith = fn == "fill" ? arrayItem(lower(*e.args[0], scope))
                                  : Value::scalar(c.constant(fn == "ones" ? 1 : 0), Type::Integer);
    if (!fillWith.ok)
      return fail();
    std::vector<int> dims;
    for (size_t i = first; i < n; ++i) {
      Value d = lower(*e.args[i], scope);
      if (!d.ok)
        return fail();
      std::optional<double> dv = d.isScalar() && d.type == Type::Integer ? structural(d, e.args[i]->range, "a size")
                                                                         : std::nullopt;
      if (!dv || *dv < 0) {
        diags_.error(e.args[i]->range, fn + "(): sizes must be Integers of 0 or more");
        return fail();
      }
      dims.push_back(static_cast<int>(*dv));
    }
    Value out;
    out.ok = true;
    out.type = fillWith.type;
    out.record = fillWith.record; // fill(Complex(0), m): an array of records
    out.enumeration = fillWith.enumeration;
    out.dims = dims;
    out.dims.insert(out.dims.end(), fillWith.dims.begin(), fillWith.dims.end());
    double count = 1;
    for (int d : dims)
      count *= d;
    if (count * std::max<size_t>(1, fillWith.size()) > static_cast<double>(kMaxScalars)) {
      diags_.error(e.range, fn + "(): more than 2e7 elements (eqc's limit)");
      return fail();
    }
    out.elems.reserve(static_cast<size_t>(count) * fillWith.size());
    for (size_t i = 0; i < static_cast<size_t>(count); ++i)
      out.elems.insert(out.elems.end(), fillWith.elems.begin(), fillWith.elems.end());
    return out;
  }
  if (fn == "identity") {
    if (!arity(1, 1))
      return fail();
    Value d = lower(*e.args[0], scope);
    std::optional<double> dv = d.ok && d.isScalar() && d.type == Type::Integer ? structural(d, e.args[0]->range, "a size")
                                                                               : std::nullopt;
    if (!dv || *dv < 0) {
      if (d.ok)
        diags_.error(e.args[0]->range, "identity(n): n must be an Integer of 0 or more");
      return fail();
    }
    if (*dv * *dv > static_cast<double>(kMaxScalars)) {
      diags_.error(e.range, "identity(): more than 2e7 elements (eqc's limit)");
      return fail();
    }
    int m = static_cast<int>(*dv);
    Value out;
    out.ok = true;
    out.type = Type::Integer;
    out.dims = {m, m};
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j)
        out.elems.push_back(c.constant(i == j));
    return out;
  }
  if (fn == "linspace") {
    if (!arity(3, 3))
      return fail();
    Value a = lowerReal(*e.args[0], scope), b = lowerReal(*e.args[1], scope), k = lower(*e.args[2], scope);
    if (!a.ok || !b.ok || !k.ok)
      return fail();
    std::optional<double> kv = k.isScalar() && k.type == Type::Integer ? structural(k, e.args[2]->range, "the size of linspace()")
                                                                       : std::nullopt;
    if (!kv || *kv < 2 || *kv > static_cast<double>(kMaxScalars) || !a.isScalar() || !b.isScalar()) {
      diags_.error(e.range, "linspace(x1, x2, n): scalars x1, x2 and an Integer n >= 2");
      return fail();
    }
    int m = static_cast<int>(*kv);
    Value out;
    out.ok = true;
    out.dims = {m};
    for (int i = 0; i < m; ++i)
      out.elems.push_back(c.add(a.elems[0], c.mul(c.constant(static_cast<double>(i) / (m - 1)), c.sub(b.elems[0], a.elems[0]))));
    return out;
  }
  if (fn == "cat")
    return lowerCat(e, scope);
  if (fn == "array") { // array(A, B, ...) is {A, B, ...}, also with iterators (MLS 3.5, 10.4.1)
    if (!arity(1, 1000000))
      return fail();
    return lowerArray(e, scope);
  }
  if (fn == "transpose") {
    if (!arity(1, 1))
      return fail();
    Value a = lower(*e.args[0], scope);
    if (!a.ok)
      return fail();
    if (a.dims.size() != 2) {
      diags_.error(e.args[0]->range, "transpose() takes a matrix, not " + shapeText(a.dims));
      return fail();
    }
    Value out = a;
    out.dims = {a.dims[1], a.dims[0]};
    for (int i = 0; i < a.dims[0]; ++i)
      for (int j = 0; j < a.dims[1]; ++j)
        out.elems[j * a.dims[0] + i] = a.elems[i * a.dims[1] + j];
    return out;
  }
  if (fn == "cross" || fn == "outerProduct")
    return arity(2, 2) ? lowerVectorAlgebra(fn, e, scope) : fail();
  if (fn == "diagonal" || fn == "skew")
    return arity(1, 1) ? lowerVectorAlgebra(fn, e, scope) : fail();
  if (fn == "scalar" || fn == "vector") {
    if (!arity(1, 1))
      return fail();
    Value a = lower(*e.args[0], scope);
    if (!a.ok)
      return fail();
    if (fn == "scalar") {
      if (a.size() != 1) {
        diags_.error(e.args[0]->range, "scalar() takes an array of one element, not " + shapeText(a.dims));
        return fail();
      }
      a.dims.clear();
      return a;
    }
    a.dims = {static_cast<int>(a.size())};
    return a;
  }
  if ((fn == "sum" || fn == "product") || ((fn == "min" || fn == "max") && n == 1)) {
    if (!arity(1, 1))
      return fail();
    Value a = lowerReal(*e.args[0], scope);
    if (!a.ok)
      return fail();
    if (a.isScalar()) {
      diags_.error(e.args[0]->range, fn + "() takes an array");
      return fail();
    }
    if (a.elems.empty()) {
      if (fn == "min" || fn == "max") {
        diags_.error(e.args[0]->range, fn + "() of an empty array");
        return fail();
      }
      return Value::scalar(c.constant(fn == "sum" ? 0 : 1), a.type);
    }
    const Expr *r;
    if (fn == "sum")
      r = c.add(a.elems);
    else if (fn == "product")
      r = c.mul(a.elems);
    else {
      r = a.elems[0];
      for (size_t i = 1; i < a.size(); ++i)
        r = c.call(fn == "min" ? Builtin::Min : Builtin::Max, {r, a.elems[i]});
      Value v = Value::scalar(r, a.type); // min(E), max(E): a literal of E
      v.enumeration = a.enumeration;
      return v;
    }
    if (a.enumeration) {
      diags_.error(e.args[0]->range, fn + "() of values of the enumeration type '" + a.enumeration->name + "'");
      return fail();
    }
    return Value::scalar(r, a.type);
  }
  if (fn == "integer" || fn == "div" || fn == "rem") {
    if (!arity(fn == "integer" ? 1 : 2, fn == "integer" ? 1 : 2))
      return fail();
    Value a = lowerReal(*e.args[0], scope);
    if (!a.ok)
      return fail();
    if (fn == "integer") {
      for (const Expr *&x : a.elems)
        x = c.call(Builtin::Floor, {x});
      a.type = Type::Integer;
      return a;
    }
    Value b = lowerReal(*e.args[1], scope);
    if (!b.ok)
      return fail();
    for (const Expr *y : b.elems)
      if (y->isConst(0)) {
        diags_.error(e.args[1]->range, "division by zero");
        return fail();
      }
    auto truncDiv = [&](const Expr *x, const Expr *y) {
      const Expr *q = c.div(x, y);
      return c.mul(c.call(Builtin::Sign, {q}), c.call(Builtin::Floor, {c.call(Builtin::Abs, {q})}));
    };
    return elementwise(a, b, e.range, fn.c_str(),
                       [&](const Expr *x, const Expr *y) { return fn == "div" ? truncDiv(x, y) : c.sub(x, c.mul(y, truncDiv(x, y))); },
                       numericType(a.type, b.type));
  }
  Builtin b;
  if (!lookupBuiltin(fn, b)) {
    handled = false;
    return fail();
  }
  // The scalar functions, element by element (two-argument ones broadcast a scalar).
  int want = builtinInfo(b).arity;
  if (!arity(static_cast<size_t>(want), static_cast<size_t>(want)))
    return fail();
  std::vector<Value> args;
  for (const auto &a : e.args) {
    Value v = lowerReal(*a, scope);
    if (!v.ok)
      return fail();
    args.push_back(std::move(v));
  }
  const bool keepsInteger = builtinInfo(b).integer;
  if (want == 1) {
    Value out = args[0];
    for (const Expr *&x : out.elems)
      x = c.call(b, {x});
    // sign(v) is an Integer for Real v too (MLS 3.5, 3.7.1: it returns -1, 0 or 1).
    out.type = (keepsInteger && args[0].type == Type::Integer) || b == Builtin::Sign ? Type::Integer : Type::Real;
    return out;
  }
  Type t = keepsInteger ? numericType(args[0].type, args[1].type) : Type::Real;
  return elementwise(args[0], args[1], e.range, fn.c_str(), [&](const Expr *x, const Expr *y) { return c.call(b, {x, y}); }, t);
}


Value Flattener::lowerHomotopy(const ast::Expr &e, Scope &scope) {
  const size_t n = e.args.size();
  // MLS 3.5, 3.7.4: homotopy(actual, simplified) is `actual` (eqc initializes with Newton on
  // the actual equations; the simplified ones are checked, not used).
  const ast::Expr *actual = nullptr, *simplified = nullptr;
  for (size_t i = 0; i < n; ++i) {
    const std::string &name = i < e.argNames.size() ? e.argNames[i] : "";
    if (name == "actual" || (name.empty() && i == 0))
      actual = e.args[i].get();
    else if (name == "simplified" || (name.empty() && i == 1))
      simplified = e.args[i].get();
    else {
      diags_.error(e.args[i]->range, "homotopy() takes the arguments actual and simplified");
      return fail();
    }
  }
  if (!actual || !simplified) {
    diags_.error(e.nameRange, "homotopy() takes the arguments actual and simplified");
    return fail();
  }
  Value a = lower(*actual, scope), b = lower(*simplified, scope);
  if (a.ok && b.ok && (a.dims != b.dims || (a.type == Type::Boolean) != (b.type == Type::Boolean))) {
    diags_.error(simplified->range, "the simplified expression of homotopy() must have the actual one's type and size");
    return fail();
  }
  return b.ok ? a : fail();
}

} // namespace eqc::frontend

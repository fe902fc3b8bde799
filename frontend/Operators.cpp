// Overloaded operators (MLS 3.5, 14): an operator record's `operator '+'`, `'-'`, `'*'`, …,
// `'constructor'` classes hold the functions that `a + b`, `-a` and `C(…)` stand for when an
// operand is of the record. The call is resolved by the chapter's matching rules: a unique
// function that takes the operands as they are (14.4 item 2), else a unique one after converting
// one operand with a constructor of the other operand's record (item 3); several is an error.
#include "frontend/FlattenImpl.h"

#include <algorithm>
#include <functional>

namespace eqc::frontend {

namespace {

/// The operator class name of a binary operator ("'+'"); element-wise operators are defined by
/// the operator of the same name (14.4).
const char *binaryOperatorName(ast::BinaryOp op) {
  using B = ast::BinaryOp;
  switch (op) {
  case B::Add:
  case B::ElemAdd: return "'+'";
  case B::Sub:
  case B::ElemSub: return "'-'";
  case B::Mul:
  case B::ElemMul: return "'*'";
  case B::Div:
  case B::ElemDiv: return "'/'";
  case B::Pow:
  case B::ElemPow: return "'^'";
  case B::Lt: return "'<'";
  case B::Le: return "'<='";
  case B::Gt: return "'>'";
  case B::Ge: return "'>='";
  case B::Eq: return "'=='";
  case B::Ne: return "'<>'";
  case B::And: return "'and'";
  case B::Or: return "'or'";
  }
  return "";
}

/// The inputs of a function, in order.
std::vector<const Element *> inputsOf(const ClassInfo &fn) {
  std::vector<const Element *> inputs;
  for (const Element &el : fn.elements)
    if (el.decl->causality == ast::Causality::Input)
      inputs.push_back(&el);
  return inputs;
}

std::string namesOf(const std::vector<ClassInfo *> &functions) {
  std::string text;
  for (const ClassInfo *f : functions)
    text += (text.empty() ? "'" : ", '") + f->name + "'";
  return text;
}

} // namespace

const ClassInfo *Flattener::operatorRecord(const Value &v) {
  return v.ok && v.record && v.record->def->isOperator ? v.record : nullptr;
}

std::vector<ClassInfo *> Flattener::operatorFunctions(const ClassInfo &record, const std::string &op) {
  ClassInfo *c = member(&record, op);
  if (!c)
    return {};
  if (c->kind() == ast::ClassKind::Function)
    return {c};
  std::vector<ClassInfo *> functions;
  if (c->kind() != ast::ClassKind::Operator)
    return functions;
  for (const auto &nested : c->def->classes)
    if (ClassInfo *f = member(c, nested->name); f && f->kind() == ast::ClassKind::Function)
      functions.push_back(f);
  return functions;
}

std::string Flattener::valueTypeText(const Value &v) {
  std::string base = v.record ? v.record->name : v.enumeration ? v.enumeration->name : typeName(v.type);
  return v.isScalar() ? base : base + shapeText(v.dims);
}

bool Flattener::argumentFits(const Element &input, const Value &arg) {
  if (!arg.ok || arg.function || arg.object || arg.enumerationType)
    return false;
  if (functionType(input))
    return false;
  const size_t rank = input.comp->dims.size() + input.decl->typeDims.size();
  auto [name, from] = baseType(input);
  Type t = Type::Real;
  if (isPrimitive(name, t)) {
    if (arg.record || arg.enumeration || arg.dims.size() != rank)
      return false;
    const bool numeric = t == Type::Real || t == Type::Integer;
    return numeric ? arg.isNumeric() : arg.type == t;
  }
  const ClassInfo *cls = findClass(name, from);
  if (!cls)
    return false;
  if (cls->kind() == ast::ClassKind::Record)
    return arg.record == cls && arg.dims.size() == rank;
  if (cls->def->isEnumeration)
    return arg.enumeration == cls && arg.dims.size() == rank;
  return false;
}

bool Flattener::validMatch(ClassInfo &fn, const std::vector<const Value *> &positional,
                           const std::vector<std::pair<std::string, const Value *>> &named) {
  if (!resolveClass(fn))
    return false;
  const std::vector<const Element *> inputs = inputsOf(fn);
  if (positional.size() > inputs.size())
    return false;
  std::vector<bool> given(inputs.size(), false);
  for (size_t k = 0; k < positional.size(); ++k) {
    if (!argumentFits(*inputs[k], *positional[k]))
      return false;
    given[k] = true;
  }
  for (const auto &argument : named) {
    const std::string &name = argument.first;
    auto it = std::find_if(inputs.begin(), inputs.end(), [&](const Element *in) { return in->comp->name == name; });
    if (it == inputs.end())
      return false;
    const size_t k = static_cast<size_t>(it - inputs.begin());
    if (given[k] || !argumentFits(*inputs[k], *argument.second))
      return false;
    given[k] = true;
  }
  for (size_t k = 0; k < inputs.size(); ++k)
    if (!given[k] && !inputs[k]->comp->binding)
      return false;
  return true;
}

Value Flattener::callMatched(ClassInfo &fn, const std::vector<const Value *> &positional,
                             const std::vector<std::pair<std::string, const Value *>> &named, SourceRange range) {
  const std::vector<const Element *> inputs = inputsOf(fn);
  std::vector<Value> args;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Value *given = k < positional.size() ? positional[k] : nullptr;
    for (const auto &[name, value] : named)
      if (name == inputs[k]->comp->name)
        given = value;
    args.push_back(given ? *given : inputDefault(&fn, *inputs[k]));
    if (!args.back().ok)
      return fail();
  }
  return callSpecialized(&fn, args, range, range, 0, nullptr);
}

namespace {

/// Element k of array `v` as a scalar value (a record of an array of records).
Value elementOf(const Value &v, size_t k) {
  const size_t n = product(v.dims), width = n ? v.elems.size() / n : 0;
  Value one;
  one.ok = true;
  one.type = v.type;
  one.record = v.record;
  one.enumeration = v.enumeration;
  one.elems.assign(v.elems.begin() + static_cast<std::ptrdiff_t>(k * width),
                   v.elems.begin() + static_cast<std::ptrdiff_t>((k + 1) * width));
  return one;
}

/// Whether `op` applies element by element when both operands are arrays (MLS 3.5, 10.6), and
/// whether an array may meet a scalar under it (a scalar on the left only where `left` allows).
bool elementwiseBoth(ast::BinaryOp op) {
  using B = ast::BinaryOp;
  return op == B::Add || op == B::Sub || op == B::ElemAdd || op == B::ElemSub || op == B::ElemMul ||
         op == B::ElemDiv || op == B::ElemPow;
}
bool withScalar(ast::BinaryOp op, bool scalarOnLeft) {
  using B = ast::BinaryOp;
  switch (op) {
  case B::Mul:
  case B::ElemAdd:
  case B::ElemSub:
  case B::ElemMul:
  case B::ElemDiv:
  case B::ElemPow:
    return true;
  case B::Div:
    return !scalarOnLeft;
  default:
    return false;
  }
}

} // namespace

std::optional<Value> Flattener::elementwiseOverloaded(
    const Value &a, const Value &b, SourceRange range, const std::string &what,
    const std::function<std::optional<Value>(const Value &, const Value &)> &apply) {
  const bool arrays = !a.dims.empty() && !b.dims.empty();
  if (arrays && a.dims != b.dims) {
    diags_.error(range, what + ": the operands are " + valueTypeText(a) + " and " + valueTypeText(b) +
                            ", arrays of different shapes");
    return fail();
  }
  Value out;
  out.ok = true;
  out.dims = a.dims.empty() ? b.dims : a.dims;
  const size_t n = product(out.dims);
  for (size_t k = 0; k < n; ++k) {
    std::optional<Value> r =
        apply(a.dims.empty() ? a : elementOf(a, k), b.dims.empty() ? b : elementOf(b, k));
    if (!r || !r->ok)
      return fail();
    if (!r->dims.empty()) {
      diags_.error(range, what + ": each element gives an array (" + valueTypeText(*r) + ")");
      return fail();
    }
    if (k == 0) {
      out.type = r->type;
      out.record = r->record;
      out.enumeration = r->enumeration;
    } else if (r->record != out.record || r->type != out.type) {
      diags_.error(range, what + ": the elements give values of different types");
      return fail();
    }
    out.elems.insert(out.elems.end(), r->elems.begin(), r->elems.end());
  }
  return out;
}

std::optional<Value> Flattener::overloadedBinary(ast::BinaryOp op, const Value &a, const Value &b, SourceRange range) {
  const ClassInfo *recordA = operatorRecord(a), *recordB = operatorRecord(b);
  if (!recordA && !recordB)
    return std::nullopt;
  const std::string name = binaryOperatorName(op);
  // Item 2: the functions of both records' operator that take (a, b) as they are.
  std::vector<ClassInfo *> candidates;
  for (const ClassInfo *r : {recordA, recordB})
    if (r)
      for (ClassInfo *f : operatorFunctions(*r, name))
        if (std::find(candidates.begin(), candidates.end(), f) == candidates.end())
          candidates.push_back(f);
  std::vector<ClassInfo *> direct;
  for (ClassInfo *f : candidates)
    if (validMatch(*f, {&a, &b}, {}))
      direct.push_back(f);
  if (direct.size() == 1)
    return callMatched(*direct[0], {&a, &b}, {}, range);
  const std::string call = "'" + valueTypeText(a) + " " + name.substr(1, name.size() - 2) + " " + valueTypeText(b) + "'";
  if (direct.size() > 1) {
    diags_.error(range, call + " matches several functions of operator " + name + ": " + namesOf(direct) +
                            " (MLS 3.5, 14.4)");
    return fail();
  }
  if (!a.dims.empty() || !b.dims.empty()) {
    // MLS 3.5, 14.4: without a function that takes them as they are, array operands follow the
    // rules of 10.6 with the scalar operator: element by element (+, -, and the element-wise
    // operators), an array with a scalar (*, / and the element-wise operators); products of
    // vectors and matrices are left undefined.
    const bool arrays = !a.dims.empty() && !b.dims.empty();
    if (arrays ? !elementwiseBoth(op) : !withScalar(op, a.dims.empty())) {
      diags_.error(range, call + ": operator " + name +
                              " of an operator record applies to arrays element by "
                              "element or with a scalar only (MLS 3.5, 14.4 and 10.6)");
      return fail();
    }
    using B = ast::BinaryOp;
    B scalarOp = op == B::ElemAdd   ? B::Add
                 : op == B::ElemSub ? B::Sub
                 : op == B::ElemMul ? B::Mul
                 : op == B::ElemDiv ? B::Div
                 : op == B::ElemPow ? B::Pow
                                    : op;
    // Every pair of elements holds a record of the operand that is one (arrays of a record hold
    // its records), so the scalar operator applies to each.
    return elementwiseOverloaded(a, b, range, call, [&](const Value &x, const Value &y) {
      return overloadedBinary(scalarOp, x, y, range);
    });
  }
  // Item 3: a function of A's operator with b converted by a constructor of the record its second
  // input takes (a record other than b's), or one of B's with a converted.
  struct Converted {
    ClassInfo *f, *constructor;
    int side; ///< the operand converted: 0 a, 1 b
  };
  std::vector<Converted> converted;
  for (int side = 0; side < 2; ++side) {
    const ClassInfo *own = side == 1 ? recordA : recordB; // the record whose operator is used
    const Value &keep = side == 1 ? a : b, &convert = side == 1 ? b : a;
    if (!own)
      continue;
    for (ClassInfo *f : operatorFunctions(*own, name)) {
      if (!resolveClass(*f))
        continue;
      const std::vector<const Element *> inputs = inputsOf(*f);
      if (inputs.size() < 2)
        continue;
      auto [typeName, from] = baseType(*inputs[static_cast<size_t>(side)]);
      const ClassInfo *target = findClass(typeName, from);
      if (!target || !target->def->isOperator || target == convert.record)
        continue;
      Value as; // a value of the target record, for matching
      as.ok = true;
      as.record = target;
      if (!validMatch(*f, side == 1 ? std::vector<const Value *>{&keep, &as} : std::vector<const Value *>{&as, &keep}, {}))
        continue;
      for (ClassInfo *g : operatorFunctions(*target, "'constructor'"))
        if (validMatch(*g, {&convert}, {}))
          converted.push_back({f, g, side});
    }
  }
  if (converted.size() > 1) {
    std::vector<ClassInfo *> functions;
    for (const Converted &c : converted)
      functions.push_back(c.f);
    diags_.error(range, call + " matches several functions of operator " + name + " after converting an operand: " +
                            namesOf(functions) + " (MLS 3.5, 14.4)");
    return fail();
  }
  if (converted.empty()) {
    diags_.error(range, "no function of operator " + name + " of '" + (recordA ? recordA : recordB)->name +
                            (recordA && recordB && recordA != recordB ? "' or '" + recordB->name : std::string()) +
                            "' matches " + call + (candidates.empty() ? " (the record defines no operator " + name + ")" : "") +
                            " (MLS 3.5, 14.4)");
    return fail();
  }
  const Converted &c = converted[0];
  Value made = callMatched(*c.constructor, {c.side == 0 ? &a : &b}, {}, range);
  if (!made.ok)
    return fail();
  return callMatched(*c.f, c.side == 0 ? std::vector<const Value *>{&made, &b} : std::vector<const Value *>{&a, &made}, {},
                     range);
}

std::optional<Value> Flattener::overloadedUnary(ast::UnaryOp op, const Value &a, SourceRange range) {
  const ClassInfo *record = operatorRecord(a);
  if (!record)
    return std::nullopt;
  if (op == ast::UnaryOp::Plus)
    return a;
  if (!a.dims.empty()) { // element by element (MLS 3.5, 14.5 and 10.6)
    Value none;
    none.ok = true;
    return elementwiseOverloaded(
        a, none, range, (op == ast::UnaryOp::Neg ? "'-" : "'not ") + valueTypeText(a) + "'",
        [&](const Value &x, const Value &) { return overloadedUnary(op, x, range); });
  }
  const std::string name = op == ast::UnaryOp::Neg ? "'-'" : "'not'";
  std::vector<ClassInfo *> matches;
  for (ClassInfo *f : operatorFunctions(*record, name))
    if (validMatch(*f, {&a}, {}))
      matches.push_back(f);
  if (matches.size() == 1)
    return callMatched(*matches[0], {&a}, {}, range);
  const std::string call = "'" + name.substr(1, name.size() - 2) + (op == ast::UnaryOp::Not ? " " : "") + record->name + "'";
  if (matches.empty())
    diags_.error(range, "no function of operator " + name + " of '" + record->name + "' matches " + call +
                            " (MLS 3.5, 14.5)");
  else
    diags_.error(range, call + " matches several functions of operator " + name + ": " + namesOf(matches) +
                            " (MLS 3.5, 14.5)");
  return fail();
}

std::optional<Value> Flattener::overloadedConstructor(const ast::Expr &call, Scope &scope, ClassInfo &record) {
  std::vector<ClassInfo *> constructors = operatorFunctions(record, "'constructor'");
  if (constructors.empty())
    return std::nullopt; // the record's own constructor (14.2 item 2)
  std::vector<Value> values;
  values.reserve(call.args.size());
  for (const auto &arg : call.args) {
    values.push_back(lower(*arg, scope));
    if (!values.back().ok)
      return fail();
  }
  std::vector<const Value *> positional;
  std::vector<std::pair<std::string, const Value *>> named;
  for (size_t k = 0; k < values.size(); ++k) {
    const std::string &name = k < call.argNames.size() ? call.argNames[k] : std::string();
    if (name.empty())
      positional.push_back(&values[k]);
    else
      named.emplace_back(name, &values[k]);
  }
  std::vector<ClassInfo *> matches;
  for (ClassInfo *f : constructors)
    if (validMatch(*f, positional, named))
      matches.push_back(f);
  if (matches.size() == 1)
    return callMatched(*matches[0], positional, named, call.range);
  std::string types;
  for (size_t k = 0; k < values.size(); ++k) {
    const std::string &name = k < call.argNames.size() ? call.argNames[k] : std::string();
    types += (k ? ", " : "") + (name.empty() ? "" : name + " = ") + valueTypeText(values[k]);
  }
  if (matches.empty())
    diags_.error(call.range, "no function of operator 'constructor' of '" + record.name + "' matches '" + record.name +
                                 "(" + types + ")' (MLS 3.5, 14.2); it has " + namesOf(constructors));
  else
    diags_.error(call.range, "'" + record.name + "(" + types + ")' matches several constructors: " + namesOf(matches) +
                                 " (MLS 3.5, 14.2)");
  return fail();
}

} // namespace eqc::frontend

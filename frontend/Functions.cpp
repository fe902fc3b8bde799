// User functions: calls (positional and named arguments, defaults), specialization to the
// shapes of the arguments, and algorithm statements lowered to middle/Function.h.
#include "frontend/FlattenImpl.h"

#include "middle/ExprOps.h"

#include "eqc/eqc_external.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <unordered_map>

namespace eqc::frontend {

namespace {

/// Whether `e` names (as the head of a reference) a name for which `pick` holds.
bool namesAny(const ast::Expr &e, const std::function<bool(const std::string &)> &pick) {
  if (e.kind == ast::ExprKind::Name && !e.ref.empty() && pick(e.ref[0].name))
    return true;
  for (const ast::RefPart &part : e.ref)
    for (const ast::Subscript &sub : part.subscripts)
      if (sub.expr && namesAny(*sub.expr, pick))
        return true;
  for (const auto &arg : e.args)
    if (arg && namesAny(*arg, pick))
      return true;
  for (const ast::ForIndex &index : e.iterators)
    if (index.in && namesAny(*index.in, pick))
      return true;
  return false;
}

bool assigns(const std::vector<ast::Statement> &statements, const std::string &name);

/// Whether statement `st` assigns variable `name` (whole or an element of it).
bool assigns(const ast::Statement &st, const std::string &name) {
  auto names = [&](const ast::Expr *t) {
    return t && t->kind == ast::ExprKind::Name && t->ref[0].name == name;
  };
  if (st.kind == ast::StatementKind::Assign && names(st.target.get()))
    return true;
  if (st.kind == ast::StatementKind::TupleAssign && st.target)
    for (const auto &t : st.target->args)
      if (names(t.get()))
        return true;
  for (const auto &branch : st.branches)
    if (assigns(branch, name))
      return true;
  return false;
}

/// Whether a statement of `statements` assigns variable `name` (whole or an element of it).
bool assigns(const std::vector<ast::Statement> &statements, const std::string &name) {
  return std::any_of(statements.begin(), statements.end(),
                     [&](const ast::Statement &st) { return assigns(st, name); });
}

/// The function's bindingTime set while it lives: the bindings and sizes of a function's
/// variables are evaluated when it is entered, before its algorithm writes any of them.
class AtBindingTime {
public:
  explicit AtBindingTime(FunctionBuilder *b) : flag_(b ? &b->bindingTime : nullptr), was_(flag_ && *flag_) {
    if (flag_)
      *flag_ = true;
  }
  ~AtBindingTime() {
    if (flag_)
      *flag_ = was_;
  }
  AtBindingTime(const AtBindingTime &) = delete;
  AtBindingTime &operator=(const AtBindingTime &) = delete;

private:
  bool *flag_;
  bool was_;
};

/// A counter set to 0 until the end of the scope, then back to its value.
struct Suspended {
  int &count;
  const int value;
  explicit Suspended(int &c) : count(c), value(std::exchange(c, 0)) {}
  ~Suspended() { count = value; }
  Suspended(const Suspended &) = delete;
  Suspended &operator=(const Suspended &) = delete;
};

/// Whether a statement of `block` calls a function that returns a String (its own, or one of
/// the runtime's: String(x), a + b): the body makes Strings when it runs.
bool callsForStrings(const std::vector<FnStatement> &block) {
  auto makes = [](const Expr *e) {
    bool found = false;
    if (e)
      forEachNode(e, [&](const Expr *n) {
        found = n->kind() == ExprKind::FnCall &&
                n->callee().isString(n->callee().outputs[static_cast<size_t>(n->fnOutput())]);
        return found ? Walk::Stop : Walk::Descend;
      });
    return found;
  };
  for (const FnStatement &s : block) {
    if (makes(s.value) || makes(s.index) || makes(s.step) || makes(s.stop) || makes(s.text) ||
        std::any_of(s.conditions.begin(), s.conditions.end(), makes))
      return true;
    for (const auto &b : s.blocks)
      if (callsForStrings(b))
        return true;
  }
  return false;
}

/// What identifies a specialization of function `cls` (MLS 3.5, 12.4.1): the types and shapes of
/// its arguments, the Strings known when compiled that it takes, the functions passed to its
/// functional inputs and their bound values known when compiled.
std::string specializationKey(const ClassInfo &cls, const std::vector<Value> &args) {
  std::string key = cls.name + "(";
  auto valueKey = [](const Value &a) {
    std::string k = (a.record ? a.record->name : a.object ? a.object->name : std::string(typeName(a.type))) +
                    shapeText(a.dims);
    if (a.computedText() || (a.type == Type::String && !a.dims.empty())) // slots of the function
      k += "=?";
    else if (a.type == Type::String)
      k += "=" + std::to_string(a.text.size()) + ":" + a.text;
    return k;
  };
  for (const Value &a : args) {
    if (!a.function) {
      key += valueKey(a) + ",";
      continue;
    }
    // A functional input: specialized to the function and to the bound values known when compiled.
    key += "function " + a.function->target->name + "(";
    for (const auto &[name, v] : a.function->bound) {
      key += name + ":" + valueKey(v);
      if (!FunctionArgument::passed(v) && v.type != Type::String)
        for (const Expr *x : v.elems)
          key += "=" + formatNumber(x->value());
      key += ";";
    }
    key += "),";
  }
  key += ")";
  return key;
}

} // namespace

std::vector<std::pair<std::string, int>> Flattener::localNames(const Scope &scope) {
  std::vector<std::pair<std::string, int>> names;
  if (!scope.fn)
    return names;
  for (auto &[n, s] : scope.fn->loops)
    names.emplace_back(n, s);
  for (auto &[n, l] : scope.fn->vars)
    names.emplace_back(n, l.slot);
  return names;
}

/// Targets of a reference to function variables: static slots, or elements at dynamic offsets.
struct LocalRef {
  bool ok = false;
  Type type = Type::Real;
  std::vector<int> dims;
  std::vector<int> slots; ///< static elements
  /// A dynamic element: slot base + offset of the array at base (one element `v[i]`, or a slice
  /// `v[i:i+1]` whose length is known when compiled), checked against the array's extent when
  /// the model runs.
  struct Dynamic {
    int base = -1, extent = 0;
    const Expr *offset = nullptr;
  };
  std::vector<Dynamic> dynamic; ///< when not empty, the elements (slots is then empty)
  bool isInput = false, isLoop = false;
  /// A record variable or an array of records, whole or subscripted: its elements' fields'
  /// scalars, one record after the other (the layout of a record array's Value).
  const ClassInfo *record = nullptr;
  const ClassInfo *object = nullptr; ///< an external object variable (MLS 3.5, 12.9.7)
  const ClassInfo *enumeration = nullptr; ///< a variable of an enumeration type

  size_t size() const { return dynamic.empty() ? slots.size() : dynamic.size(); }
  /// Element k, as a dynamic element (a static slot is one at offset 0 of an array of one).
  Dynamic element(size_t k, ExprContext &c) const {
    return dynamic.empty() ? Dynamic{slots[k], 1, c.zero()} : dynamic[k];
  }
};

/// The subscripts of a reference in a function, through the fields of records: a colon where a
/// record array is named without subscripts before one of its fields (`v.re` is `v[:].re`).
using SubscriptList = std::vector<const ast::Subscript *>;
static const ast::Subscript kColon{};

/// Subscript `a:b` or `a:s:b` of a dimension of size `size` whose bounds change at run time but
/// whose length does not (b - a simplifies to a constant): its 0-based indices, `dynamic` set.
/// False after an error; true with `dynamic` unset when the bounds are constants (lowered as
/// any subscript).
static bool dynamicRange(Flattener &f, const ast::Expr &range, Scope &scope, int size,
                         const std::string &name, std::vector<const Expr *> &indices, bool &dynamic) {
  ExprContext &c = f.ctx();
  std::vector<const Expr *> bounds;
  f.endStack_.push_back(size);
  for (const auto &a : range.args) {
    Value v = f.lower(*a, scope);
    if (!v.ok || !v.isScalar() || v.type != Type::Integer) {
      f.endStack_.pop_back();
      if (v.ok)
        f.diags_.error(a->range, "the bounds of a subscript range must be Integer scalars");
      return false;
    }
    bounds.push_back(v.elems[0]);
  }
  f.endStack_.pop_back();
  if (std::all_of(bounds.begin(), bounds.end(), [](const Expr *x) { return x->isConst(); }))
    return true;
  const Expr *start = bounds.front(), *stop = bounds.back();
  const Expr *step = bounds.size() == 3 ? bounds[1] : c.one();
  const Expr *span = c.sub(stop, start);
  if (!step->isConst() || step->isConst(0) || !span->isConst()) {
    f.diags_.error(range.range, "the slice '" + name + "[...]' has a length that changes when the model runs; eqc "
                                "takes slices whose length is known when it is compiled (as in v[i:i+1])");
    return false;
  }
  const double count = std::floor(span->value() / step->value()) + 1;
  dynamic = true;
  for (int k = 0; k < static_cast<int>(std::max(0.0, count)); ++k)
    indices.push_back(c.sub(c.add(start, c.mul(c.constant(k), step)), c.one()));
  return true;
}

/// Subscripts `subs` (fewer than or as many as its dimensions) of the array local `l` that is not
/// a record: r's dims and elements, static where every index is known when compiled. Per
/// dimension, a scalar index drops it, an index vector or a colon keeps it (row-major order).
static void subscriptLocal(Flattener &f, const FunctionBuilder::Local &l, const SubscriptList &subs,
                           Scope &scope, const std::string &name, SourceRange where, LocalRef &r) {
  ExprContext &c = f.ctx();
  const size_t count = product(l.dims);
  if (subs.empty()) {
    r.ok = true;
    r.dims = l.dims;
    for (size_t k = 0; k < count; ++k)
      r.slots.push_back(l.slot + static_cast<int>(k));
    return;
  }
  if (subs.size() > l.dims.size()) {
    f.diags_.error(subs[0]->range.valid() ? subs[0]->range : where,
                   "'" + name + "' is " + shapeText(l.dims) + ": too many subscripts");
    return;
  }
  // The 0-based indices per dimension (constants where known), and the kept dimensions.
  std::vector<std::vector<const Expr *>> picks(l.dims.size());
  bool constant = true;
  for (size_t d = 0; d < l.dims.size(); ++d) {
    const ast::Subscript *s = d < subs.size() ? subs[d] : &kColon;
    if (!s->expr) {
      for (int i = 0; i < l.dims[d]; ++i)
        picks[d].push_back(c.constant(i));
      r.dims.push_back(l.dims[d]);
      continue;
    }
    if (s->expr->kind == ast::ExprKind::Range) { // `v[i:i+1]`, `T[k, j*m+1:j*m+m]`
      bool dynamic = false;
      if (!dynamicRange(f, *s->expr, scope, l.dims[d], name, picks[d], dynamic))
        return;
      if (dynamic) {
        constant = false;
        r.dims.push_back(static_cast<int>(picks[d].size()));
        continue;
      }
    }
    f.endStack_.push_back(l.dims[d]);
    Value v = f.lower(*s->expr, scope);
    f.endStack_.pop_back();
    if (!v.ok)
      return;
    if (v.type != Type::Integer) {
      f.diags_.error(s->range, std::string("a subscript must be an Integer, not a ") + typeName(v.type));
      return;
    }
    if (v.dims.size() > 1) {
      f.diags_.error(s->range,
                     "a subscript must be an Integer or a vector of them, not " + shapeText(v.dims));
      return;
    }
    if (!v.isScalar())
      r.dims.push_back(static_cast<int>(v.size()));
    for (const Expr *i : v.elems) {
      // A known index out of bounds fails when the statement runs (a function specialized to a
      // size may hold statements for other sizes that never run for it: MSL's
      // ReferenceMoistAir reads X[2] of a one-element X in a branch of high temperatures).
      const bool outside = i->isConst() && (i->value() < 1 || i->value() > l.dims[d]);
      if (outside)
        f.diags_.warning(s->range, "index " + formatNumber(i->value()) + " is out of bounds for '" + name +
                                       "' of size " + shapeText(l.dims) +
                                       ": an error if this statement runs");
      constant = constant && i->isConst() && !outside;
      picks[d].push_back(c.sub(i, c.one()));
    }
  }
  // The odometer over the picks: each element's offset in l.
  std::vector<size_t> pos(picks.size(), 0);
  size_t total = 1;
  for (const auto &p : picks)
    total *= p.size();
  r.ok = true;
  for (size_t n = 0; n < total; ++n) {
    if (constant) { // known indices: the offset in integers, no expression per element
      size_t flat = 0;
      for (size_t d = 0; d < picks.size(); ++d)
        flat = flat * static_cast<size_t>(l.dims[d]) + static_cast<size_t>(picks[d][pos[d]]->value());
      r.slots.push_back(l.slot + static_cast<int>(flat));
    } else {
      const Expr *offset = c.zero();
      for (size_t d = 0; d < picks.size(); ++d)
        offset = c.add(c.mul(offset, c.constant(l.dims[d])), picks[d][pos[d]]);
      r.dynamic.push_back({l.slot, static_cast<int>(count), offset});
    }
    for (size_t d = picks.size(); d-- > 0;) {
      if (++pos[d] < picks[d].size())
        break;
      pos[d] = 0;
    }
  }
}

/// Subscripts `subs` of record local `l` (a record, or an array of records): each leaf field
/// subscripted alike, its elements interleaved record by record.
static void subscriptRecord(Flattener &f, const FunctionBuilder &b, const FunctionBuilder::Local &l,
                            const SubscriptList &subs, Scope &scope, const std::string &name,
                            SourceRange where, LocalRef &r) {
  if (subs.size() > l.dims.size()) {
    f.diags_.error(
        subs[0]->range.valid() ? subs[0]->range : where,
        "'" + name + "' is " +
            (l.dims.empty() ? "a record, not an array" : shapeText(l.dims) + ": too many subscripts"));
    return;
  }
  std::vector<LocalRef> leaves;
  std::vector<size_t> widths; // scalars per record of each leaf
  bool dynamic = false;
  for (const std::string &leafName : l.leaves) {
    const FunctionBuilder::Local &leaf = *b.find(leafName);
    LocalRef one;
    subscriptLocal(f, leaf, subs, scope, name, where, one);
    if (!one.ok)
      return;
    widths.push_back(product(
        std::vector<int>(leaf.dims.begin() + static_cast<std::ptrdiff_t>(l.dims.size()), leaf.dims.end())));
    if (leaves.empty()) // the selected records' shape: the leaf's without the field's own dimensions
      r.dims.assign(one.dims.begin(),
                    one.dims.end() - static_cast<std::ptrdiff_t>(leaf.dims.size() - l.dims.size()));
    dynamic = dynamic || !one.dynamic.empty();
    leaves.push_back(std::move(one));
  }
  const size_t records = product(r.dims);
  ExprContext &c = f.ctx();
  for (size_t e = 0; e < records; ++e)
    for (size_t k = 0; k < leaves.size(); ++k)
      for (size_t s = 0; s < widths[k]; ++s) {
        const size_t at = e * widths[k] + s;
        if (dynamic)
          r.dynamic.push_back(leaves[k].element(at, c));
        else
          r.slots.push_back(leaves[k].slots[at]);
      }
  r.ok = true;
  r.record = l.record;
}

static LocalRef resolveLocal(Flattener &f, const ast::Expr &e, Scope &scope, bool &found) {
  LocalRef r;
  FunctionBuilder &b = *scope.fn;
  const ast::RefPart &head = e.ref[0];
  found = false;
  for (auto it = b.loops.rbegin(); it != b.loops.rend(); ++it)
    if (it->first == head.name) {
      found = true;
      if (e.ref.size() > 1 || !head.subscripts.empty()) {
        f.diags_.error(e.range, "'" + head.name + "' is a loop variable (an Integer)");
        return r;
      }
      r.ok = true;
      r.type = Type::Integer;
      r.slots.push_back(it->second);
      r.isLoop = true;
      return r;
    }
  const FunctionBuilder::Local *l = b.find(head.name);
  if (!l)
    return r;
  found = true;
  if (l->type == Type::String &&
      (l->slot < 0 || e.ref.size() > 1 || (l->dims.empty() && !head.subscripts.empty()))) {
    // a String known when compiled named whole is a value (lowerLocal); String slots have no fields
    f.diags_.error(e.range, "'" + head.name + "' is a String: it has no elements or fields");
    return r;
  }
  // A field of a record variable is the local "r.x" (MLS 3.5, 12.6); of an array of records, the
  // local "v.x" holds the field of every record (its dimensions first), so `v[i].x` is "v.x"[i].
  SubscriptList subs;
  for (const ast::Subscript &s : head.subscripts)
    subs.push_back(&s);
  std::string name = head.name;
  size_t outerRank = 0; // the dimensions of l that belong to the records around it
  for (size_t p = 1; p < e.ref.size(); ++p) {
    if (!l->record) {
      f.diags_.error(e.ref[p].range, "'" + name + "' has no elements");
      return r;
    }
    const size_t given = e.ref[p - 1].subscripts.size(), own = l->dims.size() - outerRank;
    if (given > own) {
      f.diags_.error(e.ref[p - 1].subscripts[0].range,
                     "'" + name + "' is " +
                         (own ? shapeText(l->dims) + ": too many subscripts" : std::string("not an array")));
      return r;
    }
    subs.insert(subs.end(), own - given, &kColon);
    const FunctionBuilder::Local *outer = l;
    name += "." + e.ref[p].name;
    l = b.find(name);
    if (!l) {
      f.diags_.error(e.ref[p].range,
                     "record '" + outer->record->name + "' has no field '" + e.ref[p].name + "'");
      return r;
    }
    outerRank = outer->dims.size();
    for (const ast::Subscript &s : e.ref[p].subscripts)
      subs.push_back(&s);
  }
  r.type = l->type;
  r.object = l->object;
  r.enumeration = l->enumeration;
  r.isInput = l->kind == FunctionBuilder::Local::Input;
  if (l->record)
    subscriptRecord(f, b, *l, subs, scope, name, e.range, r);
  else
    subscriptLocal(f, *l, subs, scope, name, e.range, r);
  return r;
}

bool Flattener::addRecordLocal(FunctionBuilder &b, const std::string &name, const ClassInfo &record,
                               FunctionBuilder::Local::Kind kind, SourceRange range,
                               const std::vector<int> &dims, const std::vector<ast::Modifier> *modifiers,
                               const ClassInfo *modifierScope) {
  ClassInfo &cls = const_cast<ClassInfo &>(record);
  if (!resolveClass(cls))
    return false;
  // Fields sized by the record's Integer parameters (`parameter Real a[nc]`, MSL's R134a
  // coefficients): their values as this record has them.
  const std::vector<std::pair<std::string, Value>> sizes = recordSizes(cls, modifiers, modifierScope);
  FunctionBuilder::Local whole;
  whole.kind = kind;
  whole.record = &record;
  whole.dims = dims;
  whole.slot = b.fn->numSlots();
  for (const Element &el : cls.elements) {
    if (el.decl->prefix == ast::Prefix::Constant || el.decl->isProtected)
      continue; // not a field of the record's value
    const std::string field = name + "." + el.comp->name;
    Type primitive = Type::Real;
    auto [typeName, typeScope] = baseType(el); // through short types: `SI.Voltage V`
    ClassInfo *nested = isPrimitive(typeName, primitive) ? nullptr : findClass(typeName, typeScope);
    const bool nestedRecord = nested && nested->kind() == ast::ClassKind::Record && !nested->def->isShort;
    if (nested && nested->def->isEnumeration) {
      primitive = Type::Integer; // an enumeration field: its literal's number (MLS 3.5, 4.8.5)
    } else if (!isPrimitive(typeName, primitive) && !nestedRecord) {
      diags_.error(el.comp->range, "field '" + el.comp->name + "' of record '" + record.name +
                                       "' cannot be used in a function (fields are Real, Integer, Boolean, arrays of "
                                       "them and records)");
      return false;
    }
    auto own = fieldDimensions(el, &sizes);
    if (!own)
      return false;
    if (std::find(own->begin(), own->end(), -1) != own->end()) {
      diags_.error(el.comp->range, "field '" + el.comp->name + "' of record '" + record.name +
                                       "' needs its size to be used in a function");
      return false;
    }
    // The field of every record of the array: the array's dimensions, then the field's.
    std::vector<int> fieldDims = dims;
    fieldDims.insert(fieldDims.end(), own->begin(), own->end());
    if (nestedRecord) {
      if (!addRecordLocal(b, field, *nested, kind, range, fieldDims, &el.comp->modifiers, el.lexical))
        return false;
      const std::vector<std::string> &inner = b.find(field)->leaves;
      whole.leaves.insert(whole.leaves.end(), inner.begin(), inner.end());
      continue;
    }
    FunctionBuilder::Local local;
    local.kind = kind;
    local.type = primitive;
    local.dims = fieldDims;
    local.slot = b.fn->numSlots();
    if (nested && nested->def->isEnumeration)
      local.enumeration = nested;
    for (size_t k = 0; k < product(fieldDims); ++k)
      b.newSlot(variableName(field, fieldDims, k), primitive == Type::Boolean);
    b.vars.emplace_back(field, local);
    whole.leaves.push_back(field);
  }
  whole.size = b.fn->numSlots() - whole.slot;
  b.vars.emplace_back(name, whole);
  return true;
}

std::vector<int> Flattener::recordSlots(const FunctionBuilder &b, const FunctionBuilder::Local &record) {
  const size_t records = product(record.dims);
  std::vector<std::pair<int, size_t>> leaves; // first slot, scalars per record
  for (const std::string &name : record.leaves) {
    const FunctionBuilder::Local &leaf = *b.find(name);
    leaves.emplace_back(leaf.slot, records ? product(leaf.dims) / records : 0);
  }
  std::vector<int> slots;
  slots.reserve(static_cast<size_t>(record.size));
  for (size_t e = 0; e < records; ++e)
    for (const auto &[first, width] : leaves)
      for (size_t s = 0; s < width; ++s)
        slots.push_back(first + static_cast<int>(e * width + s));
  return slots;
}

bool Flattener::recordFieldDefaults(FunctionBuilder &b, const std::string &name, const ClassInfo &record,
                                    const std::vector<ast::Modifier> &modifiers, std::vector<LocalDefault> &defaults,
                                    bool classDefaults, size_t arrayDims, const ClassInfo *modifierScope) {
  auto varIndex = [&](const std::string &field) {
    for (size_t k = 0; k < b.vars.size(); ++k)
      if (b.vars[k].first == field)
        return static_cast<int>(k);
    return -1;
  };
  // The record class's declaration equations first (nested records' too), then the modifiers'
  // values, which are assigned after them and so override them.
  if (classDefaults)
    for (const Element &el : record.elements) {
      if (el.decl->prefix == ast::Prefix::Constant || el.decl->isProtected)
        continue;
      const int k = varIndex(name + "." + el.comp->name);
      if (k < 0)
        continue;
      const FunctionBuilder::Local &local = b.vars[static_cast<size_t>(k)].second;
      const ClassInfo *lexical = el.lexical;
      if (const ast::Expr *value = fieldDefault(el, lexical)) // an extends clause's, else its own
        defaults.push_back({k, value, lexical, arrayDims});
      else if (local.record)
        recordFieldDefaults(b, name + "." + el.comp->name, *local.record, el.comp->modifiers, defaults, true, arrayDims,
                            el.lexical);
    }
  bool ok = true;
  for (const ast::Modifier &m : modifiers) {
    // `c(re = x)`, `c(inner.x = y)` and `c(inner(x = y))` name fields.
    const std::string field = name + "." + m.name;
    const int k = varIndex(field);
    if (k < 0) {
      diags_.error(m.range, "record '" + record.name + "' has no field '" + m.name + "'");
      ok = false;
      continue;
    }
    const FunctionBuilder::Local &local = b.vars[static_cast<size_t>(k)].second;
    if (m.value)
      defaults.push_back({k, m.value.get(), modifierScope, arrayDims});
    else if (local.record)
      ok = recordFieldDefaults(b, field, *local.record, m.args, defaults, false, arrayDims, modifierScope) && ok;
  }
  return ok;
}

bool Flattener::messageText(const ast::Expr &e, Scope &scope, std::string &out) {
  // String(x) of a value of the function reads as {x}: eqc's Strings are known when the model is
  // compiled, the message of a failure in a function is too.
  if (e.kind == ast::ExprKind::Binary && e.binary == ast::BinaryOp::Add)
    return messageText(*e.args[0], scope, out) && messageText(*e.args[1], scope, out);
  if (e.kind == ast::ExprKind::Call && e.text == "String" && !e.args.empty()) {
    const ast::Expr &x = *e.args[0];
    out += "{" + (x.kind == ast::ExprKind::Name ? x.text : std::string("...")) + "}";
    return true;
  }
  ++stringContext_;
  Value v = lower(e, scope);
  --stringContext_;
  if (!v.ok)
    return false;
  if (v.type != Type::String) {
    diags_.error(e.range, "a message is a String, not " + std::string(typeName(v.type)));
    return false;
  }
  if (v.computedText()) // a String the function computes reads as its name, as String(x) does
    out += "{" + (e.kind == ast::ExprKind::Name ? e.text : std::string("...")) + "}";
  else
    out += v.text;
  return true;
}

std::pair<std::string, const ClassInfo *> Flattener::baseType(const Element &el,
                                                            std::vector<const std::vector<ast::Subscript> *> *dims) {
  // A short class's base is named in the scope of that class (SI.Temperature =
  // ThermodynamicTemperature, found in package SI); a long-form type's in its own scope.
  std::string name = el.decl->typeName;
  const ClassInfo *from = el.lexical;
  Type primitive;
  for (int hops = 0; hops < 50 && !isPrimitive(name, primitive); ++hops) {
    ClassInfo *t = findClass(name, from);
    if (t && !t->def->isShort && t->kind() == ast::ClassKind::Type && t->def->extends.size() == 1) {
      name = t->def->extends[0].base; // `type Orientation extends QuaternionBase; ... end Orientation;`
      from = t;
      continue;
    }
    if (!t || !t->def->isShort || t->def->isEnumeration)
      break;
    if (dims && !t->def->shortBase.typeDims.empty())
      dims->push_back(&t->def->shortBase.typeDims);
    name = t->def->shortBase.typeName;
    from = t->parent;
  }
  return {name, from};
}

std::vector<const std::vector<ast::Subscript> *> Flattener::shortTypeDims(const Element &el) {
  std::vector<const std::vector<ast::Subscript> *> dims;
  baseType(el, &dims);
  return dims;
}

std::set<std::string> Flattener::sizingInputs(const ClassInfo &cls) {
  std::set<std::string> integers, named;
  for (const Element &el : cls.elements)
    if (el.decl->causality == ast::Causality::Input && el.comp->dims.empty() && el.decl->typeDims.empty() &&
        el.decl->typeName == "Integer")
      integers.insert(el.comp->name);
  // The names in the elements' dimensions, but the arrays of size(a, k).
  std::function<void(const ast::Expr &)> walk = [&](const ast::Expr &x) {
    if (x.kind == ast::ExprKind::Name && x.ref.size() == 1)
      named.insert(x.ref[0].name);
    for (size_t i = 0; i < x.args.size(); ++i)
      if (x.args[i] && !(x.kind == ast::ExprKind::Call && x.text == "size" && i == 0))
        walk(*x.args[i]);
  };
  for (const Element &el : cls.elements)
    for (const auto *dims : {&el.comp->dims, &el.decl->typeDims})
      for (const ast::Subscript &sub : *dims)
        if (sub.expr)
          walk(*sub.expr);
  std::set<std::string> out;
  for (const std::string &n : named)
    if (integers.count(n))
      out.insert(n);
  return out;
}

std::optional<std::map<std::string, double>> Flattener::sizingArguments(const ClassInfo &cls,
                                                                        const std::vector<Value> &args,
                                                                        SourceRange callRange) {
  std::map<std::string, double> values;
  std::set<std::string> sizing = sizingInputs(cls);
  size_t input = 0;
  for (const Element &el : cls.elements) {
    if (el.decl->causality != ast::Causality::Input)
      continue;
    const size_t i = input++;
    if (!sizing.count(el.comp->name) || i >= args.size() || !args[i].isScalar() || args[i].type != Type::Integer)
      continue;
    std::optional<double> value =
        evaluateStructural(args[i].elems[0], callRange,
                           "argument '" + el.comp->name + "' of '" + cls.name + "', which sizes its arrays,");
    if (!value)
      return std::nullopt;
    values[el.comp->name] = *value;
  }
  return values;
}

ClassInfo *Flattener::functionType(const Element &el) {
  auto [name, from] = baseType(el);
  Type primitive;
  if (isPrimitive(name, primitive))
    return nullptr;
  ClassInfo *t = findClass(name, from);
  return t && t->kind() == ast::ClassKind::Function ? t : nullptr;
}

bool Flattener::functionCompatible(const ClassInfo &target, const std::set<std::string> &bound, const ClassInfo &type,
                                   std::string &why) {
  // MLS 3.5, 6.6: the inputs (outputs) of the type are inputs (outputs) of the target of the same
  // name, in the same order and before its other ones, of the same type and shape; an input the
  // target has in addition has a default.
  auto formals = [&](const ClassInfo &cls, ast::Causality causality, bool skipBound) {
    std::vector<const Element *> out;
    for (const Element &el : cls.elements)
      if (el.decl->causality == causality && !el.decl->isProtected && !(skipBound && bound.count(el.comp->name)))
        out.push_back(&el);
    return out;
  };
  auto shape = [&](const Element &el) {
    std::string text = baseTypeName(el);
    for (const auto *subs : {&el.comp->dims, &el.decl->typeDims})
      text += "[" + std::to_string(subs->size()) + "]";
    return text;
  };
  for (ast::Causality causality : {ast::Causality::Input, ast::Causality::Output}) {
    const char *what = causality == ast::Causality::Input ? "input" : "output";
    std::vector<const Element *> want = formals(type, causality, false), have = formals(target, causality, true);
    for (size_t k = 0; k < have.size(); ++k) {
      if (k >= want.size()) {
        if (causality == ast::Causality::Input && !have[k]->comp->binding) {
          why = "its input '" + have[k]->comp->name + "' is not an input of '" + type.name + "' and has no default";
          return false;
        }
        continue;
      }
      if (have[k]->comp->name != want[k]->comp->name) {
        why = std::string("its ") + what + " " + std::to_string(k + 1) + " is '" + have[k]->comp->name + "' where '" +
              type.name + "' has '" + want[k]->comp->name + "'";
        return false;
      }
      if (shape(*have[k]) != shape(*want[k])) {
        why = std::string("its ") + what + " '" + have[k]->comp->name + "' is a " + shape(*have[k]) + " where '" +
              type.name + "' has a " + shape(*want[k]);
        return false;
      }
    }
    if (want.size() > have.size()) {
      why = std::string("it has no ") + what + " '" + want[have.size()]->comp->name + "'" +
            (bound.count(want[have.size()]->comp->name) ? " left: the partial application binds it" : "");
      return false;
    }
  }
  if (target.def->impure != type.def->impure) {
    why = std::string("it is ") + (target.def->impure ? "impure" : "pure") + " and '" + type.name + "' is not";
    return false;
  }
  return true;
}

Value Flattener::lowerFunctionArgument(const ast::Expr &e, Scope &scope, const ClassInfo &fn, const Element &formal,
                                       ClassInfo &type) {
  auto arg = std::make_shared<FunctionArgument>();
  const std::string what = "argument '" + formal.comp->name + "' of '" + fn.name + "'";
  const bool plainName = e.kind == ast::ExprKind::Name && e.ref.size() >= 1 &&
                         std::all_of(e.ref.begin(), e.ref.end(), [](const auto &p) { return p.subscripts.empty(); });
  if (plainName && scope.fn && e.ref.size() == 1 && scope.fn->functions.count(e.text)) {
    *arg = scope.fn->functions.at(e.text); // a functional input passed on
  } else if (e.kind == ast::ExprKind::Call && e.partialApplication) {
    ClassInfo *target = scopedClass(e.text, scope);
    if (!target || target->kind() != ast::ClassKind::Function) {
      diags_.error(e.nameRange, "'" + e.text + "' in `function " + e.text + "(...)` is not a function");
      return fail();
    }
    if (!resolveClass(*target))
      return fail();
    arg->target = target;
    std::vector<std::pair<std::string, Value>> values;
    for (size_t i = 0; i < e.args.size(); ++i) {
      const std::string name = i < e.argNames.size() ? e.argNames[i] : std::string();
      const Element *input = nullptr;
      for (const Element &el : target->elements)
        if (el.decl->causality == ast::Causality::Input && el.comp->name == name)
          input = &el;
      if (name.empty() || !input) {
        diags_.error(e.args[i]->range, name.empty() ? "a partial application binds inputs by name (`function " + e.text +
                                                          "(x = ...)`, MLS 3.5, 12.4.2.1)"
                                                    : "function '" + target->name + "' has no input '" + name + "'");
        return fail();
      }
      if (functionType(*input)) {
        diags_.error(e.args[i]->range, "input '" + name + "' of '" + target->name +
                                           "' is a function: eqc does not bind functions in a partial application");
        return fail();
      }
      const bool text = baseTypeName(*input) == "String";
      stringContext_ += text;
      Value v = lower(*e.args[i], scope);
      stringContext_ -= text;
      if (!v.ok)
        return fail();
      if (v.function || (text != (v.type == Type::String))) {
        diags_.error(e.args[i]->range, "input '" + name + "' of '" + target->name + "' must be " +
                                           (text ? "a String" : "a value of type " + baseTypeName(*input)));
        return fail();
      }
      for (auto &[n, other] : values)
        if (n == name) {
          diags_.error(e.args[i]->range, "input '" + name + "' of '" + target->name + "' is bound twice");
          return fail();
        }
      values.emplace_back(name, std::move(v));
    }
    for (const Element &el : target->elements) // in the target's input order
      for (auto &[n, v] : values)
        if (n == el.comp->name && el.decl->causality == ast::Causality::Input)
          arg->bound.emplace_back(n, v);
  } else if (ClassInfo *target = plainName ? scopedClass(e.text, scope) : nullptr;
             target && target->kind() == ast::ClassKind::Function) {
    if (!resolveClass(*target))
      return fail();
    arg->target = target;
  } else {
    diags_.error(e.range, what + " must be a function: a function's name or `function f(name = value)` (MLS 3.5, 12.4.2)");
    return fail();
  }
  if (!resolveClass(type))
    return fail();
  std::set<std::string> boundNames;
  for (auto &[n, v] : arg->bound)
    boundNames.insert(n);
  std::string why;
  if (!functionCompatible(*arg->target, boundNames, type, why)) {
    diags_.error(e.range, what + ": function '" + arg->target->name + "' is not compatible with '" + type.name +
                              "' (MLS 3.5, 6.6): " + why);
    return fail();
  }
  Value v;
  v.ok = true;
  v.function = std::move(arg);
  return v;
}

Value Flattener::lowerLocal(const ast::Expr &e, Scope &scope, bool &found) {
  if (e.kind == ast::ExprKind::Name && e.ref.size() == 1 && e.ref[0].subscripts.empty()) {
    auto known = scope.fn->values.find(e.ref[0].name);
    if (known != scope.fn->values.end()) {
      found = true;
      return Value::scalar(ctx().constant(known->second), Type::Integer);
    }
    if (scope.fn->bindingTime)
      if (auto initial = scope.fn->initialValues.find(e.ref[0].name);
          initial != scope.fn->initialValues.end()) {
        found = true;
        return Value::scalar(ctx().constant(initial->second), Type::Integer);
      }
    auto text = scope.fn->strings.find(e.ref[0].name);
    if (text != scope.fn->strings.end()) {
      found = true;
      Value v = Value::scalar(ctx().zero(), Type::String);
      v.text = text->second;
      return v;
    }
  }
  LocalRef r = resolveLocal(*this, e, scope, found);
  if (!found || !r.ok)
    return fail();
  Value v;
  v.ok = true;
  v.type = r.type;
  v.dims = r.dims;
  v.record = r.record;
  v.object = r.object;
  v.enumeration = r.enumeration;
  bool isBool = r.type == Type::Boolean;
  const Function &fn = *scope.fn->fn;
  if (!r.dynamic.empty()) {
    for (const LocalRef::Dynamic &d : r.dynamic)
      v.elems.push_back(ctx().localAt(d.base, d.extent, d.offset, r.record ? fn.isBool(d.base) : isBool));
    return v;
  }
  for (int s : r.slots)
    v.elems.push_back(ctx().local(s, r.record ? fn.isBool(s) : isBool));
  return v;
}

ClassInfo *Flattener::shortFunctionTarget(ClassInfo *fn, Instance *owner, Scope &scope,
                                          std::vector<std::pair<std::string, Value>> &defaults) {
  // MLS 3.5, 4.5.1: `function f2 = f1(k = 2)` is f1 with k's default 2 (the modifier nearest the
  // call wins); its modifiers are evaluated where f2 is declared: in `owner` when it is a member
  // of the owner's class (`world.gravityAcceleration`, whose defaults are world's parameters).
  for (int hops = 0; fn && fn->def->isShort && fn->kind() == ast::ClassKind::Function; ++hops) {
    if (hops > 50) {
      diags_.error(fn->def->range, "function '" + fn->name + "' is defined by a cycle of short class definitions");
      return nullptr;
    }
    Scope at;
    at.lexical = definitionScope(fn);
    at.context = Context::Parameter;
    if (owner && !scope.fn && member(owner->cls, fn->def->name) == fn)
      at.inst = owner;
    for (const ast::Modifier &m : fn->def->shortModifiers) {
      if (!m.value || m.redeclare || m.name.find('.') != std::string::npos)
        continue;
      if (std::any_of(defaults.begin(), defaults.end(), [&](const auto &d) { return d.first == m.name; }))
        continue;
      Value v = lower(*m.value, at);
      if (!v.ok)
        return nullptr;
      defaults.emplace_back(m.name, std::move(v));
    }
    ClassInfo *base = findClass(fn->def->shortBase.typeName, definitionScope(fn));
    if (!base) {
      diags_.error(fn->def->shortBase.typeRange, "unknown function '" + fn->def->shortBase.typeName + "'");
      return nullptr;
    }
    fn = base;
  }
  return fn;
}

Value Flattener::lowerUserCall(const ast::Expr &e, Scope &scope, ClassInfo *fn, int outputIndex,
                               std::vector<Value> *allOutputs, const FunctionArgument *bound, Instance *owner) {
  // A call as a statement runs for its effects (lowerEffectCall): the call itself, not the calls
  // in its arguments, which are values.
  const Suspended statement(statementCall_);
  std::vector<std::pair<std::string, Value>> modified; // the defaults of a short function class
  if (fn->def->isShort) {
    fn = shortFunctionTarget(fn, owner ? owner : scope.inst, scope, modified);
    if (!fn)
      return fail();
    if (fn->kind() != ast::ClassKind::Function) {
      diags_.error(e.nameRange, "'" + e.text + "' is not a function");
      return fail();
    }
  }
  if (!resolveClass(*fn))
    return fail();
  std::vector<const Element *> inputs;
  for (const Element &el : fn->elements)
    if (el.decl->causality == ast::Causality::Input)
      inputs.push_back(&el);
  auto boundValue = [&](const std::string &name) -> const Value * {
    if (bound)
      for (const auto &[n, v] : bound->bound)
        if (n == name)
          return &v;
    return nullptr;
  };
  // Positional arguments first (skipping the inputs a partial application bound), then named
  // ones; defaults for the rest.
  std::vector<const ast::Expr *> given(inputs.size(), nullptr);
  size_t positional = 0;
  for (size_t i = 0; i < e.args.size(); ++i) {
    const std::string &name = i < e.argNames.size() ? e.argNames[i] : std::string();
    size_t slot = inputs.size();
    if (!name.empty()) {
      for (size_t k = 0; k < inputs.size(); ++k)
        if (inputs[k]->comp->name == name)
          slot = k;
      if (slot == inputs.size()) {
        diags_.error(e.args[i]->range, "function '" + fn->name + "' has no input '" + name + "'");
        return fail();
      }
      if (boundValue(name)) {
        diags_.error(e.args[i]->range, "input '" + name + "' of '" + fn->name +
                                           "' is bound by the partial application and cannot be given again");
        return fail();
      }
    } else {
      while (positional < inputs.size() && boundValue(inputs[positional]->comp->name))
        ++positional;
      slot = positional++;
      if (slot >= inputs.size()) {
        size_t free = 0;
        for (const Element *in : inputs)
          free += boundValue(in->comp->name) == nullptr;
        diags_.error(e.nameRange, "function '" + (bound ? e.text : fn->name) + "' takes " + std::to_string(free) +
                                      " argument" + (free == 1 ? "" : "s") + " but " + std::to_string(e.args.size()) +
                                      (e.args.size() == 1 ? " was" : " were") + " given");
        return fail();
      }
    }
    if (given[slot]) {
      diags_.error(e.args[i]->range, "input '" + inputs[slot]->comp->name + "' of '" + fn->name + "' is given twice");
      return fail();
    }
    given[slot] = e.args[i].get();
  }
  std::vector<Value> args;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (const Value *v = boundValue(inputs[k]->comp->name)) {
      args.push_back(*v);
      continue;
    }
    if (ClassInfo *type = functionType(*inputs[k])) {
      if (given[k]) {
        args.push_back(lowerFunctionArgument(*given[k], scope, *fn, *inputs[k], *type));
      } else {
        diags_.error(e.nameRange, "missing argument '" + inputs[k]->comp->name + "' of function '" + fn->name +
                                      "' (a function)");
        return fail();
      }
      if (!args.back().ok)
        return fail();
      continue;
    }
    // A String input takes a String known when the model is compiled (the function is
    // specialized to it).
    const bool text = baseTypeName(*inputs[k]) == "String";
    stringContext_ += text;
    auto mod = std::find_if(modified.begin(), modified.end(), [&](const auto &d) { return d.first == inputs[k]->comp->name; });
    if (given[k]) {
      args.push_back(lower(*given[k], scope));
    } else if (mod != modified.end()) {
      args.push_back(mod->second);
    } else if (inputs[k]->comp->binding) {
      args.push_back(inputDefault(fn, *inputs[k]));
    } else {
      args.emplace_back();
      diags_.error(e.nameRange, "missing argument '" + inputs[k]->comp->name + "' of function '" + fn->name + "'");
    }
    stringContext_ -= text;
    if (!args.back().ok)
      return fail();
    if (args.back().function) {
      diags_.error(given[k]->range, "argument '" + inputs[k]->comp->name + "' of '" + fn->name +
                                        "' is a value, not a function");
      return fail();
    }
    if (text && args.back().type != Type::String) {
      diags_.error(given[k] ? given[k]->range : e.nameRange, "argument '" + inputs[k]->comp->name + "' of '" + fn->name +
                                                                 "' must be a String, not " + typeName(args.back().type));
      return fail();
    }
  }
  if (std::optional<Value> folded = foldedExternalCall(fn, inputs, args, e, scope.fn != nullptr))
    return *folded;
  if (!allOutputs)
    if (std::optional<Value> mapped = vectorizedCall(fn, inputs, args, e, outputIndex))
      return *mapped;
  statementCall_ = statement.value;
  Value result = callSpecialized(fn, args, e.range, e.nameRange, outputIndex, allOutputs);
  statementCall_ = 0;
  if (!scope.fn && std::any_of(args.begin(), args.end(), [](const Value &a) { return a.computedText(); })) {
    // A model's call with Strings computed when it runs: they are made and released in a function.
    // A String result is made with them by whatever reads it (stringHandle, a comparison, another
    // call), which releases both.
    if (result.type != Type::String)
      for (const Expr *&x : result.elems)
        x = callMakingStrings(x);
    if (allOutputs)
      for (Value &v : *allOutputs)
        if (v.type != Type::String)
          for (const Expr *&x : v.elems)
            x = callMakingStrings(x);
  }
  if (!scope.fn && result.computedText() && !changesInTime(result.elems[0])) {
    // A String of values known when the model is compiled: the call is evaluated now.
    const size_t mark = eqc_strings_mark();
    std::optional<double> bits =
        evaluateStructural(result.elems[0], e.range, "the String that '" + fn->name + "' returns");
    Value text = Value::scalar(ctx().zero(), Type::String);
    if (const char *address = bits ? static_cast<const char *>(bitsAddress(*bits)) : nullptr)
      text.text = address;
    eqc_strings_release(mark);
    return bits ? text : fail();
  }
  return result;
}

std::optional<Value> Flattener::foldedExternalCall(ClassInfo *fn, const std::vector<const Element *> &inputs,
                                                   const std::vector<Value> &args, const ast::Expr &e,
                                                   bool mayRun) {
  const ast::ExternalClause *ext = fn->def->external.get();
  if (!ext || ext->function != "ModelicaStrings_substring" || ext->args.size() != 3 || !ext->output)
    return std::nullopt;
  // The external call's arguments are the function's inputs by name (as MSL declares it).
  std::vector<const Value *> actual;
  for (const ast::ExprPtr &a : ext->args) {
    const Value *v = nullptr;
    for (size_t k = 0; k < inputs.size(); ++k)
      if (a->kind == ast::ExprKind::Name && a->text == inputs[k]->comp->name)
        v = &args[k];
    if (!v)
      return std::nullopt;
    actual.push_back(v);
  }
  auto integer = [](const Value &v) -> std::optional<int> {
    if (v.type == Type::String || !v.isScalar() || v.size() != 1 || !v.elems[0]->isConst())
      return std::nullopt;
    return static_cast<int>(v.elems[0]->value());
  };
  std::optional<int> start = integer(*actual[1]), end = integer(*actual[2]);
  if (mayRun && (actual[0]->computedText() || !start || !end))
    return std::nullopt; // in a function: computed when it runs
  if (actual[0]->type != Type::String || actual[0]->computedText() || !start || !end) {
    diags_.error(e.range, "'" + fn->name + "' returns a String: eqc evaluates it when the model is compiled, "
                                           "so its arguments must be known then");
    return fail();
  }
  // ModelicaStrings.c's rules: 1 <= startIndex <= endIndex <= length (endIndex -999: startIndex).
  const std::string &text = actual[0]->text;
  const int length = static_cast<int>(text.size()), last = *end == -999 ? *start : *end;
  if (*start < 1 || last < *start || last > length) {
    diags_.error(e.range, "'" + fn->name + "(\"" + text + "\", " + std::to_string(*start) + ", " +
                              std::to_string(*end) + ")': the indices must satisfy 1 <= startIndex <= endIndex <= " +
                              std::to_string(length) + " (the length of the string)");
    return fail();
  }
  Value v = Value::scalar(ctx().zero(), Type::String);
  v.text = text.substr(static_cast<size_t>(*start - 1), static_cast<size_t>(last - *start + 1));
  return v;
}

std::optional<Value> Flattener::vectorizedCall(ClassInfo *fn, const std::vector<const Element *> &inputs,
                                               const std::vector<Value> &args, const ast::Expr &e, int outputIndex) {
  // MLS 3.5, 12.4.6: arguments of more dimensions than their inputs declare map the function
  // over those leading dimensions (which must agree); the others are passed whole to each call.
  std::vector<int> over;
  std::vector<size_t> rank(args.size(), 0);
  bool any = false;
  for (size_t k = 0; k < args.size(); ++k) {
    const Value &a = args[k];
    rank[k] = inputs[k]->comp->dims.size() + inputs[k]->decl->typeDims.size();
    for (const std::vector<ast::Subscript> *subs : shortTypeDims(*inputs[k]))
      rank[k] += subs->size();
    if (a.function || a.object || a.type == Type::String || a.dims.size() <= rank[k])
      continue;
    std::vector<int> lead(a.dims.begin(), a.dims.end() - static_cast<std::ptrdiff_t>(rank[k]));
    if (any && lead != over) {
      diags_.error(e.range, "the arguments of the vectorized call of '" + fn->name + "' (MLS 3.5, 12.4.6) are " +
                                shapeText(over) + " and " + shapeText(lead) + " over the function's inputs");
      return fail();
    }
    over = std::move(lead);
    any = true;
  }
  if (!any)
    return std::nullopt;
  Value result;
  result.ok = true;
  result.dims = over;
  const size_t calls = product(over);
  for (size_t i = 0; i < calls; ++i) {
    std::vector<Value> one = args;
    for (size_t k = 0; k < args.size(); ++k) {
      const Value &a = args[k];
      if (a.function || a.object || a.type == Type::String || a.dims.size() <= rank[k])
        continue;
      Value &part = one[k];
      part.dims.assign(a.dims.end() - static_cast<std::ptrdiff_t>(rank[k]), a.dims.end());
      const size_t block = a.elems.size() / calls; // a record's fields count as one element
      part.elems.assign(a.elems.begin() + static_cast<std::ptrdiff_t>(i * block),
                        a.elems.begin() + static_cast<std::ptrdiff_t>((i + 1) * block));
    }
    Value v = callSpecialized(fn, one, e.range, e.nameRange, outputIndex, nullptr);
    if (!v.ok)
      return fail();
    if (i == 0) {
      result.type = v.type;
      result.record = v.record; // an array of records (MLS 3.5, 12.6)
      result.enumeration = v.enumeration;
      result.dims.insert(result.dims.end(), v.dims.begin(), v.dims.end());
    }
    result.elems.insert(result.elems.end(), v.elems.begin(), v.elems.end());
  }
  return result;
}

Value Flattener::inputDefault(ClassInfo *fn, const Element &input) {
  Scope defaults;
  defaults.lexical = fn;
  defaults.context = Context::Parameter;
  return lower(*input.comp->binding, defaults);
}

Value Flattener::callSpecialized(ClassInfo *fn, const std::vector<Value> &args, SourceRange range, SourceRange nameRange,
                                 int outputIndex, std::vector<Value> *allOutputs) {
  std::vector<OutputShape> outputs;
  int id = specializeFunction(fn, args, range, outputs);
  if (id < 0)
    return fail();
  std::vector<const Expr *> flatArgs;
  for (const Value &a : args) {
    if (a.function) { // the bound values not known when compiled, as hidden inputs
      for (const auto &[name, v] : a.function->bound)
        if (FunctionArgument::passed(v))
          flatArgs.insert(flatArgs.end(), v.elems.begin(), v.elems.end());
    } else if (a.type != Type::String || a.computedText() || !a.dims.empty()) {
      // passed: values, and Strings computed when the model runs (a String known when compiled
      // is what the function is specialized to)
      flatArgs.insert(flatArgs.end(), a.elems.begin(), a.elems.end());
    }
  }
  if (statementCall_) // its hidden output, the last, 1 once it ran (specializeFunction)
    return Value::scalar(
        ctx().fnCall(id, static_cast<int>(ctx().function(id).outputs.size()) - 1, flatArgs, false),
        Type::Real);
  if (outputs.empty()) {
    diags_.error(nameRange, "function '" + fn->name + "' has no output: it can only be called as a statement");
    return fail();
  }
  std::vector<Value> values;
  int offset = 0;
  const Function &callee = ctx().function(id);
  for (const OutputShape &out : outputs) {
    Value v;
    v.ok = true;
    v.type = out.type;
    v.dims = out.dims;
    v.record = out.record;
    v.object = out.object;
    v.enumeration = out.enumeration;
    for (size_t j = 0; j < out.count; ++j) {
      const int k = offset + static_cast<int>(j);
      v.elems.push_back(ctx().fnCall(id, k, flatArgs, callee.isBool(callee.outputs[static_cast<size_t>(k)])));
    }
    offset += static_cast<int>(out.count);
    values.push_back(std::move(v));
  }
  Value result = values[static_cast<size_t>(outputIndex)];
  if (allOutputs)
    *allOutputs = std::move(values);
  return result;
}

namespace {

struct StatementLowering {
  Flattener &f;
  FunctionBuilder &b;

  /// A new slot assigned `value`; its read.
  const Expr *temporary(const Expr *value, bool isBool, SourceRange range, std::vector<FnStatement> &out) {
    int tmp = b.newSlot("$tmp" + std::to_string(b.fn->numSlots()), isBool);
    FnStatement s;
    s.kind = FnStatement::Assign;
    s.loc = range;
    s.slot = tmp;
    s.value = value;
    out.push_back(s);
    return f.ctx().local(tmp, isBool);
  }

  void assign(const std::vector<int> &slots, const LocalRef &target, const Value &given, SourceRange range,
              std::vector<FnStatement> &out) {
    (void)slots;
    const Value &value =
        target.type == Type::String ? f.computedString(given) : given; // a String slot's text
    if (!target.dynamic.empty()) {
      // A dynamic slice is assigned from temporaries (its value may read the array it writes).
      std::vector<const Expr *> values = value.elems;
      if (values.size() > 1)
        for (size_t k = 0; k < values.size(); ++k)
          values[k] = temporary(values[k], values[k]->isBool(), range, out);
      for (size_t k = 0; k < target.dynamic.size() && k < values.size(); ++k) {
        FnStatement s;
        s.kind = FnStatement::Assign;
        s.loc = range;
        s.slot = target.dynamic[k].base;
        s.index = target.dynamic[k].offset;
        s.extent = target.dynamic[k].extent;
        s.value = values[k];
        out.push_back(s);
      }
      return;
    }
    // An array assignment that reads its own target goes through temporaries.
    bool overlap = false;
    if (target.slots.size() > 1)
      for (const Expr *v : value.elems)
        overlap = overlap || readsSlots(v, *std::min_element(target.slots.begin(), target.slots.end()),
                                        *std::max_element(target.slots.begin(), target.slots.end()) -
                                            *std::min_element(target.slots.begin(), target.slots.end()) + 1);
    std::vector<const Expr *> values = value.elems;
    if (overlap)
      for (const Expr *&v : values)
        v = temporary(v, v->isBool(), range, out);
    for (size_t k = 0; k < target.slots.size(); ++k) {
      FnStatement s;
      s.kind = FnStatement::Assign;
      s.loc = range;
      s.slot = target.slots[k];
      s.value = values[k];
      out.push_back(s);
    }
  }

  bool checkTarget(const LocalRef &t, const Value &v, const ast::Expr &targetAst, SourceRange range) {
    if (t.isLoop) {
      f.diags_.error(targetAst.range, "'" + targetAst.text + "' is a loop variable and cannot be assigned");
      return false;
    }
    if (t.isInput) {
      f.diags_.error(targetAst.range, "'" + targetAst.text + "' is an input and cannot be assigned");
      return false;
    }
    if (t.record || v.record) {
      if (t.record == v.record && t.dims == v.dims)
        return true;
      auto what = [](const ClassInfo *record, const std::vector<int> &dims) {
        return record ? "a '" + record->name + "' record" +
                            (dims.empty() ? std::string() : " array " + shapeText(dims))
                      : std::string("not a record");
      };
      f.diags_.error(range, "'" + targetAst.text + "' is " + what(t.record, t.dims) + " but the value is " +
                                what(v.record, v.dims));
      return false;
    }
    if (t.object != v.object) {
      f.diags_.error(range, "'" + targetAst.text + "' is " + (t.object ? "an external object of class '" + t.object->name + "'" : "not an external object") +
                                " but the value is " + (v.object ? "one of class '" + v.object->name + "'" : "not an external object"));
      return false;
    }
    if (t.dims != v.dims) {
      f.diags_.error(range, "'" + targetAst.text + "' is " + shapeText(t.dims) + " but the value is " + shapeText(v.dims));
      return false;
    }
    if ((t.type == Type::Boolean) != (v.type == Type::Boolean) ||
        (t.type == Type::Integer && v.type == Type::Real) ||
        (t.type == Type::String) != (v.type == Type::String)) {
      f.diags_.error(range, "'" + targetAst.text + "' is " + typeName(t.type) + " but the value is " + typeName(v.type));
      return false;
    }
    return true;
  }

  /// The values outputs and protected variables start with (their declarations' bindings, in
  /// `ordered`, dependencyOrder's), assigned before the algorithm.
  void initialValues(const std::vector<LocalDefault> &ordered, Scope &scope, std::vector<FnStatement> &out) {
    AtBindingTime bindings(&b);
    for (const LocalDefault &initial : ordered) {
      const ast::Expr *binding = initial.value;
      auto &[name, local] = b.vars[static_cast<size_t>(initial.var)];
      Scope recordScope;
      recordScope.lexical = initial.lexical;
      recordScope.context = Context::Parameter;
      f.stringContext_ += local.type == Type::String;
      Value v = f.lower(*binding, initial.lexical ? recordScope : scope);
      f.stringContext_ -= local.type == Type::String;
      if (!v.ok)
        continue;
      LocalRef target;
      target.ok = true;
      target.type = local.type;
      target.dims = local.dims;
      target.record = local.record;
      if (local.record) {
        target.slots = Flattener::recordSlots(b, local);
      } else {
        for (size_t k = 0; k < product(local.dims); ++k)
          target.slots.push_back(local.slot + static_cast<int>(k));
      }
      ast::Expr nameExpr;
      nameExpr.text = name;
      nameExpr.range = binding->range;
      // A field of an array of records: each record's part of the slots (element-major) and shape.
      const size_t arrayDims = std::min(initial.arrayDims, target.dims.size());
      const size_t records = product(std::vector<int>(target.dims.begin(), target.dims.begin() + static_cast<std::ptrdiff_t>(arrayDims)));
      const size_t width = records ? target.slots.size() / records : 0;
      const std::vector<int> all = std::move(target.slots);
      target.dims.erase(target.dims.begin(), target.dims.begin() + static_cast<std::ptrdiff_t>(arrayDims));
      for (size_t e = 0; e < records; ++e) {
        target.slots.assign(all.begin() + static_cast<std::ptrdiff_t>(e * width),
                            all.begin() + static_cast<std::ptrdiff_t>((e + 1) * width));
        if (checkTarget(target, v, nameExpr, binding->range))
          assign(target.slots, target, v, binding->range, out);
        else
          break;
      }
    }
  }

  /// assert(condition, message) in a function: the message's text, with the values the function
  /// computes (String(x), its String variables) as {name}, and, where it has such values, the
  /// message as the function computes it where the assertion fails.
  void assertion(const Expr *condition, const ast::Expr &message, Scope &scope, SourceRange range,
                 std::vector<FnStatement> &out) {
    FnStatement s;
    s.kind = FnStatement::Assert;
    s.loc = range;
    s.value = condition;
    if (!f.messageText(message, scope, s.message))
      return;
    if (s.message.find('{') != std::string::npos) {
      ++f.stringContext_;
      Value text = f.lower(message, scope);
      --f.stringContext_;
      if (text.ok && text.computedText())
        s.text = text.elems[0];
    }
    out.push_back(s);
  }

  void block(const std::vector<ast::Statement> &in, Scope &scope, std::vector<FnStatement> &out) {
    for (const ast::Statement &s : in)
      statement(s, scope, out);
  }

  void statement(const ast::Statement &st, Scope &scope, std::vector<FnStatement> &out) {
    switch (st.kind) {
    case ast::StatementKind::Assign: {
      bool found = false;
      LocalRef t = resolveLocal(f, *st.target, scope, found);
      if (!found) {
        f.diags_.error(st.target->range, "'" + st.target->text + "' is not a variable of function '" + b.fn->name + "'");
        return;
      }
      f.stringContext_ += t.type == Type::String;
      Value v = f.lower(*st.value, scope);
      f.stringContext_ -= t.type == Type::String;
      if (!t.ok || !v.ok || !checkTarget(t, v, *st.target, st.range))
        return;
      assign(t.slots, t, v, st.range, out);
      return;
    }
    case ast::StatementKind::TupleAssign: {
      auto functional = b.functions.find(st.value->text); // a functional input (MLS 3.5, 12.4.2)
      const FunctionArgument *bound = functional != b.functions.end() ? &functional->second : nullptr;
      ClassInfo *fn = bound ? bound->target : f.findClass(st.value->text, scope.lexical);
      if (!fn || fn->kind() != ast::ClassKind::Function) {
        f.diags_.error(st.value->nameRange, "'" + st.value->text + "' is not a function");
        return;
      }
      std::vector<Value> outputs;
      if (!f.lowerUserCall(*st.value, scope, fn, 0, &outputs, bound).ok)
        return;
      if (st.target->args.size() > outputs.size()) {
        f.diags_.error(st.target->range, "'" + st.value->text + "' has " + std::to_string(outputs.size()) + " output(s)");
        return;
      }
      for (size_t k = 0; k < st.target->args.size(); ++k) {
        if (!st.target->args[k])
          continue;
        bool found = false;
        LocalRef t = resolveLocal(f, *st.target->args[k], scope, found);
        if (!found) {
          f.diags_.error(st.target->args[k]->range, "'" + st.target->args[k]->text + "' is not a variable of function '" +
                                                        b.fn->name + "'");
          return;
        }
        if (!t.ok || !checkTarget(t, outputs[k], *st.target->args[k], st.range))
          return;
        assign(t.slots, t, outputs[k], st.range, out);
      }
      return;
    }
    case ast::StatementKind::Call: {
      const ast::Expr &call = *st.value;
      if (call.text == "assert") {
        if (call.args.size() < 2) {
          f.diags_.error(call.nameRange, "assert(condition, \"message\") takes a condition and a message");
          return;
        }
        Value c = f.lowerBool(*call.args[0], scope);
        if (c.ok && c.isScalar())
          assertion(c.elems[0], *call.args[1], scope, st.range, out);
        return;
      }
      if (call.text == "terminate" || call.text == "reinit") {
        f.diags_.error(call.nameRange, call.text + "() is not allowed in a function");
        return;
      }
      if (ClassInfo *callee = f.scopedClass(call.text, scope);
          callee && callee->name == "Modelica.Utilities.Streams.error" && call.args.size() == 1) {
        // MSL's error(message): ModelicaError, i.e. a failing assertion (MLS 3.5, 12.9.6).
        assertion(f.ctx().boolean(false), *call.args[0], scope, st.range, out);
        return;
      }
      // A call for its effects (MLS 3.5, 12.4.6: an external function's, or a function without
      // outputs, whose hidden output says it ran): its first output is kept in a temporary, so
      // that the call is made.
      ++f.statementCall_;
      Value done = f.lower(call, scope);
      --f.statementCall_;
      if (done.ok && done.isScalar() && done.size() == 1 && !done.record)
        temporary(done.elems[0], done.type == Type::Boolean, st.range, out);
      return;
    }
    case ast::StatementKind::If: {
      FnStatement s;
      s.kind = FnStatement::If;
      s.loc = st.range;
      // Branches after a condition known to hold, and those of conditions known to fail, are
      // not lowered (a function specialized to `order = 2` has no `c2[2, 1]` in its branch for 4).
      std::vector<const std::vector<ast::Statement> *> bodies;
      for (size_t i = 0; i < st.conditions.size(); ++i) {
        const ast::Expr &c = *st.conditions[i];
        const Expr *condition = f.scalar(f.lowerBool(c, scope), c, "the condition of an if-statement must be a scalar");
        if (!condition)
          return;
        if (condition->kind() == ExprKind::BoolConst && !condition->boolValue())
          continue;
        if (condition->kind() == ExprKind::BoolConst) { // the rest is dead: this branch is the else
          if (s.conditions.empty()) {
            block(st.branches[i], scope, out);
            return;
          }
          s.blocks.emplace_back();
          block(st.branches[i], scope, s.blocks.back());
          out.push_back(std::move(s));
          return;
        }
        s.conditions.push_back(condition);
        bodies.push_back(&st.branches[i]);
      }
      if (st.branches.size() > st.conditions.size())
        bodies.push_back(&st.branches.back());
      if (s.conditions.empty()) { // every condition failed: the else branch, if any
        if (bodies.size() == 1)
          block(*bodies.front(), scope, out);
        return;
      }
      for (const std::vector<ast::Statement> *body : bodies) {
        s.blocks.emplace_back();
        block(*body, scope, s.blocks.back());
      }
      out.push_back(std::move(s));
      return;
    }
    case ast::StatementKind::For:
      forLoop(st, 0, scope, out);
      return;
    case ast::StatementKind::While: {
      FnStatement s;
      s.kind = FnStatement::While;
      s.loc = st.range;
      Value v = f.lowerBool(*st.conditions[0], scope);
      if (!v.ok || !v.isScalar())
        return;
      s.conditions.push_back(v.elems[0]);
      s.blocks.emplace_back();
      ++b.loopDepth;
      block(st.branches[0], scope, s.blocks.back());
      --b.loopDepth;
      out.push_back(std::move(s));
      return;
    }
    case ast::StatementKind::Break:
      if (b.loopDepth == 0) {
        f.diags_.error(st.range, "'break' outside a loop");
        return;
      }
      out.emplace_back();
      out.back().kind = FnStatement::Break;
      out.back().loc = st.range;
      return;
    case ast::StatementKind::Return:
      out.emplace_back();
      out.back().kind = FnStatement::Return;
      out.back().loc = st.range;
      return;
    case ast::StatementKind::When:
      f.diags_.error(st.range, "a when-statement is not allowed in a function (MLS 3.5, 12.2)");
      return;
    }
  }

  void forLoop(const ast::Statement &st, size_t k, Scope &scope, std::vector<FnStatement> &out) {
    if (k == st.indices.size()) {
      block(st.branches[0], scope, out);
      return;
    }
    const ast::ForIndex &idx = st.indices[k];
    if (!idx.in) {
      f.diags_.error(idx.range, "a for-loop needs a range: 'for " + idx.name + " in 1:n loop'");
      return;
    }
    int slot = b.newSlot(idx.name, false);
    FnStatement s;
    s.kind = FnStatement::For;
    s.loc = st.range;
    s.slot = slot;
    if (idx.in->kind == ast::ExprKind::Range) {
      // A range stays a loop: start, step and stop may depend on the inputs.
      std::vector<const Expr *> bounds;
      for (const auto &a : idx.in->args) {
        const Expr *bound = f.scalar(f.lowerReal(*a, scope), *a, "the bounds of a range must be scalars");
        if (!bound)
          return;
        bounds.push_back(bound);
      }
      s.value = bounds[0];
      s.step = bounds.size() == 3 ? bounds[1] : f.ctx().one();
      s.stop = bounds.back();
      if (s.step->isConst(0)) {
        f.diags_.error(idx.in->range, "the step of a range cannot be zero");
        return;
      }
    } else {
      // Iterating over the elements of a vector: a loop over its positions.
      Value v = f.lower(*idx.in, scope);
      if (!v.ok)
        return;
      if (v.dims.size() != 1 || !v.isNumeric()) {
        f.diags_.error(idx.in->range, "a for-loop runs over a range or a vector of numbers");
        return;
      }
      b.fn->slotNames[slot] = "$" + idx.name;
      int element = b.newSlot(idx.name, false);
      int base = b.newSlot("$" + idx.name + "_values", false);
      for (int i = 1; i < v.dims[0]; ++i)
        b.newSlot("$" + idx.name + "_values", false);
      for (int i = 0; i < v.dims[0]; ++i) {
        FnStatement copy;
        copy.kind = FnStatement::Assign;
        copy.loc = st.range;
        copy.slot = base + i;
        copy.value = v.elems[i];
        out.push_back(copy);
      }
      s.value = f.ctx().one();
      s.step = f.ctx().one();
      s.stop = f.ctx().constant(v.dims[0]);
      s.blocks.emplace_back();
      FnStatement pick;
      pick.kind = FnStatement::Assign;
      pick.loc = st.range;
      pick.slot = element;
      pick.value = f.ctx().localAt(base, v.dims[0], f.ctx().sub(f.ctx().local(slot), f.ctx().one()));
      s.blocks.back().push_back(pick);
      b.loops.emplace_back(idx.name, element);
      ++b.loopDepth;
      forLoop(st, k + 1, scope, s.blocks.back());
      --b.loopDepth;
      b.loops.pop_back();
      out.push_back(std::move(s));
      return;
    }
    s.blocks.emplace_back();
    b.loops.emplace_back(idx.name, slot);
    ++b.loopDepth;
    forLoop(st, k + 1, scope, s.blocks.back());
    --b.loopDepth;
    b.loops.pop_back();
    out.push_back(std::move(s));
  }
};

} // namespace

FunctionArgument Flattener::functionalInput(FunctionBuilder &b, const std::string &name, const FunctionArgument &given) {
  FunctionArgument local{given.target, {}};
  for (const auto &[input, v] : given.bound) {
    Value inside = v;
    if (FunctionArgument::passed(v)) { // hidden inputs of the function, in the call's order
      inside.elems.clear();
      for (size_t k = 0; k < v.elems.size(); ++k) {
        int slot = b.newSlot(name + "." + variableName(input, v.dims, k), v.type == Type::Boolean);
        b.fn->inputs.push_back(slot);
        inside.elems.push_back(ctx().local(slot, v.type == Type::Boolean));
      }
    }
    local.bound.emplace_back(input, std::move(inside));
  }
  return local;
}

ClassInfo *Flattener::externalObjectClass(const std::string &name, const ClassInfo *from) {
  Type primitive;
  if (isPrimitive(name, primitive))
    return nullptr;
  ClassInfo *cls = findClass(name, from);
  // Only a `class` can extend ExternalObject (its restriction is class, MLS 3.5, 12.9.7).
  if (!cls || cls->def->isShort || cls->kind() != ast::ClassKind::Class || !resolveClass(*cls))
    return nullptr;
  return cls->externalObject ? cls : nullptr;
}

bool Flattener::addObjectLocal(FunctionBuilder &b, const Element &el, const ClassInfo &object,
                               const std::vector<Value> &args, size_t &argIndex, SourceRange callRange,
                               std::vector<OutputShape> &outputs,
                               std::vector<LocalDefault> &defaults) {
  // MLS 3.5, 12.9.7: an external object is an input, the constructor's output, or a protected
  // variable; one slot holds its address.
  const ast::Declaration &d = *el.decl;
  const ast::Component &c = *el.comp;
  const std::string &fname = b.cls->name;
  if (!c.dims.empty() || !d.typeDims.empty()) {
    diags_.error(c.range, "function '" + fname + "': '" + c.name + "' is an array of external objects, which eqc does not support");
    return false;
  }
  FunctionBuilder::Local local;
  local.type = Type::Real;
  local.object = &object;
  local.kind = d.causality == ast::Causality::Input    ? FunctionBuilder::Local::Input
               : d.causality == ast::Causality::Output ? FunctionBuilder::Local::Output
                                                       : FunctionBuilder::Local::Protected;
  if (local.kind == FunctionBuilder::Local::Input && argIndex < args.size()) {
    const Value &a = args[argIndex++];
    if (a.object != &object || !a.isScalar()) {
      diags_.error(callRange, "argument '" + c.name + "' of '" + fname + "' must be an external object of class '" +
                                  object.name + "', not " +
                                  (a.object ? "one of class '" + a.object->name + "'"
                                            : std::string("a ") + frontend::typeName(a.type) + " value"));
      return false;
    }
  }
  local.slot = b.fn->addSlot(c.name, SlotType::Real);
  b.fn->runtimeOnly = true;
  if (local.kind == FunctionBuilder::Local::Input)
    b.fn->inputs.push_back(local.slot);
  else if (local.kind == FunctionBuilder::Local::Output)
    b.fn->outputs.push_back(local.slot);
  if (local.kind == FunctionBuilder::Local::Output)
    outputs.push_back(OutputShape{Type::Real, {}, nullptr, &object, 1});
  if (local.kind != FunctionBuilder::Local::Input && c.binding)
    defaults.push_back({static_cast<int>(b.vars.size()), c.binding.get(), nullptr});
  b.vars.emplace_back(c.name, local);
  return true;
}

std::vector<LocalDefault> Flattener::dependencyOrder(const FunctionBuilder &b,
                                                     const std::vector<LocalDefault> &defaults) {
  // MLS 3.5, 12.4.4: a binding is evaluated after the variables it reads (`Real a = b + 1;
  // Real b = 2*x;`). The values of record fields written in the record class (lexical set) read
  // the record's own fields and keep their order.
  std::unordered_map<std::string, size_t> byName;
  for (size_t i = 0; i < defaults.size(); ++i)
    if (!defaults[i].lexical)
      byName.emplace(b.vars[static_cast<size_t>(defaults[i].var)].first, i);
  std::vector<LocalDefault> ordered;
  std::vector<bool> seen(defaults.size(), false);
  std::function<void(size_t)> place = [&](size_t i) {
    if (seen[i])
      return; // placed, or being placed: a cycle (left in declaration order)
    seen[i] = true;
    if (!defaults[i].lexical)
      namesAny(*defaults[i].value, [&](const std::string &name) {
        if (auto it = byName.find(name); it != byName.end() && it->second != i)
          place(it->second);
        return false;
      });
    ordered.push_back(defaults[i]);
  };
  for (size_t i = 0; i < defaults.size(); ++i)
    place(i);
  return ordered;
}

bool Flattener::readsLaterVariable(const ClassInfo &fn, const FunctionBuilder &b, const ast::Expr &e) {
  // MLS 3.5, 12.4.4: a binding may read variables declared after it (they are initialized in
  // the order of their dependencies); such a binding is not known at its declaration.
  return namesAny(e, [&](const std::string &name) {
    return fn.find(name) >= 0 && !b.find(name) && !b.values.count(name) && !b.strings.count(name);
  });
}

std::vector<const Element *> Flattener::declarationOrder(const ClassInfo &fn) {
  std::vector<const Element *> order;
  for (const Element &el : fn.elements)
    order.push_back(&el);
  auto unsized = [](const Element &el) {
    auto colon = [](const std::vector<ast::Subscript> &subs) {
      return std::any_of(subs.begin(), subs.end(), [](const ast::Subscript &s) { return !s.expr; });
    };
    return el.decl->causality != ast::Causality::Input && !el.comp->binding &&
           (colon(el.comp->dims) || colon(el.decl->typeDims));
  };
  for (size_t k = 0; k < order.size(); ++k) {
    const Element &el = *order[k];
    const ast::Expr *sizing = el.decl->causality == ast::Causality::Input ? nullptr
                              : el.comp->binding                          ? el.comp->binding.get()
                              : unsized(el) ? firstWholeAssignment(fn, el.comp->name)
                                            : nullptr;
    if (!sizing)
      continue;
    // The protected variables declared after it that its binding or sizing assignment reads
    // come first (`output Real x[n] = cat(1, b, zeros(max(nrow, ncol) - nrow))` before
    // `protected Integer nrow = size(A, 1)`, MSL's dgelsy_vec).
    for (size_t later = k + 1; later < order.size(); ++later) {
      const Element &other = *order[later];
      if (other.decl->isProtected && other.decl->causality == ast::Causality::None && !unsized(other) &&
          namesAny(*sizing, [&](const std::string &n) { return n == other.comp->name; })) {
        const Element *moved = order[later];
        order.erase(order.begin() + static_cast<long>(later));
        order.insert(order.begin() + static_cast<long>(k), moved);
        ++k; // (el moved one place on)
      }
    }
  }
  return order;
}

const ast::Expr *Flattener::firstWholeAssignment(const ClassInfo &fn, const std::string &name) {
  for (const AlgorithmSource &source : fn.algorithms)
    for (const ast::Statement &st : source.section->statements) {
      if (st.kind == ast::StatementKind::Assign && st.target && st.target->kind == ast::ExprKind::Name &&
          st.target->ref.size() == 1 && st.target->ref[0].name == name &&
          st.target->ref[0].subscripts.empty())
        return st.value.get();
      if (assigns(st, name))
        return nullptr; // assigned in parts, or under a condition or a loop, first
    }
  return nullptr;
}

bool Flattener::neverAssigned(const ClassInfo &fn, const std::string &name) {
  if (fn.def->external)
    return false;
  for (const AlgorithmSource &source : fn.algorithms)
    if (assigns(source.section->statements, name))
      return false;
  return true;
}

namespace {
/// Whether `e` names `name` (as a whole name or its first part).
bool mentions(const ast::Expr &e, const std::string &name) {
  if (e.kind == ast::ExprKind::Name && !e.ref.empty() && e.ref[0].name == name)
    return true;
  for (const ast::ExprPtr &a : e.args)
    if (a && mentions(*a, name))
      return true;
  for (const ast::RefPart &part : e.ref)
    for (const ast::Subscript &s : part.subscripts)
      if (s.expr && mentions(*s.expr, name))
        return true;
  return false;
}
} // namespace

std::vector<int> Flattener::functionVariableDims(const Element &el, Scope &scope) {
  AtBindingTime sizes(scope.fn); // (evaluated when the function is entered)
  std::vector<int> dims;
  std::vector<const std::vector<ast::Subscript> *> dimLists{&el.comp->dims, &el.decl->typeDims};
  for (const std::vector<ast::Subscript> *subs : shortTypeDims(el)) // `type Orientation = Real[4]`
    dimLists.push_back(subs);
  for (const auto *subs : dimLists)
    for (const ast::Subscript &s : *subs) {
      // `input Real A[:, size(A, 1)]` (MSL's Matrices.solve): a size of the argument itself, which
      // gives it: the argument's size is taken.
      if (!s.expr || (el.decl->causality == ast::Causality::Input && mentions(*s.expr, el.comp->name))) {
        dims.push_back(-1);
        continue;
      }
      Value v = lower(*s.expr, scope);
      if (!v.ok)
        continue;
      if (!v.isScalar() || v.type != Type::Integer ||
          readsSlots(v.elems[0])) {
        diags_.error(s.range,
                     "the size of '" + el.comp->name + "' must be an Integer known from the argument sizes");
        continue;
      }
      // Known when compiled: a constant, or calls of functions of the sizing inputs
      // (`ind[numberOfSymmetricBaseSystems(m)]`), evaluated.
      if (auto size = evaluateStructural(v.elems[0], s.range, "the size of '" + el.comp->name + "'"))
        dims.push_back(static_cast<int>(*size));
    }
  return dims;
}

bool Flattener::addRecordVariable(FunctionBuilder &b, const Element &el, const ClassInfo &record,
                                  Scope &scope, const std::vector<Value> &args, size_t &argIndex,
                                  SourceRange callRange, std::vector<OutputShape> &outputs,
                                  std::vector<LocalDefault> &defaults) {
  // A record input, output or local, or an array of records (MLS 3.5, 12.6): its fields are
  // locals of their own (addRecordLocal).
  const ast::Component &c = *el.comp;
  const ast::Declaration &d = *el.decl;
  auto kind = d.causality == ast::Causality::Input    ? FunctionBuilder::Local::Input
              : d.causality == ast::Causality::Output ? FunctionBuilder::Local::Output
                                                      : FunctionBuilder::Local::Protected;
  std::vector<int> dims = functionVariableDims(el, scope);
  if (kind == FunctionBuilder::Local::Input) {
    if (argIndex >= args.size())
      return true;
    const Value &a = args[argIndex++];
    bool fits = a.record == &record && a.dims.size() == dims.size();
    for (size_t k = 0; fits && k < dims.size(); ++k)
      fits = dims[k] < 0 || dims[k] == a.dims[k];
    if (!fits) {
      auto what = [](const ClassInfo *r, const std::vector<int> &shape) {
        return shape.empty() ? "a '" + r->name + "' record"
                             : "a '" + r->name + "' record array " + shapeText(shape);
      };
      diags_.error(callRange, "argument '" + c.name + "' of '" + b.cls->name + "' must be " +
                                  what(&record, dims) + ", not " +
                                  (a.record ? what(a.record, a.dims) : valueTypeText(a)));
      return false;
    }
    dims = a.dims;
  } else if (std::find(dims.begin(), dims.end(), -1) != dims.end()) {
    diags_.error(c.range, "the size of '" + c.name + "' in function '" + b.cls->name + "' must be given");
    return true;
  }
  if (!addRecordLocal(b, c.name, record, kind, c.range, dims, &c.modifiers, scope.lexical))
    return true;
  const FunctionBuilder::Local &local = *b.find(c.name);
  for (int slot : recordSlots(b, local)) {
    if (kind == FunctionBuilder::Local::Input)
      b.fn->inputs.push_back(slot);
    else if (kind == FunctionBuilder::Local::Output)
      b.fn->outputs.push_back(slot);
  }
  if (kind == FunctionBuilder::Local::Output)
    outputs.push_back(OutputShape{Type::Real, dims, &record, nullptr, static_cast<size_t>(local.size)});
  if (kind != FunctionBuilder::Local::Input && c.binding)
    defaults.push_back({static_cast<int>(b.vars.size()) - 1, c.binding.get(), nullptr});
  else if (kind != FunctionBuilder::Local::Input && dims.empty())
    recordFieldDefaults(b, c.name, record, c.modifiers, defaults);
  else if (kind != FunctionBuilder::Local::Input && !c.modifiers.empty())
    diags_.error(c.modifiers.front().range, "modifiers of an array of records in a function ('" + c.name +
                                                "') are not supported by eqc; assign the fields in the algorithm");
  else if (kind != FunctionBuilder::Local::Input) // an array: the class's defaults for every record
    recordFieldDefaults(b, c.name, record, {}, defaults, true, dims.size());
  return true;
}

Flattener::KnownInteger Flattener::knownIntegerLocal(FunctionBuilder &b, const Element &el, Scope &scope) {
  // `parameter Integer m = size(x, 1)`, or `Integer nBase = numberOfSymmetricBaseSystems(m)`
  // that no statement assigns: a constant of this specialization (it may size arrays). One that
  // may be written later has that value while the bindings are evaluated.
  const ast::Component &c = *el.comp;
  const bool fixed = el.decl->prefix == ast::Prefix::Parameter || el.decl->prefix == ast::Prefix::Constant ||
                     neverAssigned(*b.cls, c.name);
  const size_t errors = diags_.errorCount();
  Value v;
  {
    AtBindingTime binding(&b);
    v = lower(*c.binding, scope);
  }
  const bool integer = v.ok && v.isScalar() && v.type == Type::Integer && !readsSlots(v.elems[0]);
  if (integer && fixed) {
    if (auto value = evaluateStructural(v.elems[0], c.binding->range, "'" + c.name + "'")) {
      b.values[c.name] = *value;
      return KnownInteger::Constant;
    }
  } else if (integer && v.elems[0]->isConst()) { // (else a variable like any, not reported)
    b.initialValues[c.name] = v.elems[0]->value();
  }
  return !fixed && diags_.errorCount() > errors ? KnownInteger::Failed : KnownInteger::Variable;
}

bool Flattener::declareFunctionVariable(FunctionBuilder &b, const Element &el, Scope &scope,
                                        const std::vector<Value> &args, size_t &argIndex, SourceRange callRange,
                                        std::vector<OutputShape> &outputs, std::vector<LocalDefault> &defaults) {
  const ast::Declaration &d = *el.decl;
  const ast::Component &c = *el.comp;
  Type type;
  auto [typeName, from] = baseType(el);
  if (ClassInfo *ftype = functionType(el)) {
    if (d.causality != ast::Causality::Input || !c.dims.empty() || !d.typeDims.empty()) {
      diags_.error(c.range, "function '" + b.cls->name + "': '" + c.name + "' of function type '" + ftype->name +
                                "' must be a scalar input (a functional input, MLS 3.5, 12.4.2)");
      return true;
    }
    if (argIndex >= args.size())
      return true;
    const Value &a = args[argIndex++];
    if (!a.function) {
      diags_.error(callRange, "argument '" + c.name + "' of '" + b.cls->name + "' must be a function");
      return false;
    }
    b.functions[c.name] = functionalInput(b, c.name, *a.function);
    return true;
  }
  if (ClassInfo *object = externalObjectClass(typeName, from)) {
    if (!addObjectLocal(b, el, *object, args, argIndex, callRange, outputs, defaults)) {
      return false;
    }
    return true;
  }
  const ClassInfo *enumeration = nullptr;
  if (typeName == "Real")
    type = Type::Real;
  else if (typeName == "Integer")
    type = Type::Integer;
  else if (ClassInfo *e = isPrimitive(typeName, type) ? nullptr : findClass(typeName, from);
           e && e->def->isEnumeration && !e->def->openEnumeration) // Integer-valued (MLS 3.5, 4.8.5)
    type = Type::Integer, enumeration = e;
  else if (typeName == "Boolean")
    type = Type::Boolean;
  else if (typeName == "String" && d.causality == ast::Causality::Input && c.dims.empty() &&
           d.typeDims.empty() && !(argIndex < args.size() && args[argIndex].computedText())) {
    // A String input known when the model is compiled: the value the function is specialized
    // to (MLS 3.5, 12.4.1).
    FunctionBuilder::Local local;
    local.slot = -1;
    local.type = Type::String;
    local.kind = FunctionBuilder::Local::Input;
    if (argIndex < args.size())
      b.strings[c.name] = args[argIndex++].text;
    b.vars.emplace_back(c.name, local);
    return true;
  } else if (typeName == "String") {
    type = Type::String; // String slots: their texts made when the function runs (arrays: each element's)
  } else if (ClassInfo *record = findClass(typeName, from);
             record && record->kind() == ast::ClassKind::Record && !record->def->isShort) {
    if (!addRecordVariable(b, el, *record, scope, args, argIndex, callRange, outputs, defaults)) {
      return false;
    }
    return true;
  } else {
    diags_.error(d.typeRange, "function '" + b.cls->name + "': '" + d.typeName +
                                  "' is not supported here (functions take Real, Integer and Boolean values, arrays of "
                                  "them, records and String inputs)");
    return true;
  }
  FunctionBuilder::Local local;
  local.type = type;
  local.enumeration = enumeration;
  local.kind = d.causality == ast::Causality::Input    ? FunctionBuilder::Local::Input
               : d.causality == ast::Causality::Output ? FunctionBuilder::Local::Output
                                                       : FunctionBuilder::Local::Protected;
  if (local.kind != FunctionBuilder::Local::Protected && d.isProtected) {
    diags_.error(c.range, "inputs and outputs of a function must be public");
    return true;
  }
  if (local.kind == FunctionBuilder::Local::Protected && type == Type::Integer && c.binding &&
      c.dims.empty() && d.typeDims.empty() && !enumeration && !readsLaterVariable(*b.cls, b, *c.binding)) {
    const KnownInteger known = knownIntegerLocal(b, el, scope);
    if (known != KnownInteger::Variable)
      return known == KnownInteger::Constant;
  }
  std::vector<int> dims = functionVariableDims(el, scope);
  if (local.kind == FunctionBuilder::Local::Input) {
    if (argIndex >= args.size())
      return true;
    const Value &a = args[argIndex++];
    bool wantBool = type == Type::Boolean;
    if (a.object) {
      diags_.error(callRange, "argument '" + c.name + "' of '" + b.cls->name + "' must be " + frontend::typeName(type) +
                                  ", not an external object of class '" + a.object->name + "'");
      return false;
    }
    // A wrong argument is the call's error: the function itself is not lowered for it.
    if ((a.type == Type::Boolean) != wantBool || (type == Type::Integer && a.type == Type::Real) ||
        (a.type == Type::String) != (type == Type::String)) {
      diags_.error(callRange, "argument '" + c.name + "' of '" + b.cls->name + "' must be " + frontend::typeName(type) +
                                  ", not " + frontend::typeName(a.type));
      return false;
    }
    bool fits = a.dims.size() == dims.size();
    for (size_t k = 0; fits && k < dims.size(); ++k)
      fits = dims[k] < 0 || dims[k] == a.dims[k];
    if (!fits) {
      diags_.error(callRange, "argument '" + c.name + "' of '" + b.cls->name + "' must be " + shapeText(dims) + ", not " +
                                  shapeText(a.dims));
      return false;
    }
    dims = a.dims;
  } else if (std::find(dims.begin(), dims.end(), -1) != dims.end()) {
    // `constant Real[:] n = {...}`, `Real y[:] = 2*x`: the size of the binding (MLS 3.5, 12.4.4);
    // without one, `X := f(state)`, the first statement of the algorithm that assigns it whole
    // (MSL's ReferenceMoistAir.Xsaturation), where that reads only variables declared before.
    const ast::Expr *sizing = c.binding ? c.binding.get() : firstWholeAssignment(*b.cls, c.name);
    Value bound = sizing && !readsLaterVariable(*b.cls, b, *sizing) ? lower(*sizing, scope) : Value();
    if (!bound.ok || bound.dims.size() != dims.size()) {
      diags_.error(c.range, "the size of '" + c.name + "' in function '" + b.cls->name + "' must be given");
      return true;
    }
    for (size_t k = 0; k < dims.size(); ++k)
      dims[k] = dims[k] < 0 ? bound.dims[k] : dims[k];
  }
  local.dims = dims;
  const size_t count = product(dims);
  local.slot = b.fn->numSlots();
  const SlotType slotType = type == Type::Boolean  ? SlotType::Boolean
                            : type == Type::String ? SlotType::String
                                                   : SlotType::Real;
  for (size_t k = 0; k < count; ++k) {
    b.fn->addSlot(variableName(c.name, dims, k), slotType);
    if (local.kind == FunctionBuilder::Local::Input)
      b.fn->inputs.push_back(local.slot + static_cast<int>(k));
    else if (local.kind == FunctionBuilder::Local::Output)
      b.fn->outputs.push_back(local.slot + static_cast<int>(k));
  }
  if (local.kind == FunctionBuilder::Local::Output)
    outputs.push_back(OutputShape{type, dims, nullptr, nullptr, product(dims), enumeration});
  if (local.kind != FunctionBuilder::Local::Input && c.binding)
    defaults.push_back({static_cast<int>(b.vars.size()), c.binding.get(), nullptr});
  if (!c.modifiers.empty())
    for (const ast::Modifier &m : c.modifiers)
      if (m.name != "start" && m.name != "min" && m.name != "max" && m.name != "unit" && m.name != "nominal")
        diags_.error(m.range, "unknown attribute '" + m.name + "'");
  b.vars.emplace_back(c.name, local);
  return true;
}

int Flattener::specializeFunction(ClassInfo *cls, const std::vector<Value> &args, SourceRange callRange,
                                  std::vector<OutputShape> &outputs) {
  // Called as a statement (for its effects): a specialization with a hidden last output.
  const bool effects = statementCall_ > 0;
  std::string key = (effects ? "!" : "") + specializationKey(*cls, args);
  // Integer inputs that size arrays (`output Real c[order]`): the function is specialized to
  // their values too.
  std::optional<std::map<std::string, double>> sizingValues = sizingArguments(*cls, args, callRange);
  if (!sizingValues)
    return -1;
  for (auto &[name, value] : *sizingValues)
    key += name + "=" + formatNumber(value) + ";";
  auto known = functions_.find(key);
  if (known != functions_.end()) {
    outputs = known->second.outputs;
    return known->second.id;
  }
  if (specializing_ >= kMaxSpecializationDepth || functions_.size() > 10000) {
    diags_.error(callRange, "function '" + cls->name + "' calls itself with ever new argument sizes (more than " +
                                std::to_string(kMaxSpecializationDepth) + " nested specializations)");
    return -1;
  }
  struct Depth {
    int &d;
    explicit Depth(int &d) : d(++d) {}
    ~Depth() { --d; }
  } depth(specializing_);
  const Suspended statement(statementCall_); // the calls in the body are values
  auto owned = std::make_unique<Function>();
  Function *fn = owned.get();
  fn->name = cls->name;
  fn->loc = cls->def->range;
  fn->impure = cls->def->impure;
  int id = ctx().addFunction(std::move(owned));
  std::string symbol;
  for (char ch : cls->name)
    symbol += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  fn->symbol = "eqc_fn" + std::to_string(id) + "_" + symbol;
  // Registered before the body is lowered, so that a recursive call finds it.
  functions_[key] = FunctionSpec{id, {}};

  FunctionBuilder b;
  b.fn = fn;
  b.cls = cls;
  b.values = std::move(*sizingValues);
  Scope scope;
  scope.lexical = cls;
  scope.context = Context::Function;
  scope.fn = &b;
  unsigned errors = diags_.errorCount();
  size_t argIndex = 0;
  std::vector<LocalDefault> defaults; // of outputs and locals
  for (const Element *el : declarationOrder(*cls))
    if (!declareFunctionVariable(b, *el, scope, args, argIndex, callRange, outputs, defaults)) {
      functions_.erase(key);
      return -1;
    }
  functions_[key].outputs = outputs;
  if (fn->outputs.empty() || effects) {
    // A function without outputs is called for its effects (its assertions, its C code), and so
    // is one whose call is a statement: a hidden last output, 1 once it ran, is what its call
    // statement checks (Algorithms.cpp).
    const int done = fn->numSlots();
    fn->addSlot("(done)", SlotType::Real);
    fn->outputs.push_back(done);
    FnStatement ran;
    ran.kind = FnStatement::Assign;
    ran.loc = cls->def->range;
    ran.slot = done;
    ran.value = ctx().one();
    fn->body.push_back(std::move(ran));
  }
  StatementLowering lowering{*this, b};
  lowering.initialValues(dependencyOrder(b, defaults), scope, fn->body);
  if (cls->def->external) {
    if (!cls->algorithms.empty())
      diags_.error(cls->algorithms.front().section->range,
                   "external function '" + cls->name + "' has an algorithm section (MLS 3.5, 12.9)");
    else
      lowerExternalCall(*cls, b, fn->body);
    if (diags_.errorCount() == errors)
      userDerivative(*cls, b, id, args, callRange);
    if (diags_.errorCount() != errors) {
      functions_.erase(key);
      return -1;
    }
    return id;
  }
  for (const AlgorithmSource &source : cls->algorithms) {
    if (source.section->initial) {
      diags_.error(source.section->range, "a function has no initial algorithm section");
      continue;
    }
    for (const ast::Statement &st : source.section->statements)
      lowering.statement(st, scope, fn->body);
  }
  if (cls->algorithms.empty() && defaults.empty())
    diags_.error(cls->def->range, "function '" + cls->name + "' has no algorithm section");
  fn->makesStrings = fn->makesStrings || callsForStrings(fn->body);
  if (diags_.errorCount() == errors)
    userDerivative(*cls, b, id, args, callRange);
  if (diags_.errorCount() != errors) {
    functions_.erase(key);
    return -1;
  }
  return id;
}

void Flattener::userDerivative(ClassInfo &cls, FunctionBuilder &b, int id, const std::vector<Value> &args,
                               SourceRange callRange) {
  // MLS 3.5, 12.7.1: `annotation(derivative(noDerivative = u, zeroDerivative = k) = fder)`: the
  // derivative of f(x) is fder(x, dx) with the derivatives of its Real inputs but those named.
  // `order = k` on a (k-1)-th derivative f(x, dx, ..., d^(k-1)x): fder appends d^k x only, the
  // derivatives of f's last inputs (as many as fder has more inputs than f).
  const ast::Modifier *annotation = nullptr;
  for (const ast::Modifier &m : cls.def->annotation)
    if (m.name == "derivative" && m.value && m.value->kind == ast::ExprKind::Name)
      annotation = &m;
  if (!annotation)
    return;
  std::set<std::string> without;
  bool higherOrder = false;
  for (const ast::Modifier &a : annotation->args) {
    if (a.name == "order") {
      if (!a.value || a.value->kind != ast::ExprKind::Number || a.value->number < 1 ||
          a.value->number != std::floor(a.value->number))
        return;
      higherOrder = a.value->number > 1;
    } else if ((a.name == "noDerivative" || a.name == "zeroDerivative") && a.value) {
      without.insert(a.value->text);
    }
  }
  ClassInfo *fder = findClass(annotation->value->text, &cls);
  if (!fder || fder->kind() != ast::ClassKind::Function || !resolveClass(*fder)) {
    diags_.error(annotation->value->range, "the derivative '" + annotation->value->text + "' of function '" + cls.name +
                                               "' is not a function");
    return;
  }
  auto inputCount = [](const ClassInfo &c) {
    return std::count_if(c.elements.begin(), c.elements.end(),
                         [](const Element &el) { return el.decl->causality == ast::Causality::Input; });
  };
  const auto inputs = inputCount(cls), extra = inputCount(*fder) - inputs;
  if (higherOrder && (extra < 1 || extra > inputs)) {
    diags_.error(annotation->value->range, "the derivative '" + fder->name + "' of order > 1 of function '" + cls.name +
                                               "' must take the function's inputs and the derivatives of its last ones");
    return;
  }
  // fder's arguments: f's inputs, then the derivatives of the differentiated ones (their shapes).
  std::vector<Value> fderArgs = args;
  std::vector<char> differentiated; // per scalar input of f
  size_t argIndex = 0;
  for (const Element &el : cls.elements) {
    if (el.decl->causality != ast::Causality::Input)
      continue;
    const FunctionBuilder::Local *local = b.find(el.comp->name);
    const Value *arg = argIndex < args.size() ? &args[argIndex] : nullptr;
    ++argIndex;
    if (!local || local->slot < 0 || !arg)
      continue;
    const size_t count = local->record ? static_cast<size_t>(local->size) : product(local->dims);
    const bool real = local->type == Type::Real && !local->object;
    const bool last = !higherOrder || static_cast<long>(argIndex) > static_cast<long>(inputs - extra);
    const bool takes = real && last && !without.count(el.comp->name);
    differentiated.insert(differentiated.end(), count, takes ? 1 : 0);
    if (takes) {
      Value d = *arg;
      d.type = Type::Real;
      fderArgs.push_back(std::move(d));
    }
  }
  Function &f = ctx().function(id);
  if (differentiated.size() != f.inputs.size())
    return;
  std::vector<OutputShape> fderOutputs;
  const int fderId = specializeFunction(fder, fderArgs, callRange, fderOutputs);
  if (fderId < 0)
    return;
  if (ctx().function(fderId).outputs.size() != ctx().function(id).outputs.size()) {
    diags_.error(annotation->value->range, "the derivative '" + fder->name + "' of function '" + cls.name + "' has " +
                                               std::to_string(ctx().function(fderId).outputs.size()) +
                                               " output scalars, not the " +
                                               std::to_string(ctx().function(id).outputs.size()) + " of the function");
    return;
  }
  // The directional derivative (x, dx) -> dy that differentiation calls (derivativeFunction's
  // layout): fder(x, dx of the differentiated inputs).
  const int derivativeId = addDerivativeShell(ctx(), id);
  const Function &base = ctx().function(id);
  const int n = base.numSlots();
  std::vector<const Expr *> callArgs;
  for (int slot : base.inputs)
    callArgs.push_back(ctx().local(slot, base.isBool(slot)));
  for (size_t k = 0; k < base.inputs.size(); ++k)
    if (differentiated[k])
      callArgs.push_back(ctx().local(base.inputs[k] + n, false));
  Function &d = ctx().function(derivativeId);
  d.runtimeOnly = d.runtimeOnly || ctx().function(fderId).runtimeOnly;
  for (size_t k = 0; k < base.outputs.size(); ++k) {
    FnStatement s;
    s.kind = FnStatement::Assign;
    s.loc = base.loc;
    s.slot = base.outputs[k] + n;
    s.value = ctx().fnCall(fderId, static_cast<int>(k), callArgs);
    d.body.push_back(s);
  }
  Function &g = ctx().function(id);
  g.tangentUnused.clear();
  for (char taken : differentiated)
    g.tangentUnused.push_back(taken ? 0 : 1);
}

} // namespace eqc::frontend

// Records as values (MLS 3.5, 12.6): record constructors, record components named whole, record
// equations and record components with a value; a record value is its fields' scalars in order.
#include "frontend/FlattenImpl.h"

#include <algorithm>
#include <functional>

namespace eqc::frontend {

namespace {

/// Whether element `e` of a record is a field of its value (not a constant, not protected).
bool isField(const Element &e) {
  return e.decl->prefix != ast::Prefix::Constant && !e.decl->isProtected;
}

} // namespace

std::optional<std::vector<int>>
Flattener::fieldDimensions(const Element &el, const std::vector<std::pair<std::string, Value>> *siblings) {
  Scope at;
  at.lexical = el.lexical;
  at.context = Context::Parameter;
  if (siblings)
    at.loops = *siblings;
  auto dims = dimensions(el.comp->dims, at, "field '" + el.comp->name + "'");
  auto typeDims = dimensions(el.decl->typeDims, at, "field '" + el.comp->name + "'");
  if (!dims || !typeDims)
    return std::nullopt;
  dims->insert(dims->end(), typeDims->begin(), typeDims->end());
  return dims;
}

Value Flattener::recordValue(Instance &inst, SourceRange range, std::vector<Symbol *> *texts) {
  Value v;
  v.ok = true;
  v.record = inst.cls;
  std::function<bool(Instance &)> add = [&](Instance &r) {
    for (size_t i = 0; i < r.cls->elements.size(); ++i) {
      if (!isField(r.cls->elements[i]))
        continue;
      Symbol &s = symbol(r, static_cast<int>(i));
      if (s.kind == Symbol::Component && s.cls && s.cls->kind() == ast::ClassKind::Record) {
        for (auto &child : s.instances)
          if (!add(*child))
            return false;
      } else if (s.kind == Symbol::Variable && s.type == Type::String) { // its text (a String variable)
        v.elems.push_back(handleText(ctx().var(s.firstVar, false)).elems[0]);
      } else if (s.kind == Symbol::Variable) {
        for (size_t k = 0; k < product(s.dims); ++k)
          v.elems.push_back(ctx().var(s.firstVar + static_cast<int>(k), s.type == Type::Boolean));
      } else if (s.kind == Symbol::Constant && s.value.ok && s.value.type == Type::String) {
        // A String field's element is its text as computedString makes it (an array's are already).
        if (s.value.isScalar() && texts) {
          texts->resize(v.elems.size(), nullptr);
          texts->push_back(&s);
        }
        if (s.value.isScalar())
          v.elems.push_back(computedString(s.value).elems[0]);
        else
          v.elems.insert(v.elems.end(), s.value.elems.begin(), s.value.elems.end());
      } else if (s.kind == Symbol::Constant && s.value.ok) {
        v.elems.insert(v.elems.end(), s.value.elems.begin(), s.value.elems.end());
      } else {
        diags_.error(range, "field '" + r.cls->elements[i].comp->name + "' of record '" + r.cls->name +
                                "' cannot be part of a record value");
        return false;
      }
    }
    return true;
  };
  if (!add(inst))
    return Value{};
  if (texts)
    texts->resize(v.elems.size(), nullptr);
  return v;
}

Value Flattener::recordArrayValue(const std::vector<Instance *> &insts, const std::vector<int> &dims,
                                  const ClassInfo *cls, SourceRange range) {
  Value v;
  v.ok = true;
  v.record = cls;
  v.dims = dims;
  for (Instance *inst : insts) {
    Value one = recordValue(*inst, range);
    if (!one.ok)
      return Value{};
    v.elems.insert(v.elems.end(), one.elems.begin(), one.elems.end());
  }
  return v;
}

Value Flattener::lowerRecordConstructor(const ast::Expr &call, Scope &scope, ClassInfo *cls) {
  if (!resolveClass(*cls))
    return Value{};
  // The fields in order, with the arguments that give them (positional, then named), else their
  // declaration's value.
  std::vector<size_t> fields;
  for (size_t i = 0; i < cls->elements.size(); ++i)
    if (isField(cls->elements[i]))
      fields.push_back(i);
  std::vector<const ast::Expr *> given(fields.size(), nullptr);
  for (size_t a = 0; a < call.args.size(); ++a) {
    const std::string &name = a < call.argNames.size() ? call.argNames[a] : std::string();
    size_t k = a;
    if (!name.empty()) {
      k = fields.size();
      for (size_t f = 0; f < fields.size(); ++f)
        if (cls->elements[fields[f]].comp->name == name)
          k = f;
      if (k == fields.size()) {
        diags_.error(call.args[a]->range, "record '" + cls->name + "' has no field '" + name + "'");
        return Value{};
      }
    } else if (k >= fields.size()) {
      diags_.error(call.args[a]->range, "record '" + cls->name + "' has " + plural(fields.size(), "field"));
      return Value{};
    }
    if (given[k]) {
      diags_.error(call.args[a]->range, "field '" + cls->elements[fields[k]].comp->name + "' is given twice");
      return Value{};
    }
    given[k] = call.args[a].get();
  }
  Value v;
  v.ok = true;
  v.record = cls;
  // MLS 3.5, 12.6.1: the constructor's inputs are the fields; a default is the modification of
  // an extends clause (`extends BaseData(B_rRef = 0.58)`), else the declaration's, and it may
  // read the fields before it (`B_r = B_rRef*(1 + alpha_Br*(T_op - T_ref))`).
  std::vector<std::pair<std::string, Value>> known;
  std::vector<Value> values(fields.size());
  auto isText = [&](size_t f) { // a String field takes a String
    Type primitive = Type::Real;
    return isPrimitive(cls->elements[fields[f]].decl->typeName, primitive) && primitive == Type::String;
  };
  for (size_t f = 0; f < fields.size(); ++f)
    if (given[f]) {
      stringContext_ += isText(f);
      values[f] = lower(*given[f], scope);
      stringContext_ -= isText(f);
      if (!values[f].ok)
        return Value{};
    }
  for (size_t f = 0; f < fields.size(); ++f) {
    const Element &el = cls->elements[fields[f]];
    const ClassInfo *lexical = el.lexical;
    const ast::Expr *arg = given[f] ? given[f] : fieldDefault(el, lexical);
    if (!arg) {
      diags_.error(call.range, "record constructor '" + cls->name + "': field '" + el.comp->name +
                                   "' has no value and no default");
      return Value{};
    }
    if (!given[f]) { // the default is written in the record (or an extends clause of it)
      Scope inner;
      inner.lexical = lexical;
      inner.context = Context::Parameter;
      inner.loops = known;
      stringContext_ += isText(f);
      values[f] = lower(*arg, inner);
      stringContext_ -= isText(f);
    }
    Value &x = values[f];
    if (!x.ok)
      return Value{};
    known.emplace_back(el.comp->name, x);
    // The value must have the field's type and size: a record of the field's record class, or as
    // many scalars as the field's dimensions give.
    Type primitive = Type::Real;
    const bool plain = isPrimitive(el.decl->typeName, primitive);
    const ClassInfo *fieldClass = plain ? nullptr : findClass(el.decl->typeName, el.lexical);
    const bool recordField = fieldClass && fieldClass->kind() == ast::ClassKind::Record && !fieldClass->def->isShort;
    if (recordField != (x.record != nullptr) || (recordField && x.record != fieldClass)) {
      diags_.error(arg->range, "field '" + el.comp->name + "' of record '" + cls->name + "' is " +
                                   (recordField ? "a '" + fieldClass->name + "' record" : std::string("not a record")) +
                                   " but its value is " +
                                   (x.record ? "a '" + x.record->name + "' record" : std::string(typeName(x.type))));
      return Value{};
    }
    if (x.type == Type::String && x.isScalar()) // a String field: its text (computedString)
      x.elems[0] = computedString(x).elems[0];
    if (plain) { // (a short type class may add dimensions of its own: not checked here)
      auto dims = fieldDimensions(el);
      if (!dims)
        return Value{};
      if (std::find(dims->begin(), dims->end(), -1) == dims->end() && x.dims != *dims) {
        diags_.error(arg->range, "field '" + el.comp->name + "' of record '" + cls->name + "' is " + shapeText(*dims) +
                                     " but its value is " + shapeText(x.dims));
        return Value{};
      }
    }
    v.elems.insert(v.elems.end(), x.elems.begin(), x.elems.end());
  }
  return v;
}

std::vector<std::pair<std::string, Value>> Flattener::recordSizes(const ClassInfo &record,
                                                                  const std::vector<ast::Modifier> *modifiers,
                                                                  const ClassInfo *modifierScope) {
  std::vector<std::pair<std::string, Value>> known;
  for (const Element &el : record.elements) {
    if (el.decl->prefix != ast::Prefix::Parameter || el.decl->typeName != "Integer" ||
        !el.comp->dims.empty() || !el.decl->typeDims.empty())
      continue;
    const ClassInfo *lexical = el.lexical;
    const ast::Expr *value = nullptr;
    for (size_t k = 0; modifiers && k < modifiers->size() && !value; ++k)
      if ((*modifiers)[k].name == el.comp->name && (*modifiers)[k].value) {
        value = (*modifiers)[k].value.get();
        lexical = modifierScope;
      }
    if (!value)
      value = fieldDefault(el, lexical);
    if (!value)
      continue;
    Scope at;
    at.lexical = lexical;
    at.context = Context::Parameter;
    at.loops = known;
    const size_t errors = diags_.errorCount();
    Value v = lower(*value, at);
    if (v.ok && v.isScalar() && v.type == Type::Integer && v.elems[0]->isConst())
      known.emplace_back(el.comp->name, v);
    else if (diags_.errorCount() > errors)
      break;
  }
  return known;
}

const ast::Expr *Flattener::fieldDefault(const Element &el, const ClassInfo *&lexical) {
  for (const ModSource &src : el.extendsMods) // highest priority first
    for (const ast::Modifier &m : *src.mods)
      if (m.name == el.comp->name && m.value) {
        lexical = src.lexical;
        return m.value.get();
      }
  lexical = el.lexical;
  return el.comp->binding.get();
}

std::optional<Flattener::FieldShape>
Flattener::fieldShape(const Element &el, const std::vector<std::pair<std::string, Value>> *siblings) {
  auto dims = fieldDimensions(el, siblings);
  if (!dims)
    return std::nullopt;
  FieldShape shape;
  shape.dims = *dims;
  shape.scalars = product(*dims);
  auto [name, from] = baseType(el);
  if (isPrimitive(name, shape.type))
    return shape;
  if (const ClassInfo *nested = findClass(name, from); nested && nested->kind() == ast::ClassKind::Record) {
    auto inner = recordSize(*nested);
    if (!inner)
      return std::nullopt;
    shape.record = nested;
    shape.scalars *= *inner;
  }
  return shape;
}

std::optional<size_t> Flattener::recordSize(const ClassInfo &cls) {
  if (!resolveClass(const_cast<ClassInfo &>(cls)))
    return std::nullopt;
  size_t size = 0;
  const std::vector<std::pair<std::string, Value>> sizes = recordSizes(cls, nullptr, nullptr);
  for (const Element &el : cls.elements) {
    if (!isField(el))
      continue;
    auto shape = fieldShape(el, &sizes);
    if (!shape)
      return std::nullopt;
    size += shape->scalars;
  }
  return size;
}

ModPtr Flattener::constantRecordMod(const ModPtr &mod, const ClassInfo &cls) {
  const Value &whole = modValue(*mod, Context::Parameter);
  if (!whole.ok)
    return nullptr;
  if (whole.record != &cls) {
    diags_.error(mod->range, "the value of a '" + cls.name + "' record is " +
                                 (whole.record ? "a '" + whole.record->name + "' record" : std::string("a ") + typeName(whole.type)));
    return nullptr;
  }
  auto result = std::make_shared<Mod>(*mod);
  result->expr = nullptr; // the fields hold the value
  result->children.clear();
  size_t at = 0;
  for (const Element &el : cls.elements) {
    if (!isField(el))
      continue;
    auto shape = fieldShape(el);
    if (!shape)
      return nullptr;
    Value part;
    part.ok = true;
    const size_t n = shape->scalars;
    part.record = shape->record;
    if (!shape->record) {
      part.type = shape->type;
      part.dims = shape->dims;
    }
    if (at + n > whole.size())
      return nullptr;
    part.elems.assign(whole.elems.begin() + static_cast<std::ptrdiff_t>(at),
                      whole.elems.begin() + static_cast<std::ptrdiff_t>(at + n));
    if (part.type == Type::Boolean || (!part.elems.empty() && part.elems[0]->isBool()))
      part.type = Type::Boolean;
    if (part.type == Type::String && part.isScalar() && part.elems.size() == 1)
      part = stringOfElement(part.elems[0]);
    at += n;
    auto field = std::make_shared<Mod>(*mod);
    field->children.clear();
    field->slices.clear();
    field->lowered = std::make_shared<Mod::Cache>();
    field->lowered->value = std::move(part);
    result->children.emplace_back(el.comp->name, std::move(field));
  }
  return result;
}

void Flattener::equateRecords(const Value &lhs, const Value &rhs, SourceRange range, int number, int originId,
                              bool initial) {
  if (lhs.record != rhs.record || lhs.size() != rhs.size() || lhs.dims != rhs.dims) {
    auto what = [](const Value &v) {
      std::string shape = v.dims.empty() ? "" : " " + shapeText(v.dims);
      return v.record ? "a '" + v.record->name + "' record" + shape
                      : std::string("a ") + typeName(v.type) + shape;
    };
    diags_.error(range, "the two sides of the equation are " + what(lhs) + " and " + what(rhs));
    return;
  }
  for (size_t k = 0; k < lhs.size(); ++k)
    if (!addScalarEquation(lhs.elems[k], rhs.elems[k], lhs.elems[k]->isBool(), range, number, originId, initial))
      return;
}

void Flattener::bindRecord(Instance &owner, Instance &record, const ModPtr &mod, bool parameter) {
  if (!parameter) {
    record.boundWhole = true;
    recordBindings_.push_back({&owner, &record, mod});
    return;
  }
  // Each field parameter's binding is its element of the record's value (lowered once); a
  // String field (a value known when compiled) takes its text from the value now.
  std::vector<Symbol *> texts;
  Value fields = recordValue(record, mod->range, &texts);
  texts.resize(fields.size(), nullptr); // (none after an error)
  const bool anyText = std::any_of(texts.begin(), texts.end(), [](Symbol *s) { return s != nullptr; });
  const Value *whole = nullptr;
  Value scratch;
  if (anyText) {
    ++stringContext_;
    whole = &modValueRef(*mod, Context::Parameter, scratch);
    --stringContext_;
  }
  for (size_t k = 0; k < fields.size(); ++k)
    if (fields.elems[k]->kind() == ExprKind::Var) {
      PendingBinding &b = bindings_[fields.elems[k]->var()];
      b.mod = mod;
      b.element = k;
      b.dims = {};
    } else if (texts[k] && whole && whole->ok && whole->record && k < whole->size()) {
      texts[k]->value = stringOfElement(whole->elems[k]);
    }
}

} // namespace eqc::frontend

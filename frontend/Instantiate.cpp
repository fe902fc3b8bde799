// Instances: the component tree of the model with merged modifications, its variables (one
// scalar Variable per array element), their attributes and bindings, and compile-time values of
// the parameters that fix array sizes.
#include "frontend/FlattenImpl.h"

#include "middle/ExprOps.h"

#include <algorithm>
#include <cmath>

namespace eqc::frontend {

bool isPrimitive(const std::string &name, Type &type) {
  if (name == "Real")
    type = Type::Real;
  else if (name == "Integer")
    type = Type::Integer;
  else if (name == "Boolean")
    type = Type::Boolean;
  else if (name == "String")
    type = Type::String;
  else
    return false;
  return true;
}

namespace {

ValueType valueType(Type t) {
  return t == Type::Integer   ? ValueType::Integer
         : t == Type::Boolean ? ValueType::Boolean
         : t == Type::String  ? ValueType::String
                              : ValueType::Real;
}

/// Adds modifier `m` under the dotted `name` (relative to `parent`).
void addModifier(Flattener &f, Mod &parent, const ast::Modifier &m, const std::string &name, Instance *scope,
                 const ClassInfo *lexical) {
  size_t dot = name.find('.');
  std::string first = name.substr(0, dot);
  std::shared_ptr<Mod> child;
  for (auto &[n, c] : parent.children)
    if (n == first)
      child = std::const_pointer_cast<Mod>(c);
  if (!child) {
    child = std::make_shared<Mod>();
    parent.children.emplace_back(first, child);
  }
  if (dot != std::string::npos) {
    addModifier(f, *child, m, name.substr(dot + 1), scope, lexical);
    return;
  }
  if (m.value) {
    if (child->expr) {
      f.diags_.error(m.range, "'" + m.name + "' is modified twice");
      f.diags_.note(child->range, "the first modification is here");
    } else {
      child->expr = m.value.get();
      child->scope = scope;
      child->lexical = lexical;
      child->range = m.range;
      child->each = m.each;
      child->final = m.final;
      child->lowered = std::make_shared<Mod::Cache>();
    }
  }
  if (!child->range.valid())
    child->range = m.range;
  if (m.each && dot == std::string::npos) // `each y(start = …)`: for its nested modifications too
    child->each = true;
  if (m.redeclare && !child->redeclare) {
    child->redeclare = &m;
    child->redeclareLexical = lexical;
    child->redeclareScope = scope;
  }
  for (const ast::Modifier &arg : m.args)
    addModifier(f, *child, arg, arg.name, scope, lexical);
}

} // namespace

std::string shapeText(const std::vector<int> &dims) {
  if (dims.empty())
    return "scalar";
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

ModPtr Flattener::modFromAst(const std::vector<ast::Modifier> &mods, Instance *scope, const ClassInfo *lexical) {
  if (mods.empty())
    return nullptr;
  auto root = std::make_shared<Mod>();
  for (const ast::Modifier &m : mods)
    addModifier(*this, *root, m, m.name, scope, lexical);
  return root;
}

ModPtr Flattener::merge(const ModPtr &high, const ModPtr &low) {
  if (!high)
    return low;
  if (!low)
    return high;
  auto out = std::make_shared<Mod>(high->hasValue() ? *high : *low);
  out->children.clear();
  if (high->redeclare) { // the outermost redeclaration wins
    out->redeclare = high->redeclare;
    out->redeclareLexical = high->redeclareLexical;
    out->redeclareScope = high->redeclareScope;
  } else if (low->redeclare) {
    out->redeclare = low->redeclare;
    out->redeclareLexical = low->redeclareLexical;
    out->redeclareScope = low->redeclareScope;
  }
  if (!out->range.valid())
    out->range = high->range.valid() ? high->range : low->range;
  for (auto &[name, c] : high->children)
    out->children.emplace_back(name, merge(c, low->child(name)));
  for (auto &[name, c] : low->children)
    if (!high->child(name))
      out->children.emplace_back(name, c);
  return out;
}

ModPtr Flattener::slice(const ModPtr &mod, int index, const std::vector<int> &shape) {
  if (!mod)
    return nullptr;
  // `each` (MLS 3.5, 7.2.5) gives every component the whole modification, nested ones included.
  if (mod->each)
    return mod;
  auto out = std::make_shared<Mod>(*mod);
  if (out->hasValue())
    out->slices.emplace_back(index, shape);
  for (auto &[name, c] : out->children)
    c = slice(c, index, shape);
  return out;
}

Value Flattener::modValue(const Mod &mod, Context context) {
  Value scratch;
  return modValueRef(mod, context, scratch);
}

const Value &Flattener::modValueRef(const Mod &mod, Context context, Value &scratch) {
  if (!mod.expr) {
    scratch = fail();
    return scratch;
  }
  Mod::Cache &cache = *mod.lowered;
  if (!cache.value) {
    Scope scope;
    scope.inst = mod.scope;
    scope.lexical = mod.lexical;
    scope.context = context;
    cache.value = lower(*mod.expr, scope);
  }
  const Value &full = *cache.value;
  if (!full.ok || mod.slices.empty())
    return full;
  // The slice of each array level, as a range of the full value's elements: a component of an
  // array copies only its own part (copying the whole value per component would be quadratic).
  size_t begin = 0, size = full.size(), level = 0;
  for (auto &[index, shape] : mod.slices) {
    bool fits = full.dims.size() >= level + shape.size() &&
                std::equal(shape.begin(), shape.end(), full.dims.begin() + level);
    if (!fits) {
      if (!cache.sliceError) {
        std::vector<int> rest(full.dims.begin() + std::min(level, full.dims.size()), full.dims.end());
        diags_.error(mod.range, "the value is " + shapeText(rest) + " but it modifies an array of components " +
                                    shapeText(shape) + ": give one value per component, or write 'each'");
      }
      cache.sliceError = true;
      scratch = fail();
      return scratch;
    }
    size /= std::max<size_t>(1, product(shape));
    begin += index * size;
    level += shape.size();
  }
  scratch = Value{};
  scratch.ok = true;
  scratch.type = full.type;
  scratch.text = full.text;
  scratch.record = full.record; // an array of records slices to records (row-major elements)
  scratch.enumeration = full.enumeration;
  scratch.dims.assign(full.dims.begin() + level, full.dims.end());
  scratch.elems.assign(full.elems.begin() + begin, full.elems.begin() + begin + size);
  return scratch;
}

bool Flattener::countIteration(SourceRange range) {
  if (++iterations_ <= 5 * kMaxScalars)
    return true;
  if (iterations_ == 5 * kMaxScalars + 1)
    diags_.error(range, "more than 1e8 loop iterations in the model's for-loops and array constructors (eqc's limit)");
  return false;
}

bool Flattener::reserveScalars(size_t n, SourceRange range) {
  if (n <= kMaxScalars && scalars_ + n <= kMaxScalars) {
    scalars_ += n;
    return true;
  }
  diags_.error(range, "the model becomes too large here: more than 2e7 scalar variables and components "
                      "(eqc's limit)");
  scalars_ = kMaxScalars + 1; // one error is enough
  return false;
}

std::string Flattener::variableName(const std::string &base, const std::vector<int> &dims, size_t flat) {
  if (dims.empty())
    return base;
  std::vector<size_t> idx(dims.size());
  for (size_t k = dims.size(); k-- > 0;) {
    idx[k] = flat % dims[k];
    flat /= dims[k];
  }
  std::string s = base + "[";
  for (size_t k = 0; k < idx.size(); ++k)
    s += (k ? "," : "") + std::to_string(idx[k] + 1);
  return s + "]";
}

Instance *Flattener::packageInstance(const ClassInfo *cls) {
  auto it = packageIndex_.find(cls);
  if (it != packageIndex_.end())
    return it->second;
  auto inst = std::make_unique<Instance>();
  inst->cls = cls;
  inst->path = cls->name;
  inst->package = true;
  Instance *raw = inst.get();
  packages_.push_back(std::move(inst));
  packageIndex_[cls] = raw;
  resolveClass(const_cast<ClassInfo &>(*cls));
  raw->symbols.resize(cls->elements.size());
  return raw;
}

void Flattener::checkModifiers(const Mod &mod, const ClassInfo &cls, const std::string &what) {
  for (auto &[name, child] : mod.children)
    if (child->redeclare && child->redeclare->redeclareClass) {
      classRedeclarable(*child->redeclare, cls);
    } else if (cls.find(name) < 0) {
      std::vector<std::string> names;
      for (const Element &e : cls.elements)
        names.push_back(e.comp->name);
      std::string hint = closest(name, names);
      diags_.error(child->range, "'" + cls.name + "' has no element '" + name + "' to modify in " + what +
                                     (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    }
}

void Flattener::instantiateElements(Instance &inst) {
  ClassInfo &cls = const_cast<ClassInfo &>(*inst.cls);
  resolveClass(cls); // after errors, the elements that could be resolved are still checked
  inst.symbols.resize(cls.elements.size());
  if (inst.mod)
    checkModifiers(*inst.mod, cls, inst.path.empty() ? "the model" : "'" + inst.path + "'");
  for (size_t i = 0; i < cls.elements.size(); ++i)
    symbol(inst, static_cast<int>(i));
}

std::optional<std::vector<int>> Flattener::dimensions(const std::vector<ast::Subscript> &subs, Scope &scope,
                                                      const std::string &what) {
  std::vector<int> dims;
  for (const ast::Subscript &s : subs) {
    if (!s.expr) {
      dims.push_back(-1);
      continue;
    }
    Value v = lower(*s.expr, scope);
    if (!v.ok)
      return std::nullopt;
    if (v.enumerationType) { // x[E]: one element per literal
      dims.push_back(static_cast<int>(v.size()));
      continue;
    }
    if (v.enumerationType || !v.isScalar() || v.type != Type::Integer) {
      diags_.error(s.range, "the size of " + what + " must be an Integer (found " +
                                (v.isScalar() ? std::string(typeName(v.type)) : shapeText(v.dims)) + ")");
      return std::nullopt;
    }
    std::optional<double> n = structural(v, s.range, "the size of " + what);
    if (!n)
      return std::nullopt;
    if (*n < 0 || *n > static_cast<double>(kMaxScalars)) {
      diags_.error(s.range, "the size of " + what + " is " + formatNumber(*n) +
                                (*n < 0 ? " (it must be 0 or more)" : " (more than eqc's limit of 2e7)"));
      return std::nullopt;
    }
    dims.push_back(static_cast<int>(*n));
  }
  return dims;
}

std::optional<size_t> Flattener::overdeterminedSize(const ClassInfo *cls) {
  // MLS 3.5, 9.4.1: a record or type with a function equalityConstraint is overdetermined; it
  // counts as the size of that function's output. Asked for every element of every connect:
  // known once per class.
  if (!cls)
    return std::nullopt;
  auto [known, isNew] = overdetermined_.emplace(cls, std::nullopt);
  if (!isNew)
    return known->second;
  std::optional<size_t> size = equalityConstraintSize(cls);
  overdetermined_[cls] = size; // (the lookups may have grown the map)
  return size;
}

std::optional<size_t> Flattener::equalityConstraintSize(const ClassInfo *cls) {
  ClassInfo *fn = member(cls, "equalityConstraint");
  if (!fn || fn->kind() != ast::ClassKind::Function || !resolveClass(*fn))
    return std::nullopt;
  for (const Element &el : fn->elements) {
    if (el.decl->causality != ast::Causality::Output)
      continue;
    Scope scope;
    scope.lexical = fn;
    scope.context = Context::Parameter;
    size_t size = 1;
    for (const auto *subs : {&el.decl->typeDims, &el.comp->dims}) {
      auto dims = dimensions(*subs, scope, "the output of '" + fn->name + "'");
      if (!dims)
        return std::nullopt;
      size *= product(*dims);
    }
    return size;
  }
  return std::nullopt;
}

void Flattener::checkConnectorBalance(Instance &conn, SourceRange used) {
  // MLS 3.5, 9.3.1: as many flow variables as potential ones (neither flow, stream, parameter, constant,
  // input nor output), counted as scalars after expanding records and arrays; an overdetermined
  // record or type counts as the size of its equalityConstraint's output (9.4.1); a connector of
  // causal variables only (inputs, outputs) has none of either.
  struct Count {
    std::vector<std::string> names;
    size_t scalars = 0;
    void add(const std::string &name, size_t n) {
      if (n == 0)
        return;
      names.push_back(n == 1 ? name : name + " (" + std::to_string(n) + ")");
      scalars += n;
    }
  } flows, potentials, streams;
  std::function<void(Instance &, const std::string &, size_t)> count = [&](Instance &inst, const std::string &prefix,
                                                                           size_t copies) {
    for (size_t i = 0; i < inst.cls->elements.size() && i < inst.symbols.size(); ++i) {
      const Symbol &s = inst.symbols[i];
      const ast::Declaration &d = *inst.cls->elements[i].decl;
      const std::string name = prefix + inst.cls->elements[i].comp->name;
      if ((s.kind != Symbol::Component && s.kind != Symbol::Variable) || s.role == VarRole::Parameter ||
          d.causality != ast::Causality::None)
        continue;
      const size_t n = copies * product(s.dims);
      if (std::optional<size_t> constraint = overdeterminedSize(s.cls)) {
        (s.flow ? flows : potentials).add(name, n * *constraint);
      } else if (s.kind == Symbol::Component) {
        if (!s.instances.empty())
          count(*s.instances[0], name + ".", n);
      } else {
        (s.flow ? flows : s.stream ? streams : potentials).add(name, n);
      }
    }
  };
  count(conn, "", 1);
  if (streams.scalars > 0 && (flows.scalars != 1 || flows.names.size() != 1)) {
    diags_.error(used,
                 "stream connector '" + conn.cls->name + "' has " + plural(flows.scalars, "flow variable") +
                     (flows.names.empty()
                          ? ""
                          : " (" + flows.names[0] + (flows.names.size() > 1 ? ", ..." : "") + ")") +
                     ": a connector with stream variables has exactly one scalar flow variable, the flow "
                     "that carries them (MLS 3.5, 15.1)");
    diags_.note(conn.cls->def->range, "connector '" + conn.cls->name + "' is declared here");
    return;
  }
  if (flows.scalars == potentials.scalars)
    return;
  auto list = [](const std::vector<std::string> &names) {
    std::string s;
    for (size_t k = 0; k < names.size() && k < 8; ++k)
      s += (k ? ", " : "") + names[k];
    return names.size() > 8 ? s + ", ..." : s;
  };
  diags_.error(used, "connector '" + conn.cls->name + "' is not balanced: " +
                         plural(potentials.scalars, "potential variable") +
                         (potentials.names.empty() ? "" : " (" + list(potentials.names) + ")") + " but " +
                         plural(flows.scalars, "flow variable") + (flows.names.empty() ? "" : " (" + list(flows.names) + ")") +
                         " (MLS 3.5, 9.3.1: as many of each)");
  diags_.note(conn.cls->def->range, "connector '" + conn.cls->name + "' is declared here");
}

Symbol *Flattener::innerSymbol(Instance &inst, const Element &el) {
  const ast::Component &c = *el.comp;
  for (Instance *p = inst.parent; p; p = p->parent) {
    int idx = p->cls->find(c.name);
    if (idx >= 0 && p->symbols.size() > static_cast<size_t>(idx) && p->cls->elements[idx].decl->element.inner)
      return &symbol(*p, idx);
  }
  diags_.error(c.range, "no 'inner " + el.decl->typeName + " " + c.name +
                            "' in an enclosing instance for this outer element" +
                            (inst.path.empty() ? std::string() : " of '" + inst.path + "'") +
                            " (MLS 3.5, 5.4: declare it in the model that contains '" +
                            (inst.path.empty() ? std::string("the model") : inst.path) + "')");
  return nullptr;
}

std::optional<bool> Flattener::componentExists(Instance &inst, const Element &el) {
  const ast::Expr &condition = *el.comp->condition;
  Scope scope;
  scope.inst = &inst;
  scope.lexical = el.lexical;
  scope.context = Context::Parameter;
  Value on = lowerBool(condition, scope);
  if (!on.ok)
    return std::nullopt;
  if (!on.isScalar()) {
    diags_.error(condition.range, "the condition of a conditional component must be a scalar Boolean");
    return std::nullopt;
  }
  std::optional<double> value = on.elems[0]->kind() == ExprKind::BoolConst
                                    ? std::optional<double>(on.elems[0]->boolValue())
                                    : evaluateStructural(on.elems[0], condition.range,
                                                         "the condition of a conditional component");
  if (!value)
    return std::nullopt;
  return *value != 0;
}

ClassInfo *Flattener::modifierClass(const ast::Modifier &m, const ClassInfo *lexical) {
  auto it = modifierClasses_.find(m.redeclareClass.get());
  if (it != modifierClasses_.end())
    return it->second;
  ClassInfo *info = registerClass(*m.redeclareClass, const_cast<ClassInfo *>(lexical));
  modifierClasses_.emplace(m.redeclareClass.get(), info);
  return info;
}

bool Flattener::classRedeclarable(const ast::Modifier &m, const ClassInfo &cls) {
  ClassInfo *original = member(&cls, m.name);
  if (!original) {
    diags_.error(m.range, "'" + cls.name + "' has no class '" + m.name + "' to redeclare (MLS 3.5, 7.3)");
    return false;
  }
  if (!original->def->element.replaceable && !original->def->element.redeclare) {
    diags_.error(m.range, "the class '" + m.name + "' of '" + cls.name +
                              "' is not replaceable, so it cannot be redeclared (MLS 3.5, 7.3)");
    diags_.note(original->def->range, "'" + m.name + "' is declared here without 'replaceable'");
    return false;
  }
  return true;
}

ClassInfo *Flattener::memberPath(ClassInfo *c, const std::string &dotted) {
  for (size_t start = 0; c && start <= dotted.size();) {
    const size_t next = dotted.find('.', start);
    c = member(aliasTarget(c), dotted.substr(start, next == std::string::npos ? std::string::npos : next - start));
    if (next == std::string::npos)
      break;
    start = next + 1;
  }
  return c;
}

ClassInfo *Flattener::aliasTarget(ClassInfo *c) {
  Type prim;
  for (int hops = 0; c && c->def->isShort && !c->def->isEnumeration && hops < 50; ++hops) {
    const std::string &base = c->def->shortBase.typeName;
    if (base.empty() || isPrimitive(base, prim))
      break;
    ClassInfo *target = findClass(base, definitionScope(c));
    if (!target || target == c)
      break;
    c = target;
  }
  return c;
}

ClassInfo *Flattener::extendsRedeclaration(const ClassInfo &cls, const std::string &name, int depth) {
  if (depth > 50)
    return nullptr;
  if (ClassInfo *found = extendsClauseRedeclaration(cls, name))
    return found;
  for (const ast::Extends &ext : cls.def->extends)
    if (ClassInfo *base = findClass(ext.base, cls.parent); base && base != &cls)
      if (ClassInfo *found = extendsRedeclaration(*base, name, depth + 1))
        return found;
  return nullptr;
}

ClassInfo *Flattener::instanceRedeclaration(const Instance &inst, const ClassInfo *lexical,
                                            const std::string &name, Instance **scope) {
  if (!lexical)
    return nullptr;
  if (scope)
    *scope = const_cast<Instance *>(&inst);
  // A name the code's own scope defines (a class nested in its class, or in one of its bases) is
  // the one a class redeclaration of the instance replaces; names of enclosing scopes are not.
  if (!inst.package && member(lexical, name)) {
    // MLS 3.5, 7.3: `redeclare model M = B` in the instance's modification, then in the
    // modifications of the extends clauses of its class (outermost first).
    if (inst.mod)
      if (ModPtr outside = inst.mod->child(name); outside && outside->redeclare && outside->redeclare->redeclareClass)
        return modifierRedeclaredClass(*outside, scope);
    if (ClassInfo *found = extendsRedeclaration(*inst.cls, name, 0))
      return found;
  }
  // Code inherited from a base class names its classes in the base; a class the instance's own
  // class redeclares (`redeclare model extends M`, `redeclare model M = B` as an element)
  // replaces the base's class of that name for it too: in the instance's class and the classes
  // enclosing it, up to one that encloses the code's own scope (IdealGas.BaseProperties sees
  // IdealGas.ThermodynamicState, which IdealGas redeclares).
  if (lexical == inst.cls)
    return nullptr;
  std::set<const ClassInfo *> shared;
  for (const ClassInfo *c = lexical; c; c = c->parent)
    shared.insert(c);
  for (const ClassInfo *c = inst.cls; c && !shared.count(c); c = c->parent) {
    // The instance's class: its own classes and those it inherits (a medium package inherits
    // PartialTwoPhaseMedium's `redeclare record FluidConstants = TwoPhase.FluidConstants`).
    ClassInfo *found = nullptr;
    if (c == inst.cls) {
      found = member(c, name);
    } else if (auto it = c->nested.find(name); it != c->nested.end()) {
      found = it->second;
    }
    if (!found)
      continue;
    // Redeclared there; or, for a package's constants, inherited there from a base (rebased):
    // code of the base that names it gets it as a member of the package, whose own names it then
    // sees (PartialMedium's `h_default = specificEnthalpy_pTX(...)` in a medium: its body's
    // setState_pTX is the medium's). (A model's rebased classes would look names up around the
    // model's class before where they are written: StateGraph's CompositeStepState.OuterState
    // names `Interfaces.CompositeStepStatePort_in`, which a model in Modelica.Fluid would find
    // as Fluid.Interfaces.)
    const ast::ClassDef &def = *found->def;
    return def.extendsClass || def.element.redeclare ||
                   (inst.package && found->writtenIn && found->parent == c)
               ? found
               : nullptr;
  }
  return nullptr;
}

ClassInfo *Flattener::modifierRedeclaredClass(const Mod &m, Instance **scope) {
  ClassInfo *declared = modifierClass(*m.redeclare, m.redeclareLexical);
  if (scope && m.redeclareScope)
    *scope = m.redeclareScope;
  const ast::ClassDef &def = *m.redeclare->redeclareClass;
  const std::string &base = def.shortBase.typeName;
  if (!m.redeclareScope || !def.isShort || def.isEnumeration || !def.shortModifiers.empty() ||
      !def.shortBase.typeDims.empty() || base.empty() || base[0] == '.' || redeclarationDepth_ > 50)
    return declared;
  const size_t dot = base.find('.');
  ++redeclarationDepth_;
  Instance *seenScope = m.redeclareScope;
  ClassInfo *seen =
      instanceRedeclaration(*m.redeclareScope, m.redeclareLexical, base.substr(0, dot), &seenScope);
  --redeclarationDepth_;
  if (!seen)
    return declared;
  if (scope)
    *scope = seenScope;
  return dot == std::string::npos ? seen : memberPath(seen, base.substr(dot + 1));
}

ClassInfo *Flattener::redeclaredClass(const Instance &inst, const Element &el, const std::string &name,
                                      Instance **scope) {
  const size_t dot = name.find('.');
  const std::string first = name.substr(0, dot);
  auto within = [&](ClassInfo *c) { return c && dot != std::string::npos ? memberPath(c, name.substr(dot + 1)) : c; };
  // The extends clauses the element comes through first (its own path of modifications).
  if (member(el.lexical, first) && !(inst.mod && inst.mod->child(first)))
    for (const ModSource &src : el.extendsMods)
      for (const ast::Modifier &m : *src.mods)
        if (m.redeclare && m.redeclareClass && m.name == first)
          return within(modifierClass(m, src.lexical));
  return within(instanceRedeclaration(inst, el.lexical, first, scope));
}

ClassInfo *Flattener::scopedClass(const std::string &dotted, const Scope &scope) {
  if (scope.inst && !dotted.empty() && dotted[0] != '.') {
    const size_t dot = dotted.find('.');
    if (ClassInfo *c = instanceRedeclaration(*scope.inst, scope.lexical, dotted.substr(0, dot)))
      return dot == std::string::npos ? c : memberPath(c, dotted.substr(dot + 1));
  }
  return findClass(dotted, scope.lexical);
}

std::pair<const ast::Modifier *, const ClassInfo *> Flattener::redeclaration(Instance &inst, const Element &el) {
  const std::string &name = el.comp->name;
  if (ModPtr outside = inst.mod ? inst.mod->child(name) : nullptr; outside && outside->redeclare)
    return {outside->redeclare, outside->redeclareLexical};
  for (const ModSource &src : el.extendsMods)
    for (const ast::Modifier &m : *src.mods)
      if (m.redeclare && m.name == name)
        return {&m, src.lexical};
  return {nullptr, nullptr};
}

bool Flattener::redeclarable(const ast::Modifier &redeclared, const Element &el) {
  const ast::Component &c = *el.comp;
  if (redeclared.redeclareClass) {
    diags_.error(redeclared.range, "'" + c.name + "' is a component, not a class: redeclare it with 'redeclare Type " +
                                       c.name + "(...)' (MLS 3.5, 7.3)");
    return false;
  }
  if (!el.decl->element.replaceable) {
    diags_.error(redeclared.range, "'" + c.name + "' is not replaceable, so it cannot be redeclared (MLS 3.5, 7.3)");
    diags_.note(c.range, "'" + c.name + "' is declared here without 'replaceable'");
    return false;
  }
  return true;
}

Symbol &Flattener::symbol(Instance &inst, int index) {
  Symbol &sym = inst.symbols[index];
  if (sym.outer)
    return *sym.outer;
  if (sym.state == Symbol::Done)
    return sym;
  const Element &el = inst.cls->elements[index];
  const ast::Declaration &d = *el.decl;
  const ast::Component &c = *el.comp;
  // The variability of a record's fields follows the record component's prefix.
  const ast::Prefix prefix = d.prefix != ast::Prefix::None ? d.prefix : inst.prefix;
  if (sym.state == Symbol::Visiting)
    return sym; // a cycle: the reference that closes it reports it (LowerExpr.cpp)
  if (d.element.outer) { // its own symbol stays empty: nothing is counted twice
    sym.state = Symbol::Done;
    sym.outer = innerSymbol(inst, el);
    return sym.outer ? *sym.outer : sym;
  }
  sym.state = Symbol::Visiting;
  if (c.condition) {
    std::optional<bool> exists = componentExists(inst, el);
    if (!exists || !*exists) {
      sym.disabled = exists.has_value();
      sym.state = Symbol::Done;
      return sym;
    }
  }
  const std::string path = inst.path.empty() || inst.package ? (inst.package ? inst.path + "." : "") + c.name
                                                             : inst.path + "." + c.name;
  // The type: a primitive, possibly through short classes (`type Voltage = Real(unit = "V")`,
  // `connector RealInput = input Real`), or a class of components.
  Type prim = Type::Real;
  bool primitive = false;
  const ClassInfo *cls = nullptr;
  std::vector<const std::vector<ast::Subscript> *> typeDims{&c.dims, &d.typeDims};
  std::vector<const ClassInfo *> typeDimsScope{el.lexical, el.lexical};
  bool flow = d.flow || inst.flow; // a flow record's fields are flows (MLS 3.5, 9.3.1: `flow Complex i`)
  if (d.stream && inst.cls->kind() != ast::ClassKind::Connector) {
    diags_.error(c.range, "'" + path +
                              "' is declared 'stream' outside a connector (MLS 3.5, 15.1: only a connector's "
                              "variables are stream variables)");
    sym.state = Symbol::Done;
    return sym;
  }
  // MLS 3.5, 7.3: a redeclaration gives the element another type; its own modifiers replace
  // those of the declaration, over the constraining type's (below).
  auto [redeclared, redeclaredLexical] = redeclaration(inst, el);
  if (redeclared && !redeclarable(*redeclared, el)) {
    sym.state = Symbol::Done;
    return sym;
  }
  {
    std::string name = redeclared ? redeclared->redeclareType : d.typeName;
    const ClassInfo *from = redeclared ? redeclaredLexical : el.lexical;
    Instance *typeScope = nullptr; // (the instance whose code wrote a redeclared class)
    for (int hops = 0;; ++hops) {
      if (isPrimitive(name, prim)) {
        primitive = true;
        break;
      }
      ClassInfo *found = hops == 0 && !redeclared ? redeclaredClass(inst, el, name, &typeScope) : nullptr;
      if (!found)
        found = findClass(name, from);
      if (!found || hops > 50) {
        std::string hint = suggestClass(name, from);
        diags_.error(d.typeRange, "unknown type '" + name + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
        sym.state = Symbol::Done;
        return sym;
      }
      if (found->def->isEnumeration) { // Integer-valued: literal k is k (MLS 3.5, 4.8.5)
        if (found->def->openEnumeration) {
          diags_.error(d.typeRange, "'" + name + "' is enumeration(:), whose literals only a redeclaration gives");
          sym.state = Symbol::Done;
          return sym;
        }
        primitive = true;
        prim = Type::Integer;
        sym.enumeration = found;
        break;
      }
      if (ClassInfo *object = externalObjectClass(name, from)) { // MLS 3.5, 12.9.7
        primitive = true;
        prim = Type::Real;
        sym.object = object;
        break;
      }
      if (found->def->isShort) {
        if (found->kind() == ast::ClassKind::Connector)
          sym.connector = true;
        if (!sym.cls)
          sym.cls = found;
        sym.typeMods.insert(sym.typeMods.end(), found->classMods.begin(), found->classMods.end());
        sym.typeMods.push_back(ModSource{&found->def->shortModifiers, found->parent, typeScope});
        flow = flow || found->def->shortBase.flow;
        typeDims.push_back(&found->def->shortBase.typeDims);
        typeDimsScope.push_back(found->parent);
        name = found->def->shortBase.typeName;
        from = found->parent;
        continue;
      }
      if (found->kind() == ast::ClassKind::Type && found->def->extends.size() == 1) {
        // A type in long form, `type TypeString extends String; end TypeString;` (MLS 3.5, 4.8):
        // its base type with the extends clause's modifiers.
        if (!sym.cls)
          sym.cls = found;
        const ast::Extends &base = found->def->extends[0];
        sym.typeMods.push_back(ModSource{&base.modifiers, found});
        name = base.base;
        from = found;
        continue;
      }
      cls = found;
      break;
    }
  }
  sym.flow = flow;
  sym.stream = d.stream;
  if (d.stream && (cls || prim != Type::Real || flow)) {
    diags_.error(c.range, "stream variable '" + path + "' must be a Real variable, not " +
                              (flow  ? std::string("also a flow")
                               : cls ? "a '" + cls->name + "'"
                                     : std::string("a ") + typeName(prim)) +
                              " (MLS 3.5, 15.1)");
    sym.state = Symbol::Done;
    return sym;
  }
  if (cls) {
    switch (cls->kind()) {
    case ast::ClassKind::Function:
    case ast::ClassKind::Package:
    case ast::ClassKind::Operator:
      diags_.error(d.typeRange, std::string("'") + d.typeName + "' is a " + ast::kindName(cls->kind()) +
                                    " and cannot be the type of a component");
      sym.state = Symbol::Done;
      return sym;
    default:
      break;
    }
    if (cls->def->partial && !inst.package) {
      diags_.error(d.typeRange, "'" + c.name + "' is of the partial class '" + cls->name +
                                    "', which cannot be instantiated (MLS 3.5, 4.5): extend it, or redeclare the "
                                    "component with a complete class");
      sym.state = Symbol::Done;
      return sym;
    }
    sym.cls = cls;
    // (`connector ComplexOutput = output Complex`: a connector of a record class)
    sym.connector = sym.connector || cls->kind() == ast::ClassKind::Connector;
  }
  const bool constantRecord = !primitive && cls && cls->kind() == ast::ClassKind::Record && prefix == ast::Prefix::Constant;
  if (inst.package && !((primitive || constantRecord) && prefix == ast::Prefix::Constant)) {
    // Packages only provide constants (and classes); their other elements are never instantiated.
    sym.state = Symbol::Done;
    return sym;
  }

  // The modification: from outside, then extends clauses, then the declaration, then short types.
  ModPtr mod = inst.mod ? inst.mod->child(c.name) : nullptr;
  for (const ModSource &src : el.extendsMods) {
    std::vector<ast::Modifier> none;
    ModPtr ext = nullptr;
    for (const ast::Modifier &m : *src.mods)
      if (m.name == c.name || m.name.compare(0, c.name.size() + 1, c.name + ".") == 0) {
        auto wrapper = std::make_shared<Mod>();
        addModifier(*this, *wrapper, m, m.name, &inst, src.lexical);
        ext = merge(ext, wrapper->child(c.name));
      }
    mod = merge(mod, ext);
  }
  {
    // MLS 3.5, 7.3.2: a redeclared element keeps the modifiers of the constraining type (the
    // constrainedby clause's, or without one the declaration's), under the redeclaration's own.
    auto own = std::make_shared<Mod>();
    const bool constrained = !d.element.constrainedBy.empty();
    for (const ast::Modifier &m : redeclared && constrained ? d.element.constrainedByModifiers : c.modifiers)
      addModifier(*this, *own, m, m.name, &inst, el.lexical);
    if (c.binding && !redeclared) {
      own->expr = c.binding.get();
      own->scope = &inst;
      own->lexical = el.lexical;
      own->range = c.binding->range;
      own->final = d.final;
      own->lowered = std::make_shared<Mod::Cache>();
    }
    mod = merge(mod, own);
    if (constrained && !redeclared) { // the constraining clause's modifiers hold for the declaration too
      auto constraining = std::make_shared<Mod>();
      for (const ast::Modifier &m : d.element.constrainedByModifiers)
        addModifier(*this, *constraining, m, m.name, &inst, el.lexical);
      mod = merge(mod, constraining);
    }
  }
  for (const ModSource &src : sym.typeMods)
    mod = merge(mod, modFromAst(*src.mods, src.scope ? src.scope : &inst, src.lexical));
  sym.mod = mod;

  // Array dimensions; `:` takes its size from the binding.
  std::vector<int> dims;
  for (size_t k = 0; k < typeDims.size(); ++k) {
    Scope scope;
    scope.inst = &inst;
    scope.lexical = typeDimsScope[k];
    scope.context = Context::Parameter;
    auto part = dimensions(*typeDims[k], scope, "'" + path + "'");
    if (!part) {
      sym.state = Symbol::Done;
      return sym;
    }
    dims.insert(dims.end(), part->begin(), part->end());
  }
  if (std::find(dims.begin(), dims.end(), -1) != dims.end()) {
    // (a record array's value too: `constant DataRecord[:] data = {N2, O2}`, MSL's gas mixtures)
    if ((!primitive && cls->kind() != ast::ClassKind::Record) || !mod || !mod->hasValue()) {
      diags_.error(c.range, "the size of '" + path + "' is not given: write it, or give a value it can be taken from");
      sym.state = Symbol::Done;
      return sym;
    }
    stringContext_ += prim == Type::String;
    Value v = modValue(*mod, prefix == ast::Prefix::None ? Context::Equation : Context::Parameter);
    stringContext_ -= prim == Type::String;
    if (!v.ok) {
      sym.state = Symbol::Done;
      return sym;
    }
    if (v.dims.size() != dims.size()) {
      diags_.error(mod->range, "'" + path + "' has " + std::to_string(dims.size()) + " dimension(s) but its value is " +
                                   shapeText(v.dims));
      sym.state = Symbol::Done;
      return sym;
    }
    for (size_t k = 0; k < dims.size(); ++k)
      if (dims[k] < 0)
        dims[k] = v.dims[k];
  }
  sym.dims = dims;
  const size_t count = product(dims);
  if (!reserveScalars(count, c.range)) {
    sym.state = Symbol::Done;
    return sym;
  }

  if (!primitive) {
    // Components: one instance per array element, each with its slice of the modification.
    for (Instance *a = &inst; a; a = a->parent)
      if (a->cls == cls) {
        diags_.error(c.range, "recursive component: '" + path + "' is a '" + cls->name + "', which contains it");
        sym.state = Symbol::Done;
        return sym;
      }
    if (cls->kind() == ast::ClassKind::Type) {
      diags_.error(d.typeRange, "'" + cls->name + "' is a type without a base type");
      sym.state = Symbol::Done;
      return sym;
    }
    // A record or an array of records may have a value (MLS 3.5, 12.6); each element of an
    // array gets its slice of it.
    const bool recordValue = mod && mod->hasValue() && cls->kind() == ast::ClassKind::Record;
    if (mod && mod->hasValue() && !recordValue)
      diags_.error(mod->range, "'" + path + "' is a component of class '" + cls->name +
                                   "' and cannot have a value; modify its elements instead");
    sym.kind = Symbol::Component;
    for (size_t k = 0; k < count; ++k) {
      auto child = std::make_unique<Instance>();
      child->cls = cls;
      child->parent = &inst;
      child->path = variableName(path, dims, k);
      child->mod = dims.empty() ? mod : slice(mod, static_cast<int>(k), dims);
      if (recordValue && constantRecord) {
        // A constant record (`constant Complex j = Complex(0, 1)`, MLS 3.5, 4.4.2.1): its fields
        // are constants, each given its part of the value.
        child->mod = constantRecordMod(child->mod, *cls);
        if (!child->mod) {
          sym.state = Symbol::Done;
          return sym;
        }
      }
      child->declared = c.range;
      if (cls->kind() == ast::ClassKind::Record) {
        child->prefix = prefix;
        child->flow = flow;
      }
      child->origin = static_cast<int>(sys_.origins.size());
      sys_.origins.push_back(child->path);
      Instance *raw = child.get();
      sym.instances.push_back(std::move(child));
      instances_.push_back(raw);
      if (cls->def->expandable) {
        // MLS 3.5, 9.1.3: the declared elements of an expandable connector are only potentially
        // present; connect() and references make them present (completeExpandableConnectors).
        raw->expandable = true;
        resolveClass(const_cast<ClassInfo &>(*cls));
        raw->symbols.resize(cls->elements.size());
        continue;
      }
      if (sym.connector)
        connectors_.push_back(raw);
      instantiateElements(*raw);
      if (cls->kind() == ast::ClassKind::Connector && balanceChecked_.insert(cls).second)
        checkConnectorBalance(*raw, d.typeRange);
      if (recordValue && !constantRecord) // `Point p = Point(1, 2)` (MLS 3.5, 12.6)
        bindRecord(inst, *raw, raw->mod, prefix == ast::Prefix::Parameter || prefix == ast::Prefix::Constant);
    }
    sym.state = Symbol::Done;
    return sym;
  }

  sym.type = prim;
  if (sym.object && (prefix != ast::Prefix::Parameter || d.causality != ast::Causality::None || flow)) {
    diags_.error(c.range, "'" + path + "' is an external object of class '" + sym.object->name +
                              "': declare it a parameter, bound to a call of its class (MLS 3.5, 12.9.7)");
    sym.state = Symbol::Done;
    return sym;
  }
  const bool knownString =
      prim == Type::String && (prefix == ast::Prefix::Parameter || prefix == ast::Prefix::Constant);
  if (prim == Type::String && !dims.empty() && !knownString) {
    sym.state = Symbol::Done;
    diags_.error(
        c.range,
        "arrays of String variables are not supported (arrays of String parameters and constants are)");
    return sym;
  }
  if (knownString) {
    // String parameters and constants are values known at compilation (MLS 3.5, 3.7.1 and
    // 4.8.4): messages, conditions and modifications read them; the default is "". An array's
    // elements are literals' calls (computedString). String variables are discrete-time
    // variables (3.8.3) below.
    sym.state = Symbol::Done;
    Value v;
    v.ok = true;
    v.type = Type::String;
    v.dims = dims;
    v.elems.assign(product(dims), dims.empty() ? ctx().zero() : computedString(v).elems[0]);
    if (mod && mod->hasValue()) {
      ++stringContext_;
      v = modValue(*mod, Context::Parameter);
      --stringContext_;
      if (!v.ok)
        return sym;
      if (v.type != Type::String) {
        diags_.error(mod->range, "'" + path + "' is a String but its value is a " + typeName(v.type));
        return sym;
      }
      if (v.dims != dims) {
        diags_.error(mod->range,
                     "'" + path + "' is " + shapeText(dims) + " but its value is " + shapeText(v.dims));
        return sym;
      }
    }
    sym.kind = Symbol::Constant;
    sym.value = v;
    return sym;
  }
  if (prefix == ast::Prefix::Constant) {
    if (!mod || !mod->hasValue()) {
      diags_.error(c.range, "constant '" + path + "' has no value");
      sym.state = Symbol::Done;
      return sym;
    }
    Value v = modValue(*mod, Context::Parameter);
    if (v.ok) {
      for (const Expr *&e : v.elems) {
        if (e->isConst() || e->kind() == ExprKind::BoolConst)
          continue;
        // Function calls of constants (`pi = 2*Modelica.Math.asin(1.0)`) are evaluated here.
        if (collectAllVars(e).empty()) {
          std::optional<double> r = evaluateStructural(e, mod->range, "the value of constant '" + path + "'");
          if (r) {
            e = e->isBool() ? ctx().boolean(*r != 0) : ctx().constant(*r);
            continue;
          }
        } else {
          diags_.error(mod->range, "the value of constant '" + path +
                                       "' must be computable at compile time (literals, constants and functions of them)");
        }
        v.ok = false;
        break;
      }
    }
    if (v.ok && v.dims != dims && !(v.isScalar() && dims.empty())) {
      diags_.error(mod->range, "constant '" + path + "' is " + shapeText(dims) + " but its value is " + shapeText(v.dims));
      v.ok = false;
    }
    if (v.ok && (prim == Type::Boolean) != (v.type == Type::Boolean)) {
      diags_.error(mod->range, "constant '" + path + "' is " + typeName(prim) + " but its value is " + typeName(v.type));
      v.ok = false;
    }
    if (v.ok) {
      sym.kind = Symbol::Constant;
      v.type = prim == Type::Integer && v.type == Type::Integer ? Type::Integer : prim;
      if (sym.enumeration) // a constant of an enumeration type: its values are of that type (4.8.5)
        v.enumeration = sym.enumeration;
      sym.value = v;
    }
    sym.state = Symbol::Done;
    return sym;
  }

  // A top-level input of the simulated model is given by the caller (Modelica 3.5, 4.4.2.2);
  // inputs of components are ordinary unknowns, determined by connections.
  const bool topInput = d.causality == ast::Causality::Input && !inst.parent && !inst.package &&
                        prefix != ast::Prefix::Parameter;
  if (topInput && (prim != Type::Real || prefix == ast::Prefix::Discrete)) {
    diags_.error(c.range, "input '" + path + "': eqc takes continuous Real inputs only (this one is " +
                              (prefix == ast::Prefix::Discrete ? std::string("discrete") : typeName(prim)) + ")");
    sym.state = Symbol::Done;
    return sym;
  }
  VarRole role = prefix == ast::Prefix::Parameter                           ? VarRole::Parameter
                 : topInput                                                   ? VarRole::Input
                 : prefix == ast::Prefix::Discrete || prim != Type::Real ? VarRole::Discrete
                                                                              : VarRole::Unknown;
  sym.kind = Symbol::Variable;
  sym.role = role;
  sym.firstVar = static_cast<int>(sys_.vars.size());
  for (size_t k = 0; k < count; ++k) {
    Variable v;
    v.name = variableName(path, dims, k);
    v.role = role;
    v.type = valueType(prim);
    v.loc = c.range;
    v.description = c.description;
    v.output = d.causality == ast::Causality::Output && !inst.parent && !inst.package;
    v.object = sym.object != nullptr;
    sys_.vars.push_back(std::move(v));
  }
  growPerVariable();
  if (sym.object)
    for (size_t k = 0; k < count; ++k)
      objectClass_[sym.firstVar + static_cast<int>(k)] = sym.object;
  for (size_t k = 0; k < count; ++k) {
    bindings_[sym.firstVar + k] = PendingBinding{mod && mod->hasValue() ? mod : nullptr, k, PendingBinding::None, dims};
    evaluateAnnotated_[sym.firstVar + k] = role == VarRole::Parameter && c.evaluate;
  }
  if (role == VarRole::Unknown)
    inst.unknowns += count;
  if (sym.stream)
    for (size_t k = 0; k < count; ++k)
      streamConnector_[sym.firstVar + static_cast<int>(k)] = &inst;
  if (sym.connector && !cls) {
    for (size_t k = 0; k < count; ++k)
      primitiveConnectors_.push_back(sym.firstVar + static_cast<int>(k));
  }
  sym.state = Symbol::Done;
  return sym;
}

std::optional<std::vector<std::string>> Flattener::knownTexts(const Mod &m, const std::string &attribute,
                                                              size_t count) {
  if (m.expr->kind == ast::ExprKind::String)
    return std::vector<std::string>(count, m.expr->text);
  // Strings known when the model is compiled (MSL's media: quantity = "MassFlowRate." + mediumName),
  // one for every element or one each (`X(quantity = Medium.substanceNames)`).
  ++stringContext_;
  Value text = modValue(m, Context::Parameter);
  --stringContext_;
  if (text.ok && text.type == Type::String && text.isScalar() && !text.computedText())
    return std::vector<std::string>(count, text.text);
  if (text.ok && text.type == Type::String && text.size() == count) {
    std::vector<std::string> texts;
    for (const Expr *e : text.elems)
      if (Value element = stringOfElement(e); !element.computedText())
        texts.push_back(element.text);
    if (texts.size() == count)
      return texts;
  }
  if (text.ok)
    diags_.error(m.range,
                 "attribute '" + attribute + "' must be a String known when the model is compiled" +
                     (count > 1 ? " (or one for each of the " + std::to_string(count) + " elements)" : ""));
  return std::nullopt;
}

void Flattener::bindStringVariable(Instance &inst, const Symbol &sym, const Value &v) {
  const SourceRange at = sym.mod->range;
  const std::string &name = sys_.vars[sym.firstVar].name;
  if (v.type != Type::String || !v.isScalar()) {
    diags_.error(at, "'" + name + "' is a String but its value is a " + typeName(v.type));
    return;
  }
  const Expr *handle = stringHandle(v);
  if (continuouslyDependent(handle)) {
    diags_.error(at, "'" + name +
                         "' is a String variable, which changes only at events (MLS 3.5, 3.8.3), but its "
                         "value changes continuously: give it its value in a when-clause");
    return;
  }
  sys_.discreteEquations.push_back(
      DiscreteEquation{sym.firstVar, handle, at, ++equationNumber_, inst.origin});
  ++inst.equations;
}

const Expr *Flattener::parameterBinding(int var) {
  // Lowering the value may instantiate more elements (new variables): the tables are indexed
  // afresh after it, never held by reference across it.
  if (bindings_[var].state == PendingBinding::Done) // after an error in the value, 0 (reported)
    return sys_.vars[var].binding ? sys_.vars[var].binding : ctx().zero();
  if (bindings_[var].state == PendingBinding::Lowering) {
    diags_.error(sys_.vars[var].loc, "parameter '" + sys_.vars[var].name + "' depends on itself");
    return ctx().zero();
  }
  bindings_[var].state = PendingBinding::Lowering;
  const ModPtr mod = bindings_[var].mod;
  const size_t element = bindings_[var].element;
  const std::vector<int> dims = bindings_[var].dims;
  const Expr *value = nullptr;
  const auto object = objectClass_.find(var);
  if (object != objectClass_.end())
    return objectBinding(var, object->second);
  if (mod) {
    Value scratch; // the cached value is not copied per element of an array parameter
    const Value &val = modValueRef(*mod, Context::Parameter, scratch);
    const Variable &v = sys_.vars[var];
    if (val.ok && val.object) {
      diags_.error(mod->range, "parameter '" + v.name + "' is not an external object, but its value is one of class '" +
                                   val.object->name + "'");
    } else if (val.ok) {
      bool wantBool = v.type == ValueType::Boolean;
      // A record's value holds fields of each type: the field's own element says.
      const bool isBool = val.record && element < val.size() ? val.elems[element]->isBool() : val.type == Type::Boolean;
      if (isBool != wantBool) {
        diags_.error(mod->range, "parameter '" + v.name + "' is " +
                                     (wantBool ? "Boolean" : v.type == ValueType::Integer ? "Integer" : "Real") +
                                     " but its value is " + typeName(val.type));
      } else if (v.type == ValueType::Integer && val.type != Type::Integer && !val.record &&
                 !(val.size() && val.elems[0]->isConst() && val.elems[0]->value() == std::floor(val.elems[0]->value()))) {
        diags_.error(mod->range, "Integer parameter '" + v.name + "' has a non-integer value");
      } else if (val.dims == dims && element < val.size()) { // the variable's shape: a scalar fits a scalar
        value = val.elems[element];
      } else if (element == 0) {
        diags_.error(mod->range, "parameter '" + v.name.substr(0, v.name.find('[')) + "' is " + shapeText(dims) +
                                     " but its value is " + shapeText(val.dims));
      }
    }
  }
  bindings_[var].state = PendingBinding::Done;
  Variable &v = sys_.vars[var];
  if (value)
    v.binding = value;
  return v.binding ? v.binding : ctx().zero();
}

const Expr *Flattener::objectBinding(int var, const ClassInfo *cls) {
  // MLS 3.5, 12.9.7: an external object is made by a call of its class (its constructor) in its
  // declaration, once per run, and freed by its destructor: the binding is that call, nothing else.
  const ModPtr mod = bindings_[var].mod;
  const size_t element = bindings_[var].element;
  const std::vector<int> dims = bindings_[var].dims;
  const std::string name = sys_.vars[var].name;
  const SourceRange declared = sys_.vars[var].loc;
  const Expr *value = nullptr;
  if (!mod) {
    diags_.error(declared, "external object '" + name + "' has no value: bind it to a call of '" + cls->name +
                               "' (MLS 3.5, 12.9.7)");
  } else if (mod->expr->kind != ast::ExprKind::Call || !dims.empty()) {
    diags_.error(mod->range, "the value of external object '" + name + "' must be a call of '" + cls->name +
                                 "' (its constructor; MLS 3.5, 12.9.7)");
  } else {
    const ast::Expr *saved = constructorCall_;
    constructorCall_ = mod->expr;
    Value scratch;
    const Value &val = modValueRef(*mod, Context::Parameter, scratch);
    constructorCall_ = saved;
    if (val.ok && val.object != cls)
      diags_.error(mod->range, "the value of external object '" + name + "' must be a call of '" + cls->name +
                                   "' (its constructor; MLS 3.5, 12.9.7)");
    else if (val.ok && element < val.size())
      value = val.elems[element];
  }
  bindings_[var].state = PendingBinding::Done;
  if (!value)
    return ctx().zero();
  // The destructor, called with the object when the run ends (or before it is made again).
  Value self = Value::scalar(ctx().var(var), Type::Real);
  self.object = cls;
  std::vector<OutputShape> outputs;
  ClassInfo *destructor = cls->nested.at("destructor");
  int id = resolveClass(*destructor) ? specializeFunction(destructor, {self}, mod->range, outputs) : -1;
  if (id < 0)
    return ctx().zero();
  sys_.vars[var].binding = value;
  sys_.vars[var].destructor = id;
  return value;
}

std::optional<double> Flattener::structural(const Value &v, SourceRange range, const std::string &what) {
  if (!v.ok || v.size() != 1)
    return std::nullopt;
  return evaluateStructural(v.elems[0], range, what);
}

void Flattener::growPerVariable() {
  bindings_.resize(sys_.vars.size());
  evaluateAnnotated_.resize(sys_.vars.size(), 0);
  structuralValue_.resize(sys_.vars.size(), NAN);
  structuralState_.resize(sys_.vars.size(), 0);
}

std::optional<double> Flattener::evaluateStructural(const Expr *e, SourceRange range, const std::string &what) {
  if (e->isConst())
    return e->value();
  growPerVariable();
  bool ok = true;
  std::unordered_map<const Expr *, double> memo;
  std::function<double(const Expr *)> eval = [&](const Expr *n) -> double {
    if (!ok)
      return 0;
    auto it = memo.find(n);
    if (it != memo.end())
      return it->second;
    double r = 0;
    auto op = [&](size_t i) { return eval(n->op(i)); };
    switch (n->kind()) {
    case ExprKind::Const: r = n->value(); break;
    case ExprKind::BoolConst: r = n->boolValue(); break;
    case ExprKind::Var: {
      int v = n->var();
      Variable &var = sys_.vars[v];
      if (var.role != VarRole::Parameter) {
        diags_.error(range, "'" + var.name + "' varies in time, but " + what + " must be known when the model is compiled");
        ok = false;
        break;
      }
      var.structural = true;
      if (structuralState_[v] == 2) {
        r = structuralValue_[v];
        break;
      }
      if (structuralState_[v] == 1) {
        diags_.error(var.loc, "parameter '" + var.name + "' depends on itself");
        ok = false;
        break;
      }
      structuralState_[v] = 1;
      const Expr *binding = parameterBinding(v); // may add variables: `var` is not used after it
      if (!bindings_[v].mod && !sys_.vars[v].binding) {
        diags_.error(sys_.vars[v].loc, "parameter '" + sys_.vars[v].name + "' has no value, but " + what + " needs it");
        ok = false;
        structuralState_[v] = 2;
        break;
      }
      r = eval(binding);
      structuralValue_[v] = r;
      structuralState_[v] = 2;
      break;
    }
    case ExprKind::Time:
      diags_.error(range, what + " must be known when the model is compiled, not depend on 'time'");
      ok = false;
      break;
    case ExprKind::Add:
      for (size_t i = 0; i < n->numOps(); ++i)
        r += op(i);
      break;
    case ExprKind::Mul:
      r = 1;
      for (size_t i = 0; i < n->numOps(); ++i)
        r *= op(i);
      break;
    case ExprKind::Pow: r = std::pow(op(0), op(1)); break;
    case ExprKind::Call: {
      double a[2] = {op(0), n->numOps() > 1 ? op(1) : 0};
      r = evalBuiltin(n->builtin(), a);
      break;
    }
    case ExprKind::If: r = op(0) != 0 ? op(1) : op(2); break;
    case ExprKind::Lt: r = op(0) < op(1); break;
    case ExprKind::Le: r = op(0) <= op(1); break;
    case ExprKind::Eq: r = op(0) == op(1); break;
    case ExprKind::Ne: r = op(0) != op(1); break;
    case ExprKind::And: r = op(0) != 0 && op(1) != 0; break;
    case ExprKind::Or: r = op(0) != 0 || op(1) != 0; break;
    case ExprKind::Not: r = op(0) == 0; break;
    case ExprKind::NoEvent: r = op(0); break;
    case ExprKind::FnCall: {
      std::vector<double> args;
      for (size_t i = 0; i < n->numOps(); ++i)
        args.push_back(op(i));
      std::string error;
      std::vector<double> out = callFunction(n->callee(), args, error);
      if (!error.empty()) {
        diags_.error(range, error);
        ok = false;
        break;
      }
      r = out[n->fnOutput()];
      break;
    }
    case ExprKind::Pre:
    case ExprKind::Initial:
    case ExprKind::Delay:
    case ExprKind::Once:
    case ExprKind::Local:
    case ExprKind::LocalAt:
      diags_.error(range, what + " must be known when the model is compiled");
      ok = false;
      break;
    }
    memo.emplace(n, r);
    return r;
  };
  double value = eval(e);
  if (!ok)
    return std::nullopt;
  return value;
}

void Flattener::lowerVariableAttributes(Instance &inst, int index, bool bindings) {
  Symbol &sym = inst.symbols[index];
  if (sym.kind != Symbol::Variable)
    return;
  const size_t count = product(sym.dims);
  if (count == 0)
    return; // an empty array has no variables to give attributes (found by fuzzing: n = 0)
  const Element &el = inst.cls->elements[index];
  const std::string base = sys_.vars[sym.firstVar].name.substr(0, sys_.vars[sym.firstVar].name.find('['));
  const VarRole role = sym.role;
  auto each = [&](const std::function<void(Variable &, size_t)> &f) {
    for (size_t k = 0; k < count; ++k)
      f(sys_.vars[sym.firstVar + k], k);
  };
  // Attribute values: one per element, or one for all.
  auto perElement = [&](const Mod &m, Value &v, const char *attr) -> bool {
    v = modValue(m, Context::Start); // one copy per variable array, not per element
    if (!v.ok)
      return false;
    if (!v.isScalar() && v.dims != sym.dims) {
      diags_.error(m.range, std::string("attribute '") + attr + "' of '" + base + "' is " + shapeText(v.dims) +
                                " but '" + base + "' is " + shapeText(sym.dims));
      return false;
    }
    return true;
  };
  auto pick = [](const Value &v, size_t k) { return v.isScalar() ? v.elems[0] : v.elems[k]; };
  std::vector<char> computedAtStart(count, 0); // parameters with fixed = false (MLS 3.5, 8.6)
  if (sym.enumeration && !bindings && role != VarRole::Parameter) // the start defaults to the first literal (4.8.5.2)
    each([&](Variable &var, size_t) {
      if (!var.binding) {
        var.binding = ctx().one();
        var.hasStart = true;
      }
    });
  if (sym.mod && !bindings) {
    for (const auto &entry : sym.mod->children) {
      const std::string &name = entry.first; // not a structured binding: lambdas below capture it
      const Mod &m = *entry.second;
      if (!m.children.empty())
        diags_.error(m.range, "attribute '" + name + "' of '" + base + "' cannot be modified further");
      if (!m.hasValue()) {
        diags_.error(m.range, "attribute '" + name + "' needs a value");
        continue;
      }
      Value v;
      if (sym.type == Type::String && name == "start") { // a String variable's text at the start
        ++stringContext_;
        const bool ok = perElement(m, v, "start");
        --stringContext_;
        if (!ok)
          continue;
        if (v.type != Type::String) {
          diags_.error(m.expr->range, "attribute 'start' of String '" + base + "' must be a String");
          continue;
        }
        each([&](Variable &var, size_t) {
          var.binding = stringHandle(v);
          var.hasStart = true;
        });
      } else if (sym.type == Type::String && name != "fixed") {
        diags_.error(m.range,
                     "a String has the attributes start and fixed, not '" + name + "' (MLS 3.5, 4.8.4)");
      } else if (name == "start" || name == "nominal" || name == "min" || name == "max") {
        if (!perElement(m, v, name.c_str()))
          continue;
        bool wantBool = sym.type == Type::Boolean;
        if ((v.type == Type::Boolean) != wantBool) {
          diags_.error(m.expr->range, "attribute '" + name + "' must be a " + (wantBool ? "Boolean" : "Real") + " expression");
          continue;
        }
        each([&](Variable &var, size_t k) {
          const Expr *e = pick(v, k);
          if (name == "start") {
            if (role != VarRole::Parameter) {
              var.binding = e;
              var.hasStart = true;
            } else if (!bindings_[sym.firstVar + k].mod) {
              var.binding = e; // a parameter without a value takes its start value
            }
          } else if (name == "nominal") {
            var.nominal = e;
          } else if (name == "min") {
            var.min = e;
          } else {
            var.max = e;
          }
        });
      } else if (name == "fixed") {
        if (!perElement(m, v, "fixed"))
          continue;
        bool ok = v.type == Type::Boolean;
        for (const Expr *&e : v.elems) // a parameter expression (`fixed = fill(w_0_fixed, 3)`) is evaluated
          if (ok && e->kind() != ExprKind::BoolConst) {
            std::optional<double> value = evaluateStructural(e, m.expr->range, "attribute 'fixed' of '" + base + "'");
            ok = value.has_value();
            if (ok)
              e = ctx().boolean(*value != 0);
          }
        if (!ok) {
          diags_.error(m.expr->range, "attribute 'fixed' must be true or false");
          continue;
        }
        each([&](Variable &var, size_t k) { var.fixed = pick(v, k)->boolValue(); });
        for (size_t k = 0; k < count; ++k)
          computedAtStart[k] = role == VarRole::Parameter && !pick(v, k)->boolValue();
      } else if (name == "unit" || name == "displayUnit" || name == "quantity") {
        std::optional<std::vector<std::string>> value = knownTexts(m, name, count);
        if (value && name == "unit")
          each([&](Variable &var, size_t k) { var.unit = (*value)[k]; });
      } else if (name == "stateSelect") {
        // A value of the builtin enumeration StateSelect (4.8.8.1), maybe through a parameter.
        if (!perElement(m, v, "stateSelect"))
          continue;
        if (!v.enumeration || v.enumeration->name != "StateSelect") {
          diags_.error(m.expr->range, "stateSelect must be one of StateSelect.never, avoid, default, prefer, always");
          continue;
        }
        static const StateSelect kinds[] = {StateSelect::Never, StateSelect::Avoid, StateSelect::Default,
                                            StateSelect::Prefer, StateSelect::Always};
        std::vector<StateSelect> chosen;
        for (size_t k = 0; k < (v.isScalar() ? 1 : count); ++k) {
          std::optional<double> n = evaluateStructural(pick(v, k), m.expr->range, "stateSelect");
          if (!n)
            break;
          chosen.push_back(kinds[std::clamp(static_cast<int>(*n), 1, 5) - 1]);
        }
        if (chosen.size() == (v.isScalar() ? 1 : count))
          each([&](Variable &var, size_t k) { var.stateSelect = chosen[v.isScalar() ? 0 : k]; });
      } else {
        diags_.error(m.range, "unknown attribute '" + name + "' (known: start, fixed, nominal, min, max, "
                              "unit, displayUnit, quantity, stateSelect)");
      }
    }
  }
  if (role == VarRole::Parameter) {
    if (bindings)
      return;
    for (size_t k = 0; k < count; ++k) {
      int v = sym.firstVar + static_cast<int>(k);
      if (bindings_[v].mod) {
        parameterBinding(v);
      } else if (computedAtStart[k]) { // a start value (of the type, say) is only its guess
        initialParameters_.push_back(v); // its initial equation gives its value (initialParameters)
      } else if (!sys_.vars[v].binding) {
        diags_.error(sys_.vars[v].loc, "parameter '" + sys_.vars[v].name + "' has no value; write 'parameter " +
                                           std::string(typeName(sym.type)) + " " + el.comp->name + " = ...;'");
        sys_.vars[v].binding = ctx().zero();
        bindings_[v].state = PendingBinding::Done;
      }
    }
    return;
  }
  // A field of a record that has a value as a whole: that value's equations define it.
  for (const Instance *r = &inst; bindings && r && r->cls->kind() == ast::ClassKind::Record; r = r->parent)
    if (r->boundWhole)
      return;
  // `Real x = e;`: an equation (per element) of the model, in the modification's scope.
  if (bindings && sym.mod && sym.mod->hasValue()) {
    Value scratch;
    stringContext_ += sym.type == Type::String;
    const Value &v = modValueRef(*sym.mod, Context::Equation, scratch);
    stringContext_ -= sym.type == Type::String;
    if (!v.ok)
      return;
    if (sym.type == Type::String) { // `String s = e;`: s's equation, of handles (MLS 3.5, 4.8.4)
      bindStringVariable(inst, sym, v);
      return;
    }
    if (v.dims != sym.dims && !(v.isScalar() && sym.dims.empty())) {
      diags_.error(sym.mod->range, "'" + base + "' is " + shapeText(sym.dims) + " but its value is " + shapeText(v.dims));
      return;
    }
    bool wantBool = sym.type == Type::Boolean;
    if ((v.type == Type::Boolean) != wantBool) {
      diags_.error(sym.mod->range, "'" + base + "' is " + typeName(sym.type) + " but its value is " + typeName(v.type));
      return;
    }
    // The declaration's own binding is located at the name; a modification at its value.
    SourceRange at = sym.mod->expr == el.comp->binding.get() ? el.comp->range : sym.mod->range;
    for (size_t k = 0; k < count; ++k) {
      int var = sym.firstVar + static_cast<int>(k);
      const Expr *target = ctx().var(var, wantBool);
      if (role == VarRole::Discrete) {
        sys_.discreteEquations.push_back(DiscreteEquation{var, v.elems[k], at, ++equationNumber_, inst.origin});
      } else {
        addEquation(target, v.elems[k], at, ++equationNumber_, inst.origin, false);
      }
      ++inst.equations;
    }
  }
}

} // namespace eqc::frontend

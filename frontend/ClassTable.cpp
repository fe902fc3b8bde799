// The classes of the source files: registration, lookup of dotted names (nested classes,
// imports, enclosing classes, the top level), and extends clauses resolved into element lists.
#include "frontend/FlattenImpl.h"

#include "frontend/AstDump.h"

#include <algorithm>

namespace eqc::frontend {

std::vector<ast::Subscript> cloneSubscripts(const std::vector<ast::Subscript> &subs) {
  std::vector<ast::Subscript> out;
  for (const ast::Subscript &s : subs)
    out.push_back(ast::Subscript{cloneExpr(s.expr.get()), s.range});
  return out;
}

ast::ExprPtr cloneExpr(const ast::Expr *e) {
  if (!e)
    return nullptr;
  auto c = std::make_unique<ast::Expr>();
  c->kind = e->kind;
  c->range = e->range;
  c->number = e->number;
  c->integer = e->integer;
  c->boolean = e->boolean;
  c->text = e->text;
  for (const ast::RefPart &part : e->ref)
    c->ref.push_back(ast::RefPart{part.name, part.range, cloneSubscripts(part.subscripts)});
  c->nameRange = e->nameRange;
  c->binary = e->binary;
  c->unary = e->unary;
  for (const ast::ExprPtr &a : e->args)
    c->args.push_back(cloneExpr(a.get()));
  c->argNames = e->argNames;
  for (const ast::ForIndex &it : e->iterators)
    c->iterators.push_back(ast::ForIndex{it.name, it.range, cloneExpr(it.in.get())});
  c->partialApplication = e->partialApplication;
  return c;
}

namespace {

ast::Modifier cloneModifier(const ast::Modifier &m) {
  ast::Modifier c;
  c.name = m.name;
  c.range = m.range;
  c.each = m.each;
  c.final = m.final;
  for (const ast::Modifier &arg : m.args)
    c.args.push_back(cloneModifier(arg));
  c.value = cloneExpr(m.value.get());
  c.redeclare = m.redeclare;
  c.redeclareType = m.redeclareType;
  c.redeclareTypeRange = m.redeclareTypeRange;
  c.redeclareClass = m.redeclareClass; // (shared: classes are read, never changed)
  c.constrainedBy = m.constrainedBy;
  return c;
}

} // namespace

const ast::ClassDef &Flattener::modifiedPackage(const ast::ClassDef &def) {
  // MLS 3.5, 4.5.1: `package Medium = MoistAir(extraPropertiesNames = {"CO2"})` is a package of
  // its own, MoistAir with those constants: the long form `package Medium extends MoistAir(...);
  // end Medium;`, whose functions see the modified constants (rebased, as every inherited class).
  if (!def.isShort || def.kind != ast::ClassKind::Package || def.shortModifiers.empty() ||
      !def.shortBase.typeDims.empty())
    return def;
  auto [it, added] = modifiedPackages_.try_emplace(&def, nullptr);
  if (added) {
    auto longForm = std::make_unique<ast::ClassDef>();
    longForm->kind = def.kind;
    longForm->name = def.name;
    longForm->description = def.description;
    longForm->range = def.range;
    longForm->endName = def.name;
    longForm->element.replaceable = def.element.replaceable;
    longForm->element.redeclare = def.element.redeclare;
    longForm->element.constrainedBy = def.element.constrainedBy;
    ast::Extends base;
    base.base = def.shortBase.typeName;
    base.range = def.shortBase.typeRange;
    for (const ast::Modifier &m : def.shortModifiers)
      base.modifiers.push_back(cloneModifier(m));
    longForm->extends.push_back(std::move(base));
    it->second = std::move(longForm);
  }
  return *it->second;
}

ClassInfo *Flattener::registerClass(const ast::ClassDef &written, ClassInfo *parent) {
  const ast::ClassDef &def = modifiedPackage(written);
  auto info = std::make_unique<ClassInfo>();
  info->def = &def;
  info->parent = parent;
  info->name = parent ? parent->name + "." + def.name : def.name;
  ClassInfo *raw = info.get();
  classes_.push_back(std::move(info));
  for (const auto &nested : def.classes) {
    if (raw->nested.count(nested->name)) {
      diags_.error(nested->range, "duplicate class '" + nested->name + "' in '" + raw->name + "'");
      diags_.note(raw->nested[nested->name]->def->range, "previous definition of '" + nested->name + "' is here");
      continue;
    }
    raw->nested[nested->name] = registerClass(*nested, raw);
  }
  return raw;
}

void Flattener::registerClasses() {
  // The builtin enumerations of MLS 3.5, 4.8.8: StateSelect and AssertionLevel (a class of the
  // same name in the files or the library path comes first).
  auto builtinEnumeration = [&](const char *name, std::vector<const char *> literals) {
    auto def = std::make_unique<ast::ClassDef>();
    def->kind = ast::ClassKind::Type;
    def->name = name;
    def->isShort = true;
    def->isEnumeration = true;
    for (const char *l : literals)
      def->literals.push_back(ast::EnumerationLiteral{l, SourceRange{}, ""});
    builtinClasses_.push_back(std::move(def));
  };
  if (builtinClasses_.empty()) {
    builtinEnumeration("StateSelect", {"never", "avoid", "default", "prefer", "always"});
    builtinEnumeration("AssertionLevel", {"error", "warning"});
  }
  for (const ast::File *file : files_) {
    // `within P;`: the classes are members of package P (of the library path), MLS 3.5, 13.2.2.2.
    ClassInfo *parent = nullptr;
    if (!file->within.empty()) {
      parent = findClass(file->within, nullptr);
      if (!parent) {
        diags_.error(file->withinRange, "package '" + file->within + "' of this 'within' clause is not found" +
                                            (library_ ? " in the library path (--lib, MODELICAPATH)"
                                                      : "; give its library with --lib or MODELICAPATH"));
        continue;
      }
    }
    for (const auto &def : file->classes) {
      auto &scope = parent ? parent->nested : topLevel_;
      auto prev = scope.find(def->name);
      if (prev != scope.end() && std::any_of(fileClasses_.begin(), fileClasses_.end(),
                                             [&](const auto &fc) { return fc.second == prev->second; })) {
        diags_.error(def->range, "duplicate class '" + def->name + "'");
        diags_.note(prev->second->def->range, "previous definition of '" + def->name + "' is here");
        continue;
      }
      // A file's class replaces the library's class of the same name (a model being edited).
      ClassInfo *info = registerClass(*def, parent);
      scope[def->name] = info;
      fileClasses_.emplace_back(def.get(), info);
    }
  }
}

ClassInfo *Flattener::topLevel(const std::string &name) {
  auto it = topLevel_.find(name);
  if (it != topLevel_.end())
    return it->second;
  const ast::ClassDef *def = library_ ? library_->topLevel(name) : nullptr;
  for (const auto &builtin : builtinClasses_)
    if (!def && builtin->name == name)
      def = builtin.get();
  if (!def)
    return nullptr;
  ClassInfo *info = registerClass(*def, nullptr);
  topLevel_[name] = info;
  return info;
}

ClassInfo *Flattener::member(const ClassInfo *c, const std::string &name) {
  auto it = c->nested.find(name);
  if (it != c->nested.end())
    return it->second;
  if (library_ && c->kind() == ast::ClassKind::Package)
    if (const ast::ClassDef *def = library_->member(*c->def, c->name, name)) {
      ClassInfo *owner = const_cast<ClassInfo *>(c);
      ClassInfo *info = registerClass(*def, owner);
      owner->nested[name] = info;
      return info;
    }
  return inheritedMember(c, name);
}

ClassInfo *Flattener::inheritedMember(const ClassInfo *c, const std::string &name) {
  // MLS 3.5, 5.3.1 and 7.1: the classes a class inherits are its members too. Base classes are
  // named in the scope that encloses the class; a lookup already under way (a class that
  // extends itself, through others) finds nothing here (resolveClass reports it).
  std::vector<const std::string *> bases;
  const std::string &shortBase = c->def->shortBase.typeName;
  if (c->def->isShort && !c->def->isEnumeration && !shortBase.empty() && shortBase != "Real" &&
      shortBase != "Integer" && shortBase != "Boolean" && shortBase != "String")
    bases.push_back(&shortBase);
  for (const ast::Extends &ext : c->def->extends)
    bases.push_back(&ext.base);
  if (bases.empty() || !inheritedLookups_.insert({c, name}).second)
    return nullptr;
  if (ClassInfo *redeclared = extendsClauseRedeclaration(*c, name)) {
    inheritedLookups_.erase({c, name});
    return redeclared;
  }
  ClassInfo *found = nullptr;
  for (const std::string *base : bases) {
    ClassInfo *b = findClass(*base, c->parent);
    if (b && b != c && (found = member(b, name))) {
      // Through an extends clause the class is c's member; a short class is another name of
      // its base, whose members are the base's.
      if (base != &shortBase)
        found = rebased(found, c);
      break;
    }
  }
  inheritedLookups_.erase({c, name});
  return found;
}

ClassInfo *Flattener::extendsClauseRedeclaration(const ClassInfo &c, const std::string &name) {
  for (const ast::Extends &ext : c.def->extends)
    for (const ast::Modifier &m : ext.modifiers)
      if (m.redeclare && m.redeclareClass && m.name == name)
        return modifierClass(m, &c);
  return nullptr;
}

ClassInfo *Flattener::rebased(ClassInfo *x, const ClassInfo *into) {
  if (!x->parent || x->parent == into || x == into)
    return x;
  auto [it, added] = rebased_.try_emplace({x->def, into}, nullptr);
  if (added) {
    ClassInfo *r = registerClass(*x->def, const_cast<ClassInfo *>(into));
    r->writtenIn = x->writtenIn ? x->writtenIn : x->parent;
    if (x->def->isShort) { // into's extends clauses may modify it (`extends B(T(min = 0))`)
      for (const ast::Extends &ext : into->def->extends)
        for (const ast::Modifier &m : ext.modifiers)
          if (m.name == x->def->name && !m.redeclare && !m.args.empty())
            r->classMods.push_back(ModSource{&m.args, into});
      // A base's modifications are read in the base as part of `into`: into's elements (with
      // into's modifications: a medium's `data`), then the names around the base.
      for (const ModSource &m : x->classMods)
        r->classMods.push_back(ModSource{m.mods, scopeWithin(into, m.lexical)});
    }
    it->second = r;
  }
  return it->second;
}

const ClassInfo *Flattener::scopeWithin(const ClassInfo *into, const ClassInfo *base) {
  if (base == into || !base)
    return into;
  if (base->writtenIn && base->def == &kScopeDef) // already such a scope: of the same base
    base = base->writtenIn;
  auto [it, added] = scopes_.try_emplace({into, base}, nullptr);
  if (added) {
    it->second = registerClass(kScopeDef, const_cast<ClassInfo *>(into));
    it->second->writtenIn = base;
  }
  return it->second;
}

const ClassInfo *Flattener::definitionScope(const ClassInfo *c) {
  return c->writtenIn && c->def != &kScopeDef && c->parent ? scopeWithin(c->parent, c->writtenIn) : c->parent;
}

const ClassInfo *Flattener::enclosing(const ClassInfo *c, const ClassInfo *&resume) {
  if (c->writtenIn && !resume)
    resume = c->writtenIn;
  if (c->parent)
    return c->parent;
  const ClassInfo *next = resume;
  resume = nullptr;
  return next;
}

ClassInfo *Flattener::findFirst(const std::string &name, const ClassInfo *from) {
  const ClassInfo *resume = nullptr;
  for (const ClassInfo *c = from; c; c = enclosing(c, resume)) {
    if (ClassInfo *m = member(c, name))
      return m;
    if (c->def->name == name && !c->def->isShort)
      return const_cast<ClassInfo *>(c); // a class may refer to itself (recursive functions)
    for (const ast::Import &imp : c->def->imports) {
      if (!imp.alias.empty() && imp.alias == name)
        return findClass(imp.path, nullptr);
      if (imp.alias.empty() && !imp.wildcard) {
        size_t dot = imp.path.rfind('.');
        if (imp.path.substr(dot == std::string::npos ? 0 : dot + 1) == name)
          return findClass(imp.path, nullptr);
      }
      if (imp.wildcard)
        if (ClassInfo *pkg = findClass(imp.path, nullptr))
          if (ClassInfo *m = member(pkg, name))
            return m;
    }
  }
  return topLevel(name);
}

ClassInfo *Flattener::findClass(const std::string &dotted, const ClassInfo *from) {
  if (!dotted.empty() && dotted[0] == '.') // `.A.B`: from the top level only (MLS 3.5, 5.3.3)
    return findClass(dotted.substr(1), nullptr);
  size_t start = 0, dot = dotted.find('.');
  ClassInfo *c = findFirst(dotted.substr(0, dot), from);
  while (c && dot != std::string::npos) {
    start = dot + 1;
    dot = dotted.find('.', start);
    std::string part = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    c = member(c, part);
  }
  return c;
}

std::string Flattener::suggestClass(const std::string &name, const ClassInfo *from) {
  std::vector<std::string> candidates{"Real", "Integer", "Boolean"};
  for (const ClassInfo *c = from; c; c = c->parent)
    for (auto &[n, _] : c->nested)
      candidates.push_back(n);
  for (auto &[n, _] : topLevel_)
    candidates.push_back(n);
  return closest(name, candidates);
}

namespace {
/// Per attribute (or "=" for the binding): the text of what element `el` of class `cls` gets from
/// its declaration, then from the modifications of the extends clauses it comes through
/// (outermost first: they win).
std::map<std::string, std::string> effectiveModification(const Element &el) {
  std::map<std::string, std::string> out;
  for (const ast::Modifier &m : el.comp->modifiers)
    out[m.name] = dumpModification(m);
  const std::string &name = el.comp->name;
  for (auto src = el.extendsMods.rbegin(); src != el.extendsMods.rend(); ++src)
    for (const ast::Modifier &m : *src->mods) {
      if (m.name == name) {
        for (const ast::Modifier &arg : m.args)
          out[arg.name] = dumpModification(arg);
        if (m.value)
          out["="] = dumpModification(m);
      } else if (m.name.size() > name.size() && m.name.compare(0, name.size() + 1, name + ".") == 0) {
        out[m.name.substr(name.size() + 1)] = dumpModification(m);
      }
    }
  return out;
}
} // namespace

bool Flattener::identicalAfterModification(const Element &a, const Element &b) {
  // MLS 3.5, 7.3.3 compares the elements as modified: a model that extends two bases declaring
  // `m_flow` alike, one of them modified to the other's stateSelect (MSL's SimpleGenericOrifice).
  return !a.comp->binding && !b.comp->binding &&
         dumpComponent(*a.decl, *a.comp, false) == dumpComponent(*b.decl, *b.comp, false) &&
         effectiveModification(a) == effectiveModification(b);
}

bool Flattener::resolveClass(ClassInfo &cls) {
  if (cls.state == ClassInfo::Resolved)
    return !cls.failed;
  if (cls.state == ClassInfo::Resolving) {
    diags_.error(cls.def->range, "class '" + cls.name + "' extends itself");
    cls.failed = true;
    return false;
  }
  cls.state = ClassInfo::Resolving;
  const ast::ClassDef &def = *cls.def;
  auto addElement = [&](Element el) {
    const std::string &name = el.comp->name;
    if (name == "time") {
      diags_.error(el.comp->range, "'time' is a reserved name and cannot be declared");
      cls.failed = true;
      return;
    }
    auto prev = cls.index.find(name);
    if (prev != cls.index.end()) {
      Element &old = cls.elements[prev->second];
      // MLS 3.5, 7.3.3: an element inherited (or declared) again identically is one element; eqc
      // keeps the first, with the modifications of both extends clauses (the first's first).
      if (old.comp == el.comp)
        return;
      const bool inherited = el.lexical != &cls || old.lexical != &cls;
      if (inherited && (dumpComponent(*old.decl, *old.comp) == dumpComponent(*el.decl, *el.comp) ||
                        identicalAfterModification(old, el))) {
        old.extendsMods.insert(old.extendsMods.end(), el.extendsMods.begin(), el.extendsMods.end());
        return;
      }
      diags_.error(el.comp->range, "duplicate declaration of '" + name + "'" +
                                       (inherited ? " (inherited, and not identical: MLS 3.5, 7.3.3)" : ""));
      diags_.note(old.comp->range, "previous declaration of '" + name + "' is here");
      cls.failed = true;
      return;
    }
    cls.index[name] = static_cast<int>(cls.elements.size());
    cls.elements.push_back(std::move(el));
  };
  // Inherits base's elements, equations and algorithms, with the modifiers of the extends clause.
  // `through`: the modifiers of short classes the extends clause names on the way to base
  // (`extends StandardWater` with `package StandardWater = WaterIF97_ph`), outermost first.
  auto inherit = [&](ClassInfo *base, const std::vector<ast::Modifier> &mods,
                     const std::vector<ModSource> &through) {
    if (!resolveClass(*base)) {
      cls.failed = true;
      return;
    }
    for (const Element &inherited : base->elements) {
      Element el = inherited;
      el.extendsMods.insert(el.extendsMods.begin(), through.begin(), through.end());
      el.extendsMods.insert(el.extendsMods.begin(), ModSource{&mods, &cls});
      addElement(std::move(el));
    }
    // Modifiers of the extends clause must name inherited elements.
    for (const ast::Modifier &m : mods) {
      std::string first = m.name.substr(0, m.name.find('.'));
      if (m.redeclare && m.redeclareClass) { // `redeclare model M = B` (MLS 3.5, 7.3)
        if (!classRedeclarable(m, *base))
          cls.failed = true;
      } else if (base->find(first) < 0 && !(first == m.name && !m.args.empty() && member(base, first))) {
        // (a modification of an inherited class, `Temperature(min = 200)`, applies where it is
        // used through cls: rebased)
        diags_.error(m.range, "'" + base->name + "' has no element '" + first + "' to modify");
        cls.failed = true;
      }
    }
    for (const EquationSource &eq : base->equations)
      cls.equations.push_back(eq);
    for (const EquationSource &eq : base->initialEquations)
      cls.initialEquations.push_back(eq);
    cls.algorithms.insert(cls.algorithms.end(), base->algorithms.begin(), base->algorithms.end());
  };
  if (def.extendsClass) {
    // MLS 3.5, 7.3.1: `model extends M` extends the M that the enclosing class inherits (the class
    // it is written in, for one that a derived class inherits: as a member of the derived class).
    ClassInfo *base =
        cls.parent ? inheritedMember(cls.writtenIn ? cls.writtenIn : cls.parent, def.name) : nullptr;
    if (base && cls.writtenIn)
      base = rebased(base, cls.parent);
    if (!base || base == &cls || base->def->isShort) {
      diags_.error(def.range, "'" + def.name + "' extends the class '" + def.name + "' that '" +
                                  (cls.parent ? cls.parent->name : std::string("its enclosing class")) +
                                  "' inherits, but it inherits no such long class (MLS 3.5, 7.3.1)");
      cls.failed = true;
    } else {
      inherit(base, def.extendsModifiers, {});
    }
  }
  for (const ast::Extends &ext : def.extends) {
    ClassInfo *base = findClass(ext.base, cls.parent ? cls.parent : nullptr);
    if (!base)
      base = findClass(ext.base, &cls);
    if (!base && ext.base == "ExternalObject") { // the predefined class (MLS 3.5, 12.9.7)
      cls.externalObject = true;
      continue;
    }
    if (!base) {
      std::string hint = suggestClass(ext.base, &cls);
      diags_.error(ext.range, "unknown class '" + ext.base + "' in extends" +
                                  (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
      cls.failed = true;
      continue;
    }
    // A short class is its base with its modifiers (MLS 3.5, 4.5.1): extending it extends them.
    std::vector<ModSource> through;
    Type primitive;
    for (int hops = 0; base && base->def->isShort && !base->def->isEnumeration && hops < 50; ++hops) {
      if (isPrimitive(base->def->shortBase.typeName, primitive) || !base->def->shortBase.typeDims.empty())
        break;
      through.push_back(ModSource{&base->def->shortModifiers, base->parent});
      ClassInfo *target = findClass(base->def->shortBase.typeName, base->parent);
      base = target == base ? nullptr : target;
    }
    if (!base || base->def->isShort) {
      diags_.error(ext.range, "cannot extend '" + ext.base + "': it is a short class definition of a " +
                                  (base ? "type or array" : "class that does not exist"));
      cls.failed = true;
      continue;
    }
    inherit(base, ext.modifiers, through);
  }
  for (const ast::Declaration &d : def.declarations)
    for (const ast::Component &c : d.components)
      addElement(Element{&d, &c, &cls, {}});
  for (const ast::Equation &eq : def.equations)
    cls.equations.push_back(EquationSource{&eq, &cls, 0});
  for (const ast::Equation &eq : def.initialEquations)
    cls.initialEquations.push_back(EquationSource{&eq, &cls, 0});
  // Equations are numbered in the class as a whole, inherited ones first: "equation 4 of r1" is
  // the fourth equation that a Resistor has, whichever class wrote it.
  for (size_t i = 0; i < cls.equations.size(); ++i)
    cls.equations[i].number = static_cast<int>(i + 1);
  for (size_t i = 0; i < cls.initialEquations.size(); ++i)
    cls.initialEquations[i].number = static_cast<int>(i + 1);
  if (!def.algorithms.empty() && def.kind == ast::ClassKind::Function)
    cls.algorithms.clear();
  for (const ast::AlgorithmSection &section : def.algorithms)
    cls.algorithms.push_back(AlgorithmSource{&section, &cls});
  if (cls.externalObject && !checkExternalObject(cls))
    cls.failed = true;
  cls.state = ClassInfo::Resolved;
  return !cls.failed;
}

bool Flattener::checkExternalObject(ClassInfo &cls) {
  // MLS 3.5, 12.9.7: no elements but the functions `constructor` (one output of the class) and
  // `destructor` (one input of the class, no output).
  auto fail = [&](SourceRange at, const std::string &why) {
    diags_.error(at, "external object class '" + cls.name + "': " + why + " (MLS 3.5, 12.9.7)");
    return false;
  };
  const ast::ClassDef &def = *cls.def;
  if (!def.declarations.empty())
    return fail(def.declarations.front().components.empty() ? def.range : def.declarations.front().components.front().range,
                "it has no components, only its functions constructor and destructor");
  if (!def.equations.empty() || !def.algorithms.empty() || !def.initialEquations.empty())
    return fail(def.range, "it has no equations or algorithms");
  for (const auto &[name, nested] : cls.nested)
    if (name != "constructor" && name != "destructor")
      return fail(nested->def->range, "it has no classes but its functions constructor and destructor");
  for (const char *name : {"constructor", "destructor"}) {
    auto it = cls.nested.find(name);
    if (it == cls.nested.end() || it->second->kind() != ast::ClassKind::Function)
      return fail(def.range, std::string("it needs a function '") + name + "'");
    const bool constructor = name == std::string("constructor");
    int inputs = 0, outputs = 0, ofClass = 0;
    for (const ast::Declaration &d : it->second->def->declarations)
      for (const ast::Component &c : d.components) {
        const bool in = d.causality == ast::Causality::Input, out = d.causality == ast::Causality::Output;
        inputs += in;
        outputs += out;
        if ((constructor ? out : in) && findClass(d.typeName, it->second) == &cls)
          ++ofClass;
        (void)c;
      }
    if (constructor && (outputs != 1 || ofClass != 1))
      return fail(it->second->def->range, "its constructor has exactly one output, of class '" + cls.name + "'");
    if (!constructor && (inputs != 1 || outputs != 0 || ofClass != 1))
      return fail(it->second->def->range, "its destructor has exactly one input, of class '" + cls.name + "', and no output");
  }
  return true;
}

} // namespace eqc::frontend

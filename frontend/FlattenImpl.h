// Internal to the frontend: the flattener's data structures (classes, instances, modifications,
// lowered values) and the Flattener, whose parts live in ClassTable.cpp, Instantiate.cpp,
// LowerExpr.cpp, Equations.cpp, Functions.cpp and Flatten.cpp.
#pragma once

#include "frontend/Ast.h"
#include "frontend/Flatten.h"
#include "middle/ExprOps.h"
#include "middle/FlatSystem.h"
#include "middle/Function.h"
#include "support/Diagnostics.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace eqc::frontend {

enum class Type { Real, Integer, Boolean, String };
const char *typeName(Type t);

struct ClassInfo;
struct FunctionArgument;

/// A lowered expression: an array of scalar expression nodes (row-major) with its shape; a
/// scalar has no dims. `ok` is false after an error (already reported).
struct Value {
  bool ok = false;
  Type type = Type::Real;
  std::vector<int> dims;
  std::vector<const Expr *> elems;
  std::string text; ///< String known when the model is compiled (computedText() false)
  /// Values of an enumeration type (Integer-valued, literal k is k; MLS 3.5, 4.8.5): the type.
  const ClassInfo *enumeration = nullptr;
  /// The name of an enumeration type used as a value: its literals (`for e in E`, `x[E]`, `max(E)`).
  bool enumerationType = false;
  /// A value of a record class (MLS 3.5, 12.6): elems are its fields' scalars in declaration
  /// order (a constructor call, or a record component named whole). An array of records has
  /// dims; its elems are the records' fields one record after the other (row-major), so that
  /// record k is elems[k*F, (k+1)*F) with F = elems.size()/product(dims).
  const ClassInfo *record = nullptr;
  /// A function given as an argument to a functional input (MLS 3.5, 12.4.2); elems are empty.
  std::shared_ptr<const FunctionArgument> function;
  /// External objects (MLS 3.5, 12.9.7): their class; each element holds an object's address
  /// (the bits of a double, made when the model runs).
  const ClassInfo *object = nullptr;

  static Value scalar(const Expr *e, Type t) {
    Value v;
    v.ok = true;
    v.type = t;
    v.elems.push_back(e);
    return v;
  }
  bool isScalar() const { return dims.empty(); }
  /// A String that a function computes when it runs: elems[0] is the address of its text (a
  /// double's bits: a String slot, a call); else `text` holds it and elems[0] is a constant.
  bool computedText() const { return type == Type::String && !elems.empty() && !elems[0]->isConst(); }
  bool isNumeric() const { return type == Type::Real || type == Type::Integer; }
  size_t size() const { return elems.size(); }
};

/// A function as a value (MLS 3.5, 12.4.2): a function named, a partial application
/// `function g(w = k)`, or a functional input passed on. The bound inputs' values that are not
/// known when the model is compiled become hidden inputs of the function that receives it.
struct FunctionArgument {
  ClassInfo *target = nullptr;
  /// The inputs the partial application binds, in the order of the target's inputs.
  std::vector<std::pair<std::string, Value>> bound;
  /// Whether bound value k is passed as hidden inputs (else it is a constant of the callee).
  static bool passed(const Value &v) {
    if (v.type == Type::String)
      return false;
    for (const Expr *e : v.elems)
      if (!e->isConst())
        return true;
    return false;
  }
};

/// eqc's limit on the scalars of one array, range or model (variables and component instances):
/// beyond it memory, not the model, is the problem, and the error says so at the place.
constexpr size_t kMaxScalars = 20000000;
/// How deeply the specializations of functions may nest (a recursive function whose argument
/// shapes grow would otherwise specialize forever).
constexpr int kMaxSpecializationDepth = 100;

/// Whether `name` is a predefined type (Real, Integer, Boolean, String), and which.
bool isPrimitive(const std::string &name, Type &type);
/// The dotted name of a component reference without its subscripts: `a[2].b[i]` → `a.b`.
ast::Expr wholeVariable(const ast::Expr &ref);

/// The builtin operators and functions that are not middle/Builtins.def's (LowerBuiltins.cpp).
inline constexpr const char *kOperatorNames[] = {"der",
                                                 "pre",
                                                 "edge",
                                                 "change",
                                                 "noEvent",
                                                 "smooth",
                                                 "sum",
                                                 "product",
                                                 "size",
                                                 "ndims",
                                                 "zeros",
                                                 "ones",
                                                 "fill",
                                                 "identity",
                                                 "transpose",
                                                 "linspace",
                                                 "cross",
                                                 "scalar",
                                                 "vector",
                                                 "integer",
                                                 "div",
                                                 "rem",
                                                 "reinit",
                                                 "terminate",
                                                 "assert",
                                                 "homotopy",
                                                 "sample",
                                                 "delay",
                                                 "terminal",
                                                 "min",
                                                 "max",
                                                 "Integer",
                                                 "String",
                                                 "cardinality",
                                                 "inStream",
                                                 "actualStream",
                                                 "cat",
                                                 "getInstanceName",
                                                 "semiLinear",
                                                 "skew",
                                                 "outerProduct",
                                                 "diagonal",
                                                 "rooted",
                                                 "Connections.isRoot",
                                                 "Connections.rooted",
                                                 "array"};
/// The name of a builtin function as called: `.sqrt` (the global scope's) is `sqrt`.
std::string builtinName(const std::string &name);
/// "[3]", "[2, 3]", "scalar": shapes in messages.
std::string shapeText(const std::vector<int> &dims);
/// The number of elements of an array of shape `dims`.
inline size_t product(const std::vector<int> &dims) {
  size_t n = 1;
  for (int d : dims)
    n *= static_cast<size_t>(d);
  return n;
}
/// Optimal-string-alignment distance: edits plus adjacent transpositions ("gian" → "gain" is 1).
size_t editDistance(const std::string &a, const std::string &b);
/// The closest of `candidates` to `name`, or "" when none is close.
std::string closest(const std::string &name, const std::vector<std::string> &candidates);

struct ClassInfo;
struct Instance;

/// Modifiers written somewhere: the list, and where its expressions are evaluated.
struct ModSource {
  const std::vector<ast::Modifier> *mods = nullptr;
  const ClassInfo *lexical = nullptr;
  /// The instance whose code holds them (null: the one that uses them): a short class given by a
  /// redeclaration in an enclosing instance's modification reads that instance's names.
  Instance *scope = nullptr;
};

/// One element of a class after its extends clauses are resolved.
struct Element {
  const ast::Declaration *decl = nullptr;
  const ast::Component *comp = nullptr;
  const ClassInfo *lexical = nullptr; ///< where it is written: types and modifiers are looked up there
  /// Modifications of this element from extends clauses, highest priority first: each is the
  /// argument list of an extends clause (only the arguments naming this element apply).
  std::vector<ModSource> extendsMods;
};

/// An equation section entry with the class it is written in.
struct EquationSource {
  const ast::Equation *eq = nullptr;
  const ClassInfo *lexical = nullptr;
  int number = 0; ///< position in its class's section
};

/// An algorithm section with the class it is written in.
struct AlgorithmSource {
  const ast::AlgorithmSection *section = nullptr;
  const ClassInfo *lexical = nullptr;
};

/// A class of the source files, with its elements once extends clauses are resolved.
struct ClassInfo {
  const ast::ClassDef *def = nullptr;
  ClassInfo *parent = nullptr; ///< the enclosing class
  /// A class that `parent` inherits (Flattener::rebased): the class it is written in, whose scope
  /// a lookup searches after parent's; null otherwise.
  const ClassInfo *writtenIn = nullptr;
  /// For a rebased short class: the modifications of it in the extends clauses of the classes
  /// that inherit it, highest priority first (`extends PartialMedium(Temperature(min = 200))`,
  /// MLS 3.5, 7.2); they apply before its own.
  std::vector<ModSource> classMods;
  std::string name;            ///< qualified: "Lib.Resistor"
  std::unordered_map<std::string, ClassInfo *> nested;
  enum State { Unresolved, Resolving, Resolved } state = Unresolved;
  bool failed = false;
  std::vector<Element> elements;
  std::unordered_map<std::string, int> index; ///< element name → position in elements
  std::vector<EquationSource> equations, initialEquations;
  /// The algorithm sections, inherited ones first (a function's own section replaces the one it
  /// inherits).
  std::vector<AlgorithmSource> algorithms;

  /// A class that extends the predefined ExternalObject (MLS 3.5, 12.9.7): its values are objects
  /// of C code, made by its `constructor` function and freed by its `destructor`.
  bool externalObject = false;

  ast::ClassKind kind() const { return def->kind; }
  int find(const std::string &element) const {
    auto it = index.find(element);
    return it == index.end() ? -1 : it->second;
  }
};

/// A modification after merging: a value (an expression with the scope it is evaluated in) and
/// modifications of sub-elements. Shared between the instances of an array of components, each
/// of which sees its slice of array values.
struct Mod {
  const ast::Expr *expr = nullptr;
  Instance *scope = nullptr;
  const ClassInfo *lexical = nullptr;
  SourceRange range;
  bool each = false;
  /// The value is `final` (MLS 3.5, 7.2.6): `C1(final C = CapVal)`, `final parameter Real k = 2`.
  bool final = false;
  /// The value lowered once, shared by every slice (and whether a slice error was reported).
  struct Cache {
    std::optional<Value> value;
    bool sliceError = false;
  };
  std::shared_ptr<Cache> lowered;
  /// For the instances of component arrays: (flat index, shape) of each array level, outermost first.
  std::vector<std::pair<int, std::vector<int>>> slices;
  std::vector<std::pair<std::string, std::shared_ptr<const Mod>>> children;
  /// `redeclare Type name(...)` of the element this modifies (MLS 3.5, 7.3), and where it is written.
  const ast::Modifier *redeclare = nullptr;
  const ClassInfo *redeclareLexical = nullptr;
  Instance *redeclareScope = nullptr; ///< the instance whose code holds the redeclaration

  bool hasValue() const { return expr != nullptr; }
  std::shared_ptr<const Mod> child(const std::string &name) const {
    for (auto &[n, m] : children)
      if (n == name)
        return m;
    return nullptr;
  }
};
using ModPtr = std::shared_ptr<const Mod>;

/// A name of an instance: a variable array, a constant, or an array of component instances.
struct Symbol {
  enum State { Unvisited, Visiting, Done } state = Unvisited;
  enum Kind { Failed, Variable, Constant, Component } kind = Failed;
  Type type = Type::Real;
  std::vector<int> dims;
  int firstVar = -1; ///< Variable: vars firstVar .. firstVar + size - 1, row-major (none when size 0)
  VarRole role = VarRole::Unknown; ///< Variable: the role of its variables
  Value value;       ///< Constant
  std::vector<std::unique_ptr<Instance>> instances; ///< Component, row-major
  const ClassInfo *cls = nullptr;  ///< Component: its class; Variable: its connector or type class, if any
  const ClassInfo *enumeration = nullptr; ///< Variable: its enumeration type (Integer-valued)
  const ClassInfo *object = nullptr;      ///< Variable: its external object class (MLS 3.5, 12.9.7)
  /// An `outer` element: the symbol of the `inner` element it is (MLS 3.5, 5.4); symbol() returns
  /// that one.
  Symbol *outer = nullptr;
  /// A conditional component whose condition is false (MLS 3.5, 4.4.5): it does not exist;
  /// connections to it are removed.
  bool disabled = false;
  bool flow = false;
  bool stream = false;    ///< a stream variable of a stream connector (MLS 3.5, 15.1)
  bool connector = false; ///< declared with a connector class (also `RealInput u`)
  ModPtr mod;              ///< the merged modification
  std::vector<ModSource> typeMods; ///< Variable: modifiers of short type classes (`type V = Real(unit = "V")`)
};

/// An instance of a class: the top-level model, a component, one element of a component array,
/// or a package whose constants are used.
struct Instance {
  const ClassInfo *cls = nullptr;
  Instance *parent = nullptr;
  std::string path; ///< "" for the model, "r1", "m[3].flange"
  ModPtr mod;
  std::vector<Symbol> symbols; ///< one per element of cls
  bool package = false;
  /// A record component declared `parameter`, `constant` or `discrete`: its fields are too
  /// (MLS 3.5, 4.4.2.1).
  ast::Prefix prefix = ast::Prefix::None;
  /// A record component with a value as a whole (`Point p = Point(1, 2)`): its fields' own
  /// declaration equations do not apply.
  bool boundWhole = false;
  /// A record component declared `flow` (`flow Complex i`): its fields are flow variables.
  bool flow = false;
  int origin = -1;   ///< index into FlatSystem::origins (the path), for equation labels
  int insideNode = -1, outsideNode = -1; ///< connection-set nodes of a connector instance
  SourceRange declared; ///< the component's declaration
  size_t unknowns = 0, equations = 0;    ///< declared here, generated here (sizes for `eqc check`)
  /// An instance of an expandable connector (MLS 3.5, 9.1.3): its declared elements exist only
  /// once connected or named (symbols stay unvisited until then), and connections add `added`.
  bool expandable = false;
  std::map<std::string, Symbol> added; ///< elements an expandable connector gets from connections
  std::string label() const { return path.empty() ? "the model" : "'" + path + "'"; }
};

/// Where an expression is evaluated.
enum class Context {
  Equation,   ///< equations: anything
  When,       ///< when-clause bodies: anything, plus pre() of continuous variables
  Parameter,  ///< parameter values: parameters and constants
  Start,      ///< attributes: parameters and constants
  Function,   ///< function bodies: inputs, outputs, locals
};

/// An output of a specialized function: a value of this type and shape, or a record.
struct OutputShape {
  Type type = Type::Real;
  std::vector<int> dims;
  const ClassInfo *record = nullptr; ///< a record output (MLS 3.5, 12.6): its fields' scalars
  const ClassInfo *object = nullptr; ///< an external object output (a constructor's, 12.9.7)
  size_t count = 0;                  ///< scalars
  const ClassInfo *enumeration = nullptr; ///< an output of an enumeration type
};

/// A function being lowered: its variables (slots) and the loop variables in scope (Functions.cpp,
/// ExternalCalls.cpp).
struct FunctionBuilder {
  struct Local {
    int slot = 0;
    std::vector<int> dims;
    Type type = Type::Real;
    enum Kind { Input, Output, Protected } kind = Protected;
    /// A record variable, or an array of records (dims): its fields are locals of their own
    /// ("r.x", with the array's dimensions first), in slots slot..slot+size-1; `leaves` names
    /// the fields that are not records, nested records' included, in declaration order.
    const ClassInfo *record = nullptr;
    int size = 0;
    std::vector<std::string> leaves;
    /// An external object (MLS 3.5, 12.9.7): its class; the slot holds the object's address.
    const ClassInfo *object = nullptr;
    /// A variable of an enumeration type (Integer slots): the type.
    const ClassInfo *enumeration = nullptr;
  };
  Function *fn = nullptr;
  const ClassInfo *cls = nullptr;
  std::vector<std::pair<std::string, Local>> vars;
  std::vector<std::pair<std::string, int>> loops; ///< loop variables (Integer slots), innermost last
  int loopDepth = 0;
  /// Integer inputs the function is specialized to (they size its arrays): constants in it.
  std::map<std::string, double> values;
  /// Protected Integers that statements or an external call may write but whose bindings are
  /// known for the call's sizes (`Integer ncol = size(A, 2)` passed to FORTRAN): their values
  /// while the bindings and sizes of the function's variables are evaluated, before the
  /// algorithm runs (bindingTime).
  std::map<std::string, double> initialValues;
  bool bindingTime = false;
  /// String inputs the function is specialized to (their Locals have no slot).
  std::map<std::string, std::string> strings;
  /// Functional inputs (MLS 3.5, 12.4.2): the function each one is specialized to, its bound
  /// inputs read from hidden input slots or constants.
  std::map<std::string, FunctionArgument> functions;

  const Local *find(const std::string &name) const {
    for (auto &[n, l] : vars)
      if (n == name)
        return &l;
    return nullptr;
  }
  int newSlot(const std::string &name, bool isBool) {
    return fn->addSlot(name, isBool ? SlotType::Boolean : SlotType::Real);
  }
};

/// The value an output or protected variable of a function starts with: variable `var` (an index
/// into FunctionBuilder::vars) is assigned `value` before the algorithm, evaluated in the function
/// (lexical null) or, for a record field's declaration equation, in the record class `lexical`.
struct LocalDefault {
  int var = 0;
  const ast::Expr *value = nullptr;
  const ClassInfo *lexical = nullptr;
  /// A field of an array of records: how many leading dimensions of the field's local are the
  /// array's; the value is given to each record (the class's declaration equation holds for every
  /// element, MLS 3.5, 7.2.5 and 12.6).
  size_t arrayDims = 0;
};

/// A scope for lowering expressions.
struct Scope {
  Instance *inst = nullptr;
  const ClassInfo *lexical = nullptr;
  Context context = Context::Equation;
  FunctionBuilder *fn = nullptr;
  /// for-loop indices and iterators in scope, innermost last.
  std::vector<std::pair<std::string, Value>> loops;
  std::string loopText; ///< "i = 3, j = 1" for equation labels
};

/// A connector end of a connect: the connector instance (or primitive connector variable),
/// seen from inside or outside the instance that holds the connect.
struct ConnectorEnd {
  Instance *inst = nullptr; ///< a connector instance, or null for a primitive connector
  int var = -1;             ///< the primitive connector variable
  Type type = Type::Real;
  bool outside = false;
  std::string name;         ///< as written in the connect
  /// An element that expandable connector `bus` does not have yet (MLS 3.5, 9.1.3): connecting
  /// it adds `element` to the bus, of the type of the other end.
  Instance *bus = nullptr;
  std::string element;
};

/// One scalar variable of a connector, in the order that connect pairs them.
struct ConnectorLeaf {
  std::string name; ///< relative to the connector: "v", "i", "frame.x[2]"
  int var;
  bool flow;
  Type type;
  bool stream = false;
};

/// Deep copies of syntax (ClassTable.cpp).
ast::ExprPtr cloneExpr(const ast::Expr *e);
std::vector<ast::Subscript> cloneSubscripts(const std::vector<ast::Subscript> &subs);

/// Lowers the model to a FlatSystem (see flattenModel).
class Flattener {
  friend class AlgorithmLowering;

public:
  Flattener(const std::vector<const ast::File *> &files, Diagnostics &diags, ClassSource *library);
  std::optional<FlatSystem> run(const std::string &modelName);

  // ---- ClassTable.cpp ----
  void registerClasses();
  ClassInfo *registerClass(const ast::ClassDef &def, ClassInfo *parent);
  /// Looks a dotted class name up from `from` outwards; nullptr (no message) when not found.
  ClassInfo *findClass(const std::string &dotted, const ClassInfo *from);
  /// The first identifier of a name: nested classes, imports, enclosing classes, top level.
  ClassInfo *findFirst(const std::string &name, const ClassInfo *from);
  /// The class `name` nested in `c` (read from the library when c is a package directory), or
  /// inherited by it.
  ClassInfo *member(const ClassInfo *c, const std::string &name);
  /// The class `name` that `c` inherits from a base class (null when none), as a member of c
  /// (rebased).
  ClassInfo *inheritedMember(const ClassInfo *c, const std::string &name);
  std::set<std::pair<const ClassInfo *, std::string>> inheritedLookups_; ///< under way (cycles)
  /// Class `x`, written in a class that `into` extends, as the member of `into` that it is (MLS
  /// 3.5, 5.6.1.4 and 7.3: the elements of a base class are part of the derived class, with the
  /// derived class's redeclarations): the same definition enclosed by `into`, so that the names in
  /// it find into's classes and constants first (a medium's redeclared ThermodynamicState in the
  /// functions the medium inherits), then those around where x is written. One per (x, into).
  ClassInfo *rebased(ClassInfo *x, const ClassInfo *into);
  /// `extends B(redeclare record R = S)` of c's own extends clauses (MLS 3.5, 7.3): S for R, else null.
  ClassInfo *extendsClauseRedeclaration(const ClassInfo &c, const std::string &name);
  std::map<std::pair<const ast::ClassDef *, const ClassInfo *>, ClassInfo *> rebased_;
  /// The scope of base class `base` as part of `into` that extends it: into's classes and
  /// elements (with into's modifications), then base's and those around it (an empty class
  /// enclosed by into, written in base).
  const ClassInfo *scopeWithin(const ClassInfo *into, const ClassInfo *base);
  /// Where the names of class c's own definition are looked up: the class that encloses it, and for
  /// a class inherited into another (rebased) also the one it is written in (a pump's
  /// `function efficiencyCharacteristic = PumpCharacteristics.constantEfficiency`, inherited from
  /// PartialPump in Machines.BaseClasses).
  const ClassInfo *definitionScope(const ClassInfo *c);
  /// Two inherited declarations of one name that are alike once each has its modifications (its
  /// own, then those of the extends clauses it comes through): one element (MLS 3.5, 7.3.3).
  bool identicalAfterModification(const Element &a, const Element &b);
  std::map<std::pair<const ClassInfo *, const ClassInfo *>, ClassInfo *> scopes_;
  static inline const ast::ClassDef kScopeDef{};
  /// The class enclosing `c` in a lookup that `resume` carries on: c's parent; after the
  /// outermost, the class enclosing where a rebased class is written (ClassInfo::writtenIn).
  static const ClassInfo *enclosing(const ClassInfo *c, const ClassInfo *&resume);
  /// The top-level class `name` (read from the library the first time it is named).
  ClassInfo *topLevel(const std::string &name);
  /// Resolves extends clauses: elements, equations and algorithm of `cls`; false after errors.
  bool resolveClass(ClassInfo &cls);
  /// The rules of an external object class (MLS 3.5, 12.9.7), reported at the place.
  bool checkExternalObject(ClassInfo &cls);
  std::string suggestClass(const std::string &name, const ClassInfo *from);

  // ---- Instantiate.cpp ----
  Instance *newInstance(const ClassInfo *cls, Instance *parent, std::string path, ModPtr mod);
  void instantiateElements(Instance &inst);
  Symbol &symbol(Instance &inst, int element);
  /// MLS 3.5, 5.4: the symbol of the inner element an outer element `el` of `inst` is (the
  /// nearest enclosing instance's); null after an error.
  Symbol *innerSymbol(Instance &inst, const Element &el);
  /// MLS 3.5, 4.4.5: whether conditional component `el` exists (its condition, known at
  /// compilation); nullopt after an error.
  std::optional<bool> componentExists(Instance &inst, const Element &el);
  /// MLS 3.5, 7.3: the redeclaration of `el` in a modification from outside, else of an extends
  /// clause, with where it is written; {null, null} when none.
  std::pair<const ast::Modifier *, const ClassInfo *> redeclaration(Instance &inst, const Element &el);
  /// The class `name` (possibly dotted: its first part) that replaces, for element `el` of
  /// `inst`, the class of that name: a `redeclare model M = B` in the modification of `inst` or
  /// of the extends clauses `el` comes through (MLS 3.5, 7.3), or a class that `inst`'s own class
  /// redeclares for an element it inherits. Null if none.
  ClassInfo *redeclaredClass(const Instance &inst, const Element &el, const std::string &name,
                             Instance **scope = nullptr);
  /// The class `name` that replaces, for code of `inst` written in `lexical`, the class of that
  /// name: a class redeclaration in the modification of `inst` or of its class's extends clauses
  /// (outermost first), or a class that `inst`'s class redeclares as an element. Null if none.
  /// `scope` (may be null) receives the instance whose code writes the class (its modifiers'
  /// names are that instance's).
  ClassInfo *instanceRedeclaration(const Instance &inst, const ClassInfo *lexical, const std::string &name,
                                   Instance **scope = nullptr);
  /// The class a class redeclaration in a modification gives. `redeclare package Medium =
  /// Medium` names the class as the instance that writes it sees it: through that instance's own
  /// redeclarations (a vessel passing the medium it was given on to its heat transfer model).
  ClassInfo *modifierRedeclaredClass(const Mod &m, Instance **scope = nullptr);
  int redeclarationDepth_ = 0; ///< (modifierRedeclaredClass: chains of redeclarations, bounded)
  /// `redeclare model name = B` in the extends clauses of `cls` and its bases, outermost first.
  ClassInfo *extendsRedeclaration(const ClassInfo &cls, const std::string &name, int depth);
  /// A dotted class name as code of `scope` sees it: through the class redeclarations of its
  /// instance (instanceRedeclaration), else findClass.
  ClassInfo *scopedClass(const std::string &dotted, const Scope &scope);
  /// The member `a.b.c` of `c`, through short class aliases (`package Medium = Water`).
  ClassInfo *memberPath(ClassInfo *c, const std::string &dotted);
  /// The class a short class names, through chains of them (`package Medium = Water` is Water);
  /// `c` itself when it is not such an alias.
  ClassInfo *aliasTarget(ClassInfo *c);
  /// The class of a class redeclaration `redeclare model M = B` written in a modification
  /// (registered once, in the scope the modification is written in).
  ClassInfo *modifierClass(const ast::Modifier &m, const ClassInfo *lexical);
  std::map<const ast::ClassDef *, ClassInfo *> modifierClasses_;
  /// Whether `cls` has a replaceable class `name` (its own or inherited) that redeclaration `m`
  /// may replace (reported at m when not).
  bool classRedeclarable(const ast::Modifier &m, const ClassInfo &cls);
  /// Whether `el` may take redeclaration `redeclared` (reported when not).
  bool redeclarable(const ast::Modifier &redeclared, const Element &el);
  /// MLS 3.5, 9.3.1: a connector class has as many flow as potential variables (once per class).
  void checkConnectorBalance(Instance &conn, SourceRange used);
  /// MLS 3.5, 9.4.1: for an overdetermined record or type (one with a function
  /// equalityConstraint), the size of that function's output; nullopt for other classes.
  std::optional<size_t> overdeterminedSize(const ClassInfo *cls);
  std::optional<size_t> equalityConstraintSize(const ClassInfo *cls); ///< overdeterminedSize's work
  std::unordered_map<const ClassInfo *, std::optional<size_t>> overdetermined_;
  Instance *packageInstance(const ClassInfo *cls);
  ModPtr modFromAst(const std::vector<ast::Modifier> &mods, Instance *scope, const ClassInfo *lexical);
  static ModPtr merge(const ModPtr &high, const ModPtr &low);
  static ModPtr slice(const ModPtr &mod, int index, const std::vector<int> &shape);
  /// The value of a modification lowered in its scope, sliced for the instance it reaches.
  Value modValue(const Mod &mod, Context context);
  /// modValue without copying an unsliced value: a reference to the cached value, or to
  /// `scratch` holding the slice.
  const Value &modValueRef(const Mod &mod, Context context, Value &scratch);
  void checkModifiers(const Mod &mod, const ClassInfo &cls, const std::string &what);
  /// Attributes and parameter values of a variable, or (`bindings`) the equations of `Real x = e`.
  void lowerVariableAttributes(Instance &inst, int element, bool bindings);
  /// The texts of attribute modification `m` (unit, displayUnit, quantity) of `count` elements: a
  /// String known when the model is compiled, or an array of one per element; else an error (nullopt).
  std::optional<std::vector<std::string>> knownTexts(const Mod &m, const std::string &attribute,
                                                     size_t count);
  /// `String s = e;` of a String variable: its equation at events (its handle = e's).
  void bindStringVariable(Instance &inst, const Symbol &sym, const Value &v);
  const Expr *parameterBinding(int var);
  /// The binding of external object `var` of class `cls`: the call of its constructor (and its
  /// destructor specialized), checked (MLS 3.5, 12.9.7).
  const Expr *objectBinding(int var, const ClassInfo *cls);
  /// Sizes the per-variable tables to the variables (der() adds variables on the way).
  void growPerVariable();
  /// The compile-time value of an Integer/Real expression of parameters and constants; marks the
  /// parameters it reads as structural. nullopt after an error naming `what`.
  std::optional<double> structural(const Value &v, SourceRange range, const std::string &what);
  std::optional<double> evaluateStructural(const Expr *e, SourceRange range, const std::string &what);
  /// Whether `e` reads time or a variable that is not a parameter.
  bool changesInTime(const Expr *e);
  /// The element of an array of shape `dims` (`element(k)` its k-th, row-major) that the
  /// subscripts `varying[e]` (non-null: they change in time) select, the others fixed at the
  /// flat position `flat` (varying ones counted at their first index): a selection among the
  /// elements, NaN (false) out of bounds. `d` is the dimension to start from.
  const Expr *selectElement(const std::function<const Expr *(size_t)> &element, const std::vector<int> &dims,
                            const std::vector<const Expr *> &varying, bool isBool, size_t d, size_t flat);
  std::optional<std::vector<int>> dimensions(const std::vector<ast::Subscript> &subs, Scope &scope,
                                             const std::string &what);
  std::string variableName(const std::string &base, const std::vector<int> &dims, size_t flat);

  /// One scalar equation l = r (a discrete variable's definition, an initial value, or a
  /// continuous equation); false after an error that ends the equation's lowering.
  bool addScalarEquation(const Expr *l, const Expr *r, bool isBool, SourceRange range, int number, int originId,
                         bool initial);

  // ---- Records.cpp ----
  /// The dimensions of record field `el` (its own, then its type's; -1 for `:`); nullopt after errors.
  /// `siblings`: the values of the record's Integer parameter fields that sizes may read
  /// (`parameter Real a[nc]`, recordSizes).
  std::optional<std::vector<int>>
  fieldDimensions(const Element &el, const std::vector<std::pair<std::string, Value>> *siblings = nullptr);
  /// The values of record class `record`'s scalar Integer parameter fields as a record of it
  /// has them: `modifiers` (a component's, may be null) first, then the extends clauses', then
  /// their declarations (each in terms of the ones before it); those not known are left out.
  std::vector<std::pair<std::string, Value>> recordSizes(const ClassInfo &record,
                                                         const std::vector<ast::Modifier> *modifiers,
                                                         const ClassInfo *modifierScope);
  /// A record component as a value: its variables in the order of its fields.
  /// `texts`, when given: per element, the scalar String constant field it is (null for others).
  Value recordValue(Instance &inst, SourceRange range, std::vector<Symbol *> *texts = nullptr);
  /// The records `insts` (an array of shape `dims`, row-major) as one value of record class `cls`.
  Value recordArrayValue(const std::vector<Instance *> &insts, const std::vector<int> &dims,
                         const ClassInfo *cls, SourceRange range);
  /// The default of record field `el` in its constructor: the value an extends clause gives it,
  /// else its declaration's; `lexical` is where that is written. Null when it has none.
  const ast::Expr *fieldDefault(const Element &el, const ClassInfo *&lexical);
  /// `R(a, b, name = c)`: the record constructor of record class `cls` (MLS 3.5, 12.6.1).
  Value lowerRecordConstructor(const ast::Expr &call, Scope &scope, ClassInfo *cls);
  /// A field of a record value: its dimensions, its scalars (a nested record's counted), and its
  /// primitive type or nested record.
  struct FieldShape {
    std::vector<int> dims;
    size_t scalars = 0;
    Type type = Type::Real;
    const ClassInfo *record = nullptr;
  };
  std::optional<FieldShape> fieldShape(const Element &el,
                                       const std::vector<std::pair<std::string, Value>> *siblings = nullptr);
  /// The scalars of a value of record `cls` (nested records' fields counted); nullopt after an error.
  std::optional<size_t> recordSize(const ClassInfo &cls);
  /// The modification of a constant record of class `cls` bound whole by `mod`: the value lowered
  /// once, each field given its part as a value of its own; null after an error.
  ModPtr constantRecordMod(const ModPtr &mod, const ClassInfo &cls);
  /// The equations of `lhs = rhs` for two values of one record class, element by element.
  void equateRecords(const Value &lhs, const Value &rhs, SourceRange range, int number, int originId, bool initial);
  /// `Point p = Point(1, 2)`: a record component with a value; parameters take their fields'
  /// values as bindings, other components get equations (lowered with their owner's).
  void bindRecord(Instance &owner, Instance &record, const ModPtr &mod, bool parameter);
  struct RecordBinding {
    Instance *owner, *record;
    ModPtr mod;
  };
  std::vector<RecordBinding> recordBindings_;

  // ---- Algorithms.cpp ----
  /// An algorithm section of a model or block: executed symbolically, it defines each variable
  /// it assigns by the value it leaves in it (MLS 3.5, 11.1).
  void lowerAlgorithm(const ast::AlgorithmSection &section, Scope &scope);

  // ---- Assertions.cpp ----
  /// assert(condition, message, level) of an equation section (guarded by assertGuards_).
  /// assert(condition, message, level) (MLS 3.5, 8.3.7); in a when-clause's branch (`atEvent`),
  /// the condition is taken when the branch fires, into a hidden discrete Boolean that the
  /// assertion checks from then on.
  void lowerAssert(const ast::Expr &call, Scope &scope, bool initial, WhenBranch *atEvent = nullptr);
  /// A call statement of a function without outputs (its assertions): checked as an assert is.
  void lowerEffectCall(const ast::Expr &call, Scope &scope, bool initial, WhenBranch *atEvent = nullptr);
  /// Whether `call` names a function without outputs (an equation or statement for its effects).
  bool isEffectCall(const ast::Expr &call, Scope &scope);
  /// Adds assertion `a` with `condition` (of the algorithm's values, under the guards; at an
  /// event its condition and message values are held as the branch makes them).
  void addAssertion(Assertion a, const Expr *condition, SourceRange range, WhenBranch *atEvent);
  std::set<int> eventAssertVars_; ///< the hidden variables of asserts in when-clauses
  /// A message of string literals, '+' and String(...): its parts appended to `out`.
  bool lowerMessage(const ast::Expr &e, Scope &scope, std::vector<MessagePart> &out);
  /// String(x, ...) of a value known when the model is compiled, as a String value; an error
  /// names a value that changes in time.
  Value knownString(const ast::Expr &call, Scope &scope);
  bool lowerStringConversion(const ast::Expr &call, Scope &scope, std::vector<MessagePart> &out);

  // ---- Strings.cpp: Strings computed when a function runs ----
  /// The Function that calls runtime String function `symbol` (eqc_external.h) on `inputs`, then
  /// `texts` (literals), returning `result`; one per symbol and texts.
  int runtimeStringFunction(const std::string &name, const char *symbol, void *address,
                            const std::vector<SlotType> &inputs, const std::vector<std::string> &texts,
                            SlotType result);
  /// A scalar String as a computed one (a literal's call for a text known when compiled). The
  /// elements of a String array are these (MLS 3.5, 10.4: `{mediumName}`, `fill("", 0)`).
  Value computedString(const Value &v);
  /// An element of a String array as a scalar String: its text where it is a literal's call.
  Value stringOfElement(const Expr *e);
  /// a + b of scalar Strings: text when both are known when compiled, else computed.
  Value concatStrings(const Value &a, const Value &b);
  /// The sign (-1, 0, 1) of comparing scalar Strings a and b, as an Integer expression.
  const Expr *compareStrings(const Value &a, const Value &b);
  /// The String that message parts (lowerStringConversion's) spell, computed.
  Value computedMessage(const std::vector<MessagePart> &parts);
  /// `call` (a model's call whose arguments are Strings computed when it runs) as the call of a
  /// function of the values the Strings are made of, which computes them and the call: a function
  /// releases the Strings it makes when it returns, a model's code would not.
  /// An expression that is no call: each call in it that takes such Strings.
  const Expr *callMakingStrings(const Expr *call);
  /// String variables of a model (MLS 3.5, 4.8.4, discrete-time by 3.8.3) hold the handle of
  /// their text (eqc_string_handle): the handle of scalar String `v`, a Real expression (the
  /// handle it reads when v is a String variable's text, no new one).
  const Expr *stringHandle(const Value &v);
  /// The text of a handle, as a computed String.
  Value handleText(const Expr *handle);
  int handleTextFunction(); ///< eqc_string_text's Function
  /// The handle that String `v` is the text of (a String variable's value), else null.
  const Expr *textHandle(const Value &v);
  /// `target = value` of Strings in an equation, a when-clause or an algorithm: target (Strings
  /// of variables) and value become handles (target's variables, value's handle); an error
  /// (false) where only one of them is a String or target is no String variable. Nothing
  /// changes when neither is a String.
  bool handlesOfStrings(Value &target, Value &value, SourceRange range, const std::string &targetText);

  // ---- LowerExpr.cpp ----
  Value lower(const ast::Expr &e, Scope &scope);
  /// The package instance of constant `name` that class `c` imports (`import A.B.name;`,
  /// `import A.B.*;`, MLS 3.5, 13.2.1), or null.
  Instance *importedConstant(const ClassInfo &c, const std::string &name);
  /// Whether `v` (the lowered `e`) is numeric (t Real or Integer) or Boolean; else an error at e.
  bool expectType(const Value &v, const ast::Expr &e, Type t);
  Value lowerReal(const ast::Expr &e, Scope &scope);
  Value lowerBool(const ast::Expr &e, Scope &scope);
  /// The element of `v`, the lowered `e`, when it is a scalar; nullptr when v failed, or after
  /// reporting `message` at e when it is an array.
  const Expr *scalar(const Value &v, const ast::Expr &e, const char *message);
  /// semiLinear(x, positiveSlope, negativeSlope) (MLS 3.5, 3.7.2), element-wise.
  Value lowerSemiLinear(const ast::Expr &e, Scope &scope);
  /// cat(k, A, B, ...) (MLS 3.5, 10.4.2).
  Value lowerCat(const ast::Expr &e, Scope &scope);
  Value lowerName(const ast::Expr &e, Scope &scope);
  Value lowerCall(const ast::Expr &e, Scope &scope);
  /// The function `name` of the classes around `scope` (or a top-level one) that hides the
  /// builtin of that name (MLS 3.5, 5.3: the builtins are found last, as if in the global scope;
  /// MSL's ComplexMath.sqrt calls its own abs); null when none, or when it is the builtin itself
  /// (`external "builtin"`). Remembered per class and name.
  ClassInfo *shadowingFunction(const std::string &name, const Scope &scope);
  std::map<std::pair<const ClassInfo *, std::string>, ClassInfo *> shadowing_;
  /// E(i): the literal of enumeration `type` numbered i (MLS 3.5, 4.8.5.2).
  Value lowerEnumerationConversion(const ast::Expr &e, Scope &scope, const ClassInfo &type);
  Value lowerBinary(const ast::Expr &e, Scope &scope);
  Value lowerIf(const ast::Expr &e, Scope &scope);
  Value lowerRange(const ast::Expr &e, Scope &scope);
  /// An item of an array constructor: a scalar String as a String array's element.
  Value arrayItem(Value v);
  Value lowerArray(const ast::Expr &e, Scope &scope);
  Value lowerMatrix(const ast::Expr &e, Scope &scope);
  Value lowerBuiltinCall(const ast::Expr &e, Scope &scope, bool &handled);
  /// cross, outerProduct, diagonal or skew (`fn`) of call `e`, whose argument count is checked.
  Value lowerVectorAlgebra(const std::string &fn, const ast::Expr &e, Scope &scope);
  /// A call of function `fn`; `bound` the inputs a partial application fixed (a call of a
  /// functional input), which the call's arguments skip.
  /// `owner`: the component the function was named through (`world.gravityAcceleration`).
  Value lowerUserCall(const ast::Expr &e, Scope &scope, ClassInfo *fn, int outputIndex, std::vector<Value> *allOutputs,
                      const FunctionArgument *bound = nullptr, Instance *owner = nullptr);
  /// The function that short class `fn` names, through short classes; `defaults` gets the
  /// values their modifiers give its inputs (the nearest first); null after an error.
  ClassInfo *shortFunctionTarget(ClassInfo *fn, Instance *owner, Scope &scope,
                                 std::vector<std::pair<std::string, Value>> &defaults);
  /// `a.b.f(...)`: the function f of the class of scalar component a.b (MLS 3.5, 5.3.2), and that
  /// component in `owner`; null when the name does not start with a component.
  ClassInfo *componentFunction(const std::string &dotted, Scope &scope, Instance *&owner);
  /// A call of function `fn` with `args`, one per input in order: output `outputIndex` (and all
  /// outputs in `allOutputs`); errors at `range` and `nameRange`.
  /// A function whose body is an external call that eqc evaluates itself when its arguments are
  /// known (ModelicaStrings_substring, MSL's Strings.substring: its String result is then a
  /// value known when compiled): its value, or an error at the call; nullopt for other functions,
  /// and where the call `mayRun` (in a function) with arguments computed when it runs.
  std::optional<Value> foldedExternalCall(ClassInfo *fn, const std::vector<const Element *> &inputs,
                                          const std::vector<Value> &args, const ast::Expr &e, bool mayRun);
  /// A call whose arguments have more dimensions than the inputs declare: the function mapped
  /// over the extra leading dimensions (MLS 3.5, 12.4.6); nullopt when the call is not one.
  std::optional<Value> vectorizedCall(ClassInfo *fn, const std::vector<const Element *> &inputs,
                                      const std::vector<Value> &args, const ast::Expr &e, int outputIndex);
  Value callSpecialized(ClassInfo *fn, const std::vector<Value> &args, SourceRange range, SourceRange nameRange,
                        int outputIndex, std::vector<Value> *allOutputs);
  /// The default value of `input` of function `fn` (its declaration equation), lowered in fn.
  Value inputDefault(ClassInfo *fn, const Element &input);

  // ---- Operators.cpp: overloaded operators of operator records (MLS 3.5, 14) ----
  /// The operator record class of value `v`, or null.
  const ClassInfo *operatorRecord(const Value &v);
  /// The functions of operator `op` ("'+'", "'constructor'") of operator record `record`, in
  /// declaration order: those of its `operator 'op'`, or its `operator function 'op'`.
  std::vector<ClassInfo *> operatorFunctions(const ClassInfo &record, const std::string &op);
  /// Whether the call `fn(positional..., name = named...)` is a valid match (14.1): every input
  /// given once or defaulted, each argument of the input's type (Integer and Real alike).
  bool validMatch(ClassInfo &fn, const std::vector<const Value *> &positional,
                  const std::vector<std::pair<std::string, const Value *>> &named);
  /// Whether `arg` has the type of input `input` (14.1: Integer and Real alike, arrays by rank).
  bool argumentFits(const Element &input, const Value &arg);
  /// `fn(positional..., name = named...)` of a valid match, the rest of the inputs defaulted.
  Value callMatched(ClassInfo &fn, const std::vector<const Value *> &positional,
                    const std::vector<std::pair<std::string, const Value *>> &named, SourceRange range);
  /// `a op b` (14.4) with an operand of an operator record: the call of the operator's unique
  /// matching function, directly or with one operand converted by a constructor; nullopt when
  /// neither operand is of an operator record.
  std::optional<Value> overloadedBinary(ast::BinaryOp op, const Value &a, const Value &b, SourceRange range);
  /// `op a` (14.5) of an operator record; nullopt when `a` is not one.
  std::optional<Value> overloadedUnary(ast::UnaryOp op, const Value &a, SourceRange range);
  /// `apply` to the elements of arrays `a` and `b` of one shape, or of one array and a scalar (a
  /// scalar operand is passed whole to every call; `b` may be an empty-dims dummy for a unary
  /// operator); the results, scalars of one type, make an array of that shape. `what` names the
  /// operation in messages.
  std::optional<Value>
  elementwiseOverloaded(const Value &a, const Value &b, SourceRange range, const std::string &what,
                        const std::function<std::optional<Value>(const Value &, const Value &)> &apply);
  /// `C(args)` of operator record C with an operator 'constructor' (14.2); nullopt when it has none.
  std::optional<Value> overloadedConstructor(const ast::Expr &call, Scope &scope, ClassInfo &record);
  /// "Complex", "Real[3]": the type of a value in messages.
  std::string valueTypeText(const Value &v);
  /// The argument `e` of the functional input `formal` (of type `type`) of function `fn`:
  /// a function name, a partial application, or a functional input in scope, checked to be
  /// function-compatible with `type` (MLS 3.5, 6.6); a failed Value after errors.
  Value lowerFunctionArgument(const ast::Expr &e, Scope &scope, const ClassInfo &fn, const Element &formal,
                              ClassInfo &type);
  /// Whether function `target`, with the inputs in `bound` removed, is function-compatible with
  /// the function type `type` (MLS 3.5, 6.6); `why` says how not.
  bool functionCompatible(const ClassInfo &target, const std::set<std::string> &bound, const ClassInfo &type,
                          std::string &why);
  /// The functional input `name` of function `b` given `given`: its bound values that are not
  /// known when compiled become hidden inputs of `b` (slots `name.input`), the others stay constants.
  FunctionArgument functionalInput(FunctionBuilder &b, const std::string &name, const FunctionArgument &given);
  /// The function type an element of a function is declared with (a functional input), or null.
  ClassInfo *functionType(const Element &el);
  Value lowerReduction(const ast::Expr &e, Scope &scope);
  /// The shape of an expression; for a plain name without building its elements.
  std::optional<std::vector<int>> shapeOf(const ast::Expr &e, Scope &scope);
  Value lowerDer(const ast::Expr &arg, Scope &scope, SourceRange range);
  /// lowerName's `a[i].f` where part `p` (a component array) has subscripts `varying` (non-null
  /// where the subscript is known only when the model runs, from subscriptIndices): `a[:].f`
  /// subscripted; `leading` tells whether the array is the name's first.
  Value componentAtVaryingIndex(const ast::Expr &e, size_t p, const std::vector<const Expr *> &varying,
                                bool leading, Scope &scope);
  Value applySubscripts(const Value &v, const std::vector<ast::Subscript> &subs, Scope &scope, const std::string &name);
  /// The flat (row-major) indices that subscripts select from an array of shape `dims`, and the
  /// shape of the selection; nullopt after an error. With `varying`, a scalar subscript that
  /// changes in time (in equations and algorithms) is no error: it is stored there (at its
  /// dimension) and counted at index 1 in the result.
  std::optional<std::vector<size_t>> subscriptIndices(const std::vector<int> &dims, const std::vector<ast::Subscript> &subs,
                                                      Scope &scope, const std::string &name, std::vector<int> &outDims,
                                                      std::vector<const Expr *> *varying = nullptr);
  /// Runs `body` for every combination of the iterators' values (the first outermost), each bound
  /// in scope.loops; `shape` receives the number of values of each iterator. False after an
  /// error or when `body` returns false.
  bool iterate(const std::vector<ast::ForIndex> &iterators, Scope &scope, std::vector<int> &shape,
               const std::function<bool()> &body);
  /// A vector of Integer values from a range or array expression (for-loops, subscripts).
  /// The values of a for-loop's range (known at compilation); `enumeration` (when given) receives
  /// the enumeration type of the values, if they have one (`for e in E`).
  /// A range of Booleans (`for b in {false, true}`, `for b in Boolean`) gives 0 and 1 with `*boolean` set.
  std::optional<std::vector<double>> iterationValues(const ast::Expr &e, Scope &scope, const std::string &what,
                                                     const ClassInfo **enumeration = nullptr, bool *boolean = nullptr);
  /// The loop variable of one iteration.
  Value loopValue(double x, const ClassInfo *enumeration, bool boolean = false);
  /// MLS 3.5, 8.3.2.2 and 11.2.2.2: the range of `for i loop` (no `in`), 1:size(x, k) of the arrays
  /// x whose k-th subscript is i in `uses` (all of one size); nullopt after an error at `idx`.
  std::optional<std::vector<double>> implicitRange(const ast::ForIndex &idx, const std::vector<const ast::Expr *> &uses,
                                                   Scope &scope);
  Value elementwise(const Value &a, const Value &b, SourceRange range, const char *op,
                    const std::function<const Expr *(const Expr *, const Expr *)> &f, Type resultType);
  Value fail() { return Value{}; }
  bool sameShape(const Value &a, const Value &b) const { return a.dims == b.dims; }

  // ---- Equations.cpp ----
  void lowerInstanceEquations(Instance &inst);
  void lowerEquation(const ast::Equation &eq, Scope &scope, int number, bool initial);
  /// The outputs of the call `rhsAst` that the list `lhsAst` = `(a, b, ...)` receives; false after
  /// an error (not a call of a function, or fewer outputs than names).
  bool tupleOutputs(const ast::Expr &lhsAst, const ast::Expr &rhsAst, Scope &scope, std::vector<Value> &outputs);
  void lowerSimpleEquation(const ast::Expr &lhs, const ast::Expr &rhs, SourceRange range, Scope &scope, int number,
                           bool initial);
  void lowerIfEquation(const ast::Equation &eq, Scope &scope, int number, bool initial);
  void lowerForEquation(const ast::Equation &eq, Scope &scope, int number, bool initial,
                        const std::function<void(Scope &)> &body);
  void lowerWhenEquation(const ast::Equation &eq, Scope &scope, int number);
  void lowerWhenBody(const std::vector<ast::Equation> &body, Scope &scope, WhenBranch &branch);
  void lowerConnect(const ast::Equation &eq, Scope &scope);
  std::optional<std::vector<ConnectorEnd>> connectorEnds(const ast::Expr &ref, Scope &scope);
  std::vector<ConnectorLeaf> connectorLeaves(const ConnectorEnd &end);
  void collectLeaves(Instance &inst, const std::string &prefix, std::vector<ConnectorLeaf> &out);
  void generateConnectionEquations();
  int connectionNode(const ConnectorEnd &end);

  // ---- Streams.cpp: stream connectors (MLS 3.5, 15) ----
  /// inStream(v) and actualStream(v) of stream variables (element-wise on arrays).
  Value lowerStreamOperator(const std::string &fn, const ast::Expr &call, Scope &scope);
  /// The variable that stands for inStream(var) until the connection sets are known (made once
  /// per stream variable; generateStreamEquations defines it).
  int inStreamVariable(int var);
  /// The flow variable of stream connector `conn` (-1 when it has none: an error was reported).
  int streamFlow(Instance &conn);
  /// The members of a set other than `except` that can carry stream leaf `leaf` into it: each
  /// member's flow towards the set and the value it brings (15.2; members whose flow's min/max
  /// bound says it never flows that way are left out).
  std::vector<std::pair<const Expr *, const Expr *>>
  streamSources(const std::vector<int> &members, const std::vector<std::vector<ConnectorLeaf>> &leaves,
                size_t leaf, size_t except);
  /// `a*b` where one factor is actualStream(c.h) and the other c's flow: the product is
  /// continuous, so it needs no event at flow reversal (15.3); the factor's event-free form.
  void smoothActualStreamProducts(Value &a, Value &b);
  /// One connection set's outside connectors' stream variables (15.2: one equation each, the
  /// mixing of the set's other members). Requires: the set's members and their leaves.
  void generateOutsideStreamEquations(const std::vector<int> &members,
                                      const std::vector<std::vector<ConnectorLeaf>> &leaves, SourceRange loc,
                                      const std::function<int()> &origin, size_t &generated);
  /// Defines every inStream variable made so far (and those its definitions ask for): the mixing
  /// of the other members of the set where the connector is an inside connector.
  void generateInStreamEquations();
  /// The mixing value of a stream variable over `sources` (15.2's recommended regularization);
  /// `alone` when there is none.
  const Expr *streamMixing(const std::vector<std::pair<const Expr *, const Expr *>> &sources,
                           const Expr *alone, double nominal);
  /// The connection sets: a root node → its member nodes (filled by generateConnectionEquations).
  std::map<int, std::vector<int>> connectionSets_;
  std::unordered_map<int, Instance *> streamConnector_; ///< stream variable → its connector instance
  std::map<int, int> inStreamVars_;                     ///< stream variable → its inStream variable
  std::vector<int> inStreamPending_;                    ///< stream variables whose inStream is undefined
  /// actualStream(c.h)'s value (with events) → its event-free form and c's flow variable.
  std::unordered_map<const Expr *, std::pair<const Expr *, int>> actualStreams_;
  int origin(const Scope &scope);
  /// Whether `e` reads a continuous unknown or time other than through relations and
  /// piecewise-constant functions (then it changes between events).
  bool continuouslyDependent(const Expr *e);
  void addEquation(const Expr *lhs, const Expr *rhs, SourceRange range, int number, int origin, bool initial);

  // ---- Functions.cpp ----
  /// A name in a function body: its inputs, outputs, locals and loop variables (`found` false
  /// when it is none of them).
  Value lowerLocal(const ast::Expr &e, Scope &scope, bool &found);
  std::vector<std::pair<std::string, int>> localNames(const Scope &scope);
  /// The external object class (MLS 3.5, 12.9.7) that `name` names from `from`, or null.
  ClassInfo *externalObjectClass(const std::string &name, const ClassInfo *from);
  /// An external object input, output or protected variable of the function being specialized
  /// (its argument in args[argIndex] checked for an input); false after an error.
  bool addObjectLocal(FunctionBuilder &b, const Element &el, const ClassInfo &object, const std::vector<Value> &args,
                      size_t &argIndex, SourceRange callRange, std::vector<OutputShape> &outputs,
                      std::vector<LocalDefault> &defaults);
  /// The derivative annotation of function `cls` (MLS 3.5, 12.7.1), specialized as `id` to
  /// `args`: its derivative function becomes the one differentiation calls.
  void userDerivative(ClassInfo &cls, FunctionBuilder &b, int id, const std::vector<Value> &args, SourceRange callRange);
  /// The function specialized to its argument shapes; -1 after errors.
  /// What a protected scalar Integer with a binding (knownIntegerLocal) is to its function.
  enum class KnownInteger {
    Constant, ///< known for the call's sizes and never written: a value (b.values), no slot
    Variable, ///< a variable (with b.initialValues' value at binding time where its binding folds)
    Failed,   ///< its binding failed (reported)
  };
  /// Protected Integer `el` of b.cls, whose binding reads no later variable: its binding lowered
  /// at binding time, and what that makes it.
  KnownInteger knownIntegerLocal(FunctionBuilder &b, const Element &el, Scope &scope);
  /// Declares function variable `el` of b.cls in `b` (a slot per scalar, inputs taking their
  /// shapes from args[argIndex...], advanced past the ones it takes; outputs' shapes; defaults of
  /// outputs and protected variables); false when the call's argument does not fit (reported at
  /// the call: the specialization is abandoned).
  bool declareFunctionVariable(FunctionBuilder &b, const Element &el, Scope &scope, const std::vector<Value> &args,
                               size_t &argIndex, SourceRange callRange, std::vector<OutputShape> &outputs,
                               std::vector<LocalDefault> &defaults);
  int specializeFunction(ClassInfo *cls, const std::vector<Value> &args, SourceRange callRange,
                         std::vector<OutputShape> &outputs);
  /// The values a record variable `name` of class `record` (not an input) starts with in function `b`
  /// when it has no value as a whole: a field's value from the declaration's modifiers
  /// (`output Complex c(re = x)`), else the field's declaration equation in the record class
  /// (MLS 3.5, 12.6); nested records recursively, with the modifiers of their declarations in the
  /// class (`Pt b(x = 10)`, evaluated in `modifierScope`; null: the function's). False after an
  /// error at a modifier.
  bool recordFieldDefaults(FunctionBuilder &b, const std::string &name, const ClassInfo &record,
                           const std::vector<ast::Modifier> &modifiers, std::vector<LocalDefault> &defaults,
                           bool classDefaults = true, size_t arrayDims = 0,
                           const ClassInfo *modifierScope = nullptr);
  /// The locals of a record variable `name` of class `record` in function `b`, or of an array of
  /// them of shape `dims` (its fields "name.field", nested records recursively, then the record
  /// itself); false after errors.
  bool addRecordLocal(FunctionBuilder &b, const std::string &name, const ClassInfo &record,
                      FunctionBuilder::Local::Kind kind, SourceRange range, const std::vector<int> &dims = {},
                      const std::vector<ast::Modifier> *modifiers = nullptr,
                      const ClassInfo *modifierScope = nullptr);
  /// The slots of record local `record` in the order of a record (array) Value: record by record,
  /// each its leaf fields' scalars in declaration order.
  static std::vector<int> recordSlots(const FunctionBuilder &b, const FunctionBuilder::Local &record);
  /// The declared dimensions of function variable `el` (a colon is -1), evaluated in the
  /// function's scope; a size that is not a known Integer is reported and left out.
  std::vector<int> functionVariableDims(const Element &el, Scope &scope);
  /// Whether no statement of function `fn` assigns its variable `name` (an external function's
  /// may: false).
  static bool neverAssigned(const ClassInfo &fn, const std::string &name);
  /// The value of the first statement of function `fn`'s algorithm that assigns variable `name`
  /// whole (`name := e`, at the top level); null where another assigns it first.
  static const ast::Expr *firstWholeAssignment(const ClassInfo &fn, const std::string &name);
  /// Function `fn`'s variables in the order they are declared: as written, except that the
  /// protected variables that an output's or local's binding reads, or the sizing assignment of
  /// an unsized one (firstWholeAssignment: `Xsat := {.../pds, ...}`), come before it.
  static std::vector<const Element *> declarationOrder(const ClassInfo &fn);
  /// Whether `e`, a binding in function `fn`, reads a variable of fn that `b` has not declared yet.
  static bool readsLaterVariable(const ClassInfo &fn, const FunctionBuilder &b, const ast::Expr &e);
  /// The bindings of a function's outputs and locals in an order where each comes after the
  /// variables it reads (declaration order otherwise, and within a cycle).
  static std::vector<LocalDefault> dependencyOrder(const FunctionBuilder &b, const std::vector<LocalDefault> &defaults);
  /// Function variable `el` of record class `record` (specializeFunction): an input takes the
  /// next of `args`; false when that argument does not fit (reported).
  bool addRecordVariable(FunctionBuilder &b, const Element &el, const ClassInfo &record, Scope &scope,
                         const std::vector<Value> &args, size_t &argIndex, SourceRange callRange,
                         std::vector<OutputShape> &outputs, std::vector<LocalDefault> &defaults);
  /// The text of a message in a function (assert, MSL's error()): Strings known when compiled,
  /// `String(x)` of the function's values as `{x}`; false after errors (reported).
  bool messageText(const ast::Expr &e, Scope &scope, std::string &out);
  /// The type element `el` (of a function) is declared with, through short classes (SI.Temperature
  /// is Real) and long-form types (`type T extends Real; end T;`), and the scope its name is
  /// looked up in; `dims` gets the dimensions the short classes add, outermost first.
  std::pair<std::string, const ClassInfo *> baseType(const Element &el,
                                                     std::vector<const std::vector<ast::Subscript> *> *dims = nullptr);
  std::string baseTypeName(const Element &el) { return baseType(el).first; }
  /// The Integer scalar inputs of function `cls` that its arrays' dimensions name.
  /// The dimensions the short types of `el`'s declaration add (`type Orientation = Real[4]`),
  /// outermost type first.
  std::vector<const std::vector<ast::Subscript> *> shortTypeDims(const Element &el);
  std::set<std::string> sizingInputs(const ClassInfo &cls);
  /// The values of the sizing inputs in `args` (known when the model is compiled: the function is
  /// specialized to them); nullopt after errors.
  std::optional<std::map<std::string, double>> sizingArguments(const ClassInfo &cls, const std::vector<Value> &args,
                                                               SourceRange callRange);
  /// homotopy(actual, simplified) (MLS 3.5, 3.7.4): the actual expression, the simplified one checked.
  Value lowerHomotopy(const ast::Expr &e, Scope &scope);

  // ---- TimeOperators.cpp ----
  /// sample(start, interval) (MLS 3.5, 3.7.5): a condition true at the sample instants, with the
  /// discrete variable and when-clause that make its events.
  Value lowerSample(const ast::Expr &e, Scope &scope);
  std::map<std::pair<const Expr *, const Expr *>, const Expr *> samples_; ///< (start, interval) → condition
  /// delay(expr, delayTime[, delayMax]) (MLS 3.5, 3.7.2), elementwise: one history per element,
  /// with the assertion 0 <= delayTime <= delayMax where the values are not known yet.
  Value lowerDelay(const ast::Expr &e, Scope &scope);
  /// terminal() (MLS 3.5, 3.7.2): a discrete Boolean that only the terminal event (after the last
  /// step of a successful run) makes true (FlatSystem::terminal).
  Value lowerTerminal(const ast::Expr &e, Scope &scope);
  /// The delay time and maximum of delay(): parameter expressions where the rules ask for them;
  /// false after errors (reported).
  bool delayBounds(const ast::Expr &e, Scope &scope, Value &delayTime, Value &delayMax);

  // ---- ExternalCalls.cpp ----
  /// The body of external function `cls` (MLS 3.5, 12.9): a call of its C function (or, for
  /// language "builtin", of eqc's builtin) with its slots mapped to the C arguments; false after
  /// errors (reported).
  bool lowerExternalCall(const ClassInfo &cls, FunctionBuilder &b, std::vector<FnStatement> &body);
  /// The folder a `modelica://Class.Name/path` URI (13.5) or a `file://` URI names; "" (reported
  /// at `range`) when the class is unknown.
  std::string resolveUri(const std::string &uri, SourceRange range);
  /// Whether `name` is MSL's loadResource (ModelicaServices', which each tool provides).
  static bool isLoadResource(const std::string &name);
  /// loadResource(uri): the absolute path, a String known when the model is compiled.
  Value lowerLoadResource(const ast::Expr &e, Scope &scope);

  // ---- Flatten.cpp ----
  void readAnnotation(const ast::ClassDef &model);
  void readEqcAnnotation(const ast::Modifier &m);
  void classifyDiscrete();
  /// Parameters with fixed = false take the value their initial equation gives them.
  void initialParameters();
  std::vector<int> initialParameters_; ///< parameters with fixed = false and no value
  /// residual(p) = 0 solved for parameter p by Newton's method from its start value (known
  /// parameters otherwise); true when p has its value (or the failure was reported).
  bool solveInitialParameter(int p, const Expr *residual, SourceRange loc);
  /// Initial equations of parameters only, as many as the fixed = false parameters `open` they
  /// involve (MSL's SMPM_ResistiveBraking: a 2x2 linear system for an initial current phasor):
  /// solved together by Newton's method from the parameters' start values when the model is
  /// compiled, each solved parameter's binding its value and erased from `open`; the equations
  /// solved are removed from sys_.initialEquations (an error when Newton fails, reported).
  void solveInitialParameterSystem(std::set<int> &open, const std::function<const Expr *(const Expr *)> &atStart);
  /// Whether `e` reads parameters and constants only (no time, pre() or initial()).
  bool parameterExpression(const Expr *e);
  /// Discrete equations `a = b` (connections of discrete signals) define the variables farther
  /// from the one their tree's other equations define.
  void orientDiscreteAliases();
  /// Initial equations of discrete variables that when-clauses assign, as their values at
  /// initialization (a first branch `initial()` of the clause).
  void initialDiscreteValues();
  void checkParameterCycles();
  /// MLS 3.5, 18.3: parameters with annotation(Evaluate = true), and those whose final binding
  /// (`C1(final C = CapVal)`) is then a constant, take their values when the model is compiled:
  /// the values replace them in every expression (a capacitance 0 removes its der() term), and
  /// they cannot be changed afterwards (Variable::structural).
  void foldEvaluatedParameters();
  void checkBalance(const Instance &root);
  void componentSizes(Instance &root);

  // Shared state.
  ExprContext &ctx() { return *sys_.ctx; }
  Diagnostics &diags_;
  std::vector<const ast::File *> files_;
  ClassSource *library_ = nullptr;
  /// External object parameters (MLS 3.5, 12.9.7): their class, by variable.
  std::unordered_map<int, const ClassInfo *> objectClass_;
  /// The constructor call being lowered as an external object's binding (the only place a call
  /// of an external object class is allowed), or null.
  const ast::Expr *constructorCall_ = nullptr;
  /// Inside lowerEffectCall: a function without outputs gives its hidden output.
  int statementCall_ = 0;
  /// Algorithm sections lowered so far (each instance's own number).
  int algorithmCount_ = 0;
  ExternalCode *external_ = nullptr; ///< loads external C code; null: external functions are refused
  /// The files' own classes, as registered (a `within` puts them into a library's package).
  std::vector<std::pair<const ast::ClassDef *, ClassInfo *>> fileClasses_;
  FlatSystem sys_;
  std::unique_ptr<Differentiator> differentiator_;
  std::vector<std::unique_ptr<ClassInfo>> classes_;
  std::vector<std::unique_ptr<ast::ClassDef>> builtinClasses_; ///< StateSelect, AssertionLevel
  /// A short package class with modifications, as the long class that extends its base with them
  /// (MLS 3.5, 4.5.1); other classes as written.
  const ast::ClassDef &modifiedPackage(const ast::ClassDef &def);
  std::map<const ast::ClassDef *, std::unique_ptr<ast::ClassDef>> modifiedPackages_;
  std::unordered_map<std::string, ClassInfo *> topLevel_;
  std::vector<std::unique_ptr<Instance>> packages_;
  std::unordered_map<const ClassInfo *, Instance *> packageIndex_;
  std::vector<Instance *> instances_; ///< every component instance, in creation order
  Instance *root_ = nullptr;
  std::unique_ptr<Instance> rootOwner_;
  /// Where each variable's binding comes from (a modification), until it is lowered.
  struct PendingBinding {
    ModPtr mod;
    size_t element = 0; ///< within the variable's array
    enum { None, Lowering, Done } state = None;
    std::vector<int> dims; ///< of the variable's array
  };
  std::vector<PendingBinding> bindings_;
  std::vector<char>
      evaluateAnnotated_; ///< per variable: a parameter declared with annotation(Evaluate = true)
  std::vector<double> structuralValue_; ///< per variable: compile-time value of a parameter (NaN: not yet)
  std::vector<char> structuralState_;
  /// Connection sets: union-find over connector nodes.
  struct Node {
    ConnectorEnd end;
    int parent;
    SourceRange connect;  ///< the first connect that names it
    SourceRange declared; ///< the connector's declaration
    Instance *owner = nullptr; ///< the instance whose equations hold the connect
    std::string text;
  };
  std::vector<Node> nodes_;
  /// Expandable connectors (MLS 3.5, 9.1.3), seen from inside or outside their component: the
  /// sets that connect() joins, whose members get the union of their elements.
  struct BusNode {
    Instance *bus;
    bool outside;
    int parent;
    SourceRange connect;       ///< the first connect that names it
    Instance *owner = nullptr; ///< the instance whose equations hold that connect
  };
  std::vector<BusNode> busNodes_;
  std::map<std::pair<Instance *, bool>, int> busNodeIds_;
  int busNode(Instance *bus, bool outside, SourceRange connect, Instance *owner);
  int findBus(int node);
  /// Joins the sets of two expandable connector ends; true when they were apart.
  bool joinBuses(const ConnectorEnd &x, const ConnectorEnd &y, SourceRange connect, Instance *owner);
  /// The element `name` of expandable connector `bus`: declared (made present) or added; null
  /// when it has neither.
  Symbol *busElement(Instance &bus, const std::string &name);
  /// Adds element `name` to expandable connector `bus`, of the type of connector end `like`.
  Symbol &addBusElement(Instance &bus, const std::string &name, const ConnectorEnd &like, SourceRange where);
  /// After every connect: each set of connected expandable connectors gets the union of its
  /// members' elements, each element connected across the set, to a fixed point (sub-buses).
  void completeExpandableConnectors();
  /// Connects two connector ends (a connect's pair, or a bus element across its set).
  void connectEnds(const ConnectorEnd &x, const ConnectorEnd &y, SourceRange range, Instance *owner);
  /// Connects the connectors inside two connected connector instances, element by element.
  void connectSubConnectors(const ConnectorEnd &x, const ConnectorEnd &y, SourceRange range, Instance *owner);
  // ---- ConnectionGraph.cpp: overdetermined connectors (MLS 3.5, 9.4) ----
  /// A node of the virtual connection graph: an instance of an overdetermined record (one with
  /// a function equalityConstraint) or of an overdetermined type, in a connector.
  struct GraphNode {
    Instance *record = nullptr; ///< the record instance; null for a type
    int firstVar = -1;          ///< a type: its variables from firstVar on, row-major
    std::vector<int> dims;      ///< a type: its array dimensions
    const ClassInfo *cls = nullptr; ///< the class that has equalityConstraint
    std::string path;
    bool definiteRoot = false;  ///< Connections.root
    int priority = -1;          ///< Connections.potentialRoot's priority; -1: not a potential root
    bool selected = false;      ///< a root of one of the spanning trees (Connections.isRoot)
    int depth = -1;             ///< the distance from its tree's root along tree edges
  };
  /// An edge: a connect (optional in the spanning trees) or a Connections.branch (required).
  struct GraphEdge {
    int a, b;
    bool required;
    SourceRange at;
    Instance *owner; ///< whose equations hold it
    bool inTree = false;
  };
  std::vector<GraphNode> graphNodes_;
  std::map<std::pair<const Instance *, int>, int> graphNodeIds_;
  std::vector<GraphEdge> graphEdges_;
  std::unordered_set<int> graphVars_; ///< the variables of the nodes: not in the connection sets' equalities
  bool graphBuilt_ = false;
  /// If-equations whose conditions ask the graph (Connections.isRoot, rooted): lowered once it is built.
  struct DeferredEquation {
    const ast::Equation *eq;
    Scope scope;
    int number;
    bool initial;
    int forPart;
  };
  std::vector<DeferredEquation> deferred_;
  /// The node of an overdetermined record or type instance (`record` or the variable at
  /// `firstVar`); made on first use.
  int graphNode(Instance *record, int firstVar, const std::vector<int> &dims, const ClassInfo *cls, const std::string &path);
  /// The node that `A.R`, an argument of a Connections operator, names; -1 after an error, -2
  /// when it is in a disabled conditional component (the statement is removed).
  int graphNodeOf(const ast::Expr &ref, Scope &scope);
  /// Connections.branch, root and potentialRoot: edges and roots of the graph.
  void lowerGraphStatement(const ast::Expr &call, Scope &scope);
  /// Connections.isRoot, Connections.rooted (and the deprecated rooted): a Boolean constant.
  Value lowerGraphQuery(const ast::Expr &call, Scope &scope);
  /// Whether if-equation `eq`'s conditions, or assert `eq`, ask what connections make
  /// (Connections.isRoot, rooted, cardinality): it is lowered once every connect is known.
  static bool asksConnections(const ast::Equation &eq);
  /// cardinality(c) (MLS 3.5, 3.7.2.3): an Integer constant.
  Value lowerCardinality(const ast::Expr &call, Scope &scope);
  /// The connect-equations that name each connector instance, and primitive connector.
  std::unordered_map<const Instance *, int> cardinality_;
  std::unordered_map<int, int> cardinalityVar_;
  /// The optional edges that connect(x, y) of two connector instances makes.
  void addConnectEdges(Instance &x, Instance &y, SourceRange at, Instance *owner);
  /// Selects the roots and the spanning trees (9.4.2), then lowers the deferred equations.
  void buildConnectionGraph();
  /// Ensures: each subgraph's definite roots, or else its first potential root of the lowest
  /// priority number, are `selected`.
  void selectRoots();
  /// A warning at the first edge of a subgraph (`members`) that has no root.
  void warnRootless(const std::vector<int> &members);
  /// Requires: selectRoots. Ensures: `inTree` on the edges of one spanning tree per selected root
  /// (every branch; errors where branches cannot all be).
  void spanningTrees();
  /// Requires: spanningTrees. Ensures: every node's `depth` along its tree from its root.
  void treeDepths();
  /// The connection equations of the graph's optional edges: the records' equalities on tree
  /// edges, `0 = equalityConstraint(A.R, B.R)` on the others.
  void generateGraphEquations();
  std::unordered_map<int, int> primitiveInside_, primitiveOutside_; ///< var → node
  std::vector<Instance *> connectors_; ///< every connector instance (for unconnected flows)
  std::vector<int> primitiveConnectors_;
  int find(int node);
  /// Declaration equations `Real x = e;` of unknowns and discrete variables, lowered in phase 2.
  std::vector<int> unknownsWithBinding_;
  int equationNumber_ = 0;
  int forPart_ = 0; ///< the position in a for-equation's body being lowered (Equation::part)
  /// While lowering the branches of an if-equation with a time-varying condition: the equations
  /// (lhs, rhs) are collected here instead of added.
  std::vector<std::pair<const Expr *, const Expr *>> *collect_ = nullptr;
  /// The conditions of the branches of time-varying if-equations being lowered: an assert inside
  /// holds where they do not.
  std::vector<const Expr *> assertGuards_;
  /// Where Strings may be values (a String parameter's binding, a message, the operands of a
  /// relation): elsewhere a String literal or parameter is an error at its place.
  int stringContext_ = 0;
  std::map<std::string, int> stringFunctions_; ///< runtimeStringFunction's, by symbol and texts
  std::unordered_map<int, std::string> literalTexts_; ///< computedString's literal functions' texts
  /// Set by connectorEnds when an end is a disabled conditional component (the connect is removed).
  bool endDisabled_ = false;
  std::set<const ClassInfo *> balanceChecked_; ///< connector classes checked (checkConnectorBalance)
  /// While lowering an algorithm section: the values its variables have at the statement being
  /// lowered (substituted into what it reads, assertions included).
  const std::unordered_map<int, const Expr *> *algorithmValues_ = nullptr;
  /// Variables assigned in when-clauses (they are discrete), with the first place.
  std::unordered_map<int, SourceRange> whenAssigned_;
  /// pre() of variables outside when-clauses: they must turn out discrete.
  std::vector<std::pair<int, SourceRange>> pendingPre_;
  /// reinit targets: they must be states.
  std::vector<std::pair<int, SourceRange>> reinitTargets_;
  /// Specialized functions: key "class name|shapes" → function id, with their output types.
  struct FunctionSpec {
    int id;
    std::vector<OutputShape> outputs;
  };
  std::unordered_map<std::string, FunctionSpec> functions_;
  std::vector<int> endStack_; ///< sizes for `end` in subscripts, innermost last
  /// Classes whose equations had errors in one instance, with the number of other instances skipped.
  std::unordered_map<const ClassInfo *, size_t> failedClasses_;
  int depth_ = 0;             ///< component nesting (recursion guard)
  int specializing_ = 0;      ///< functions being specialized, nested
  size_t scalars_ = 0;        ///< variables and instances created so far (kMaxScalars)
  size_t iterations_ = 0;     ///< iterations of for-equations, comprehensions and reductions
  /// Counts one more loop iteration; false (with an error at `range`, once) beyond 5 kMaxScalars.
  bool countIteration(SourceRange range);
  /// Counts `n` more scalars; false (with an error at `range`) beyond kMaxScalars.
  bool reserveScalars(size_t n, SourceRange range);
};

} // namespace eqc::frontend

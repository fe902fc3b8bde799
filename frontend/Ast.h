// The project-owned abstract syntax tree; nothing after the parser sees ANTLR types.
#pragma once

#include "support/Diagnostics.h"

#include <memory>
#include <string>
#include <vector>

namespace eqc::ast {

enum class ExprKind {
  Number,
  Bool,
  String,
  Name,    ///< a component reference `a.b[i].c`: `ref`
  Call,    ///< `f(args)`, `f(e for i in r)`: `text` is the dotted name, `args`, `argNames`, `iterators`
  Unary,
  Binary,
  If,      ///< args: cond1, then1, cond2, then2, ..., else
  Range,   ///< args: start, stop or start, step, stop
  Array,   ///< `{a, b, c}`, or `{e for i in r}` (one arg and `iterators`)
  Matrix,  ///< `[a, b; c, d]`: args are the rows, each an Array
  Tuple,   ///< `(a, , c)`: output list; omitted entries are null
  End,     ///< `end` inside a subscript
  Initial, ///< `initial()`
};

enum class BinaryOp {
  Add, Sub, Mul, Div, Pow,
  ElemAdd, ElemSub, ElemMul, ElemDiv, ElemPow,
  Lt, Le, Gt, Ge, Eq, Ne, And, Or
};
enum class UnaryOp { Neg, Plus, Not };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// One subscript: `:` (the whole dimension) or an expression.
struct Subscript {
  ExprPtr expr; ///< null for `:`
  SourceRange range;
};

/// One part of a component reference: `name[subscripts]`.
struct RefPart {
  std::string name;
  SourceRange range;
  std::vector<Subscript> subscripts;
};

/// `for i in range` (range null: implicit, deduced from the subscripts that use i).
struct ForIndex {
  std::string name;
  SourceRange range;
  ExprPtr in;
};

/// An expression as written.
struct Expr {
  ExprKind kind;
  SourceRange range;
  double number = 0;      ///< Number
  bool integer = false;   ///< Number: written without a point or exponent (an Integer literal)
  bool boolean = false;   ///< Bool
  std::string text;       ///< Name: the dotted name without subscripts; Call: the function name; String
  std::vector<RefPart> ref; ///< Name
  SourceRange nameRange;  ///< Call: the function name
  BinaryOp binary = BinaryOp::Add;
  UnaryOp unary = UnaryOp::Neg;
  std::vector<ExprPtr> args;
  std::vector<std::string> argNames; ///< Call: per argument, "" or the name of a named argument
  std::vector<ForIndex> iterators;   ///< Call (reduction) and Array (comprehension)
  /// Call: `function f(k = 2)` as an argument (MLS 3.5, 12.4.2.1), not a call.
  bool partialApplication = false;
};

/// `name(args) = value` in a modification, e.g. `start = 1`, `experiment(StopTime = 10)` or
/// `each M = 1`.
struct ClassDef;

struct Modifier {
  std::string name; ///< possibly dotted: `joint.phi.start`
  SourceRange range;
  bool each = false;
  bool final = false;
  std::vector<Modifier> args;
  ExprPtr value;
  /// `redeclare Type name(args) = value` (MLS 3.5, 7.3): the element's new type; or
  /// `redeclare model M = B`: the class that replaces M.
  bool redeclare = false;
  std::string redeclareType;
  SourceRange redeclareTypeRange;
  std::shared_ptr<ClassDef> redeclareClass;
  std::string constrainedBy; ///< `redeclare ... constrainedby C` (MLS 3.5, 7.3.2): read, not checked yet
};

/// One declared name with its array dimensions, modifiers, binding and description.
struct Component {
  std::string name;
  SourceRange range;
  std::vector<Subscript> dims;
  std::vector<Modifier> modifiers;
  ExprPtr binding;
  std::string description;
  /// `Resistor r if useR;`: the component exists only where this parameter condition holds
  /// (MLS 3.5, 4.4.5).
  ExprPtr condition;
  /// `annotation(Evaluate = true)` (MLS 3.5, 18.3): the parameter's value is used when the model
  /// is compiled (folded into the equations).
  bool evaluate = false;
};

enum class Prefix { None, Parameter, Constant, Discrete };
enum class Causality { None, Input, Output };

/// MLS 3.5, 5.4 and 7.3: `inner`, `outer`, `replaceable`, `redeclare` and `constrainedby` of an
/// element.
struct ElementPrefixes {
  bool inner = false, outer = false, replaceable = false, redeclare = false;
  std::string constrainedBy; ///< the constraining class (empty: none)
  SourceRange constrainedByRange;
  std::vector<Modifier> constrainedByModifiers;
};

/// `parameter Real a = 1, b[3](start = 2) "desc";`
struct Declaration {
  Prefix prefix = Prefix::None;
  bool final = false; ///< `final` (MLS 3.5, 7.2.6): the declaration's value cannot be modified
  bool flow = false;
  bool stream = false; ///< `stream` (MLS 3.5, 15): read; eqc reports that it does not support it
  bool isProtected = false;
  Causality causality = Causality::None;
  std::string typeName;
  SourceRange typeRange;
  std::vector<Subscript> typeDims; ///< `Real[3] x`
  std::vector<Component> components;
  ElementPrefixes element;
};

/// `extends Base(k = 3);`
struct Extends {
  std::string base;
  SourceRange range;
  std::vector<Modifier> modifiers;
};

/// `import A.B;`, `import A.*;` or `import X = A.B;`
struct Import {
  std::string path, alias;
  bool wildcard = false;
  SourceRange range;
};

enum class EquationKind { Simple, If, For, When, Connect, Call };

/// An equation of an equation section.
struct Equation {
  EquationKind kind = EquationKind::Simple;
  SourceRange range;
  std::string description;
  ExprPtr lhs, rhs;                         ///< Simple; Connect (both Names); Call (lhs is the Call)
  std::vector<ForIndex> indices;            ///< For
  std::vector<ExprPtr> conditions;          ///< If, When: one per branch but a final else
  std::vector<std::vector<Equation>> branches; ///< If, When; For: the body is branches[0]
};

enum class StatementKind { Assign, TupleAssign, Call, If, For, While, Break, Return, When };

/// A statement of an algorithm section.
struct Statement {
  StatementKind kind = StatementKind::Assign;
  SourceRange range;
  ExprPtr target;                           ///< Assign: a Name; TupleAssign: a Tuple
  ExprPtr value;                            ///< Assign; TupleAssign and Call: the Call
  std::vector<ForIndex> indices;            ///< For
  std::vector<ExprPtr> conditions;          ///< If, While, When (one per `when`/`elsewhen`)
  std::vector<std::vector<Statement>> branches; ///< If (else last), For, While (branches[0]), When
};

/// `algorithm` or `initial algorithm` and its statements.
struct AlgorithmSection {
  bool initial = false;
  SourceRange range; ///< the `algorithm` keyword
  std::vector<Statement> statements;
};

/// The class restrictions of MLS 3.5, 4.6 (`class` has none; an `operator` holds the functions
/// of an overloaded operator, 14.1).
enum class ClassKind { Model, Block, Connector, Function, Record, Package, Type, Class, Operator };

/// A literal of an enumeration type: `a "description"`.
struct EnumerationLiteral {
  std::string name;
  SourceRange range;
  std::string description;
};

/// `external "C" y = f(x) annotation(...);` of a function (MLS 3.5, 12.9).
struct ExternalClause {
  SourceRange range;        ///< the `external` keyword
  std::string language;     ///< as written ("" when absent: "C")
  std::string function;     ///< the external function's name ("" when no call is written)
  ExprPtr output;           ///< `y =` of the call, or null
  std::vector<ExprPtr> args;
  std::vector<Modifier> annotation;
};

/// A class definition: `model … end Name;`, a connector, function, package, or a short class
/// `type Voltage = Real(unit = "V");`.
struct ClassDef {
  ClassKind kind = ClassKind::Model;
  std::string name;
  SourceRange range; ///< the class's name
  std::string description;
  std::string endName;
  SourceRange endRange;
  bool partial = false;
  bool expandable = false; ///< `expandable connector` (MLS 3.5, 9.1.3)
  bool isOperator = false; ///< `operator record` or `operator function` (MLS 3.5, 14)
  bool impure = false;     ///< `impure function` (MLS 3.5, 12.3)
  /// `model extends M (mods) ... end M;` (MLS 3.5, 7.3.1): extends the class M that the enclosing
  /// class inherits, with these modifiers.
  bool extendsClass = false;
  std::vector<Modifier> extendsModifiers;
  std::vector<Extends> extends;
  std::vector<Import> imports;
  std::vector<Declaration> declarations;
  std::vector<std::unique_ptr<ClassDef>> classes; ///< nested classes
  std::vector<Equation> equations;
  std::vector<Equation> initialEquations;
  std::vector<AlgorithmSection> algorithms;
  std::vector<Modifier> annotation;
  // A short class definition: `= prefixes base[dims](modifiers)`.
  bool isShort = false;
  Declaration shortBase; ///< prefixes, typeName and typeDims; no components
  std::vector<Modifier> shortModifiers;
  /// `type E = enumeration(a, b, c)` (a short class with no base; MLS 3.5, 4.8.5); `enumeration(:)`
  /// is open (its literals are given by a redeclaration).
  bool isEnumeration = false, openEnumeration = false;
  std::vector<EnumerationLiteral> literals;
  ElementPrefixes element; ///< as an element of its enclosing class
  std::shared_ptr<ExternalClause> external; ///< a function implemented outside Modelica
};

/// Everything in one source file.
struct File {
  /// `within A.B;`: the package the classes belong to ("" for `within;` or none, MLS 3.5, 13.2.2.2).
  std::string within;
  SourceRange withinRange; ///< the `within` keyword; valid when the file has a within clause
  std::vector<std::unique_ptr<ClassDef>> classes;
};

/// Kind keyword of a class, for messages ("model", "connector", ...).
/// Whether a component's annotation says `Evaluate = true` (MLS 3.5, 18.3).
inline bool evaluateAnnotation(const std::vector<Modifier> &annotation) {
  for (const Modifier &m : annotation)
    if (m.name == "Evaluate" && m.value && m.value->kind == ExprKind::Bool)
      return m.value->boolean;
  return false;
}

inline const char *kindName(ClassKind k) {
  switch (k) {
  case ClassKind::Model: return "model";
  case ClassKind::Block: return "block";
  case ClassKind::Connector: return "connector";
  case ClassKind::Function: return "function";
  case ClassKind::Record: return "record";
  case ClassKind::Package: return "package";
  case ClassKind::Type: return "type";
  case ClassKind::Class: return "class";
  case ClassKind::Operator: return "operator";
  }
  return "class";
}

} // namespace eqc::ast

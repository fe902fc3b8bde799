// The project-owned abstract syntax tree; nothing after the parser sees ANTLR types.
#pragma once

#include "support/Diagnostics.h"

#include <memory>
#include <string>
#include <vector>

namespace eqc::ast {

enum class ExprKind { Number, Bool, String, Name, Call, Unary, Binary, If };

enum class BinaryOp { Add, Sub, Mul, Div, Pow, Lt, Le, Gt, Ge, Eq, Ne, And, Or };
enum class UnaryOp { Neg, Plus, Not };

/// An expression as written; `args` holds operands, call arguments or if-branches
/// (cond1, then1, cond2, then2, ..., else).
struct Expr {
  ExprKind kind;
  SourceRange range;
  double number = 0;  ///< Number
  bool boolean = false; ///< Bool
  std::string text;   ///< Name (dotted), Call (function name), String (unquoted)
  SourceRange nameRange; ///< Call: the function name
  BinaryOp binary = BinaryOp::Add;
  UnaryOp unary = UnaryOp::Neg;
  std::vector<std::unique_ptr<Expr>> args;
};

using ExprPtr = std::unique_ptr<Expr>;

/// `name(args) = value` in a modification, e.g. `start = 1` or `experiment(StopTime = 10)`.
struct Modifier {
  std::string name;
  SourceRange range;
  std::vector<Modifier> args;
  ExprPtr value;
};

/// One declared name with its modifiers, binding and description.
struct Component {
  std::string name;
  SourceRange range;
  std::vector<Modifier> modifiers;
  ExprPtr binding;
  std::string description;
};

enum class Prefix { None, Parameter, Constant };

/// `parameter Real a = 1, b(start = 2) "desc";`
struct Declaration {
  Prefix prefix = Prefix::None;
  std::string typeName;
  SourceRange typeRange;
  std::vector<Component> components;
};

/// `lhs = rhs;` in an equation or initial equation section.
struct Equation {
  ExprPtr lhs, rhs;
  SourceRange range;
  std::string description;
};

/// A `model ... end Name;` definition.
struct Model {
  std::string name;
  SourceRange range; ///< the model's name
  std::string description;
  std::string endName;
  SourceRange endRange;
  std::vector<Declaration> declarations;
  std::vector<Equation> equations;
  std::vector<Equation> initialEquations;
  std::vector<Modifier> annotation;
};

/// Everything in one source file.
struct File {
  std::vector<Model> models;
};

} // namespace eqc::ast

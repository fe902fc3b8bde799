// User-defined functions: algorithm bodies over scalar slots, their interpreter, their printed
// form and their derivatives (forward mode, generated as functions of their own).
#pragma once

#include "middle/Expr.h"
#include "support/Diagnostics.h"

#include <cstring>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace eqc {

/// The C type a value travels in to an external function (MLS 3.5, 12.9.1); Object: an external
/// object (12.9.7), a `void *` whose bits its slot holds.
enum class CType : uint8_t { Double, Int, SizeT, String, Object };

/// What a function's slot holds: a number (Real, Integer, enumeration, an external object's
/// address), a Boolean, or a String made when the function runs: the address of its text as the
/// bits of a double (stringBits), "" when the function starts. The text lives among the
/// runtime's kept strings (eqc_string_keep) until the outermost call that made it returns.
enum class SlotType : uint8_t { Real, Boolean, String };

/// An external object's address as the bits of a double (how slots and parameters hold it).
inline double objectBits(const void *address) {
  static_assert(sizeof(void *) == sizeof(double), "an address fits a double's bits");
  double d;
  std::memcpy(&d, &address, sizeof d);
  return d;
}
/// The address whose bits `d` holds (objectBits' inverse).
inline void *bitsAddress(double d) {
  void *address;
  std::memcpy(&address, &d, sizeof d);
  return address;
}

/// One argument of an external call.
struct ExternalArg {
  enum Kind : uint8_t {
    Value,   ///< scalar slot `slot` by value (Real: double; Integer, Boolean, enumeration: int; String: its
             ///< text's address)
    Pointer, ///< the address of slots slot..slot+count-1 (arrays; outputs and protected scalars)
    Literal  ///< `number` (Double, Int, SizeT: a literal or size(a, k)) or `text` (String)
  };
  Kind kind = Value;
  CType type = CType::Double;
  int slot = -1;
  int count = 1;
  bool written = false; ///< Pointer: the call writes it (an output or protected variable)
  /// Pointer of a FORTRAN 77 call: a matrix of `rows` rows, passed column-major (a copy, transposed
  /// in and, when written, back); 0 for vectors and scalars.
  int rows = 0;
  double number = 0;
  std::string text;
};

/// A call of a C function: its symbol, how slots map to its arguments and result, and where it
/// comes from. `address` is the function in this process (the interpreter calls it; the JIT
/// binds the symbol to it); the rest tells `eqc compile` what to link.
struct ExternalCall {
  std::string symbol;
  /// `external "FORTRAN 77"` (MLS 3.5, 12.9.1): every argument by reference (scalars and literals
  /// through a copy), matrices column-major, the symbol in lower case with a trailing underscore.
  bool fortran = false;
  std::vector<ExternalArg> args;
  int resultSlot = -1; ///< the output the C function returns, or -1 (void)
  CType resultType = CType::Double;
  /// A String result is already among the runtime's kept strings (eqc's own String functions);
  /// else (the C function's, valid until the next external call) the call keeps a copy.
  bool resultKept = false;
  void *address = nullptr;
  std::string includeCode;               ///< the Include annotation's text (compiled with the model)
  std::vector<std::string> includeDirs;  ///< -I directories for it
  std::vector<std::string> linkLibraries; ///< library files (absolute) or -lname, in link order
};

/// One statement of a function body. A function's storage is a vector of scalar slots (inputs,
/// outputs, locals, loop variables); an array occupies consecutive slots, row-major.
struct FnStatement {
  enum Kind { Assign, If, For, While, Break, Return, Assert, External };
  Kind kind = Assign;
  SourceRange loc;
  int slot = -1;               ///< Assign: the target (the array's first slot when `index` is set); For: the loop variable
  const Expr *index = nullptr; ///< Assign: 0-based offset from `slot` computed at run time, or null
  int extent = 0;              ///< Assign with `index`: the array's number of slots (bounds check)
  const Expr *value = nullptr; ///< Assign: the value; For: the first value; Assert: the condition
  const Expr *step = nullptr;  ///< For
  const Expr *stop = nullptr;  ///< For: the loop runs while value <= stop (step > 0) or >= stop
  std::vector<const Expr *> conditions;         ///< If (one per branch but a final else), While
  std::vector<std::vector<FnStatement>> blocks; ///< If (else last when present); For, While: the body
  std::string message;         ///< Assert: its text, Strings the function computes as {name}
  const Expr *text = nullptr;  ///< Assert: the message as the function computes it (a String), or null
  std::shared_ptr<const ExternalCall> external; ///< External: a call of a C function
};

/// Function failure reasons (the low part of an EQC_MODEL_FUNCTION_FAILURE_BASE code): these,
/// then kFunctionAssertionFailed + k for the k-th assert statement in statement order.
enum : int {
  kFunctionExternalError = 0, ///< the C function called ModelicaError (its message: eqc_external_error)
  kFunctionIndexOutOfBounds = 1,
  kFunctionTooDeep = 2,
  kFunctionAssertionFailed = 3,
};

/// A function specialized to the shapes of its arguments: every array has a known size.
struct Function {
  std::string name;   ///< as written: `f`, `Lib.norm`
  std::string symbol; ///< a C identifier, unique in its context
  SourceRange loc;
  std::vector<std::string> slotNames;
  std::vector<SlotType> slotTypes; ///< one per slot, as slotNames
  std::vector<int> inputs;  ///< scalar input slots, in argument order
  std::vector<int> outputs; ///< scalar output slots, in output order
  std::vector<FnStatement> body;
  int derivative = -1;   ///< the function of its directional derivative, once made (a user's: 12.7.1)
  /// Where `derivative` is a user's (the derivative annotation) and the body has no external
  /// call: the directional derivative made from the body, once made. Partial derivatives
  /// (Jacobians, incidence) take it: a user's derivative is a time derivative that may rest on
  /// what the model guarantees (MSL's state1 returns its input p and gives der(p) as an input).
  int bodyDerivative = -1;
  int derivativeOf = -1; ///< for a derivative: the function it differentiates
  /// Per scalar input (empty: none): its tangent is not read by `derivative` (a user derivative's
  /// noDerivative and zeroDerivative inputs, Integers; MLS 3.5, 12.7.1): differentiation passes 0,
  /// so the derivative does not depend on the input's derivative.
  std::vector<char> tangentUnused;
  /// Reads or makes an external object (MLS 3.5, 12.9.7): the object exists only while the model
  /// runs, so the function is never evaluated while compiling.
  bool runtimeOnly = false;
  /// Declared `impure` (MLS 3.5, 12.3): a call has effects or answers differently each time, so
  /// a when-branch evaluates it once per step of the event iteration (ExprKind::Once).
  bool impure = false;
  /// Its body makes Strings when it runs (String slots, calls that return Strings): a call
  /// releases them when it returns, unless an output is a String (the caller's release then does).
  bool makesStrings = false;

  int numSlots() const { return static_cast<int>(slotNames.size()); }
  int addSlot(std::string name, SlotType type) {
    slotNames.push_back(std::move(name));
    slotTypes.push_back(type);
    if (type == SlotType::String)
      makesStrings = true;
    return numSlots() - 1;
  }
  bool isBool(int slot) const { return slotTypes[static_cast<size_t>(slot)] == SlotType::Boolean; }
  bool isString(int slot) const { return slotTypes[static_cast<size_t>(slot)] == SlotType::String; }
  /// Whether a call releases the Strings it made when it returns (makesStrings, no String output).
  bool releasesStrings() const;

  /// Whether output `output` (among `outputs`) may depend on input `input` (among `inputs`):
  /// through the statements' data flow, or any condition of the body (computed once, on first
  /// use; external and nested calls read all their arguments). A call's incidence is what its
  /// output reads: MSL's `state1({p, der_p}, time)` returns p, so structural analysis must not
  /// see der_p in it (its derivative annotation gives der_p as the derivative).
  bool reads(int output, int input) const;

private:
  mutable std::vector<std::vector<char>> reads_; ///< [output][input], once computed
  mutable bool readsKnown_ = false;
};

/// The directional derivative of function `fn`, made on first use: inputs (x, dx), outputs
/// dy = J(x) dx, one per output of `fn` (forward mode through the statements; Integer and
/// Boolean slots have zero tangents).
int derivativeFunction(ExprContext &ctx, int fn);
/// The directional derivative that partial derivatives take (Function::bodyDerivative where
/// there is one to make; else derivativeFunction), and whether it reads every tangent.
int partialDerivativeFunction(ExprContext &ctx, int fn);
/// The directional derivative's function of `fn` without its body, registered as fn's derivative:
/// slots s and s + n (n = fn's slots) for a slot and its tangent, inputs (x, dx), outputs dy.
int addDerivativeShell(ExprContext &ctx, int fn);

/// The value of output `output` of `f` called with `args` (one per input) when f's body is a short
/// sequence of scalar assignments of arithmetic and smooth builtins (MSL's Inline functions:
/// Complex's operators, unit conversions), its slots replaced by what they hold; else null.
/// ExprContext::fnCall takes it instead of a call: structural analysis then sees through the
/// call (a linear block stays linear) and no call is made at run time.
const Expr *inlineCall(ExprContext &ctx, const Function &f, int output, const std::vector<const Expr *> &args);

/// Runs `f` on `args` (numeric inputs in the order of Function::inputs) and returns its outputs.
/// Ensures: `error` is empty, or says why the call failed (index out of bounds, failed
/// assertion, too many iterations, a function that runs only with the model) and the outputs are NaN.
std::vector<double> callFunction(const Function &f, const std::vector<double> &args, std::string &error);

/// The function in a readable algorithm form (`--dump-after=flatten`).
void printFunction(std::ostream &os, const Function &fn);

} // namespace eqc

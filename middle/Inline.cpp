// Calls of short straight-line functions replaced by their value (see inlineCall in Function.h).
#include "middle/ExprOps.h"
#include "middle/Function.h"

#include <unordered_map>

namespace eqc {

namespace {

/// Statements of a body that inlineCall takes at most: MSL's Inline functions (Complex's
/// operators, unit conversions) have one or two.
constexpr size_t kMaxInlinedStatements = 32;

/// Whether a statement's value may stand in an equation as it is: arithmetic and smooth
/// builtins of the function's slots. Relations, if-expressions and builtins that step would
/// generate events in an equation, which they never do in a function (MLS 3.5, 8.5); a call
/// that is left (one not inlined itself) may have effects (an external function called as a
/// statement), which its place in the body orders.
bool inlinable(const Expr *value) {
  bool ok = true;
  forEachNode(value, [&](const Expr *n) {
    switch (n->kind()) {
    case ExprKind::Const:
    case ExprKind::Local:
    case ExprKind::Add:
    case ExprKind::Mul:
    case ExprKind::Pow:
    case ExprKind::NoEvent:
      return Walk::Descend;
    case ExprKind::Call:
      ok = builtinInfo(n->builtin()).events == BuiltinEvents::Smooth;
      return ok ? Walk::Descend : Walk::Stop;
    default:
      ok = false;
      return Walk::Stop;
    }
  });
  return ok;
}

/// `e` with the function's slots replaced by their values (null where a slot has none).
class SlotSubstituter {
public:
  SlotSubstituter(ExprContext &ctx, const std::unordered_map<int, const Expr *> &slots) : ctx_(ctx), slots_(slots) {}
  const Expr *run(const Expr *e) {
    if (auto it = memo_.find(e); it != memo_.end())
      return it->second;
    const Expr *result = e;
    if (e->kind() == ExprKind::Local) {
      auto it = slots_.find(e->slot());
      result = it == slots_.end() ? nullptr : it->second;
    } else if (e->numOps()) {
      std::vector<const Expr *> ops;
      ops.reserve(e->numOps());
      for (const Expr *op : e->ops()) {
        ops.push_back(run(op));
        if (!ops.back()) {
          result = nullptr;
          break;
        }
      }
      if (result)
        result = rebuild(ctx_, e, ops);
    }
    memo_.emplace(e, result);
    return result;
  }

private:
  ExprContext &ctx_;
  const std::unordered_map<int, const Expr *> &slots_;
  std::unordered_map<const Expr *, const Expr *> memo_;
};

} // namespace

const Expr *inlineCall(ExprContext &ctx, const Function &f, int output, const std::vector<const Expr *> &args) {
  // A derivative annotation (MLS 3.5, 12.7.1) is the derivative that index reduction must take
  // (MSL's state adaptors supply derivatives that the body does not have): such calls stay.
  if (f.runtimeOnly || f.derivative >= 0 || f.body.empty() || f.body.size() > kMaxInlinedStatements || output < 0 ||
      output >= static_cast<int>(f.outputs.size()) || args.size() != f.inputs.size())
    return nullptr;
  for (const FnStatement &s : f.body)
    if (s.kind != FnStatement::Assign || s.index || !inlinable(s.value))
      return nullptr;
  std::unordered_map<int, const Expr *> slots;
  for (size_t k = 0; k < args.size(); ++k)
    slots[f.inputs[k]] = args[k];
  for (const FnStatement &s : f.body) {
    const Expr *value = SlotSubstituter(ctx, slots).run(s.value);
    if (!value) // a slot read before it is assigned
      return nullptr;
    slots[s.slot] = value;
  }
  auto it = slots.find(f.outputs[static_cast<size_t>(output)]);
  return it == slots.end() ? nullptr : it->second;
}

} // namespace eqc

// Strings that functions compute when they run (MLS 3.5: 3.6.6 concatenation, 3.5 relations,
// 3.7.1 String()): calls of the runtime's String functions (eqc_external.h), each wrapped in a
// Function of one external call, so that the interpreter and the generated code run them as
// any other call. A String a model's equations read stays a value known when it is compiled.
#include "frontend/FlattenImpl.h"

#include "eqc/eqc_external.h"

#include <cstring>
#include <functional>
#include <unordered_map>

namespace eqc::frontend {

namespace {

/// `text` as a Modelica literal: how the function that makes it is named (printed as the literal).
std::string quotedLiteral(const std::string &text) {
  std::string quoted = "\"";
  for (char ch : text)
    quoted += ch == '"' || ch == '\\' ? std::string("\\") + ch
              : ch == '\n'            ? std::string("\\n")
                                      : std::string(1, ch);
  return quoted + "\"";
}

/// "a Real", "an Integer".
std::string withArticle(const char *typeName) {
  return (std::strchr("AEIOU", typeName[0]) ? "an " : "a ") + std::string(typeName);
}

} // namespace

int Flattener::runtimeStringFunction(const std::string &name, const char *symbol, void *address,
                                     const std::vector<SlotType> &inputs,
                                     const std::vector<std::string> &texts, SlotType result) {
  std::string key = symbol;
  for (const std::string &t : texts)
    key += "\n" + std::to_string(t.size()) + ":" + t;
  auto known = stringFunctions_.find(key);
  if (known != stringFunctions_.end())
    return known->second;
  auto fn = std::make_unique<Function>();
  fn->name = name;
  auto call = std::make_shared<ExternalCall>();
  call->symbol = symbol;
  call->address = address;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const int slot = fn->addSlot(std::string(1, static_cast<char>('a' + k)), inputs[k]);
    fn->inputs.push_back(slot);
    ExternalArg a;
    a.slot = slot;
    a.type = inputs[k] == SlotType::String ? CType::String : CType::Double;
    call->args.push_back(a);
  }
  for (const std::string &t : texts) {
    ExternalArg a;
    a.kind = ExternalArg::Literal;
    a.type = CType::String;
    a.text = t;
    call->args.push_back(a);
  }
  call->resultSlot = fn->addSlot("result", result);
  call->resultType = result == SlotType::String ? CType::String : CType::Int;
  call->resultKept = true; // each returns a kept string or a literal of the code
  fn->outputs.push_back(call->resultSlot);
  fn->makesStrings = result == SlotType::String;
  FnStatement s;
  s.kind = FnStatement::External;
  s.external = std::move(call);
  fn->body.push_back(std::move(s));
  const int id = ctx().addFunction(std::move(fn));
  ctx().function(id).symbol = "eqc_string_fn" + std::to_string(id);
  stringFunctions_.emplace(key, id);
  return id;
}

Value Flattener::computedString(const Value &v) {
  if (v.computedText())
    return v;
  const int fn =
      runtimeStringFunction(quotedLiteral(v.text), "eqc_string_literal",
                            reinterpret_cast<void *>(&eqc_string_literal), {}, {v.text}, SlotType::String);
  literalTexts_.emplace(fn, v.text);
  return Value::scalar(ctx().fnCall(fn, 0, {}, false), Type::String);
}

Value Flattener::stringOfElement(const Expr *e) {
  if (e->kind() == ExprKind::FnCall)
    if (auto literal = literalTexts_.find(e->function()); literal != literalTexts_.end()) {
      Value v = Value::scalar(ctx().zero(), Type::String);
      v.text = literal->second;
      return v;
    }
  return Value::scalar(e, Type::String);
}

Value Flattener::concatStrings(const Value &a, const Value &b) {
  if (!a.computedText() && !b.computedText()) {
    Value v = a;
    v.text = a.text + b.text;
    return v;
  }
  if (!a.computedText() && a.text.empty())
    return b;
  if (!b.computedText() && b.text.empty())
    return a;
  const int fn =
      runtimeStringFunction("concat", "eqc_string_concat", reinterpret_cast<void *>(&eqc_string_concat),
                            {SlotType::String, SlotType::String}, {}, SlotType::String);
  return Value::scalar(ctx().fnCall(fn, 0, {computedString(a).elems[0], computedString(b).elems[0]}, false),
                       Type::String);
}

const Expr *Flattener::compareStrings(const Value &a, const Value &b) {
  const int fn =
      runtimeStringFunction("compare", "eqc_string_compare", reinterpret_cast<void *>(&eqc_string_compare),
                            {SlotType::String, SlotType::String}, {}, SlotType::Real);
  return ctx().fnCall(fn, 0, {computedString(a).elems[0], computedString(b).elems[0]}, false);
}

Value Flattener::computedMessage(const std::vector<MessagePart> &parts) {
  Value text = Value::scalar(ctx().zero(), Type::String);
  for (const MessagePart &part : parts) {
    Value next = Value::scalar(ctx().zero(), Type::String);
    if (!part.value) {
      next.text = part.text;
    } else if (part.type == ValueType::String) {
      next = handleText(part.value);
    } else {
      std::string names; // an enumeration's literals, one per line ("": false and true)
      for (const std::string &literal : part.literals)
        names += (names.empty() ? "" : "\n") + literal;
      const int fn =
          runtimeStringFunction("String", "eqc_string_format", reinterpret_cast<void *>(&eqc_string_format),
                                {SlotType::Real}, {"%" + part.format, names}, SlotType::String);
      next = Value::scalar(ctx().fnCall(fn, 0, {part.value}, false), Type::String);
    }
    text = concatStrings(text, next);
  }
  return text;
}

const Expr *Flattener::callMakingStrings(const Expr *call) {
  ExprContext &c = ctx();
  auto isStringCall = [](const Expr *e) {
    return e->kind() == ExprKind::FnCall &&
           e->callee().isString(e->callee().outputs[static_cast<size_t>(e->fnOutput())]);
  };
  if (call->kind() != ExprKind::FnCall) {
    // An expression around calls (a function's value inlined, a relation): each call in it
    // that takes Strings.
    std::vector<const Expr *> ops;
    bool changed = false;
    for (const Expr *op : call->ops()) {
      bool strings = false;
      forEachNode(op, [&](const Expr *n) {
        strings = strings || isStringCall(n);
        return strings ? Walk::Stop : Walk::Descend;
      });
      ops.push_back(strings ? callMakingStrings(op) : op);
      changed = changed || ops.back() != op;
    }
    return changed ? rebuild(c, call, ops) : call;
  }
  if (isStringCall(call))
    return call; // a String result: whoever reads it makes it (the function would free it)
  auto fn = std::make_unique<Function>();
  Function &w = *fn;
  w.name = call->kind() == ExprKind::FnCall ? call->callee().name : "(strings)";
  std::vector<const Expr *> leaves;
  std::unordered_map<const Expr *, const Expr *> slots; // a leaf, its input's Local
  const auto &isString = isStringCall;
  // The Strings' structure (calls that return Strings, if-expressions between them) stays; every
  // other value becomes an input.
  std::function<const Expr *(const Expr *, bool)> rebuild = [&](const Expr *e, bool text) -> const Expr * {
    if (text && isString(e)) {
      std::vector<const Expr *> ops;
      for (const Expr *op : e->ops())
        ops.push_back(rebuild(op, isString(op) || op->kind() == ExprKind::If));
      return c.fnCall(e->function(), e->fnOutput(), ops, false);
    }
    if (text && e->kind() == ExprKind::If)
      return c.ifThenElse(rebuild(e->op(0), false), rebuild(e->op(1), true), rebuild(e->op(2), true));
    auto known = slots.find(e);
    if (known != slots.end())
      return known->second;
    const int slot =
        w.addSlot("in" + std::to_string(leaves.size() + 1), e->isBool() ? SlotType::Boolean : SlotType::Real);
    w.inputs.push_back(slot);
    leaves.push_back(e);
    return slots[e] = c.local(slot, e->isBool());
  };
  std::vector<const Expr *> args;
  for (const Expr *op : call->ops())
    args.push_back(rebuild(op, isString(op) || op->kind() == ExprKind::If));
  const Expr *inner = c.fnCall(call->function(), call->fnOutput(), args, call->isBool());
  FnStatement s;
  s.kind = FnStatement::Assign;
  s.slot = w.addSlot("result", call->isBool() ? SlotType::Boolean : SlotType::Real);
  s.value = inner;
  w.outputs.push_back(s.slot);
  w.body.push_back(s);
  w.makesStrings = true;
  w.impure = call->callee().impure;
  const int id = c.addFunction(std::move(fn));
  c.function(id).symbol = "eqc_strings_call" + std::to_string(id);
  return c.fnCall(id, 0, leaves, call->isBool());
}

int Flattener::handleTextFunction() {
  return runtimeStringFunction("text", "eqc_string_text", reinterpret_cast<void *>(&eqc_string_text),
                               {SlotType::Real}, {}, SlotType::String);
}

Value Flattener::handleText(const Expr *handle) {
  return Value::scalar(ctx().fnCall(handleTextFunction(), 0, {handle}, false), Type::String);
}

const Expr *Flattener::textHandle(const Value &v) {
  if (!v.computedText() || !v.isScalar())
    return nullptr;
  const Expr *e = v.elems[0];
  return e->kind() == ExprKind::FnCall && e->function() == handleTextFunction() ? e->op(0) : nullptr;
}

const Expr *Flattener::stringHandle(const Value &v) {
  if (const Expr *handle = textHandle(v))
    return handle;         // `s = t`: t's handle
  if (!v.computedText()) { // a text known when compiled: its handle, taken when the model runs
    if (v.text.empty())
      return ctx().zero();
    const int fn =
        runtimeStringFunction(quotedLiteral(v.text), "eqc_string_handle",
                              reinterpret_cast<void *>(&eqc_string_handle), {}, {v.text}, SlotType::Real);
    return ctx().fnCall(fn, 0, {}, false);
  }
  const int fn =
      runtimeStringFunction("string", "eqc_string_handle", reinterpret_cast<void *>(&eqc_string_handle),
                            {SlotType::String}, {}, SlotType::Real);
  return callMakingStrings(ctx().fnCall(fn, 0, {v.elems[0]}, false));
}

bool Flattener::handlesOfStrings(Value &target, Value &value, SourceRange range,
                                 const std::string &targetText) {
  if (target.type != Type::String && value.type != Type::String)
    return true;
  if (target.type != Type::String) {
    diags_.error(range, "'" + targetText + "' is " + withArticle(typeName(target.type)) +
                            ", but its value is a String");
    return false;
  }
  const Expr *handle = textHandle(target);
  if (!handle || handle->kind() != ExprKind::Var || sys_.vars[handle->var()].role != VarRole::Discrete) {
    diags_.error(range, "'" + targetText +
                            "' is no String variable: only String variables take values in "
                            "equations and algorithms ('s = \"on\"')");
    return false;
  }
  if (value.type != Type::String || !value.isScalar()) {
    diags_.error(range, "'" + targetText + "' is a String, but its value is " +
                            withArticle(typeName(value.type)) + (value.isScalar() ? "" : " array"));
    return false;
  }
  target = Value::scalar(handle, Type::Real);
  value = Value::scalar(stringHandle(value), Type::Real);
  return true;
}

} // namespace eqc::frontend

// assert(condition, message, level) in equation sections (MLS 3.5, 8.3.7) and the String()
// conversions its message is built from (MLS 3.5, 3.7.1).
#include "frontend/FlattenImpl.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace eqc::frontend {

namespace {

/// The arguments of a call by parameter name: positional ones in `names`' order, then named ones.
/// Reports an unknown or repeated name and too many arguments; nullopt then.
std::optional<std::vector<const ast::Expr *>> bindArguments(const ast::Expr &call, const std::vector<std::string> &names,
                                                            Diagnostics &diags) {
  std::vector<const ast::Expr *> bound(names.size(), nullptr);
  for (size_t i = 0; i < call.args.size(); ++i) {
    size_t k = i;
    const std::string &name = i < call.argNames.size() ? call.argNames[i] : std::string();
    if (!name.empty()) {
      k = static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
      if (k == names.size()) {
        std::string list;
        for (const std::string &n : names)
          list += (list.empty() ? "" : ", ") + n;
        diags.error(call.args[i]->range, call.text + "() has no argument '" + name + "' (it has " + list + ")");
        return std::nullopt;
      }
    } else if (k >= names.size()) {
      diags.error(call.args[i]->range, call.text + "() takes at most " + std::to_string(names.size()) + " arguments");
      return std::nullopt;
    }
    if (bound[k]) {
      diags.error(call.args[i]->range, "argument '" + names[k] + "' of " + call.text + "() is given twice");
      return std::nullopt;
    }
    bound[k] = call.args[i].get();
  }
  return bound;
}

/// Whether `format` is a printf conversion without '%' that String(x, format = ...) may use
/// ("[flags][width][.precision]conversion"), and its conversion character.
char formatConversion(const std::string &format) {
  size_t i = 0;
  while (i < format.size() && std::strchr("-+ #0", format[i]))
    ++i;
  while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i])))
    ++i;
  if (i < format.size() && format[i] == '.') {
    ++i;
    while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i])))
      ++i;
  }
  if (i + 1 != format.size() || !std::strchr("eEfFgGdiuoxX", format[i]))
    return 0;
  return format[i];
}

} // namespace

bool Flattener::lowerMessage(const ast::Expr &e, Scope &scope, std::vector<MessagePart> &out) {
  if (e.kind == ast::ExprKind::String) {
    out.push_back({e.text, nullptr, ValueType::Real, "", {}});
    return true;
  }
  if (e.kind == ast::ExprKind::Binary && e.binary == ast::BinaryOp::Add)
    return lowerMessage(*e.args[0], scope, out) && lowerMessage(*e.args[1], scope, out);
  if (e.kind == ast::ExprKind::Call && e.text == "String")
    return lowerStringConversion(e, scope, out);
  // Anything else must be a String known at compilation (a String parameter or constant).
  ++stringContext_;
  Value v = lower(e, scope);
  --stringContext_;
  if (!v.ok)
    return false;
  if (v.type == Type::String && v.isScalar() && v.computedText()) {
    // A String computed when the model runs (a String variable's): its text when the message is made.
    out.push_back({"", stringHandle(v), ValueType::String, "s", {}});
    return true;
  }
  if (v.type == Type::String && v.isScalar()) {
    out.push_back({v.text, nullptr, ValueType::Real, "", {}});
    return true;
  }
  diags_.error(e.range, "a message is built from strings, '+' and String(...) of numbers and Booleans, not a " +
                            std::string(typeName(v.type)));
  return false;
}

/// The text of message part `part` whose value is `value` (as the generated code prints it).
static std::string messagePartText(const MessagePart &part, double value) {
  if (!part.value)
    return part.text;
  std::vector<char> buffer(512);
  auto print = [&](const std::string &format, auto arg) {
    int n = std::snprintf(buffer.data(), buffer.size(), format.c_str(), arg);
    if (n >= static_cast<int>(buffer.size())) {
      buffer.resize(static_cast<size_t>(n) + 1);
      std::snprintf(buffer.data(), buffer.size(), format.c_str(), arg);
    }
  };
  const std::string format = "%" + part.format;
  if (!part.literals.empty()) { // an enumeration value: the name of literal k
    const long k = std::lround(value);
    print(format, k >= 1 && static_cast<size_t>(k) <= part.literals.size()
                      ? part.literals[static_cast<size_t>(k - 1)].c_str()
                      : "?");
  } else if (part.type == ValueType::Boolean) {
    print(format, value != 0 ? "true" : "false");
  } else if (std::strchr("diuoxX", part.format.back())) { // an Integer: as long long
    print("%" + part.format.substr(0, part.format.size() - 1) + "ll" + part.format.back(),
          static_cast<long long>(value));
  } else {
    print(format, value);
  }
  return buffer.data();
}

Value Flattener::knownString(const ast::Expr &call, Scope &scope) {
  // MLS 3.5, 3.7.1: String(x) of a value known when the model is compiled (a constant, or
  // parameters, which become structural) is a String value: a message passed to a function
  // (`Streams.print("kPolygon = " + String(kPolygon))`), a String parameter's binding.
  std::vector<MessagePart> parts;
  if (!lowerStringConversion(call, scope, parts))
    return fail();
  // In a function, String(x) of a value the function computes is computed when it runs; so is
  // one of a value that changes in time in a model (`print("t = " + String(time))`, a String
  // variable's value).
  for (const MessagePart &part : parts)
    if (part.value &&
        ((scope.fn && part.value->kind() != ExprKind::Const && part.value->kind() != ExprKind::BoolConst) ||
         (!scope.fn && changesInTime(part.value))))
      return computedMessage(parts);
  std::string text;
  for (const MessagePart &part : parts) {
    double value = 0;
    if (part.value) {
      std::optional<double> known = evaluateStructural(part.value, call.range, "the value of String(...)");
      if (!known)
        return fail();
      value = *known;
    }
    text += messagePartText(part, value);
  }
  Value v = Value::scalar(ctx().zero(), Type::String);
  v.text = text;
  return v;
}

bool Flattener::lowerStringConversion(const ast::Expr &call, Scope &scope, std::vector<MessagePart> &out) {
  if (call.args.empty()) {
    diags_.error(call.nameRange, "String() takes the value to convert");
    return false;
  }
  Value v = lower(*call.args[0], scope);
  if (!v.ok)
    return false;
  if (!v.isScalar() || v.type == Type::String) {
    diags_.error(call.args[0]->range, "String() converts a scalar Real, Integer or Boolean, not a " +
                                          std::string(typeName(v.type)) + " " + shapeText(v.dims));
    return false;
  }
  // MLS 3.5, 3.7.1: String(r, significantDigits = 6, minimumLength = 0, leftJustified = true),
  // String(r, format = "..."), String(i or b, minimumLength = 0, leftJustified = true).
  std::vector<std::string> names{"", "minimumLength", "leftJustified"};
  if (v.type == Type::Real)
    names = {"", "significantDigits", "minimumLength", "leftJustified", "format"};
  auto bound = bindArguments(call, names, diags_);
  if (!bound)
    return false;
  auto integerOption = [&](const std::string &name, int fallback) -> std::optional<int> {
    size_t k = static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    if (k == names.size() || !(*bound)[k])
      return fallback;
    Value o = lower(*(*bound)[k], scope);
    if (!o.ok)
      return std::nullopt;
    std::optional<double> value = structural(o, (*bound)[k]->range, "String()'s " + name);
    if (!value)
      return std::nullopt;
    if (*value < 0 || *value > 100 || *value != std::floor(*value)) {
      diags_.error((*bound)[k]->range, "String()'s " + name + " must be an Integer from 0 to 100");
      return std::nullopt;
    }
    return static_cast<int>(*value);
  };
  MessagePart part;
  part.value = algorithmValues_ ? substitute(ctx(), v.elems[0], *algorithmValues_) : v.elems[0];
  part.type = v.type == Type::Boolean ? ValueType::Boolean : v.type == Type::Integer ? ValueType::Integer : ValueType::Real;
  const ast::Expr *format = names.size() == 5 ? (*bound)[4] : nullptr;
  if (format) {
    if (format->kind != ast::ExprKind::String || !formatConversion(format->text)) {
      diags_.error(format->range, "String()'s format is a C conversion without '%', e.g. \".3f\", \"10.4e\" or \"g\"");
      return false;
    }
    if ((*bound)[1] || (*bound)[2] || (*bound)[3]) {
      diags_.error(format->range, "String() takes either format or significantDigits, minimumLength and leftJustified");
      return false;
    }
    if (std::strchr("diuoxX", formatConversion(format->text))) {
      diags_.error(format->range, "a Real value is formatted with e, f or g (an Integer with d)");
      return false;
    }
    part.format = format->text;
    out.push_back(part);
    return true;
  }
  std::optional<int> digits = integerOption("significantDigits", 6), width = integerOption("minimumLength", 0);
  if (!digits || !width)
    return false;
  bool left = true;
  size_t leftAt = static_cast<size_t>(std::find(names.begin(), names.end(), "leftJustified") - names.begin());
  if (const ast::Expr *l = (*bound)[leftAt]) {
    Value o = lowerBool(*l, scope);
    if (!o.ok || !o.isScalar() || o.elems[0]->kind() != ExprKind::BoolConst) {
      if (o.ok)
        diags_.error(l->range, "String()'s leftJustified must be true or false");
      return false;
    }
    left = o.elems[0]->boolValue();
  }
  std::string flags = *width > 0 ? (left ? "-" : "") + std::to_string(*width) : "";
  if (v.enumeration) // the literal's name (MLS 3.5, 3.7.1: String(e, minimumLength, leftJustified))
    for (const ast::EnumerationLiteral &literal : v.enumeration->def->literals)
      part.literals.push_back(literal.name);
  part.format = flags + (part.type == ValueType::Real                              ? "." + std::to_string(*digits) + "g"
                         : part.type == ValueType::Integer && part.literals.empty() ? "d"
                                                                                    : "s");
  out.push_back(part);
  return true;
}

void Flattener::lowerAssert(const ast::Expr &call, Scope &scope, bool initial, WhenBranch *atEvent) {
  auto bound = bindArguments(call, {"condition", "message", "level"}, diags_);
  if (!bound)
    return;
  if (!(*bound)[0] || !(*bound)[1]) {
    diags_.error(call.nameRange, "assert(condition, message) takes a condition and a message");
    return;
  }
  Assertion a;
  a.loc = call.range;
  a.initialOnly = initial;
  a.origin = origin(scope);
  Value cond = lowerBool(*(*bound)[0], scope);
  const Expr *condition = scalar(cond, *(*bound)[0], "the condition of an assert must be a scalar");
  if (!condition)
    return;
  if (cond.type != Type::Boolean) {
    diags_.error((*bound)[0]->range, "the condition of an assert must be a Boolean, not " +
                                         std::string(typeName(cond.type)));
    return;
  }
  if (!lowerMessage(*(*bound)[1], scope, a.message))
    return;
  if (const ast::Expr *level = (*bound)[2]) {
    // AssertionLevel is the builtin enumeration (error, warning) of MLS 3.5, 8.3.7.
    if (level->kind == ast::ExprKind::Name && level->text == "AssertionLevel.warning")
      a.warning = true;
    else if (!(level->kind == ast::ExprKind::Name && level->text == "AssertionLevel.error")) {
      diags_.error(level->range, "an assert's level is AssertionLevel.error or AssertionLevel.warning");
      return;
    }
  }
  addAssertion(std::move(a), condition, call.range, atEvent);
}

void Flattener::lowerEffectCall(const ast::Expr &call, Scope &scope, bool initial, WhenBranch *atEvent) {
  // MLS 3.5, 12.1: a function called as a statement runs for its effects; eqc's functions have
  // none but their assertions (and their C code's): the call is checked where an assert would be,
  // its failure stopping the run with the function's message.
  ++statementCall_;
  Value done = lower(call, scope);
  --statementCall_;
  if (!done.ok)
    return;
  if (!done.isScalar() || done.size() != 1) {
    diags_.error(call.range, "'" + call.text + "' has outputs: a call of it as a statement has no effect; use its value");
    return;
  }
  Assertion a;
  a.loc = call.range;
  a.initialOnly = initial;
  a.origin = origin(scope);
  MessagePart text;
  text.text = "function '" + call.text + "' failed";
  a.message.push_back(text);
  addAssertion(std::move(a), ctx().lt(ctx().zero(), done.elems[0]), call.range, atEvent);
}

void Flattener::addAssertion(Assertion a, const Expr *condition, SourceRange range, WhenBranch *atEvent) {
  if (algorithmValues_)
    condition = substitute(ctx(), condition, *algorithmValues_);
  // Inside the branches of if-equations whose conditions change in time, the assertion holds
  // where its branch is not taken.
  for (const Expr *guard : assertGuards_)
    condition = ctx().logicalOr(ctx().logicalNot(guard), condition);
  if (condition->kind() == ExprKind::BoolConst && condition->boolValue())
    return; // holds everywhere
  if (atEvent) {
    // The condition and the message's values as they are when the branch fires, kept in hidden
    // discrete variables that the branch assigns.
    const std::string name = "assert(" + std::to_string(sys_.assertions.size() + 1) + ")";
    auto held = [&](const std::string &what, ValueType type, const Expr *value, const Expr *start) {
      Variable v;
      v.name = name + "." + what;
      v.role = VarRole::Discrete;
      v.type = type;
      v.loc = range;
      v.binding = start;
      v.hasStart = true;
      v.generated = true;
      sys_.vars.push_back(v);
      const int k = static_cast<int>(sys_.vars.size()) - 1;
      atEvent->assignments.emplace_back(k, value);
      whenAssigned_.emplace(k, range);
      eventAssertVars_.insert(k);
      return ctx().var(k, type == ValueType::Boolean);
    };
    condition = held("holds", ValueType::Boolean, condition, ctx().boolean(true));
    for (size_t i = 0; i < a.message.size(); ++i)
      if (MessagePart &part = a.message[i]; part.value) {
        const Expr *value = algorithmValues_ ? substitute(ctx(), part.value, *algorithmValues_) : part.value;
        part.value = held("value" + std::to_string(i + 1), part.type, value,
                          part.type == ValueType::Boolean ? ctx().boolean(false) : ctx().zero());
      }
  }
  a.condition = condition;
  sys_.assertions.push_back(std::move(a));
}

} // namespace eqc::frontend

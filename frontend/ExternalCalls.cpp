// External functions (MLS 3.5, 12.9): the external clause of a function as a call of its C
// function, with the function's slots mapped to the C arguments (12.9.1) and result (12.9.2),
// and the code its annotations name (12.9.4) loaded.
#include "frontend/External.h"
#include "frontend/FlattenImpl.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace eqc::frontend {
namespace {

CType cType(Type t) {
  return t == Type::Real ? CType::Double : t == Type::String ? CType::String : CType::Int;
}

/// The strings of an annotation value: "a" or {"a", "b"}; false when it is something else.
bool strings(const ast::Expr &e, std::vector<std::string> &out) {
  if (e.kind == ast::ExprKind::String) {
    out.push_back(e.text);
    return true;
  }
  if (e.kind != ast::ExprKind::Array)
    return false;
  for (const auto &a : e.args)
    if (!a || a->kind != ast::ExprKind::String)
      return false;
    else
      out.push_back(a->text);
  return true;
}

/// The slots of formal parameter `l` as one argument: a scalar input by value, everything else by
/// address (12.9.1.1: outputs and protected variables are passed like outputs).
ExternalArg formalArgument(const FunctionBuilder::Local &l) {
  ExternalArg a;
  a.type = l.object ? CType::Object : cType(l.type);
  a.slot = l.slot;
  a.count = static_cast<int>(product(l.dims));
  a.written = l.kind != FunctionBuilder::Local::Input;
  a.kind = l.dims.empty() && !a.written ? ExternalArg::Value : ExternalArg::Pointer;
  a.rows = l.dims.size() == 2 ? l.dims[0] : 0; // (FORTRAN 77 calls: column-major)
  return a;
}

ExternalArg literal(CType type, double number) {
  ExternalArg a;
  a.kind = ExternalArg::Literal;
  a.type = type;
  a.number = number;
  return a;
}

/// A String argument: its text, passed as a `const char *` to a copy that lives as long as the call.
ExternalArg text(const std::string &value) {
  ExternalArg a = literal(CType::String, 0);
  a.text = value;
  return a;
}

/// The call's arguments as its language takes them: C's arrays row-major, as Modelica stores them
/// (12.9.1.1); FORTRAN 77's matrices column-major (ExternalArg::rows), sizes as INTEGERs, and
/// the symbol as gfortran and LAPACK name it (lower case, a trailing underscore). False for
/// what FORTRAN cannot take (Strings, external objects).
bool callingConvention(ExternalCall &call) {
  if (!call.fortran) {
    for (ExternalArg &a : call.args)
      a.rows = 0;
    return true;
  }
  std::transform(call.symbol.begin(), call.symbol.end(), call.symbol.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  call.symbol += "_";
  for (ExternalArg &a : call.args) {
    if (a.type == CType::String || a.type == CType::Object)
      return false;
    if (a.type == CType::SizeT) // size(a, k)
      a.type = CType::Int;
  }
  return true;
}

} // namespace

std::string Flattener::resolveUri(const std::string &uri, SourceRange range) {
  namespace fs = std::filesystem;
  if (uri.rfind("file://", 0) == 0)
    return uri.substr(7);
  if (uri.rfind("modelica://", 0) != 0)
    return uri; // a plain path
  std::string rest = uri.substr(11);
  size_t slash = rest.find('/');
  std::string cls = rest.substr(0, slash), path = slash == std::string::npos ? "" : rest.substr(slash + 1);
  // The top-level class's folder, then one folder per further name (13.5).
  std::string top = cls.substr(0, cls.find('.'));
  ClassInfo *info = topLevel(top);
  if (!info || !info->def->range.valid()) {
    diags_.error(range, "'" + uri + "' names class '" + top + "', which is not known");
    return "";
  }
  fs::path dir = fs::path(diags_.sources().name(info->def->range.buffer)).parent_path();
  for (size_t p = cls.find('.'); p != std::string::npos;) {
    size_t next = cls.find('.', p + 1);
    dir /= cls.substr(p + 1, next == std::string::npos ? std::string::npos : next - p - 1);
    p = next;
  }
  return (dir / path).lexically_normal().string();
}

bool Flattener::lowerExternalCall(const ClassInfo &cls, FunctionBuilder &b, std::vector<FnStatement> &body) {
  const ast::ExternalClause &ext = *cls.def->external;
  const std::string language = ext.language.empty() ? "C" : ext.language;
  const std::string shortName = cls.name.substr(cls.name.rfind('.') + 1);
  auto call = std::make_shared<ExternalCall>();
  call->symbol = ext.function.empty() ? shortName : ext.function;
  auto fail = [&](SourceRange at, const std::string &why) {
    diags_.error(at, "external function '" + cls.name + "': " + why);
    return false;
  };
  call->fortran = language == "FORTRAN 77";
  if (language != "builtin" && language.rfind("C", 0) != 0 && !call->fortran)
    return fail(ext.range, "language \"" + language +
                               "\" is not supported (eqc calls \"C\", \"FORTRAN 77\" and "
                               "\"builtin\" functions)");

  const FunctionBuilder::Local *result = nullptr;
  if (ext.function.empty()) {
    // 12.9.1 and 12.9.2: the formal parameters in declaration order, a single scalar output
    // returned, each array followed by its sizes.
    int outputs = 0;
    for (auto &[name, l] : b.vars)
      outputs += l.kind == FunctionBuilder::Local::Output;
    for (auto &[name, l] : b.vars)
      if (outputs == 1 && l.kind == FunctionBuilder::Local::Output && l.dims.empty())
        result = &l;
    for (auto &[name, l] : b.vars) {
      if (l.kind == FunctionBuilder::Local::Protected || &l == result)
        continue;
      if (l.type == Type::String && l.slot < 0) { // a String input known when compiled: its text
        call->args.push_back(text(b.strings[name]));
        continue;
      }
      call->args.push_back(formalArgument(l));
      for (int d : l.dims)
        call->args.push_back(literal(CType::SizeT, d));
    }
  } else {
    if (ext.output) {
      const FunctionBuilder::Local *l =
          ext.output->kind == ast::ExprKind::Name && ext.output->ref.size() == 1 && ext.output->ref[0].subscripts.empty()
              ? b.find(ext.output->text)
              : nullptr;
      if (!l || l->kind != FunctionBuilder::Local::Output || !l->dims.empty())
        return fail(ext.output->range, "the result of the external call must be a scalar output (MLS 3.5, 12.9.2)");
      result = l;
    }
    for (const auto &arg : ext.args) {
      const ast::Expr &e = *arg;
      if (e.kind == ast::ExprKind::Number) {
        call->args.push_back(literal(e.integer ? CType::Int : CType::Double, e.number));
      } else if (e.kind == ast::ExprKind::Bool) {
        call->args.push_back(literal(CType::Int, e.boolean));
      } else if (e.kind == ast::ExprKind::String) {
        call->args.push_back(text(e.text));
      } else if (e.kind == ast::ExprKind::Name && e.ref.size() == 1 && e.ref[0].subscripts.empty() &&
                 b.strings.count(e.text)) {
        call->args.push_back(text(b.strings[e.text]));
      } else if (e.kind == ast::ExprKind::Name && e.ref.size() == 1 && e.ref[0].subscripts.empty() && b.find(e.text)) {
        call->args.push_back(formalArgument(*b.find(e.text)));
      } else if (e.kind == ast::ExprKind::Call && e.text == "size" && e.args.size() == 2 &&
                 e.args[0]->kind == ast::ExprKind::Name && b.find(e.args[0]->text) &&
                 e.args[1]->kind == ast::ExprKind::Number && e.args[1]->integer) {
        const auto &dims = b.find(e.args[0]->text)->dims;
        int k = static_cast<int>(e.args[1]->number);
        if (k < 1 || k > static_cast<int>(dims.size()))
          return fail(e.range, "'" + e.args[0]->text + "' has no dimension " + std::to_string(k));
        call->args.push_back(literal(CType::SizeT, dims[static_cast<size_t>(k - 1)]));
      } else {
        return fail(e.range, "an argument of an external call is an input, output or protected variable, a literal, "
                             "or size(a, k) (MLS 3.5, 12.9)");
      }
    }
  }
  if (!callingConvention(*call))
    return fail(ext.range, "a FORTRAN 77 function takes numbers and arrays of them (eqc passes no Strings or "
                           "external objects to FORTRAN)");
  // External objects (12.9.7) travel as `void *`: into the C function by value, out as its result.
  for (const ExternalArg &a : call->args)
    if (a.type == CType::Object && a.kind != ExternalArg::Value)
      return fail(ext.range, "an external object goes to a C function as an input, and comes back as the "
                             "function's result (MLS 3.5, 12.9.7)");
    else if (a.type == CType::String && a.kind == ExternalArg::Pointer)
      return fail(ext.range,
                  "a String goes to a C function as an input (const char *) and comes back as the "
                  "function's result; eqc does not pass String outputs or protected Strings (const char **)");
  if (result) {
    call->resultSlot = result->slot;
    call->resultType = result->object ? CType::Object : cType(result->type);
  }

  // "builtin" functions are eqc's own when it has them (Modelica.Math's sin, exp, ...).
  Builtin builtin;
  if (language == "builtin" && lookupBuiltin(call->symbol, builtin) && result &&
      builtinInfo(builtin).arity == static_cast<int>(call->args.size())) {
    std::vector<const Expr *> ops;
    for (const ExternalArg &a : call->args)
      if (a.kind == ExternalArg::Value && a.type == CType::Double)
        ops.push_back(ctx().local(a.slot));
    if (ops.size() == call->args.size()) {
      FnStatement s;
      s.kind = FnStatement::Assign;
      s.loc = ext.range;
      s.slot = result->slot;
      s.value = ctx().call(builtin, ops);
      body.push_back(std::move(s));
      return true;
    }
  }

  // 12.9.4: Include, Library, IncludeDirectory and LibraryDirectory.
  ExternalRequest request;
  request.symbol = call->symbol;
  std::string top = cls.name.substr(0, cls.name.find('.'));
  std::vector<std::string> includeDirs, libraryDirs, sourceDirs;
  bool includeDirGiven = false, libraryDirGiven = false, sourceDirGiven = false;
  for (const ast::Modifier &m : ext.annotation) {
    std::vector<std::string> values;
    bool known = m.name == "Include" || m.name == "Library" || m.name == "IncludeDirectory" ||
                 m.name == "LibraryDirectory" || m.name == "SourceDirectory";
    if (!known)
      continue; // other annotations (tools' own) are not eqc's business
    if (!m.value || !strings(*m.value, values))
      return fail(m.range, "annotation " + m.name + " must be a string or an array of strings");
    for (const std::string &v : values) {
      if (m.name == "Include")
        request.includeCode += v + "\n";
      else if (m.name == "Library")
        request.libraries.push_back(v);
      else if (m.name == "IncludeDirectory")
        includeDirGiven = true, includeDirs.push_back(resolveUri(v, m.range));
      else if (m.name == "LibraryDirectory")
        libraryDirGiven = true, libraryDirs.push_back(resolveUri(v, m.range));
      else if (m.name == "SourceDirectory")
        sourceDirGiven = true, sourceDirs.push_back(resolveUri(v, m.range));
    }
  }
  if (!includeDirGiven)
    includeDirs.push_back(resolveUri("modelica://" + top + "/Resources/Include", ext.range));
  if (!libraryDirGiven)
    libraryDirs.push_back(resolveUri("modelica://" + top + "/Resources/Library", ext.range));
  // A library's C sources: in its SourceDirectory (12.9.4), else next to its headers (the Modelica
  // Standard Library keeps both in Resources/C-Sources).
  if (!sourceDirGiven)
    sourceDirs.push_back(resolveUri("modelica://" + top + "/Resources/Source", ext.range));
  sourceDirs.insert(sourceDirs.end(), includeDirs.begin(), includeDirs.end());
  std::error_code ec;
  for (const std::string &d : sourceDirs)
    if (!d.empty() && std::filesystem::is_directory(d, ec))
      request.sourceDirs.push_back(d);
  for (const std::string &d : includeDirs)
    if (!d.empty() && std::filesystem::is_directory(d, ec))
      request.includeDirs.push_back(d);
  for (const std::string &d : libraryDirs)
    if (!d.empty() && std::filesystem::is_directory(d, ec))
      request.libraryDirs.push_back(d);
  call->includeCode = request.includeCode;
  call->includeDirs = request.includeDirs;
  if (!external_)
    return fail(ext.range, "external C functions are not loaded here");
  std::string error;
  call->address = external_->resolve(request, call->linkLibraries, error);
  if (!call->address)
    return fail(ext.range, error);

  FnStatement s;
  s.kind = FnStatement::External;
  s.loc = ext.range;
  s.external = std::move(call);
  body.push_back(std::move(s));
  return true;
}

} // namespace eqc::frontend

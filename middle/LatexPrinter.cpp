// LaTeX printer: the infix printer of ExprOps.cpp with math-mode output.
#include "middle/LatexPrinter.h"

#include "middle/Function.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace eqc {

std::string latexEscape(const std::string &text) {
  // The few non-ASCII symbols eqc's messages use, as math (they need no font setup).
  static const std::pair<const char *, const char *> symbols[] = {
      {"Σ", "$\\Sigma$"}, {"σ", "$\\sigma$"}, {"η", "$\\eta$"}, {"ω", "$\\omega$"}, {"−", "$-$"},
      {"≤", "$\\le$"},    {"≥", "$\\ge$"},    {"²", "$^2$"},      {"→", "$\\to$"}};
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (static_cast<unsigned char>(ch) >= 0x80) {
      bool replaced = false;
      for (auto [utf8, tex] : symbols)
        if (text.compare(i, std::strlen(utf8), utf8) == 0) {
          out += tex;
          i += std::strlen(utf8) - 1;
          replaced = true;
          break;
        }
      if (replaced)
        continue;
    }
    switch (ch) {
    case '\\':
      out += "\\textbackslash{}";
      break;
    case '{':
    case '}':
    case '$':
    case '&':
    case '#':
    case '_':
    case '%':
      out += '\\';
      out += ch;
      break;
    case '^':
      out += "\\^{}";
      break;
    case '~':
      out += "\\~{}";
      break;
    case '-': // keep `--option` from becoming an en dash
      out += i + 1 < text.size() && text[i + 1] == '-' ? "-{}" : "-";
      break;
    default:
      out += ch;
    }
  }
  return out;
}

namespace {

bool isGreek(const std::string &s) {
  static const char *const names[] = {
      "alpha", "beta",  "gamma", "delta", "epsilon", "zeta",    "eta",   "theta", "iota",   "kappa",
      "lambda", "mu",   "nu",    "xi",    "pi",      "rho",     "sigma", "tau",   "upsilon", "phi",
      "chi",   "psi",   "omega", "Gamma", "Delta",   "Theta",   "Lambda", "Xi",   "Pi",     "Sigma",
      "Upsilon", "Phi", "Psi",   "Omega"};
  return std::find_if(std::begin(names), std::end(names), [&](const char *n) { return s == n; }) !=
         std::end(names);
}

bool isPlainIdentifier(const std::string &s) {
  return !s.empty() && std::isalpha(static_cast<unsigned char>(s[0])) &&
         std::all_of(s.begin(), s.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; });
}

/// The letter part of an identifier: x, \lambda or \mathit{vx}.
std::string latexHead(const std::string &head) {
  if (head.size() == 1)
    return head;
  if (isGreek(head))
    return "\\" + head;
  return "\\mathit{" + head + "}";
}

/// A base name (no der) split into the part an accent goes over and its subscript.
void latexIdentifier(const std::string &name, std::string &head, std::string &sub) {
  sub.clear();
  if (!isPlainIdentifier(name)) {
    head = "\\mathit{" + latexEscape(name) + "}";
    return;
  }
  size_t underscore = name.find('_');
  if (underscore != std::string::npos && underscore + 1 < name.size()) {
    std::string tail = name.substr(underscore + 1);
    head = latexHead(name.substr(0, underscore));
    bool digits = std::all_of(tail.begin(), tail.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    sub = digits || tail.size() == 1 ? tail : "\\mathrm{" + latexEscape(tail) + "}";
    return;
  }
  if (underscore != std::string::npos) { // a trailing underscore: x_
    head = "\\mathit{" + latexEscape(name) + "}";
    return;
  }
  size_t digitsAt = name.size();
  while (digitsAt > 0 && std::isdigit(static_cast<unsigned char>(name[digitsAt - 1])))
    --digitsAt;
  head = latexHead(name.substr(0, digitsAt));
  sub = name.substr(digitsAt);
}

/// True when `s` has a `^` outside braces (it then needs braces before another superscript).
bool hasTopLevelSuperscript(const std::string &s) {
  int depth = 0;
  for (char ch : s) {
    if (ch == '{')
      ++depth;
    else if (ch == '}')
      --depth;
    else if (ch == '^' && depth == 0)
      return true;
  }
  return false;
}

std::string latexNumber(double v) {
  if (std::isnan(v))
    return "\\mathrm{NaN}";
  if (std::isinf(v))
    return v > 0 ? "\\infty" : "-\\infty";
  std::string s = formatNumber(v);
  size_t e = s.find('e');
  if (e == std::string::npos)
    return s;
  std::string mantissa = s.substr(0, e);
  int exponent = std::atoi(s.c_str() + e + 1);
  std::string power = "10^{" + std::to_string(exponent) + "}";
  return mantissa == "1" ? power : mantissa == "-1" ? "-" + power : mantissa + " \\cdot " + power;
}

enum Prec { PrecIf = 0, PrecOr = 1, PrecAnd = 2, PrecNot = 3, PrecRel = 4, PrecAdd = 5, PrecMul = 6,
            PrecUnary = 7, PrecPow = 8, PrecAtom = 9 };

class LatexPrinter {
public:
  explicit LatexPrinter(const VarNamer &name) : name_(name) {}

  std::string print(const Expr *e, int context) {
    int prec = 0;
    std::string s = body(e, prec);
    if (prec >= context)
      return s;
    bool tall = s.find("\\frac") != std::string::npos || s.find("\\begin") != std::string::npos;
    return tall ? "\\left(" + s + "\\right)" : "(" + s + ")";
  }

private:
  std::string body(const Expr *e, int &prec) {
    prec = PrecAtom;
    switch (e->kind()) {
    case ExprKind::Const: {
      std::string s = latexNumber(e->value());
      if (e->value() < 0)
        prec = PrecUnary;
      else if (s.find("\\cdot") != std::string::npos)
        prec = PrecMul;
      else if (s.find('^') != std::string::npos)
        prec = PrecPow;
      return s;
    }
    case ExprKind::BoolConst:
      return e->boolValue() ? "\\mathrm{true}" : "\\mathrm{false}";
    case ExprKind::Var:
      return latexVarName(name_(e->var()));
    case ExprKind::Time:
      return "t";
    case ExprKind::Add:
      prec = PrecAdd;
      return sum(e);
    case ExprKind::Mul:
      return product(e, prec);
    case ExprKind::Pow:
      return power(e->op(0), e->op(1), prec);
    case ExprKind::Call:
      return call(e);
    case ExprKind::If:
      prec = PrecIf;
      return "\\begin{cases} " + print(e->op(1), PrecIf) + " & \\text{if } " + print(e->op(0), PrecIf) +
             " \\\\ " + print(e->op(2), PrecIf) + " & \\text{otherwise} \\end{cases}";
    case ExprKind::Lt:
    case ExprKind::Le:
    case ExprKind::Eq:
    case ExprKind::Ne: {
      prec = PrecRel;
      const char *op = e->kind() == ExprKind::Lt   ? " < "
                       : e->kind() == ExprKind::Le ? " \\le "
                       : e->kind() == ExprKind::Eq ? " = "
                                                   : " \\ne ";
      return print(e->op(0), PrecRel + 1) + op + print(e->op(1), PrecRel + 1);
    }
    case ExprKind::And:
      prec = PrecAnd;
      return print(e->op(0), PrecAnd) + " \\land " + print(e->op(1), PrecAnd + 1);
    case ExprKind::Or:
      prec = PrecOr;
      return print(e->op(0), PrecOr) + " \\lor " + print(e->op(1), PrecOr + 1);
    case ExprKind::Not:
      prec = PrecNot;
      return "\\lnot " + print(e->op(0), PrecNot);
    case ExprKind::FnCall: {
      std::string name;
      for (char ch : e->callee().name)
        name += ch == '_' ? std::string("\\_") : std::string(1, ch);
      std::string s = "\\operatorname{" + name + "}(";
      for (size_t i = 0; i < e->numOps(); ++i)
        s += (i ? ", " : "") + print(e->op(i), PrecIf);
      s += ")";
      if (e->callee().outputs.size() > 1)
        s += "_{" + std::to_string(e->fnOutput() + 1) + "}";
      return s;
    }
    case ExprKind::Pre:
      return "\\operatorname{pre}(" + latexVarName(name_(e->var())) + ")";
    case ExprKind::NoEvent:
      return print(e->op(0), PrecIf);
    case ExprKind::Initial:
      return "\\operatorname{initial}()";
    case ExprKind::Once:
      return print(e->op(0), PrecIf);
    case ExprKind::Delay:
      return "\\operatorname{delay}(" + print(e->op(0), PrecIf) + ", " + print(e->op(1), PrecIf) + ")";
    case ExprKind::Local:
    case ExprKind::LocalAt:
      return "?";
    }
    return "?";
  }

  /// base^exponent; a negative constant exponent becomes a fraction, 0.5 a square root.
  std::string power(const Expr *base, const Expr *exponent, int &prec) {
    if (exponent->isConst() && exponent->value() < 0) {
      prec = PrecMul;
      return "\\frac{1}{" + positivePower(base, -exponent->value()) + "}";
    }
    if (exponent->isConst(0.5))
      return "\\sqrt{" + print(base, PrecIf) + "}";
    prec = PrecPow;
    return braced(print(base, PrecPow + 1)) + "^{" + print(exponent, PrecIf) + "}";
  }

  /// base^k for k > 0 (k == 1: the base alone), as a fraction's denominator.
  std::string positivePower(const Expr *base, double k) {
    if (k == 1)
      return print(base, PrecIf);
    if (k == 0.5)
      return "\\sqrt{" + print(base, PrecIf) + "}";
    return braced(print(base, PrecPow + 1)) + "^{" + latexNumber(k) + "}";
  }

  static std::string braced(const std::string &base) {
    return hasTopLevelSuperscript(base) ? "{" + base + "}" : base;
  }

  std::string call(const Expr *e) {
    auto arg = [&](size_t i) { return print(e->op(i), PrecIf); };
    auto paren = [](const std::string &s) {
      bool tall = s.find("\\frac") != std::string::npos || s.find("\\begin") != std::string::npos;
      return tall ? "\\left(" + s + "\\right)" : "(" + s + ")";
    };
    switch (e->builtin()) {
    case Builtin::Sqrt:
      return "\\sqrt{" + arg(0) + "}";
    case Builtin::Abs:
      return "\\left|" + arg(0) + "\\right|";
    case Builtin::Floor:
      return "\\left\\lfloor " + arg(0) + " \\right\\rfloor";
    case Builtin::Ceil:
      return "\\left\\lceil " + arg(0) + " \\right\\rceil";
    default:
      break;
    }
    std::string fn;
    switch (e->builtin()) {
    case Builtin::Sin: fn = "\\sin"; break;
    case Builtin::Cos: fn = "\\cos"; break;
    case Builtin::Tan: fn = "\\tan"; break;
    case Builtin::Asin: fn = "\\arcsin"; break;
    case Builtin::Acos: fn = "\\arccos"; break;
    case Builtin::Atan: fn = "\\arctan"; break;
    case Builtin::Sinh: fn = "\\sinh"; break;
    case Builtin::Cosh: fn = "\\cosh"; break;
    case Builtin::Tanh: fn = "\\tanh"; break;
    case Builtin::Exp: fn = "\\exp"; break;
    case Builtin::Log: fn = "\\ln"; break;
    case Builtin::Log10: fn = "\\log_{10}"; break;
    case Builtin::Min: fn = "\\min"; break;
    case Builtin::Max: fn = "\\max"; break;
    default:
      fn = "\\operatorname{" + latexEscape(builtinInfo(e->builtin()).name) + "}";
    }
    std::string args;
    for (size_t i = 0; i < e->numOps(); ++i)
      args += (i ? ", " : "") + arg(i);
    return fn + paren(args);
  }

  /// A term printed without its sign; `negative` tells whether it was subtracted.
  std::string unsignedTerm(const Expr *t, bool &negative) {
    negative = false;
    if (t->isConst() && t->value() < 0) {
      negative = true;
      return latexNumber(-t->value());
    }
    if (t->kind() == ExprKind::Mul && t->op(0)->isConst() && t->op(0)->value() < 0) {
      negative = true;
      int prec = 0;
      std::string s = productBody(t, -t->op(0)->value(), prec);
      return prec < PrecMul ? "(" + s + ")" : s;
    }
    return print(t, PrecAdd);
  }

  std::string sum(const Expr *e) {
    std::vector<const Expr *> terms(e->ops().begin(), e->ops().end());
    if (terms.front()->isConst()) // `x - 1`, not `-1 + x`
      std::rotate(terms.begin(), terms.begin() + 1, terms.end());
    std::string s;
    for (size_t i = 0; i < terms.size(); ++i) {
      bool negative;
      std::string t = unsignedTerm(terms[i], negative);
      if (i == 0)
        s = negative ? "-" + t : t;
      else
        s += (negative ? " - " : " + ") + t;
    }
    return s;
  }

  std::string product(const Expr *e, int &prec) {
    double coeff = e->op(0)->isConst() ? e->op(0)->value() : 1;
    if (coeff < 0) {
      std::string s = productBody(e, -coeff, prec);
      prec = PrecUnary;
      return "-" + s;
    }
    return productBody(e, coeff, prec);
  }

  /// Factors side by side; \cdot where juxtaposition would misread (before a digit).
  static std::string juxtapose(const std::vector<std::string> &factors) {
    std::string s;
    for (size_t i = 0; i < factors.size(); ++i) {
      if (i > 0)
        s += std::isdigit(static_cast<unsigned char>(factors[i][0])) || factors[i][0] == '-' ? " \\cdot " : " ";
      s += factors[i];
    }
    return s;
  }

  /// A product with coefficient `coeff` (> 0) in place of its constant factor.
  std::string productBody(const Expr *e, double coeff, int &prec) {
    std::vector<const Expr *> num, den;
    std::vector<double> denPower;
    for (const Expr *f : e->ops()) {
      if (f->isConst())
        continue;
      if (f->kind() == ExprKind::Pow && f->op(1)->isConst() && f->op(1)->value() < 0) {
        den.push_back(f->op(0));
        denPower.push_back(-f->op(1)->value());
      } else {
        num.push_back(f);
      }
    }
    // A lone factor needs no parentheses inside \frac{…}{…}; several are multiplied.
    std::vector<std::string> numText, denText;
    if (coeff != 1)
      numText.push_back(latexNumber(coeff));
    int numContext = den.empty() || num.size() + (coeff != 1) > 1 ? PrecMul : PrecIf;
    for (const Expr *f : num)
      numText.push_back(print(f, numContext));
    for (size_t i = 0; i < den.size(); ++i)
      denText.push_back(den.size() == 1 ? positivePower(den[i], denPower[i])
                        : denPower[i] == 1 ? print(den[i], PrecMul)
                                           : positivePower(den[i], denPower[i]));
    if (!den.empty()) {
      prec = PrecMul;
      return "\\frac{" + (numText.empty() ? std::string("1") : juxtapose(numText)) + "}{" + juxtapose(denText) + "}";
    }
    prec = numText.size() == 1 ? PrecAtom : PrecMul;
    if (numText.size() == 1 && coeff == 1) // a product of one factor cannot occur; be safe
      return print(num[0], PrecIf);
    return juxtapose(numText);
  }

  const VarNamer &name_;
};

} // namespace

std::string latexVarName(const std::string &name) {
  std::string base = name;
  int order = 0;
  while (base.size() > 5 && base.compare(0, 4, "der(") == 0 && base.back() == ')') {
    base = base.substr(4, base.size() - 5);
    ++order;
  }
  std::string head, sub;
  latexIdentifier(base, head, sub);
  std::string s = order == 1 ? "\\dot{" + head + "}" : order == 2 ? "\\ddot{" + head + "}" : head;
  if (!sub.empty())
    s += "_{" + sub + "}";
  if (order >= 3)
    s += "^{(" + std::to_string(order) + ")}";
  return s;
}

std::string toLatex(const Expr *e, const VarNamer &name) {
  LatexPrinter printer(name);
  return printer.print(e, PrecIf);
}

} // namespace eqc

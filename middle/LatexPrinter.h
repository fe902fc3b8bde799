// LaTeX rendering of expressions and variable names (for `eqc reduce --format latex`).
#pragma once

#include "middle/ExprOps.h"

#include <string>

namespace eqc {

/// Math-mode LaTeX for `e`: \frac for division, ^{…} for powers, \sin etc., juxtaposition for
/// products (\cdot before a factor that starts with a digit), time as t, and variable names through
/// latexVarName(name(v)). Minimal parentheses, same precedences as toString.
std::string toLatex(const Expr *e, const VarNamer &name);

/// Math-mode LaTeX for a variable name as printed by FlatSystem::varName: der(x) → \dot{x},
/// der(der(x)) → \ddot{x}, higher → x^{(k)}; x1 → x_{1}, x_dot → x_{\mathrm{dot}}, Greek letter
/// names → \lambda, other multi-letter names → \mathit{vx}; special characters escaped.
std::string latexVarName(const std::string &name);

/// Text-mode escaping of the LaTeX special characters (\ { } $ & # ^ _ % ~).
std::string latexEscape(const std::string &text);

} // namespace eqc

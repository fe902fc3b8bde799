// Models that several test suites compile: one text each, so that the suites test the same model.
#pragma once

#include <sstream>
#include <string>

namespace eqc::test {

/// n Cartesian pendula coupled by horizontal springs between neighbours (index 3: 2n invariants),
/// bench/gen_models.py's `pendula` family in array form; `n` the text of N's value.
inline std::string pendulaModel(const std::string &n) {
  std::ostringstream s;
  s << "model Pendula\n  parameter Integer N = " << n << ";\n  parameter Real L = 1, g = 9.81, k = 0.5;\n"
    << "  parameter Real theta[N] = {0.3*sin(3.141592653589793*i/(N + 1)) + 0.05 for i in 1:N};\n"
    << "  Real x[N](start = sin(theta), each fixed = true), y[N](start = -cos(theta));\n"
    << "  Real u[N](each start = 0, each fixed = true), w[N], lambda[N];\nequation\n"
    << "  der(x) = u;\n  der(y) = w;\n  der(u[1]) = -lambda[1]*x[1] + k*(x[2] - x[1]);\n"
    << "  for i in 2:N-1 loop\n    der(u[i]) = -lambda[i]*x[i] + k*(x[i-1] - x[i]) + k*(x[i+1] - x[i]);\n"
    << "  end for;\n  der(u[N]) = -lambda[N]*x[N] + k*(x[N-1] - x[N]);\n"
    << "  for i in 1:N loop\n    der(w[i]) = -lambda[i]*y[i] - g;\n    x[i]^2 + y[i]^2 = L^2;\n  end for;\n"
    << "end Pendula;\n";
  return s.str();
}
inline std::string pendulaModel(int n) { return pendulaModel(std::to_string(n)); }

} // namespace eqc::test

// The benchmark model: a chain of damped oscillators with a nonlinear on-site force, as eqc source.
#pragma once

#include <ostream>
#include <string>

namespace eqc::bench {

/// The on-site force d*f(xi): sin (a libm call per oscillator) or a cube (arithmetic only).
enum class ChainForce { Sine, Cubic };

/// Parameter values written into the model (and used for both right-hand sides in the benchmark).
struct ChainParameters {
  double k = 4.0; ///< spring constant between neighbours
  double c = 0.1; ///< damping
  double d = 0.5; ///< amplitude of the on-site force
};

/// `sin` or `cubic`, as on the command lines.
const char *forceName(ChainForce force);
/// Parses `sin` or `cubic`; false for anything else.
bool parseForce(const std::string &text, ChainForce &force);

/// Name of the generated model, e.g. `Chain500` or `CubicChain500`.
std::string chainModelName(int n, ChainForce force);

/// Writes the eqc source of `n` >= 1 oscillators with fixed ends (x0 = x{n+1} = 0):
///   der(xi) = vi;  der(vi) = -k*(2*xi - x{i-1} - x{i+1}) - c*vi + d*f(xi),  f = sin or cube,
/// i.e. 2n states and 2n equations, declared in the order x1, v1, x2, v2, ... .
void writeChainModel(std::ostream &os, int n, ChainForce force, const ChainParameters &params = {});

} // namespace eqc::bench

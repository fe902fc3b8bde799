// Escaping text for XML and SVG attributes and content.
#pragma once

#include <string>

namespace eqc {

/// s with &, <, > and " replaced by their entities.
std::string xmlEscape(const std::string &s);

} // namespace eqc

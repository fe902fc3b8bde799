// Parsing: source text → AST, with every syntax error reported (not just the first).
#pragma once

#include "frontend/Ast.h"
#include "support/Diagnostics.h"

#include <optional>

namespace eqc {

/// Parses one buffer of the source manager.
/// Ensures: on success an AST whose ranges point into `buffer`; on any syntax error, all of them
/// are reported to `diags` and nullopt is returned.
std::optional<ast::File> parseBuffer(const SourceManager &sources, uint32_t buffer,
                                     Diagnostics &diags);

} // namespace eqc

// Source buffers, source locations and the diagnostics engine that renders user errors.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace eqc {

/// A position in a source buffer: buffer id, 1-based line and column, and length of the range.
struct SourceRange {
  uint32_t buffer = 0; ///< 0 = no location
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t length = 1;

  bool valid() const { return buffer != 0; }
};

/// Owns the text of every source file read, so diagnostics can show the offending line.
class SourceManager {
public:
  /// Registers a buffer and returns its id (never 0).
  uint32_t addBuffer(std::string name, std::string text);
  const std::string &name(uint32_t buffer) const { return buffers_[buffer - 1].name; }
  const std::string &text(uint32_t buffer) const { return buffers_[buffer - 1].text; }
  /// The text of one line (without its newline), or "" when out of range.
  std::string_view line(uint32_t buffer, uint32_t line) const;

private:
  struct Buffer {
    std::string name, text;
    std::vector<size_t> lineStarts;
  };
  std::vector<Buffer> buffers_;
};

/// "1 equation", "3 equations": counts in messages.
inline std::string plural(size_t n, const std::string &word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

enum class Severity { Error, Warning, Note };

/// One message with an optional location; notes attach to the preceding error or warning.
struct Diagnostic {
  Severity severity;
  SourceRange range;
  std::string message;
};

/// Collects and renders diagnostics as `file:line:col: error: message` plus the line and a caret.
class Diagnostics {
public:
  explicit Diagnostics(const SourceManager &sources, std::ostream *out = nullptr)
      : sources_(sources), out_(out) {}

  void error(SourceRange range, std::string message) { report(Severity::Error, range, std::move(message)); }
  void warning(SourceRange range, std::string message) { report(Severity::Warning, range, std::move(message)); }
  void note(SourceRange range, std::string message) { report(Severity::Note, range, std::move(message)); }
  void report(Severity severity, SourceRange range, std::string message);

  unsigned errorCount() const { return errors_; }
  bool hasErrors() const { return errors_ != 0; }
  const std::vector<Diagnostic> &all() const { return diagnostics_; }
  /// Renders one diagnostic to text (the same text that is streamed to the output).
  std::string render(const Diagnostic &d) const;
  /// Stop collecting after this many errors (0 = no limit); later errors are counted only.
  void setErrorLimit(unsigned limit) { errorLimit_ = limit; }
  const SourceManager &sources() const { return sources_; }

private:
  const SourceManager &sources_;
  std::ostream *out_;
  std::vector<Diagnostic> diagnostics_;
  unsigned errors_ = 0;
  unsigned errorLimit_ = 100;
};

} // namespace eqc

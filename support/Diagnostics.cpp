// Rendering of diagnostics in the `file:line:col: error:` format with source line and caret.
#include "support/Diagnostics.h"

#include <ostream>

namespace eqc {

uint32_t SourceManager::addBuffer(std::string name, std::string text) {
  Buffer b{std::move(name), std::move(text), {0}};
  for (size_t i = 0; i < b.text.size(); ++i)
    if (b.text[i] == '\n')
      b.lineStarts.push_back(i + 1);
  buffers_.push_back(std::move(b));
  return static_cast<uint32_t>(buffers_.size());
}

std::string_view SourceManager::line(uint32_t buffer, uint32_t line) const {
  if (buffer == 0 || buffer > buffers_.size())
    return {};
  const Buffer &b = buffers_[buffer - 1];
  if (line == 0 || line > b.lineStarts.size())
    return {};
  size_t begin = b.lineStarts[line - 1];
  size_t end = b.text.find('\n', begin);
  if (end == std::string::npos)
    end = b.text.size();
  if (end > begin && b.text[end - 1] == '\r')
    --end;
  return std::string_view(b.text).substr(begin, end - begin);
}

static const char *severityName(Severity s) {
  switch (s) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

std::string Diagnostics::render(const Diagnostic &d) const {
  std::string text;
  if (d.range.valid()) {
    text += sources_.name(d.range.buffer) + ":" + std::to_string(d.range.line) + ":" +
            std::to_string(d.range.column) + ": ";
  } else {
    text += "eqc: ";
  }
  text += severityName(d.severity);
  text += ": " + d.message + "\n";
  if (!d.range.valid())
    return text;
  std::string_view line = sources_.line(d.range.buffer, d.range.line);
  if (line.empty())
    return text;
  // Long lines are clipped around the column so the caret stays visible.
  size_t col = d.range.column ? d.range.column - 1 : 0;
  size_t from = col > 100 ? col - 60 : 0;
  std::string_view shown = line.substr(from, 160);
  text += "  ";
  text += shown;
  text += "\n  ";
  for (size_t i = from; i < col && i - from < shown.size(); ++i)
    text += line[i] == '\t' ? '\t' : ' ';
  text += '^';
  size_t len = d.range.length;
  for (size_t i = 1; i < len && col + i < line.size() && i < 160; ++i)
    text += '~';
  text += "\n";
  return text;
}

void Diagnostics::report(Severity severity, SourceRange range, std::string message) {
  if (severity == Severity::Error)
    ++errors_;
  if (errorLimit_ && errors_ > errorLimit_)
    return;
  Diagnostic d{severity, range, std::move(message)};
  if (out_) {
    *out_ << render(d);
    if (severity == Severity::Error && errorLimit_ && errors_ == errorLimit_)
      *out_ << "eqc: note: too many errors; stopping here\n";
  }
  diagnostics_.push_back(std::move(d));
}

} // namespace eqc

// External C functions at run time: the jump back from ModelicaError to the call that failed, and
// the Modelica utility functions (MLS 3.5, 12.9.6) over it.
#include "eqc/eqc_external.h"

#include <cmath>
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace {

/// Per thread, trivially destructible: a library holding the runtime still unloads with dlclose
/// (a thread_local with a destructor would pin it until the thread ends).
struct ExternalState {
  void *jump;            ///< the buffer of the call in progress
  char error[2048];      ///< the last ModelicaError's message (truncated)
  char *strings[256];    ///< ModelicaAllocateString's results, freed at the next call
  int nStrings;
  char **kept; ///< eqc_string_keep's strings, oldest first (a stack released to marks)
  size_t nKept, capacityKept;
};
thread_local ExternalState state;

/// The texts of String variables (eqc_string_handle), one per distinct text, for the rest of the
/// process; handle 0 is "".
struct StringTable {
  std::mutex mutex;
  std::deque<std::string> texts{std::string()};
  std::unordered_map<std::string_view, int> handles{{std::string_view(), 0}};
};
StringTable &stringTable() {
  static StringTable table; // destroyed with the library (an FMU's, when it is unloaded) or at exit
  return table;
}

void setError(const char *text) {
  std::snprintf(state.error, sizeof state.error, "%s", text ? text : "");
}

/// `text` and a line end, unless it ends one itself (MSL's Streams.print passes "%s\n").
void printLine(const char *prefix, const char *text) {
  text = text ? text : "";
  const size_t n = std::strlen(text);
  std::fprintf(stderr, "%s%s%s", prefix, text, n && text[n - 1] == '\n' ? "" : "\n");
}
void message(const char *text) { printLine("", text); }
void warning(const char *text) { printLine("warning: ", text); }

/// Returns to the call in progress with state.error as its message. No object with a destructor
/// may be alive in the frames it leaves (they are C frames, and these functions).
[[noreturn]] void raise() {
  if (void *jump = state.jump) {
    state.jump = nullptr;
    longjmp(*static_cast<jmp_buf *>(jump), 1);
  }
  // Called outside a model's call of an external function: nowhere to return to.
  std::fprintf(stderr, "error: %s\n", state.error);
  std::abort();
}

[[noreturn]] void error(const char *text) {
  setError(text);
  raise();
}

char *allocateString(size_t length, int errorReturn) {
  char *s = static_cast<char *>(std::malloc(length + 1));
  if (!s) {
    if (errorReturn)
      return nullptr;
    error("out of memory allocating a string");
  }
  s[length] = '\0';
  // Beyond the table's size (in one call) a string is not freed: it must outlive the call.
  if (state.nStrings < static_cast<int>(sizeof state.strings / sizeof state.strings[0]))
    state.strings[state.nStrings++] = s;
  return s;
}

std::string vformat(const char *format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string s(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0)
    std::vsnprintf(s.data(), s.size() + 1, format, args);
  return s;
}

/// ModelicaVFormatError's message, formatted into state.error (nothing to destroy before the jump).
void vformatError(const char *format, va_list args) { std::vsnprintf(state.error, sizeof state.error, format, args); }

/// A kept string of `length` characters and its terminator (eqc_strings_release frees it).
char *keptString(size_t length) {
  if (state.nKept == state.capacityKept) {
    const size_t capacity = state.capacityKept ? 2 * state.capacityKept : 64;
    void *grown = std::realloc(state.kept, capacity * sizeof(char *));
    if (!grown)
      error("out of memory keeping a string");
    state.kept = static_cast<char **>(grown);
    state.capacityKept = capacity;
  }
  char *s = static_cast<char *>(std::malloc(length + 1));
  if (!s)
    error("out of memory keeping a string");
  s[length] = '\0';
  state.kept[state.nKept++] = s;
  return s;
}

/// printf of one value into a std::string.
template <typename T> std::string printed(const char *format, T value) {
  int n = std::snprintf(nullptr, 0, format, value);
  std::string s(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0)
    std::snprintf(s.data(), s.size() + 1, format, value);
  return s;
}

/// Line k of `names` (k = value, 1-based; Booleans `fromZero`: false is line 1), "?" past them.
std::string literalName(double value, const char *names, bool fromZero) {
  long k = std::lround(value) + (fromZero ? 1 : 0);
  for (const char *p = names; k >= 1; --k) {
    const char *end = std::strchr(p, '\n');
    if (k == 1)
      return end ? std::string(p, end) : std::string(p);
    if (!end)
      break;
    p = end + 1;
  }
  return "?";
}

const eqc_external_utilities utilities{message, warning, error, allocateString};

} // namespace

extern "C" {

void eqc_external_enter(void *jump_buffer) {
  static_assert(sizeof(jmp_buf) <= EQC_EXTERNAL_JMP_BUF_SIZE, "EQC_EXTERNAL_JMP_BUF_SIZE too small");
  for (int i = 0; i < state.nStrings; ++i)
    std::free(state.strings[i]);
  state.nStrings = 0;
  state.jump = jump_buffer;
}

void eqc_external_leave(void) { state.jump = nullptr; }

const char *eqc_external_error(void) { return state.error; }

const eqc_external_utilities *eqc_external_utilities_table(void) { return &utilities; }

void ModelicaMessage(const char *string) { message(string); }
void ModelicaWarning(const char *string) { warning(string); }
void ModelicaError(const char *string) { error(string); }

void ModelicaVFormatMessage(const char *format, va_list args) { message(vformat(format, args).c_str()); }
void ModelicaVFormatWarning(const char *format, va_list args) { warning(vformat(format, args).c_str()); }
void ModelicaVFormatError(const char *format, va_list args) {
  vformatError(format, args);
  raise();
}

void ModelicaFormatMessage(const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::string s = vformat(format, args);
  va_end(args);
  message(s.c_str());
}
void ModelicaFormatWarning(const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::string s = vformat(format, args);
  va_end(args);
  warning(s.c_str());
}
void ModelicaFormatError(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vformatError(format, args);
  va_end(args);
  raise();
}

char *ModelicaAllocateString(size_t len) { return allocateString(len, 0); }
char *ModelicaAllocateStringWithErrorReturn(size_t len) { return allocateString(len, 1); }
char *ModelicaDuplicateString(const char *str) {
  size_t n = std::strlen(str);
  return static_cast<char *>(std::memcpy(allocateString(n, 0), str, n));
}
char *ModelicaDuplicateStringWithErrorReturn(const char *str) {
  size_t n = std::strlen(str);
  char *s = allocateString(n, 1);
  return s ? static_cast<char *>(std::memcpy(s, str, n)) : nullptr;
}

size_t eqc_strings_mark(void) { return state.nKept; }

void eqc_strings_release(size_t mark) {
  while (state.nKept > mark)
    std::free(state.kept[--state.nKept]);
  if (state.nKept == 0) { // nothing kept: the table goes too (no thread keeps memory between calls)
    std::free(state.kept);
    state.kept = nullptr;
    state.capacityKept = 0;
  }
}

const char *eqc_string_literal(const char *text) { return text ? text : ""; }

const char *eqc_string_keep(const char *text) {
  text = text ? text : "";
  const size_t n = std::strlen(text);
  return static_cast<const char *>(std::memcpy(keptString(n), text, n));
}

const char *eqc_string_concat(const char *a, const char *b) {
  a = a ? a : "", b = b ? b : "";
  const size_t na = std::strlen(a), nb = std::strlen(b);
  char *s = keptString(na + nb);
  std::memcpy(s, a, na);
  std::memcpy(s + na, b, nb);
  return s;
}

const char *eqc_string_format(double value, const char *format, const char *names) {
  const size_t n = std::strlen(format);
  const char conversion = n ? format[n - 1] : 'g';
  std::string text;
  if (std::strchr("diuoxX", conversion)) { // an Integer: as long long
    std::string wide = std::string(format, n - 1) + "ll" + conversion;
    text = printed(wide.c_str(), static_cast<long long>(value));
  } else if (conversion == 's') {
    text = printed(format,
                   literalName(value, names && *names ? names : "false\ntrue", !(names && *names)).c_str());
  } else {
    text = printed(format, value);
  }
  return eqc_string_keep(text.c_str());
}

void eqc_function_message(const char *text) { setError(text); }

int eqc_string_compare(const char *a, const char *b) {
  const int c = std::strcmp(a ? a : "", b ? b : "");
  return (c > 0) - (c < 0);
}

int eqc_string_handle(const char *text) {
  StringTable &t = stringTable();
  const std::string_view key = text ? text : "";
  std::lock_guard<std::mutex> lock(t.mutex);
  auto known = t.handles.find(key);
  if (known != t.handles.end())
    return known->second;
  const int handle = static_cast<int>(t.texts.size());
  t.texts.emplace_back(key);
  t.handles.emplace(t.texts.back(), handle); // a deque's elements stay where they are
  return handle;
}

const char *eqc_string_text(double handle) {
  StringTable &t = stringTable();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!(handle >= 0 && handle < static_cast<double>(t.texts.size())) || handle != std::floor(handle))
    return "";
  return t.texts[static_cast<size_t>(handle)].c_str();
}

} // extern "C"

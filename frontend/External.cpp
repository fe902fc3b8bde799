// External C code (MLS 3.5, 12.9): Include code compiled with the system C compiler and cached,
// libraries found on their directories or the system, everything loaded with dlopen.
#include "frontend/External.h"

#include "eqc/eqc_external.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char **environ;

namespace eqc {
namespace fs = std::filesystem;

const char *modelicaUtilitiesHeader() {
  return R"(/* The utility functions of external C code (MLS 3.5, 12.9.6), as eqc provides them. */
#ifndef MODELICA_UTILITIES_H
#define MODELICA_UTILITIES_H
#include <stddef.h>
#include <stdarg.h>
#ifdef __cplusplus
extern "C" {
#endif
void ModelicaMessage(const char *string);
void ModelicaWarning(const char *string);
void ModelicaError(const char *string) __attribute__((noreturn));
void ModelicaFormatMessage(const char *string, ...) __attribute__((format(printf, 1, 2)));
void ModelicaFormatWarning(const char *string, ...) __attribute__((format(printf, 1, 2)));
void ModelicaFormatError(const char *string, ...) __attribute__((noreturn, format(printf, 1, 2)));
void ModelicaVFormatMessage(const char *string, va_list args);
void ModelicaVFormatWarning(const char *string, va_list args);
void ModelicaVFormatError(const char *string, va_list args) __attribute__((noreturn));
char *ModelicaAllocateString(size_t len);
char *ModelicaAllocateStringWithErrorReturn(size_t len);
char *ModelicaDuplicateString(const char *str);
char *ModelicaDuplicateStringWithErrorReturn(const char *str);
#ifdef __cplusplus
}
#endif
#endif
)";
}

const char *externalUtilitiesSource() {
  return R"(/* eqc: the utility functions of MLS 3.5, 12.9.6 for external code loaded by eqc, forwarding to
 * the eqc runtime through the table eqc_external_bind receives (struct eqc_external_utilities). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
struct eqc_external_utilities {
  void (*message)(const char *text);
  void (*warning)(const char *text);
  void (*error)(const char *text);
  char *(*allocate_string)(size_t length, int error_return);
};
static const struct eqc_external_utilities *eqc_u;
void eqc_external_bind(const struct eqc_external_utilities *u) { eqc_u = u; }
/* Formats into a string of the runtime (freed at the next external call: error() does not return). */
static const char *eqc_format(const char *format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int n = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  char *s = eqc_u->allocate_string(n > 0 ? (size_t)n : 0, 1);
  if (!s)
    return format;
  vsnprintf(s, (size_t)n + 1, format, args);
  return s;
}
void ModelicaMessage(const char *s) { eqc_u->message(s); }
void ModelicaWarning(const char *s) { eqc_u->warning(s); }
void ModelicaError(const char *s) { eqc_u->error(s); for (;;) {} }
void ModelicaVFormatMessage(const char *f, va_list a) { eqc_u->message(eqc_format(f, a)); }
void ModelicaVFormatWarning(const char *f, va_list a) { eqc_u->warning(eqc_format(f, a)); }
void ModelicaVFormatError(const char *f, va_list a) { eqc_u->error(eqc_format(f, a)); for (;;) {} }
void ModelicaFormatMessage(const char *f, ...) { va_list a; va_start(a, f); ModelicaVFormatMessage(f, a); va_end(a); }
void ModelicaFormatWarning(const char *f, ...) { va_list a; va_start(a, f); ModelicaVFormatWarning(f, a); va_end(a); }
void ModelicaFormatError(const char *f, ...) { va_list a; va_start(a, f); ModelicaVFormatError(f, a); }
char *ModelicaAllocateString(size_t n) { return eqc_u->allocate_string(n, 0); }
char *ModelicaAllocateStringWithErrorReturn(size_t n) { return eqc_u->allocate_string(n, 1); }
char *ModelicaDuplicateString(const char *s) { size_t n = strlen(s); return memcpy(eqc_u->allocate_string(n, 0), s, n); }
char *ModelicaDuplicateStringWithErrorReturn(const char *s) {
  size_t n = strlen(s);
  char *d = eqc_u->allocate_string(n, 1);
  return d ? memcpy(d, s, n) : NULL;
}
)";
}

int runCompiler(const std::vector<std::string> &args, std::string &output) {
  const char *cc = std::getenv("CC");
  std::vector<std::string> all{cc && *cc ? cc : "cc"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  int pipeFds[2];
  if (pipe(pipeFds) != 0)
    return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
  pid_t pid;
  int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipeFds[1]);
  char buffer[4096];
  ssize_t n;
  while ((n = read(pipeFds[0], buffer, sizeof buffer)) > 0)
    output.append(buffer, static_cast<size_t>(n));
  close(pipeFds[0]);
  if (spawned != 0) {
    output += std::string("cannot run '") + argv[0] + "': " + std::strerror(spawned);
    return -1;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

namespace {

/// FNV-1a, 64 bits, as 16 hex digits (names cache folders; their content is checked, not trusted).
std::string hashText(const std::string &text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text)
    h = (h ^ c) * 1099511628211ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

bool writeText(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out.flush());
}

std::string readText(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// "path size mtime" of a file, "" when it does not exist.
std::string fileStamp(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return "";
  return path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

/// The files a make-style dependency file names (after its first `target:`), but those in `skip`.
std::vector<std::string> dependencies(const std::string &depfile, const fs::path &skip) {
  std::string text = readText(depfile);
  std::vector<std::string> files;
  size_t colon = text.find(": ");
  std::string word;
  for (size_t i = colon == std::string::npos ? text.size() : colon + 1; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ' ';
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      word += ' ';
      ++i;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
    } else if (c == ' ' || c == '\n' || c == '\t') {
      if (!word.empty() && fs::path(word).parent_path() != skip)
        files.push_back(fs::absolute(word).string());
      word.clear();
    } else {
      word += c;
    }
  }
  return files;
}

/// The last lines of a compiler's output (its errors), indented for a note.
std::string compilerMessage(const std::string &output) {
  std::string text = output.size() > 2000 ? "..." + output.substr(output.size() - 2000) : output;
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

} // namespace

void *ExternalCode::compiled(const ExternalRequest &r, const std::vector<std::string> &libraries, std::string &error) {
  std::vector<std::string> flags{"-shared", "-fPIC", "-O2"};
  for (const std::string &dir : r.includeDirs)
    flags.push_back("-I" + dir);
  std::vector<std::string> linkFlags;
  for (const std::string &lib : libraries) {
    if (lib.size() > 2 && lib.compare(lib.size() - 2, 2, ".a") == 0) {
      linkFlags.insert(linkFlags.end(), {"-Wl,--whole-archive", lib, "-Wl,--no-whole-archive"});
    } else {
      if (lib.rfind("-l", 0) != 0)
        linkFlags.push_back("-Wl,-rpath," + fs::path(lib).parent_path().string());
      linkFlags.push_back(lib);
    }
  }
  linkFlags.push_back("-lm");
  std::string key = "eqc external 1\n" + r.includeCode + "\n";
  for (const auto *list : {&flags, &linkFlags})
    for (const std::string &f : *list)
      key += f + "\n";
  const char *cc = std::getenv("CC");
  key += cc ? cc : "cc";
  key += externalUtilitiesSource();
  key += modelicaUtilitiesHeader();
  std::string id = "code:" + key;
  if (auto it = handles_.find(id); it != handles_.end())
    return it->second;

  std::error_code ec;
  fs::path dir;
  bool cached = !cacheDirectory_.empty();
  if (cached) {
    dir = fs::path(cacheDirectory_) / "external" / hashText(key);
    // Reused when the same source was built and no file it includes has changed since.
    if (readText(dir / "key") == key) {
      std::istringstream stamps(readText(dir / "stamps"));
      bool fresh = fs::exists(dir / "code.so", ec);
      for (std::string line; fresh && std::getline(stamps, line);)
        fresh = fileStamp(line.substr(0, line.find(' '))) == line;
      if (fresh) {
        if (void *h = dlopen((dir / "code.so").c_str(), RTLD_NOW | RTLD_LOCAL)) {
          if (auto bind = reinterpret_cast<void (*)(const eqc_external_utilities *)>(dlsym(h, "eqc_external_bind")))
            bind(eqc_external_utilities_table());
          return handles_[id] = h;
        }
      }
    }
    fs::create_directories(dir.parent_path(), ec);
  }
  // Built in a fresh folder, then moved into place whole (another eqc may build the same).
  std::string base = cached ? (dir.parent_path() / "build-XXXXXX").string() : (fs::temp_directory_path(ec) / "eqc-external-XXXXXX").string();
  if (!mkdtemp(base.data())) {
    error = "cannot create a folder for compiling it (" + base + "): " + std::strerror(errno);
    return nullptr;
  }
  fs::path work(base);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code e;
      if (!p.empty())
        fs::remove_all(p, e);
    }
  } cleanup{work};
  if (!writeText(work / "code.c", r.includeCode + "\n") ||
      !writeText(work / "eqc_utilities.c", externalUtilitiesSource()) ||
      !writeText(work / "ModelicaUtilities.h", modelicaUtilitiesHeader())) {
    error = "cannot write its source in " + work.string();
    return nullptr;
  }
  std::string output;
  std::vector<std::string> utilities{"-c", "-fPIC", "-O2", "-o", (work / "eqc_utilities.o").string(),
                                     (work / "eqc_utilities.c").string()};
  std::vector<std::string> args = flags;
  args.insert(args.end(), {"-I" + work.string(), "-MD", "-MF", (work / "code.d").string(), "-o",
                           (work / "code.so").string(), (work / "code.c").string(), (work / "eqc_utilities.o").string()});
  args.insert(args.end(), linkFlags.begin(), linkFlags.end());
  if (runCompiler(utilities, output) != 0 || runCompiler(args, output) != 0) {
    std::string command = std::getenv("CC") ? std::getenv("CC") : "cc";
    for (const std::string &a : args)
      command += " " + a;
    error = "its Include code does not compile (" + command + "):\n" + compilerMessage(output);
    return nullptr;
  }
  fs::path so = work / "code.so";
  if (cached) {
    std::string stamps;
    for (const std::string &file : dependencies((work / "code.d").string(), work))
      stamps += fileStamp(file) + "\n";
    writeText(work / "stamps", stamps);
    writeText(work / "key", key);
    fs::remove_all(dir, ec);
    fs::rename(work, dir, ec);
    if (!ec) {
      cleanup.p.clear();
      so = dir / "code.so";
    }
  }
  void *h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    error = std::string("cannot load its compiled code: ") + dlerror();
    return nullptr;
  }
  if (auto bind = reinterpret_cast<void (*)(const eqc_external_utilities *)>(dlsym(h, "eqc_external_bind")))
    bind(eqc_external_utilities_table());
  return handles_[id] = h;
}

void *ExternalCode::library(const std::string &name, const std::vector<std::string> &dirs, std::string &link,
                            std::string &error) {
  std::error_code ec;
  for (const std::string &dir : dirs)
    for (const char *platform : {"linux64/gcc", "linux64", ""})
      for (const char *suffix : {".so", ".a"}) {
        fs::path p = fs::path(dir) / platform / ("lib" + name + suffix);
        if (fs::is_regular_file(p, ec)) {
          link = fs::canonical(p, ec).string();
          if (suffix == std::string(".a"))
            return nullptr; // linked into compiled code
          if (auto it = handles_.find(link); it != handles_.end())
            return it->second;
          void *h = dlopen(link.c_str(), RTLD_NOW | RTLD_LOCAL);
          if (!h)
            error = std::string("cannot load library '") + link + "': " + dlerror();
          return h ? handles_[link] = h : nullptr;
        }
      }
  // A library of the system: its development link (libname.so), else a versioned one.
  link = "-l" + name;
  std::vector<std::string> candidates{"lib" + name + ".so"};
  for (const char *sys : {"/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib", "/lib"})
    for (const auto &entry : fs::directory_iterator(sys, ec))
      if (entry.path().filename().string().rfind("lib" + name + ".so.", 0) == 0)
        candidates.push_back(entry.path().string());
  for (const std::string &c : candidates) {
    if (auto it = handles_.find(c); it != handles_.end())
      return it->second;
    if (void *h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))
      return handles_[c] = h;
  }
  error = "library '" + name + "' is neither in " +
          (dirs.empty() ? std::string("a library directory") : "'" + dirs.front() + "'") + " nor on the system";
  return nullptr;
}

void *ExternalCode::resolve(const ExternalRequest &r, std::vector<std::string> &linkLibraries, std::string &error) {
  std::vector<void *> handles;
  std::string libraryError;
  bool archive = false;
  for (const std::string &name : r.libraries) {
    std::string link, why;
    void *h = library(name, r.libraryDirs, link, why);
    if (h)
      handles.push_back(h);
    else if (libraryError.empty())
      libraryError = why;
    archive = archive || (link.size() > 2 && link.compare(link.size() - 2, 2, ".a") == 0);
    linkLibraries.push_back(link);
  }
  if (!r.includeCode.empty() || archive) {
    void *h = compiled(r, linkLibraries, error);
    if (!h)
      return nullptr;
    handles.insert(handles.begin(), h);
  }
  for (void *h : handles)
    if (void *address = dlsym(h, r.symbol.c_str()))
      return address;
  // The C library and libm, which this process has loaded.
  if (void *address = dlsym(RTLD_DEFAULT, r.symbol.c_str()))
    return address;
  error = "C function '" + r.symbol + "' not found";
  if (!libraryError.empty())
    error += " (" + libraryError + ")";
  else if (r.includeCode.empty() && r.libraries.empty())
    error += " (no Include or Library annotation names its code)";
  else
    error += " in its Include code or libraries";
  return nullptr;
}

} // namespace eqc

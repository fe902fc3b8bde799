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

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

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

int runProgram(std::vector<std::string> argv, std::string &output) {
  std::vector<char *> args;
  for (std::string &a : argv)
    args.push_back(a.data());
  args.push_back(nullptr);
  int pipeFds[2];
  if (pipe(pipeFds) != 0)
    return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
  pid_t pid;
  int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipeFds[1]);
  char buffer[4096];
  ssize_t n;
  while ((n = read(pipeFds[0], buffer, sizeof buffer)) > 0)
    output.append(buffer, static_cast<size_t>(n));
  close(pipeFds[0]);
  if (spawned != 0) {
    output += std::string("cannot run '") + args[0] + "': " + std::strerror(spawned);
    return -1;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int runCompiler(const std::vector<std::string> &args, std::string &output) {
  const char *cc = std::getenv("CC");
  std::vector<std::string> all{cc && *cc ? cc : "cc"};
  all.insert(all.end(), args.begin(), args.end());
  return runProgram(std::move(all), output);
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

ExternalCode::~ExternalCode() {
  std::error_code ec;
  for (const std::string &dir : temporaries_)
    fs::remove_all(dir, ec);
}

std::string ExternalCode::build(const std::string &key, const std::string &product, const Builder &make,
                                std::string &error) {
  std::error_code ec;
  fs::path dir;
  const bool cached = !cacheDirectory_.empty();
  if (cached) {
    dir = fs::path(cacheDirectory_) / "external" / hashText(key);
    // Reused when the same key was built and no file the build read has changed since.
    if (readText(dir / "key") == key) {
      std::istringstream stamps(readText(dir / "stamps"));
      bool fresh = fs::exists(dir / product, ec);
      for (std::string line; fresh && std::getline(stamps, line);)
        fresh = fileStamp(line.substr(0, line.find(' '))) == line;
      if (fresh)
        return (dir / product).string();
    }
    fs::create_directories(dir.parent_path(), ec);
  }
  // Built in a fresh folder, then moved into place whole (another eqc may build the same).
  std::string base = cached ? (dir.parent_path() / "build-XXXXXX").string()
                            : (fs::temp_directory_path(ec) / "eqc-external-XXXXXX").string();
  if (!mkdtemp(base.data())) {
    error = "cannot create a folder for compiling it (" + base + "): " + std::strerror(errno);
    return "";
  }
  fs::path work(base);
  std::vector<std::string> depfiles;
  if (!make(work, depfiles, error)) {
    fs::remove_all(work, ec);
    return "";
  }
  if (cached) {
    std::string stamps;
    for (const std::string &depfile : depfiles)
      for (const std::string &file : dependencies(depfile, work))
        stamps += fileStamp(file) + "\n";
    writeText(work / "stamps", stamps);
    writeText(work / "key", key);
    fs::remove_all(dir, ec);
    fs::rename(work, dir, ec);
    if (!ec)
      return (dir / product).string();
  }
  temporaries_.push_back(work.string()); // loaded or linked from there, removed at the end
  return (work / product).string();
}

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

  auto make = [&](const fs::path &work, std::vector<std::string> &depfiles, std::string &why) {
    if (!writeText(work / "code.c", r.includeCode + "\n") ||
        !writeText(work / "eqc_utilities.c", externalUtilitiesSource()) ||
        !writeText(work / "ModelicaUtilities.h", modelicaUtilitiesHeader())) {
      why = "cannot write its source in " + work.string();
      return false;
    }
    std::string output;
    std::vector<std::string> utilities{"-c", "-fPIC", "-O2", "-o", (work / "eqc_utilities.o").string(),
                                       (work / "eqc_utilities.c").string()};
    std::vector<std::string> args = flags;
    args.insert(args.end(), {"-I" + work.string(), "-MD", "-MF", (work / "code.d").string(), "-o",
                             (work / "code.so").string(), (work / "code.c").string(),
                             (work / "eqc_utilities.o").string()});
    args.insert(args.end(), linkFlags.begin(), linkFlags.end());
    if (runCompiler(utilities, output) != 0 || runCompiler(args, output) != 0) {
      std::string command = std::getenv("CC") ? std::getenv("CC") : "cc";
      for (const std::string &a : args)
        command += " " + a;
      why = "its Include code does not compile (" + command + "):\n" + compilerMessage(output);
      return false;
    }
    depfiles.push_back((work / "code.d").string());
    return true;
  };
  std::string so = build(key, "code.so", make, error);
  if (so.empty())
    return nullptr;
  void *h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    error = std::string("cannot load its compiled code: ") + dlerror();
    return nullptr;
  }
  if (auto bind = reinterpret_cast<void (*)(const eqc_external_utilities *)>(dlsym(h, "eqc_external_bind")))
    bind(eqc_external_utilities_table());
  return handles_[id] = h;
}

namespace {

/// The C files of library `name` in the source folder `dir`: those its readme.txt lists for it
/// (the Modelica Standard Library's convention, Resources/C-Sources/readme.txt: a line
/// "- name (...) containing:", then one indented file per line, `folder/*.c` for a folder's files,
/// files "for ... Windows" skipped), else name.c and the C files of a folder `name`.
std::vector<std::string> librarySources(const fs::path &dir, const std::string &name) {
  std::error_code ec;
  std::vector<std::string> files;
  auto addGlob = [&](const fs::path &folder) {
    std::vector<std::string> found;
    for (const auto &entry : fs::directory_iterator(folder, ec))
      if (entry.path().extension() == ".c" && entry.is_regular_file(ec))
        found.push_back(entry.path().string());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  };
  std::istringstream readme(readText(dir / "readme.txt"));
  bool listed = false, inside = false;
  for (std::string line; std::getline(readme, line);) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.rfind("- ", 0) == 0) {
      std::string head = line.substr(2);
      inside = head.substr(0, head.find_first_of(" (:")) == name;
      listed = listed || inside;
      continue;
    }
    if (!inside)
      continue;
    if (line.empty() || (line[0] != ' ' && line[0] != '\t')) {
      inside = false;
      continue;
    }
    std::istringstream words(line);
    std::string file;
    words >> file;
    if (line.find("Windows") != std::string::npos || file.size() < 3 || file.compare(file.size() - 2, 2, ".c") != 0)
      continue;
    if (file.size() > 4 && file.compare(file.size() - 4, 4, "/*.c") == 0)
      addGlob(dir / file.substr(0, file.size() - 4));
    else if (fs::is_regular_file(dir / file, ec))
      files.push_back((dir / file).string());
  }
  if (listed)
    return files;
  if (fs::is_regular_file(dir / (name + ".c"), ec))
    files.push_back((dir / (name + ".c")).string());
  if (fs::is_directory(dir / name, ec))
    addGlob(dir / name);
  return files;
}

/// A macro name for a library: HAVE_ZLIB for "zlib".
std::string haveMacro(const std::string &library) {
  std::string macro = "HAVE_";
  for (char c : library)
    macro += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : '_';
  return macro;
}

} // namespace

std::string ExternalCode::sourceLibrary(const ExternalRequest &r, const std::string &name, std::string &error) {
  for (const std::string &dir : r.sourceDirs) {
    std::vector<std::string> sources = librarySources(dir, name);
    if (sources.empty())
      continue;
    // POSIX facts the sources may ask about and the tool's choices, as the Modelica Standard
    // Library's build projects (Resources/BuildProjects) define them for a Unix (a dummy `usertab`
    // for its tables: eqc has no user tables to link), and HAVE_<LIB> = 1 for the other libraries
    // of the annotation (linked with this one).
    std::vector<std::string> flags{"-c", "-fPIC", "-O2", "-w", "-DHAVE_UNISTD_H", "-DHAVE_STDARG_H",
                                   "-DHAVE_MEMCPY", "-DHAVE_FSEEKO", "-DHAVE_FTELLO", "-DDUMMY_FUNCTION_USERTAB=1",
                                   "-I" + dir};
    for (const std::string &other : r.libraries)
      if (other != name)
        flags.push_back("-D" + haveMacro(other) + "=1");
    std::string key = "eqc source library 1\n" + name + "\n";
    const char *cc = std::getenv("CC");
    key += std::string(cc ? cc : "cc") + "\n";
    for (const auto *list : {&flags, &sources})
      for (const std::string &f : *list)
        key += f + "\n";
    std::string archive = "lib" + name + ".a";
    auto make = [&](const fs::path &work, std::vector<std::string> &depfiles, std::string &why) {
      // One compiler per core.
      std::vector<std::string> objects(sources.size()), outputs(sources.size());
      std::vector<int> status(sources.size(), -1);
      const size_t jobs = std::max(1u, std::thread::hardware_concurrency());
      for (size_t first = 0; first < sources.size(); first += jobs) {
        std::vector<std::thread> running;
        for (size_t k = first; k < std::min(sources.size(), first + jobs); ++k) {
          objects[k] = (work / (std::to_string(k) + "-" + fs::path(sources[k]).stem().string() + ".o")).string();
          depfiles.push_back(objects[k] + ".d");
          std::vector<std::string> args = flags;
          args.insert(args.end(), {"-I" + fs::path(sources[k]).parent_path().string(), "-MD", "-MF",
                                   objects[k] + ".d", "-o", objects[k], sources[k]});
          running.emplace_back([&, k, args] { status[k] = runCompiler(args, outputs[k]); });
        }
        for (std::thread &t : running)
          t.join();
      }
      for (size_t k = 0; k < sources.size(); ++k)
        if (status[k] != 0) {
          why = "library '" + name + "' does not compile from its source " + sources[k] + ":\n" +
                compilerMessage(outputs[k]);
          return false;
        }
      const char *ar = std::getenv("AR");
      std::vector<std::string> args{ar && *ar ? ar : "ar", "rcs", (work / archive).string()};
      args.insert(args.end(), objects.begin(), objects.end());
      std::string output;
      if (runProgram(args, output) != 0) {
        why = "cannot make the archive of library '" + name + "': " + compilerMessage(output);
        return false;
      }
      return true;
    };
    return build(key, archive, make, error);
  }
  return "";
}

void *ExternalCode::library(const std::string &name, const ExternalRequest &r, std::string &link, std::string &error) {
  std::error_code ec;
  for (const std::string &dir : r.libraryDirs)
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
  // Built from the library's C sources (a static archive, linked into compiled code).
  link = sourceLibrary(r, name, error);
  if (!link.empty() || !error.empty())
    return nullptr;
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
  std::string where = r.libraryDirs.empty() ? std::string("a library directory") : "'" + r.libraryDirs.front() + "'";
  if (!r.sourceDirs.empty())
    where += ", its sources in '" + r.sourceDirs.front() + "'";
  error = "library '" + name + "' is neither in " + where + " nor on the system";
  return nullptr;
}

void *ExternalCode::resolve(const ExternalRequest &r, std::vector<std::string> &linkLibraries, std::string &error) {
  std::vector<void *> handles;
  std::string libraryError;
  bool archive = false;
  for (const std::string &name : r.libraries) {
    std::string link, why;
    void *h = library(name, r, link, why);
    if (h) {
      handles.push_back(h);
      linkLibraries.push_back(link);
      continue;
    }
    if (link.empty()) { // its sources do not compile
      error = why;
      return nullptr;
    } else if (!why.empty()) { // not found: left out (the function may still be found without it)
      if (libraryError.empty())
        libraryError = why;
      continue;
    }
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

// External C functions (MLS 3.5, 12.9): the code their annotations name, loaded into this process.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace eqc {

/// What an external function needs to be called: its C symbol, the code of its Include
/// annotation and the libraries of its Library annotation.
struct ExternalRequest {
  std::string symbol;
  std::string includeCode;              ///< compiled (with the utility functions of 12.9.6) when not empty
  std::vector<std::string> includeDirs; ///< existing directories only
  std::vector<std::string> libraries;   ///< names as in `Library = "name"`
  std::vector<std::string> libraryDirs; ///< existing directories only
  /// Where the libraries' C sources are (existing directories only): a library found in no
  /// library directory is built from them when they have it (see ExternalCode::sourceLibrary).
  std::vector<std::string> sourceDirs;
};

/// Loads the code of external functions into this process: the Include code compiled by the
/// system C compiler ($CC, else cc) into a shared object, kept in the compiled-model cache and
/// rebuilt when it or a header it includes changes; libraries found in the library directories
/// (`libname.so`, else `libname.a`, in the platform folders linux64/gcc, linux64, then the folder),
/// else built from their C sources, else installed on the system. Nothing loaded is ever
/// unloaded: compiled models keep the addresses.
class ExternalCode {
public:
  /// `cacheDirectory` empty: compiled code is built in temporary folders, removed with this.
  explicit ExternalCode(std::string cacheDirectory) : cacheDirectory_(std::move(cacheDirectory)) {}
  ~ExternalCode();
  ExternalCode(const ExternalCode &) = delete;
  ExternalCode &operator=(const ExternalCode &) = delete;

  /// The address of `r.symbol`, looked up in the compiled Include code, then the libraries, then
  /// the process (the C library and libm); null with `error` set when it is not found or cannot be
  /// built. `linkLibraries` receives what a compiled model must link for it: library files
  /// (absolute paths) or `-lname` for libraries of the system.
  void *resolve(const ExternalRequest &r, std::vector<std::string> &linkLibraries, std::string &error);

  /// The static archive (PIC) of library `name` built from its C sources in r.sourceDirs, kept
  /// in the cache: the files the folder's readme.txt lists for it (the Modelica Standard
  /// Library's Resources/C-Sources/readme.txt: "- name (...) containing:", then one file or
  /// `folder/*.c` per indented line), else name.c and the C files of a folder `name`. "" when no
  /// source folder has it; "" with `error` when they do not compile.
  std::string sourceLibrary(const ExternalRequest &r, const std::string &name, std::string &error);

private:
  /// Makes a product in the fresh folder `work`, listing the make-style dependency files it wrote.
  using Builder = std::function<bool(const std::filesystem::path &work, std::vector<std::string> &depfiles,
                                     std::string &error)>;
  /// The path of a product built by `make`, kept in the cache under a hash of `key` and rebuilt
  /// when the key differs or a file the build read changed; "" with `error` when it fails.
  std::string build(const std::string &key, const std::string &product, const Builder &make, std::string &error);
  /// The loaded shared object of `code` compiled against `libraries`; null with `error`.
  void *compiled(const ExternalRequest &r, const std::vector<std::string> &libraries, std::string &error);
  /// The loaded library `name` (its link input in `link`); null when it is not a shared object
  /// that can be loaded: then `link` names it (an archive, or -lname with `error` when it was not
  /// found), or is empty with `error` (its sources do not compile).
  void *library(const std::string &name, const ExternalRequest &r, std::string &link, std::string &error);

  std::string cacheDirectory_;
  std::map<std::string, void *> handles_; ///< by what was loaded: a path, or "code:" + its key
  std::vector<std::string> temporaries_;  ///< folders of builds without a cache
};

/// The source code eqc compiles with external Include code (the utility functions of MLS 3.5,
/// 12.9.6 forwarding to the eqc runtime), and the header users include for them.
const char *externalUtilitiesSource();
const char *modelicaUtilitiesHeader();

/// A C compiler (argv, looked up in PATH; $CC or cc) run with `args`; its output goes to
/// `output` (stdout and stderr). Returns its exit status, or -1 when it cannot be run.
int runCompiler(const std::vector<std::string> &args, std::string &output);
/// `argv` run (argv[0] looked up in PATH), as runCompiler.
int runProgram(std::vector<std::string> argv, std::string &output);

} // namespace eqc

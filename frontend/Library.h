// Modelica libraries on disk (MLS 3.5, 13.4): a library path of directories whose top-level
// classes are files `A.mo` or package directories `A/package.mo`, read when a model first names
// them, with the classes of a package directory read member by member.
#pragma once

#include "frontend/Flatten.h"
#include "support/Diagnostics.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace eqc {

class LibraryPath final : public ClassSource {
public:
  /// `directories` in search order; files parsed here get buffers of `sources` and report to
  /// `diags`.
  LibraryPath(std::vector<std::string> directories, SourceManager &sources, Diagnostics &diags)
      : directories_(std::move(directories)), sources_(sources), diags_(diags) {}

  /// One more directory to search, after those given.
  void addDirectory(const std::string &directory) { directories_.push_back(directory); }
  /// A package directory given as a library itself (`--lib path/Modelica`): its top-level class,
  /// found by its directory's name, before the search path.
  void addPackageDirectory(const std::string &directory);

  const ast::ClassDef *topLevel(const std::string &name) override;
  const ast::ClassDef *member(const ast::ClassDef &package, const std::string &qualifiedPackage,
                              const std::string &name) override;

  /// The syntax trees read so far (to be freed with the model's own).
  std::vector<ast::File> takeFiles();
  /// The files read so far.
  size_t filesRead() const { return files_.size(); }

private:
  /// The class `name` stored at `base` (a file base + ".mo", or a directory base + "/package.mo"),
  /// which must say `within expectedWithin;`; null when neither exists; on a parse error or a
  /// mismatch, the error is reported and null returned.
  const ast::ClassDef *load(const std::string &base, const std::string &name, const std::string &expectedWithin);
  const ast::ClassDef *parse(const std::string &path, const std::string &name, const std::string &expectedWithin,
                             bool isPackageDirectory);

  std::vector<std::string> directories_;
  std::map<std::string, std::string> packageDirectories_; ///< top-level name → its directory
  SourceManager &sources_;
  Diagnostics &diags_;
  std::vector<std::unique_ptr<ast::File>> files_;
  /// The directory of each package read from a package.mo (its members' files are there).
  std::unordered_map<const ast::ClassDef *, std::string> directoryOf_;
  /// Lookups already made ("" for top-level names; else the package directory), found or not.
  std::map<std::pair<std::string, std::string>, const ast::ClassDef *> looked_;
};

/// The directories of the MODELICAPATH environment variable (separated by ':'), in order.
std::vector<std::string> modelicaPath();

} // namespace eqc

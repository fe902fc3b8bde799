// Modelica libraries on disk (MLS 3.5, 13.4), read class by class as a model names them.
#include "frontend/Library.h"

#include "frontend/Parser.h"

#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace eqc {

namespace {

bool isFile(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
bool isDirectory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// MLS 3.5, 13.4.2: a top-level directory or file may carry a version after a space
/// ("Modelica 4.0.0"): the entry of `directory` that is `name` or `name <version>` (the first in
/// name order), as a path without its ".mo".
std::string versionedEntry(const std::string &directory, const std::string &name) {
  if (isDirectory(directory + "/" + name) || isFile(directory + "/" + name + ".mo"))
    return directory + "/" + name;
  DIR *dir = opendir(directory.c_str());
  if (!dir)
    return "";
  std::string best;
  while (dirent *entry = readdir(dir)) {
    std::string entryName = entry->d_name;
    if (entryName.size() > 3 && entryName.compare(entryName.size() - 3, 3, ".mo") == 0)
      entryName.resize(entryName.size() - 3);
    if (entryName.compare(0, name.size() + 1, name + " ") == 0 && (best.empty() || entryName < best))
      best = entryName;
  }
  closedir(dir);
  return best.empty() ? "" : directory + "/" + best;
}

} // namespace

std::vector<std::string> modelicaPath() {
  std::vector<std::string> dirs;
  const char *env = std::getenv("MODELICAPATH");
  if (!env)
    return dirs;
  std::string all = env;
  size_t start = 0;
  while (start <= all.size()) {
    size_t colon = all.find(':', start);
    std::string dir = all.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (!dir.empty())
      dirs.push_back(dir);
    if (colon == std::string::npos)
      break;
    start = colon + 1;
  }
  return dirs;
}

void LibraryPath::addPackageDirectory(const std::string &directory) {
  std::string dir = directory;
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  size_t slash = dir.rfind('/');
  std::string name = slash == std::string::npos ? dir : dir.substr(slash + 1);
  name = name.substr(0, name.find(' ')); // "Modelica 4.0.0"
  packageDirectories_.emplace(name, dir);
}

const ast::ClassDef *LibraryPath::topLevel(const std::string &name) {
  if (name.empty())
    return nullptr;
  auto key = std::make_pair(std::string(), name);
  if (auto it = looked_.find(key); it != looked_.end())
    return it->second;
  const ast::ClassDef *found = nullptr;
  if (auto it = packageDirectories_.find(name); it != packageDirectories_.end())
    found = load(it->second, name, "");
  for (size_t i = 0; !found && i < directories_.size(); ++i) {
    std::string base = versionedEntry(directories_[i], name);
    if (!base.empty())
      found = load(base, name, "");
  }
  looked_[key] = found;
  return found;
}

const ast::ClassDef *LibraryPath::member(const ast::ClassDef &package, const std::string &qualifiedPackage,
                                         const std::string &name) {
  auto dir = directoryOf_.find(&package);
  if (dir == directoryOf_.end() || name.empty()) // no name: no file (not the package's own folder)
    return nullptr;
  auto key = std::make_pair(dir->second, name);
  if (auto it = looked_.find(key); it != looked_.end())
    return it->second;
  const ast::ClassDef *found = load(dir->second + "/" + name, name, qualifiedPackage);
  looked_[key] = found;
  return found;
}

const ast::ClassDef *LibraryPath::load(const std::string &base, const std::string &name,
                                       const std::string &expectedWithin) {
  if (isFile(base + "/package.mo"))
    return parse(base + "/package.mo", name, expectedWithin, true);
  if (isFile(base + ".mo"))
    return parse(base + ".mo", name, expectedWithin, false);
  return nullptr;
}

const ast::ClassDef *LibraryPath::parse(const std::string &path, const std::string &name,
                                        const std::string &expectedWithin, bool isPackageDirectory) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    diags_.error(SourceRange{}, "cannot read '" + path + "'");
    return nullptr;
  }
  uint32_t buffer = sources_.addBuffer(path, text.str());
  std::optional<ast::File> file = parseBuffer(sources_, buffer, diags_);
  if (!file)
    return nullptr;
  files_.push_back(std::make_unique<ast::File>(std::move(*file)));
  const ast::File &f = *files_.back();
  // MLS 3.5, 13.4: the file holds the class it is named after, inside the package its place in
  // the tree says.
  if (f.within != expectedWithin) {
    diags_.error(f.withinRange.valid() ? f.withinRange : SourceRange{},
                 "'" + path + "' says 'within " + f.within + ";' but its place in the library is " +
                     (expectedWithin.empty() ? std::string("the top level ('within;')")
                                             : "package '" + expectedWithin + "'"));
    return nullptr;
  }
  const ast::ClassDef *found = nullptr;
  for (const auto &def : f.classes)
    if (def->name == name)
      found = def.get();
  if (!found || f.classes.size() != 1) {
    diags_.error(f.classes.empty() ? SourceRange{} : f.classes[0]->range,
                 "'" + path + "' must hold exactly one class, '" + name + "' (MLS 3.5, 13.4)");
    return nullptr;
  }
  if (isPackageDirectory) {
    if (found->kind != ast::ClassKind::Package) {
      diags_.error(found->range, "'" + path + "' must hold a package, '" + name + "' is a " +
                                     ast::kindName(found->kind));
      return nullptr;
    }
    std::string dir = path.substr(0, path.size() - std::string("/package.mo").size());
    directoryOf_[found] = dir;
  }
  return found;
}

std::vector<ast::File> LibraryPath::takeFiles() {
  std::vector<ast::File> out;
  for (auto &f : files_)
    out.push_back(std::move(*f));
  return out;
}

} // namespace eqc

// Result files that are written whole or not at all: a temporary file renamed into place.
#pragma once

#include <cstdio>
#include <ostream>
#include <string>

namespace eqc {

/// Writes to a temporary file next to the target and renames it into place at the end; "-" is
/// stdout. Destroyed without commit, the temporary is removed and the target left untouched.
class OutputFile {
public:
  OutputFile() = default;
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;
  ~OutputFile();

  /// Creates the temporary file (in the target's directory, so that rename is atomic).
  bool open(const std::string &path, std::ostream &err);
  std::FILE *get() { return file_; }
  /// Closes the stream and keeps the temporary, for a library that writes the file by its name
  /// (libmatio, libhdf5); commit() then syncs and renames it.
  void release();
  const std::string &temporary() const { return tmp_; }
  /// Flushes, syncs and moves the temporary into place under `finalPath`.
  bool commit(const std::string &finalPath, std::ostream &err);

private:
  std::string tmp_;
  std::FILE *file_ = nullptr;
  bool pending_ = false; ///< the temporary exists and is neither renamed nor removed
};

} // namespace eqc

// Atomic result files: mkstemp next to the target, fsync, rename.
#include "driver/OutputFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace eqc {

bool OutputFile::open(const std::string &path, std::ostream &err) {
  if (path == "-") {
    file_ = stdout;
    return true;
  }
  tmp_ = path + ".tmp-XXXXXX";
  int fd = mkstemp(tmp_.data());
  if (fd >= 0) {
    // mkstemp creates the file 0600; a result file gets the usual permissions (0666 & ~umask).
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
  }
  if (fd < 0 || !(file_ = fdopen(fd, "w"))) {
    err << "eqc: error: cannot write '" << path << "': " << std::strerror(errno) << "\n";
    if (fd >= 0) {
      close(fd);
      std::remove(tmp_.c_str());
    }
    return false;
  }
  pending_ = true;
  return true;
}

void OutputFile::release() {
  if (file_ && file_ != stdout)
    std::fclose(file_);
  file_ = nullptr;
}

bool OutputFile::commit(const std::string &finalPath, std::ostream &err) {
  if (file_ == stdout)
    return std::fflush(stdout) == 0;
  bool ok;
  if (file_) {
    ok = std::fflush(file_) == 0 && fsync(fileno(file_)) == 0;
    ok = std::fclose(file_) == 0 && ok;
    file_ = nullptr;
  } else {
    // Written by a library through its name (release()).
    int fd = ::open(tmp_.c_str(), O_RDONLY);
    ok = fd >= 0 && fsync(fd) == 0;
    if (fd >= 0)
      close(fd);
  }
  pending_ = false;
  if (!ok || std::rename(tmp_.c_str(), finalPath.c_str()) != 0) {
    err << "eqc: error: cannot write '" << finalPath << "': " << std::strerror(errno) << "\n";
    std::remove(tmp_.c_str());
    return false;
  }
  return true;
}

OutputFile::~OutputFile() {
  if (file_ && file_ != stdout)
    std::fclose(file_);
  if (pending_)
    std::remove(tmp_.c_str());
}

} // namespace eqc

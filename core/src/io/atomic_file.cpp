#include "siglab/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "siglab/errors.hpp"

namespace siglab {
namespace {

std::string systemError(const char* action) { return std::string(action) + ": " + std::strerror(errno); }

// Removes the temporary unless released: no failure path leaves one behind.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::string pattern) : path_(std::move(pattern)) {
    fd_ = ::mkostemp(path_.data(), O_CLOEXEC);
    if (fd_ < 0) path_.clear();
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  bool closeFile() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }
  void release() { path_.clear(); }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace

void writeFileAtomically(const std::string& path, std::span<const std::string_view> pieces, const Progress& progress,
                         Durability durability) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, "cannot write: it is a directory");
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  TemporaryFile temp((folder / ("." + target.filename().string() + ".tmp-XXXXXX")).string());
  if (temp.fd() < 0) throw InputError(path, systemError("cannot create a temporary file beside it"));

  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(temp.fd(), 0666 & ~mask);  // mkstemp makes 0600; give the file the usual permissions

  std::uint64_t total = 0;
  for (std::string_view piece : pieces) total += piece.size();
  std::uint64_t done = 0;
  constexpr std::size_t kSlice = 8u << 20;  // between two looks at the cancel flag
  for (std::string_view piece : pieces) {
    while (!piece.empty()) {
      progress.throwIfCancelled();
      const ssize_t written = ::write(temp.fd(), piece.data(), std::min(piece.size(), kSlice));
      if (written < 0) {
        if (errno == EINTR) continue;
        throw InputError(path, systemError("write failed"));
      }
      piece.remove_prefix(static_cast<std::size_t>(written));
      done += static_cast<std::uint64_t>(written);
      progress.report(static_cast<double>(done) / static_cast<double>(total));
    }
  }
  if (durability == Durability::flushed && ::fsync(temp.fd()) != 0 && errno != EINVAL) throw InputError(path, systemError("write failed"));
  if (!temp.closeFile()) throw InputError(path, systemError("write failed"));
  progress.throwIfCancelled();
  if (::rename(temp.path().c_str(), path.c_str()) != 0) throw InputError(path, systemError("cannot replace the file"));
  temp.release();
}

void writeFileAtomically(const std::string& path, std::string_view contents, const Progress& progress,
                         Durability durability) {
  writeFileAtomically(path, std::span<const std::string_view>(&contents, 1), progress, durability);
}

}  // namespace siglab

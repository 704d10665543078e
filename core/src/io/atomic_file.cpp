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

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string path, Durability durability)
    : path_(std::move(path)), durability_(durability) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path_, ec)) throw InputError(path_, "cannot write: it is a directory");
  const fs::path target(path_);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string name = ".";  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "." + string
  name += target.filename().string();
  name += ".tmp-XXXXXX";
  temporaryPath_ = (folder / name).string();
  fd_ = ::mkostemp(temporaryPath_.data(), O_CLOEXEC);
  if (fd_ < 0) throw InputError(path_, systemError("cannot create a temporary file beside it"));
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);  // mkstemp makes 0600; give the file the usual permissions
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!temporaryPath_.empty()) ::unlink(temporaryPath_.c_str());
}

void AtomicFileWriter::append(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd_, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      throw InputError(path_, systemError("write failed"));
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

void AtomicFileWriter::writeAt(std::uint64_t offset, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (written < 0) {
      if (errno == EINTR) continue;
      throw InputError(path_, systemError("write failed"));
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
    offset += static_cast<std::uint64_t>(written);
  }
}

void AtomicFileWriter::commit() {
  if (durability_ == Durability::flushed && ::fsync(fd_) != 0 && errno != EINVAL) {
    throw InputError(path_, systemError("write failed"));
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw InputError(path_, systemError("write failed"));
  if (::rename(temporaryPath_.c_str(), path_.c_str()) != 0) throw InputError(path_, systemError("cannot replace the file"));
  temporaryPath_.clear();
}

void writeFileAtomically(const std::string& path, std::span<const std::string_view> pieces, const Progress& progress,
                         Durability durability) {
  AtomicFileWriter file(path, durability);
  std::uint64_t total = 0;
  for (std::string_view piece : pieces) total += piece.size();
  std::uint64_t done = 0;
  constexpr std::size_t kSlice = 8u << 20;  // between two looks at the cancel flag
  for (std::string_view piece : pieces) {
    for (std::size_t at = 0; at < piece.size(); at += kSlice) {
      progress.throwIfCancelled();
      const std::string_view slice = piece.substr(at, kSlice);
      file.append(slice);
      done += slice.size();
      progress.report(static_cast<double>(done) / static_cast<double>(total));
    }
  }
  progress.throwIfCancelled();
  file.commit();
}

void writeFileAtomically(const std::string& path, std::string_view contents, const Progress& progress,
                         Durability durability) {
  writeFileAtomically(path, std::span<const std::string_view>(&contents, 1), progress, durability);
}

}  // namespace siglab

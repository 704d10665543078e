#include "file_bytes.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "siglab/errors.hpp"

namespace siglab {
namespace {

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string systemError(const char* action) { return std::string(action) + ": " + std::strerror(errno); }

std::vector<std::byte> readStream(int fd, const std::string& path) {
  std::vector<std::byte> bytes;
  std::size_t used = 0;
  for (;;) {
    if (bytes.size() - used < (1u << 16)) bytes.resize(std::max<std::size_t>(bytes.size() * 2, 1u << 20));
    const ssize_t got = ::read(fd, bytes.data() + used, bytes.size() - used);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError(path, systemError("read failed"));
    }
    used += static_cast<std::size_t>(got);
  }
  bytes.resize(used);
  return bytes;
}

}  // namespace

FileBytes::FileBytes(const std::string& path) {
  const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) throw InputError(path, systemError("cannot open"));
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) throw InputError(path, systemError("cannot open"));
  if (S_ISDIR(info.st_mode)) throw InputError(path, "cannot read: it is a directory");
  if (!S_ISREG(info.st_mode)) {
    buffer_ = readStream(file.get(), path);
    data_ = buffer_.data();
    size_ = buffer_.size();
    return;
  }
  size_ = static_cast<std::size_t>(info.st_size);
  if (size_ == 0) return;
  mapping_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.get(), 0);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    throw InputError(path, systemError("cannot map the file into memory"));
  }
  ::madvise(mapping_, size_, MADV_SEQUENTIAL);  // a hint only: failure is harmless
  data_ = static_cast<const std::byte*>(mapping_);
}

FileBytes::~FileBytes() {
  if (mapping_) ::munmap(mapping_, size_);
}

}  // namespace siglab

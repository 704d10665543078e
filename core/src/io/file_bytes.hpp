#pragma once
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace siglab {

// A whole file's bytes: a regular file mapped read-only (no copy), a pipe read to its end into a
// temporary file first (spool_file.hpp: once per process) and mapped; "-" is standard input
// (named "standard input" in messages).
// Throws InputError for a missing file, a directory, a device, a named pipe nobody writes to, or
// an I/O error; Cancelled when the work is cancelled while a pipe's writer sends nothing
// (cancel_waits.hpp). With `streamBytes`, a stream is read only until it holds that many bytes (its
// start is all a reader needs: statistics of a range); cutShort() then says that it may have more,
// and opening it again with a larger `streamBytes` reads on from there. Another program may
// truncate or rewrite the file while it is parsed: the mapping never crashes (pages cut off read as
// zeros) and throwIfChanged() then says so.
class FileBytes {
 public:
  explicit FileBytes(const std::string& path, std::uint64_t streamBytes = UINT64_MAX);
  const std::string& name() const { return path_; }
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;
  ~FileBytes();

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  std::string_view text() const { return {reinterpret_cast<const char*>(data_), size_}; }
  // True for a stream read only up to `streamBytes`, which may have more after them.
  bool cutShort() const { return cutShort_; }

  // Copies bytes [offset, offset + out.size()) of the file into `out` with pread (no page faults
  // on the mapping: the streaming readers' way for binary samples). Throws InputError on a read
  // error or a file that ends early (it changed).
  void readAt(std::uint64_t offset, std::span<std::byte> out) const;

  // Lets the kernel drop the mapped pages wholly inside [offset, offset + length) from this
  // process's memory (the page cache keeps them); a later read maps them again. Streaming readers
  // call it behind themselves so that resident memory stays bounded whatever the file's size.
  void release(std::size_t offset, std::size_t length) const;

  // Throws InputError if the file was truncated or modified since it was opened (call it after
  // parsing, and before reporting a parse error, which such a change may have caused).
  void throwIfChanged() const;

 private:
  void readAll();  // reads fd_ to its end into buffer_

  std::string path_;
  int fd_ = -1;
  struct stat opened_ {};
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  void* mapping_ = nullptr;
  bool cutShort_ = false;
  int guardSlot_ = -1;  // where the mapping is registered with the SIGBUS guard
  std::unique_ptr<std::byte[]> buffer_;
};

}  // namespace siglab

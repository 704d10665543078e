#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace siglab {

// A whole file's bytes, read once: mapped read-only for regular files (no copy), read into a
// buffer for anything else (pipes). Throws InputError for a missing file, a directory or an I/O error.
class FileBytes {
 public:
  explicit FileBytes(const std::string& path);
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;
  ~FileBytes();

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  std::string_view text() const { return {reinterpret_cast<const char*>(data_), size_}; }

 private:
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  void* mapping_ = nullptr;
  std::vector<std::byte> buffer_;
};

}  // namespace siglab

#pragma once
#include <sys/stat.h>

#include <filesystem>
#include <string>

namespace siglab::detail {

// `path` with every symlink in its last component followed; a dangling link leads to the name it
// points at (which a writer then creates).
inline std::string resolveSymlinks(std::string path) {
  namespace fs = std::filesystem;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat link {};
    if (::lstat(path.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return path;
    std::error_code ec;
    const fs::path target = fs::read_symlink(path, ec);
    if (ec) return path;
    path = target.is_absolute() ? target.string() : (fs::path(path).parent_path() / target).string();
  }
  return path;
}

// The folder a file at `path` lives in ("." for a bare name).
inline std::string folderOf(const std::string& path) {
  const std::filesystem::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

}  // namespace siglab::detail

#include "siglab/io/output_checks.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "siglab/errors.hpp"
#include "siglab/io/dataset_files.hpp"
#include "symlinks.hpp"

namespace siglab {
namespace {

// What a path stands for, so that two names of one file compare equal.
struct Identity {
  std::string key;
  bool characterDevice = false;
};

std::string deviceAndInode(const struct stat& s) {
  return std::to_string(s.st_dev) + ":" + std::to_string(s.st_ino);
}

bool writable(const std::string& path, int how) { return ::faccessat(AT_FDCWD, path.c_str(), how, AT_EACCESS) == 0; }

std::string describe(const NamedPath& p) { return p.option + " " + p.path; }

// Follows the output's symlinks; a loop (or a chain too long to follow) cannot be written.
std::string resolveOutput(const NamedPath& output) {
  const std::string target = detail::resolveSymlinks(output.path);
  struct stat link {};
  if (::lstat(target.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    throw InputError(output.path, "cannot write: too many levels of symbolic links (a loop?)");
  }
  return target;
}

Identity checkOutput(const NamedPath& named) {
  const NamedPath output{named.option, datasetOutputFile(named.path)};  // FILE.h5:NAME writes FILE.h5
  if (output.path.empty()) {
    throw OutputConflict((output.option.empty() ? "" : output.option + ": ") +
                         "the output's name is empty: name a file, or - for standard output");
  }
  if (output.path == "-") return {"standard output", false};
  const std::string target = resolveOutput(output);
  struct stat existing {};
  if (::stat(target.c_str(), &existing) == 0) {
    if (S_ISDIR(existing.st_mode)) throw InputError(output.path, "cannot write: it is a directory");
    if (!S_ISREG(existing.st_mode)) {
      if (!writable(target, W_OK)) throw InputError(output.path, std::string("cannot write: ") + std::strerror(errno));
      return {deviceAndInode(existing), S_ISCHR(existing.st_mode)};
    }
    // Replaced by a rename, which the folder alone would allow; but a file the user may not open
    // for writing is not replaced, as cp and a shell redirect refuse it.
    if (!writable(target, W_OK)) {
      throw InputError(output.path, std::string("cannot write: ") + std::strerror(errno) + " (the file is not writable)");
    }
  } else if (errno == ELOOP || errno == ENAMETOOLONG) {
    throw InputError(output.path, std::string("cannot write: ") + std::strerror(errno));
  }
  const std::string folder = detail::folderOf(target);
  struct stat folderStat {};
  if (::stat(folder.c_str(), &folderStat) != 0 || !S_ISDIR(folderStat.st_mode)) {
    throw InputError(output.path, "cannot write: the folder " + folder + " does not exist");
  }
  if (!writable(folder, W_OK | X_OK)) {
    throw InputError(output.path, "cannot write in the folder " + folder + ": " + std::strerror(errno));
  }
  if (::stat(target.c_str(), &existing) == 0) return {deviceAndInode(existing), false};
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(target, error);
  if (error) throw InputError(output.path, "cannot write: " + error.message());
  return {canonical.string(), false};
}

}  // namespace

void checkOutputPath(const NamedPath& output) { checkOutput(output); }

void checkOutputsBeforeWork(std::span<const NamedPath> outputs, std::span<const NamedPath> inputs) {
  std::vector<Identity> seen;
  for (const NamedPath& output : outputs) {
    const Identity id = checkOutput(output);
    for (const NamedPath& input : inputs) {
      struct stat s {};
      const std::string inputFile = splitDatasetPath(input.path).file;
      if (output.path != "-" && input.path != "-" && ::stat(inputFile.c_str(), &s) == 0 && S_ISREG(s.st_mode) &&
          deviceAndInode(s) == id.key) {
        throw OutputConflict(describe(output) + " is the input " + input.path + ": choose another name");
      }
    }
    for (std::size_t i = 0; i < seen.size(); ++i) {
      if (seen[i].key == id.key && !id.characterDevice) {
        throw OutputConflict(describe(outputs[i]) + " and " + describe(output) + " are the same file: choose different names");
      }
    }
    seen.push_back(id);
  }
}

}  // namespace siglab

#pragma once
#include <span>
#include <stdexcept>
#include <string>

namespace siglab {

// A path the user named and the option that named it ("-o", "--report", "INPUT"); "-" is
// standard output for an output and standard input for an input.
struct NamedPath {
  std::string option;
  std::string path;
};

// An output named wrongly (an empty name) or clashing with another output or an input: a usage error.
class OutputConflict : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Checks, before any work, that every output can be written where it is: a new or regular file
// needs an existing, writable folder (it is replaced by a rename); a device or pipe must be
// writable itself; an existing file must be writable by the user (as cp and a shell redirect
// ask), and a symlink loop cannot be written. Throws InputError naming the path and why not, or
// OutputConflict when a name is empty, an output is one of the inputs (same path, hard link or
// symlink) or two outputs are the same file (device and inode, or the same resolved path for new
// names; a character device such as /dev/null may take several).
void checkOutputsBeforeWork(std::span<const NamedPath> outputs, std::span<const NamedPath> inputs = {});

// What checkOutputsBeforeWork checks of one output alone; AtomicFileWriter checks it again as it
// opens, so no writer skips it.
void checkOutputPath(const NamedPath& output);

}  // namespace siglab

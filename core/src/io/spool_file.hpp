#pragma once
// Scratch files for what can be read or written only once (standard input, pipes, standard
// output): an unlinked temporary file, gone when closed, whatever ends the process. They live in
// $TMPDIR, else /var/tmp (on disk, for large files, where /tmp may be memory), else /tmp.
#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace siglab::detail {

struct SpoolFile {
  int fd = -1;         // -1: none could be made (`error` says why)
  std::string folder;  // where it is (or was tried last)
  std::string error;
};
SpoolFile openSpoolFile();

// A temporary file holding what the pipe `pipeFd` (described by `pipe`) gives, read to its end or
// until the file holds `limit` bytes (a reader that needs only the stream's start). The first call
// for a pipe reads it; later calls for the same pipe in this process get the same file again (a
// pipe can be read once), read further where it stopped short. fd -1 where no temporary file can
// be made (read it into memory instead). Throws InputError naming `name` on a read or write error,
// and before the file would leave its file system less than 256 MiB (or a twentieth of it) free: a
// pipe that never ends is an error, not a full disk. Throws Cancelled when the work is cancelled
// while the pipe's writer sends nothing (cancel_waits.hpp).
struct SpooledPipe {
  int fd = -1;
  bool ended = true;  // false: the pipe may have more after the file's `limit` bytes
};
inline constexpr std::uint64_t kWholePipe = UINT64_MAX;
SpooledPipe spooledPipe(int pipeFd, const struct stat& pipe, const std::string& name, std::uint64_t limit = kWholePipe);

// Gives the pipe `fd` (read or written whole) 1 MiB of buffer instead of 64 KiB where allowed.
void growPipe(int fd);

// Copies bytes [0, size) of the file `from` to `to` (a pipe, a device, a file) with sendfile where
// the kernel allows it. False on an error (errno says which); Cancelled when the work is cancelled
// while a pipe's reader has stopped reading.
bool copyFileTo(int from, std::uint64_t size, int to);

}  // namespace siglab::detail

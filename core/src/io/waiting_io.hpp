#pragma once
// Reads, writes and opens that may wait on another program (a pipe's, a FIFO's or a terminal's
// other end), each wait ending with Cancelled when the work is cancelled (cancel_waits.hpp). For
// regular files they are the plain system calls.
#include <sys/types.h>

#include <cstddef>
#include <string>

namespace siglab::detail {

// Throws Cancelled when waits on this thread are to end.
void throwIfWaitCancelled();

// Returns once `fd` is ready for `events` (POLLIN, POLLOUT) or has an error or hang-up to report.
void waitUntilReady(int fd, short events);

// read(): the bytes read, 0 at the end, -1 with errno on an error. Waits for a pipe's writer to
// send something; a FIFO opened with O_NONBLOCK and no writer reads as its end.
ssize_t readWaiting(int fd, void* data, std::size_t size);

// Writes all of `data`, waiting while a pipe's reader makes room. False on an error (errno).
bool writeAllWaiting(int fd, const char* data, std::size_t size);

// open() of an existing file that is not a regular file, for writing: a FIFO waits for a reader
// to open it. The descriptor is non-blocking (its own, shared with no one), for the calls above.
// -1 with errno on an error.
int openForWritingWaiting(const std::string& path);

// Standard output for the calls above: a pipe gets a non-blocking description of its own (opened
// through /proc/self/fd/1, so the shell's is left as it is), anything else a duplicate. -1 with
// errno on an error.
int standardOutputForWriting();

}  // namespace siglab::detail

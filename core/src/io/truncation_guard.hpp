#pragma once
#include <cstddef>

namespace siglab {

// Makes reading a mapped file safe when another program truncates it: touching a page past the
// new end of file raises SIGBUS, which would kill the process. Within a guarded range a SIGBUS
// handler instead puts zero pages under the rest of the range and marks it, and the read goes on;
// the owner asks wasTruncated() afterwards and reports the change. SIGBUS outside every guarded
// range gets the previous handler (by default: the crash it would have been).
//
// Why not read() into a buffer: on 10M seed-format lines (195 MB) the copy and the page faults of
// a fresh buffer made loading 1.2 s instead of 0.7 s (medians in one run of siglab-file-access-bench,
// docs/perf/memory-2026-11-22.txt), for the same resident memory. Why not sigsetjmp: the parser
// runs on every core, and a jump out of a parallel task would skip its cleanup; here no control
// flow changes. Parsers must not trust the bytes to stay the same between two passes (see
// text_reader.cpp's outEnd): a rewritten file changes under a mapping.

// Guards [begin, begin + length) (page-aligned begin, as mmap returns it). Returns a slot for
// release(), or -1 when every slot is taken (the caller then reads the file instead of mapping it).
int guardMapping(void* begin, std::size_t length);

// Whether a SIGBUS hit the slot's range since guardMapping (pages past the file's end were touched).
bool wasTruncated(int slot);

// Stops guarding the slot's range; call before munmap.
void releaseGuard(int slot);

}  // namespace siglab

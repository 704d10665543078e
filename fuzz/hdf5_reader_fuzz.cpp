// The HDF5 reader (and MATLAB 7.3, HDF5 inside): damaged superblocks, object headers, chunk indexes
// and compressed chunks, datasets of any type and shape. Read as the program reads them: libhdf5
// lists and reads the file in child processes, whose crashes (the library's own, ASan's reports
// printed there) are errors naming the file; a crash of this process is SigLab's, a finding.
#include "dataset_fuzz_file.hpp"
#include <cstdint>

// Debian's libhdf5 1.10.8 itself leaks a few hundred bytes on some damaged files (not ours to free):
// those leaks only are not findings.
extern "C" const char* __lsan_default_suppressions() { return "leak:libhdf5_serial.so\n"; }
// It also asks for impossible sizes on some (2^64 - 57 bytes for a damaged local heap): glibc's
// malloc returns NULL for those and the library reports an error; ASan's does the same here, so
// that only a NULL the library mishandles (a crash) is a finding.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  siglab::fuzz::readDatasetFile(data, size, ".h5", siglab::fuzz::LibraryIn::childProcess);
  return 0;
}

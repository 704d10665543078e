#pragma once
// Untrusted HDF5 and MAT files are first opened (listed, the chosen dataset's header read) in a
// child process, with a time and memory limit, by every reader (openChannelStream, listDatasets),
// and a MAT v5 variable's samples are read in one too:
// a crash or hang inside libhdf5 or matio on a damaged file is then an InputError naming the file
// ("the HDF5 library crashed reading it (SIGSEGV): the file is damaged"), not the end of the
// program (core/src/io/dataset_child.cpp).

namespace siglab {

// For tests: the child crashes (aborts) or hangs instead of reading, within `timeLimit` seconds
// (0: the usual 20 s), or crashes only where the library starts on the samples. For the fuzz targets: no child,
// its work done in this process (a crash in the library must reach the fuzzer).
enum class DatasetChildFault { none, crash, hang, crashReadingSamples, noChild };
void setDatasetChildFaultForTests(DatasetChildFault fault, double timeLimit = 0);

}  // namespace siglab

#pragma once
// Untrusted HDF5 and MAT files are listed and opened in a child process, with a time and memory
// limit, by every reader (openChannelStream, listDatasets), and their samples are read in one too
// (an HDF5 dataset's block by block, passed up a pipe):
// a crash or hang inside libhdf5 or matio on a damaged file is then an InputError naming the file
// ("the HDF5 library crashed reading it (SIGSEGV): the file is damaged"), not the end of the
// program (core/src/io/dataset_child.cpp).

namespace siglab {

// For tests: the child crashes (aborts) or hangs instead of reading, within `timeLimit` seconds
// (0: the usual 20 s), or crashes only where the library starts on the samples (or on an HDF5
// dataset's second block). For the fuzz targets: no child, its work done in this process (a crash
// in the library must reach the fuzzer).
enum class DatasetChildFault { none, crash, hang, crashReadingSamples, crashReadingLaterSamples, noChild };
void setDatasetChildFaultForTests(DatasetChildFault fault, double timeLimit = 0);

}  // namespace siglab

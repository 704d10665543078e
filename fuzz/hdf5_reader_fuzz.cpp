// The HDF5 reader (and MATLAB 7.3, HDF5 inside): damaged superblocks, object headers, chunk indexes
// and compressed chunks, datasets of any type and shape.
#include "dataset_fuzz_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  siglab::fuzz::readDatasetFile(data, size, ".h5");
  return 0;
}

// The MATLAB v5 reader: element tags, array flags, dimensions and names, compressed elements.
#include "dataset_fuzz_file.hpp"
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  siglab::fuzz::readDatasetFile(data, size, ".mat");
  return 0;
}

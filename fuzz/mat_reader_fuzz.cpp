// The MATLAB v5 reader: element tags, array flags, dimensions and names, compressed elements. matio
// runs in this process (its headers are parsed in the program's own process too): any crash of it is a finding.
#include "dataset_fuzz_file.hpp"
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  siglab::fuzz::readDatasetFile(data, size, ".mat", siglab::fuzz::LibraryIn::thisProcess);
  return 0;
}

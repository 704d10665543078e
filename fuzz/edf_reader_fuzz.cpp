// The EDF/EDF+ reader (written in SigLab): header fields, signal counts, record counts and sizes,
// scalings and the records themselves, damaged anywhere; the first byte picks the signals asked for.
#include <cstdint>

#include "dataset_fuzz_file.hpp"
#include "siglab/io/file_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  siglab::ReadOptions options;
  options.format = siglab::FileFormat("edf");
  if (data[0] & 0x01) options.edfSignals = {"1"};
  if (data[0] & 0x02) options.edfSignals.push_back("EEG Fz");
  if (data[0] & 0x04) {
    options.oneChannel = true;
    options.channel = 1 + ((data[0] >> 3) & 0x03);
  }
  siglab::fuzz::readFileAs(data + 1, size - 1, ".edf", options);
  return 0;
}

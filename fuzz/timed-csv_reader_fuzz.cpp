// Time-stamped CSV: time columns of seconds or ISO 8601 date-times (fractions, zones), uniform or
// irregular spacing, resampling, decimal commas, header names; the first byte picks the options.
#include <cstdint>

#include "dataset_fuzz_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  siglab::ReadOptions options;
  options.timeColumn = data[0] & 0x03;  // 0: found by its date-times
  options.skipHeader = (data[0] & 0x04) != 0;
  options.decimal = (data[0] & 0x08) != 0 ? ',' : '.';
  if (data[0] & 0x10) options.resampleTo = (data[0] & 0x20) != 0 ? 1000.0 : 3.0;
  siglab::fuzz::readFileAs(data + 1, size - 1, ".csv", options);
  return 0;
}

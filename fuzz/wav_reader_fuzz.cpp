// The WAV reader (libsndfile underneath): headers that lie about frames, channels and sample types.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_check.hpp"
#include "siglab/io/binary_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  siglab::fuzz::expectSignalOrInputError(
      [&] { return siglab::parseWav(bytes, siglab::fuzz::kPath, 1).samples; });
  return 0;
}

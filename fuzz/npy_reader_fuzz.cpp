// The NumPy .npy reader: headers of every version, lying shapes and sizes, any dtype string.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_check.hpp"
#include "siglab/io/binary_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  siglab::fuzz::expectSignalOrInputError([&] { return siglab::parseNpy(bytes, siglab::fuzz::kPath); });
  return 0;
}

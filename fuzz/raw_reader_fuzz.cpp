// The raw binary reader: the first two bytes pick the sample type and the offset.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_check.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/sample_type.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  constexpr siglab::SampleType kTypes[] = {siglab::SampleType::f64, siglab::SampleType::f32, siglab::SampleType::i16,
                                           siglab::SampleType::i32};
  const siglab::SampleType type = kTypes[data[0] % 4];
  const std::uint64_t offset = data[1] == 0xff ? ~std::uint64_t{0} : data[1];  // also an absurd offset
  const auto bytes = std::as_bytes(std::span(data + 2, size - 2));
  siglab::fuzz::expectSignalOrInputError([&] { return siglab::parseRaw(bytes, siglab::fuzz::kPath, type, offset); });
  return 0;
}

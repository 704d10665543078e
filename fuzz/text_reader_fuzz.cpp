// The text reader, one number a line, cut into tiny chunks so that the parallel joins are fuzzed too.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "siglab/io/text_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  siglab::TextReadOptions options;
  options.chunkBytes = 64;
  siglab::fuzz::expectSignalOrInputError([&] { return siglab::parseTextSignal(text, siglab::fuzz::kPath, options); });
  return 0;
}

// The text reader on columns of CSV/TSV/blank-separated files; the first byte picks the column and
// whether a header line is skipped.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "siglab/io/text_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  siglab::TextReadOptions options;
  options.column = 1 + (data[0] & 0x07);
  options.skipHeader = (data[0] & 0x08) != 0;
  options.allowNonFinite = (data[0] & 0x10) != 0;
  options.chunkBytes = 64;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (options.allowNonFinite) {
    try {
      siglab::parseTextSignal(text, siglab::fuzz::kPath, options);
    } catch (const siglab::InputError&) {
    }
    return 0;
  }
  siglab::fuzz::expectSignalOrInputError([&] { return siglab::parseTextSignal(text, siglab::fuzz::kPath, options); });
  return 0;
}

// Any bytes given to the text reader end in a signal of finite values or an InputError that names
// the file; never a crash, a hang or memory misuse (ASan/UBSan watch).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "siglab/errors.hpp"
#include "siglab/text_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (double v : siglab::parseTextSignal(text, "fuzz.txt")) {
      if (!std::isfinite(v)) std::abort();  // the reader promises finite values by default
    }
  } catch (const siglab::InputError& e) {
    if (e.path() != "fuzz.txt") std::abort();
  }
  return 0;
}

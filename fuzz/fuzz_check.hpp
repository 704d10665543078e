#pragma once
// What every reader promises, whatever the bytes: finite samples (unless non-finite values were
// allowed) or an InputError naming the file. Anything else (a crash, another exception, memory
// misuse seen by ASan/UBSan) is a finding.
#include <cmath>
#include <cstdlib>
#include <span>

#include "siglab/errors.hpp"

namespace siglab::fuzz {

inline constexpr const char* kPath = "fuzz.input";

template <class Read>
void expectSignalOrInputError(Read read) {
  try {
    for (double v : read()) {
      if (!std::isfinite(v)) std::abort();
    }
  } catch (const InputError& e) {
    if (e.path() != kPath) std::abort();
  }
}

}  // namespace siglab::fuzz

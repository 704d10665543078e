#pragma once
// A stage stream's reader takes its outputs as they are made, in pieces of any size.
#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace siglab::detail {

// Copies the next of `ready`'s outputs not yet handed out into out[filled..], as many as fit;
// advances `handedOut` and returns the new `filled`.
inline std::size_t handOut(const std::vector<double>& ready, std::size_t& handedOut, std::span<double> out,
                           std::size_t filled) {
  const std::size_t n = std::min(out.size() - filled, ready.size() - handedOut);
  std::copy_n(ready.begin() + static_cast<std::ptrdiff_t>(handedOut), n, out.begin() + static_cast<std::ptrdiff_t>(filled));
  handedOut += n;
  return filled + n;
}

}  // namespace siglab::detail

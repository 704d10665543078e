#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "siglab/filter_spec.hpp"

namespace siglab {

// A run that would need more memory than is available, refused before it starts (or an
// allocation that failed): "not enough memory for WHAT: needs 64.0 GiB, 21.3 GiB available".
class NotEnoughMemory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Memory a new allocation can have now without swapping (the kernel's MemAvailable); the largest
// value when it cannot be read.
std::uint64_t availableMemoryBytes();

// Throws NotEnoughMemory unless `count` items of `bytesEach` bytes are available (no overflow,
// whatever the count); `what` says what they are for.
void requireMemory(std::uint64_t count, std::uint64_t bytesEach, const std::string& what);

// "1.5 GiB", "12.0 MiB", "512 bytes".
std::string formatBytes(double bytes);

// A number as printf's %g writes it (8e+300, 0.25), for messages.
std::string shortNumber(double value);

// The longest window SigLab accepts at all (its radius and every index stay in 64-bit range).
inline constexpr std::uint64_t kMaxWindow = (std::uint64_t{1} << 62) - 1;
// Past 2N - 1 taps a window in reflect, mirror, nearest or wrap mode still reads samples with every
// tap; it is accepted while N * W stays within this many multiply-adds per run.
inline constexpr std::uint64_t kMaxLongWindowWork = std::uint64_t{1} << 26;

// Gaussian taps are all computed for their normalising sum (as SciPy does), O(W) time whatever is
// cropped: 2^28 + 1 taps at most, what sigma up to 33554432 needs (held whole only where a signal of
// 2^27 samples or more meets them all, or before its size is known: 2 GiB).
inline constexpr std::uint64_t kMaxGaussianWindow = (std::uint64_t{1} << 28) + 1;

// The longest window a signal of `samples` samples takes in `mode`: kMaxWindow in zero mode (taps
// that can never meet a sample are dropped, see cropToSignal), otherwise the larger of 2N - 1 and
// kMaxLongWindowWork / N (odd).
std::uint64_t maxWindowFor(BoundaryMode mode, std::size_t samples);

// Throws std::invalid_argument, naming `option`, the signal's size and the bound, when `window`
// is longer than maxWindowFor allows.
void checkWindowFits(std::uint64_t window, BoundaryMode mode, std::size_t samples, const std::string& option);

// The taps of a zero-mode window that can meet a sample of a signal of `samples`: min(W, 2N - 1).
std::uint64_t croppedWindow(std::uint64_t window, std::size_t samples);

// In zero mode, the central 2N - 1 taps of a longer window: every other tap only ever meets the
// zeros outside the signal, which the serial formula skips, so every output is bit-identical and
// the work is bounded by N, not W. Other modes and shorter windows: `spec` unchanged.
FilterSpec cropToSignal(FilterSpec spec, std::size_t samples);

// The mean filter of `window` taps (1/W each) as cropToSignal would leave it, built without ever
// holding W taps. Throws std::invalid_argument for an even window or one checkWindowFits refuses.
// `option` names the window in a refusal.
FilterSpec meanFilterForSignal(std::uint64_t window, BoundaryMode mode, std::size_t samples,
                               const std::string& option = "--window");

}  // namespace siglab

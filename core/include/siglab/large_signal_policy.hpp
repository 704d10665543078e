#pragma once
// When the GUI keeps a signal in memory and when it views it from its file's mapping instead, and
// what Compare offers on a signal too large for it.
#include <cstdint>

#include "siglab/io/signal_io.hpp"
#include "siglab/statistics.hpp"

namespace siglab {

// The machine's physical memory in bytes (0 when the system does not say).
std::uint64_t physicalMemoryBytes();

// The in-memory GUI holds about kInMemoryCopies float64 copies of a signal at once (the samples,
// Compare's reference, an engine's output, the filtered signal shown). A signal whose float64
// samples exceed physicalBytes / kMappingFraction would need more than half of memory that way, so
// it is viewed from its mapping; below that the in-memory path stays, because there Compare and
// Apply's verification run on the whole signal.
inline constexpr std::uint64_t kInMemoryCopies = 4;
inline constexpr std::uint64_t kMappingFraction = 2 * kInMemoryCopies;

// The float64 bytes a file of `fileBytes` read with `options` becomes: raw data scaled by its sample
// type; any other file counts its own size (text takes more bytes than float64; a .npy or WAV of a
// narrower type takes fewer, so such a file stays in memory up to a few times further).
std::uint64_t float64BytesOf(std::uint64_t fileBytes, const ReadOptions& options);
// The float64 bytes above which a signal is viewed from its mapping: physicalBytes / kMappingFraction,
// or never when the system does not say its memory (0).
std::uint64_t mappingThresholdBytes(std::uint64_t physicalBytes);

// The longest signal Compare takes in memory under that threshold, in samples (at least 1).
std::uint64_t samplesToCompareInMemory(std::uint64_t thresholdBytes);

// The range Compare offers instead on a signal longer than that: `visible`, cut to at most
// `maxSamples` around its middle.
SampleRange compareRangeWithin(SampleRange visible, std::uint64_t maxSamples);

}  // namespace siglab

#pragma once
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <span>
#include <string>
#include <vector>

#include "siglab/io/sample_type.hpp"
#include "siglab/io/signal.hpp"
#include "siglab/progress.hpp"

// Readers of binary signal files, each callable on a buffer in memory (for tests and fuzzing).
// Each throws InputError naming `pathForMessages` and what was wrong; none returns a partial signal.
namespace siglab {

using Bytes = std::span<const std::byte>;

// NumPy .npy, format versions 1-3: little-endian floats or integers, shape (N,) or (N, 1), C order.
// Readers place the samples in `memory` (nullptr: ordinary memory).
SampleVector parseNpy(Bytes file, const std::string& pathForMessages, bool allowNonFinite = false,
                      const Progress& progress = {}, std::pmr::memory_resource* memory = nullptr);
// The .npy header (version 1, '<f8', shape (count,)) that precedes `count` doubles.
std::string npyHeader(std::uint64_t count);
// The same for a (rows, columns) array in C order (row by row).
std::string npyHeader(std::uint64_t rows, std::uint64_t columns);
std::string npyHeaderForShape(const std::string& shape);  // shape as numpy writes it: "(3,)", "(3, 2)"

// Raw little-endian samples of `type` after `offset` bytes.
SampleVector parseRaw(Bytes file, const std::string& pathForMessages, SampleType type, std::uint64_t offset,
                      bool allowNonFinite = false, const Progress& progress = {},
                      std::pmr::memory_resource* memory = nullptr);
// `values` as raw little-endian f64 or f32 bytes (f64 is `values` itself, no copy needed).
std::vector<float> toFloat32(std::span<const double> values);

// WAV through libsndfile: PCM 16/24/32, float, double; integer samples scaled to [-1, 1).
// `channel` is 1-based.
Signal parseWav(Bytes file, const std::string& pathForMessages, std::size_t channel, bool allowNonFinite = false,
                const Progress& progress = {}, std::pmr::memory_resource* memory = nullptr);
// Samples [first, first + out.size()) of `channel` (1-based) of a WAV file held in memory or mapped,
// each converted exactly as parseWav converts it (both through libsndfile), non-finite ones kept.
// Random access for a view that reads a mapped file in pieces: each call opens its own libsndfile
// handle on the bytes (a header's parse), so calls on several threads are safe. Throws InputError
// as parseWav for a bad file, std::out_of_range when the run passes the last frame.
void readWavFrames(Bytes file, const std::string& pathForMessages, std::size_t channel, std::uint64_t first,
                   std::span<double> out);
// A WAV file holding `values` (frames of `channels` interleaved) at `sampleRate`: 32-bit float
// samples, or 64-bit ones where a finite value is beyond float32's range (which would otherwise be
// written as infinite); `alwaysWide`: 64-bit ones whatever the values.
std::vector<std::byte> encodeWavFloat(std::span<const double> values, double sampleRate, const std::string& pathForMessages,
                                      std::size_t channels = 1, bool alwaysWide = false);
// The same bytes from planar channels (each the same length), interleaved a block at a time.
std::vector<std::byte> encodeWavFloat(std::span<const std::span<const double>> channels, double sampleRate,
                                      const std::string& pathForMessages, bool alwaysWide = false);

}  // namespace siglab

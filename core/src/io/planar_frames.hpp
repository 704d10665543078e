#pragma once
// Frames between planar channels (one array a channel, as the engines take them) and interleaved
// ones (frame by frame, as WAV, raw and .npy N x C files hold them).
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>

#include "siglab/errors.hpp"

namespace siglab {

// Frames [first, first + count) of `planar` into `out`, frame by frame.
inline void interleaveFrames(std::span<const std::span<const double>> planar, std::size_t first, std::size_t count,
                             double* out) {
  const std::size_t channels = planar.size();
  for (std::size_t c = 0; c < channels; ++c) {
    const double* in = planar[c].data() + first;
    for (std::size_t f = 0; f < count; ++f) out[f * channels + c] = in[f];
  }
}

// `count` interleaved frames of `out.size()` channels from `in` into each channel at `at`.
inline void deinterleaveFrames(const double* in, std::size_t count, std::span<const std::span<double>> out,
                               std::size_t at = 0) {
  const std::size_t channels = out.size();
  for (std::size_t c = 0; c < channels; ++c) {
    double* to = out[c].data() + at;
    for (std::size_t f = 0; f < count; ++f) to[f] = in[f * channels + c];
  }
}

// The frames every channel holds; std::invalid_argument naming `what` when none or unequal.
template <typename Span>
std::size_t commonFrames(std::span<const Span> channels, const char* what) {
  if (channels.empty()) throw std::invalid_argument(std::string(what) + ": no channels");
  for (const Span& c : channels) {
    if (c.size() != channels.front().size()) {
      throw std::invalid_argument(std::string(what) + ": the channels differ in length (" +
                                  std::to_string(channels.front().size()) + " and " + std::to_string(c.size()) + ")");
    }
  }
  return channels.front().size();
}

// A 1-based channel that a file of `count` channels lacks.
inline InputError missingChannel(const std::string& path, std::size_t channel, std::size_t count) {
  return InputError(path, "channel " + std::to_string(channel) + " asked for, but the file has " +
                              std::to_string(count) + (count == 1 ? " channel" : " channels"));
}

}  // namespace siglab

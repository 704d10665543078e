#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "siglab/io/sample_vector.hpp"

namespace siglab {

// A loaded signal of several channels, planar (one vector a channel, as the engines take them);
// every channel holds frames() samples.
struct Channels {
  std::vector<SampleVector> channels;
  std::optional<double> sampleRate;  // Hz, as Signal::sampleRate
  std::string sourcePath;

  std::size_t frames() const { return channels.empty() ? 0 : channels.front().size(); }
};

}  // namespace siglab

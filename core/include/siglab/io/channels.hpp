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
  std::vector<std::string> names;    // one a channel where the file names them (EDF labels, a CSV header), else empty

  std::size_t frames() const { return channels.empty() ? 0 : channels.front().size(); }
};

}  // namespace siglab

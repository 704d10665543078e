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
  std::vector<std::string> units;    // one a channel where the file gives them (EDF's physical dimensions), else empty

  std::size_t frames() const { return channels.empty() ? 0 : channels.front().size(); }
};

// How reports name channel `index` (0-based) of several: "2 (ECG)" where `names` gives it a name,
// else "2". The name is the file's (a CSV header's field, an EDF label, an HDF5/MAT column's).
std::string channelLabel(std::size_t index, const std::vector<std::string>& names);

}  // namespace siglab

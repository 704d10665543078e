#pragma once
#include <optional>
#include <string>
#include <vector>

#include "siglab/io/sample_vector.hpp"

namespace siglab {

// A loaded signal: its samples, the sample rate where the file format has one, and where it came from.
struct Signal {
  SampleVector samples;
  std::optional<double> sampleRate;  // Hz; WAV has one, text, .npy and raw files one only when given (--rate)
  std::string sourcePath;
};

}  // namespace siglab

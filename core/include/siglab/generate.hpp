#pragma once
#include <cstdint>
#include <vector>

namespace siglab {

struct GenerateOptions {
  std::uint64_t count = 0;
  std::uint64_t seed = 1;
  double period = 2000.0;      // samples per sine cycle
  double amplitude = 1.0;
  double noiseSigma = 0.25;    // Gaussian noise standard deviation
};

// A sine plus Gaussian noise. Deterministic: the same options give the same values on every run
// (own generator and Box-Muller, not std::normal_distribution, whose output is unspecified).
std::vector<double> generateSignal(const GenerateOptions& options);

}  // namespace siglab

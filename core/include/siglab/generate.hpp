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

// Throws std::invalid_argument naming the option unless every sample the options make is finite:
// a period so short that the sine's phase 2 pi i / period overflows over the samples
// (--period 1e-310), or a period, amplitude or noise that is not a finite number.
void checkGenerateOptions(const GenerateOptions& options);

// A sine plus Gaussian noise (checkGenerateOptions first). Deterministic: the same options give the same values on every run
// (own generator and Box-Muller, not std::normal_distribution, whose output is unspecified).
std::vector<double> generateSignal(const GenerateOptions& options);

}  // namespace siglab

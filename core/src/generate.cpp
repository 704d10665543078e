#include "siglab/generate.hpp"

#include <cmath>
#include <numbers>

namespace siglab {
namespace {

// splitmix64: a tiny, fully specified generator, so the bytes never depend on the standard library.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in (0, 1]: never 0, so log() below is finite.
  double uniform() { return (static_cast<double>(next() >> 11) + 1.0) * 0x1.0p-53; }
};

}  // namespace

std::vector<double> generateSignal(const GenerateOptions& options) {
  std::vector<double> values(options.count);
  SplitMix64 rng{options.seed};
  const double step = 2.0 * std::numbers::pi / options.period;
  for (std::uint64_t i = 0; i < options.count; i += 2) {
    // Box-Muller: two Gaussian values from two uniforms.
    const double radius = std::sqrt(-2.0 * std::log(rng.uniform())) * options.noiseSigma;
    const double angle = 2.0 * std::numbers::pi * rng.uniform();
    values[i] = options.amplitude * std::sin(step * static_cast<double>(i)) + radius * std::cos(angle);
    if (i + 1 < options.count) {
      values[i + 1] = options.amplitude * std::sin(step * static_cast<double>(i + 1)) + radius * std::sin(angle);
    }
  }
  return values;
}

}  // namespace siglab

#include "siglab/generate.hpp"
#include "siglab/work_bounds.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
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

void checkGenerateOptions(const GenerateOptions& o) {
  const auto fail = [](const char* option, double value, const std::string& why) {
    throw std::invalid_argument(std::string(option) + " " + shortNumber(value) + ": " + why);
  };
  if (!(std::isfinite(o.period) && o.period > 0.0)) fail("--period", o.period, "must be a finite number above 0");
  if (!(std::fabs(o.amplitude) <= 1e300)) fail("amplitude", o.amplitude, "must be a finite number up to 1e300");
  if (!(std::isfinite(o.noiseSigma) && o.noiseSigma >= 0.0 && o.noiseSigma <= 1e100)) {
    fail("--noise", o.noiseSigma, "must be a finite number from 0 to 1e100");
  }
  // The largest phase, 2 pi (count - 1) / period, must be a finite number for its sine to be one.
  const double lastPhase = 2.0 * std::numbers::pi / o.period * static_cast<double>(o.count > 0 ? o.count - 1 : 0);
  if (!std::isfinite(2.0 * std::numbers::pi / o.period) || !std::isfinite(lastPhase)) {
    fail("--period", o.period, "is too short for " + std::to_string(o.count) +
                                   " samples: the sine's phase 2 pi i / period passes the float64 range");
  }
}

std::vector<double> generateSignal(const GenerateOptions& options) {
  checkGenerateOptions(options);
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

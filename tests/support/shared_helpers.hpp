#pragma once
// Small helpers many test files use, defined once: CI compiles a test binary's files a batch at a
// time (cmake/UnityBuilds.cmake), where two files' copies of one name would clash.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "siglab/boundary.hpp"
#include "siglab/filter_spec.hpp"
#include "test_support.hpp"

namespace siglab::test {

// Every boundary mode, for tests that run each one.
inline constexpr BoundaryMode kModes[] = {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror,
                                          BoundaryMode::Nearest, BoundaryMode::Wrap};
inline constexpr const auto& kAllModes = kModes;  // the GPU tests' name for it

// The largest |x[i]|, 0 for an empty vector.
inline double maxAbs(const std::vector<double>& x) {
  double m = 0.0;
  for (const double v : x) m = std::max(m, std::fabs(v));
  return m;
}

// N samples uniform in [-1, 1) from SEED.
inline std::vector<double> randomSignal(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return randomSignal(n, rng, 1.0);
}

// W taps uniform in [-1, 1) with boundary MODE.
inline FilterSpec randomTaps(std::size_t w, BoundaryMode mode, std::mt19937_64& rng) {
  FilterSpec spec;
  spec.taps = randomSignal(w, rng, 1.0);
  spec.mode = mode;
  return spec;
}

// How many entries FOLDER holds (0 where it does not exist).
inline std::size_t filesIn(const std::string& folder) {
  std::error_code ec;
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(folder, ec),
                                                std::filesystem::directory_iterator()));
}

}  // namespace siglab::test

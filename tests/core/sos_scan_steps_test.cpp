// The GPU scan's steps (sos_scan_steps.hpp) run on the host, each thread of the kernel emulated by a
// loop, against the serial sosfilt: CI has no GPU, so this is where the scan's logic is checked.
#include "siglab/sos_scan_steps.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "siglab/butterworth.hpp"
#include "siglab/sos_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// The three steps over x (filtering order given by `stride`), chunks of `chunk` samples.
std::vector<double> emulateScan(const Sections& sections, const std::vector<double>& x, std::int64_t stride,
                                int chunk, const std::vector<double>& initial) {
  const std::vector<double> c = flatCoefficients(sections);
  const int count = static_cast<int>(sections.size()), d = 2 * count;
  const auto n = static_cast<std::int64_t>(x.size());
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  std::vector<double> y(x.size(), std::nan(""));
  const double* first = stride > 0 ? x.data() : x.data() + n - 1;
  double* out = stride > 0 ? y.data() : y.data() + n - 1;
  std::vector<double> starts(static_cast<std::size_t>(chunks * d), 0.0), ends(starts.size());
  std::copy(initial.begin(), initial.end(), starts.begin());
  for (int pass = 0; pass < 2; ++pass) {
    for (std::int64_t b = 0; b < chunks; ++b) {
      std::vector<double> z(starts.begin() + b * d, starts.begin() + (b + 1) * d);
      const std::int64_t count_ = std::min<std::int64_t>(chunk, n - b * chunk);
      sosChunk(c.data(), count, z.data(), first + b * chunk * stride, pass ? out + b * chunk * stride : nullptr,
               stride, count_);
      std::copy(z.begin(), z.end(), ends.begin() + b * d);
    }
    if (pass == 0) sosCarryChunkStarts(sosTransitionPower(sections, chunk), d, ends, initial, starts);
  }
  return y;
}

TEST(SosScanSteps, TransitionPowerIsRepeatedZeroInputSteps) {
  const Sections sections = butterworthSections({4, 0.1, 0.3, BandType::Bandpass});
  const std::vector<double> c = flatCoefficients(sections);
  const int d = 2 * static_cast<int>(sections.size());
  const std::vector<double> power = sosTransitionPower(sections, 37);
  for (int j = 0; j < d; ++j) {
    std::vector<double> z(static_cast<std::size_t>(d), 0.0);
    z[j] = 1.0;
    for (int s = 0; s < 37; ++s) sosStepFlat(c.data(), static_cast<int>(sections.size()), z.data(), 0.0);
    for (int i = 0; i < d; ++i) EXPECT_NEAR(power[i * d + j], z[i], 1e-13) << i << "," << j;
  }
}

TEST(SosScanSteps, EmulatedScanMatchesSerialWithinTheBound) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (const ButterworthSpec& spec : {ButterworthSpec{8, 0.1, 0.3, BandType::Bandpass}, ButterworthSpec{2, 0.01},
                                      ButterworthSpec{5, 0.7, 0, BandType::Highpass}, ButterworthSpec{32, 0.2}}) {
    const Sections sections = butterworthSections(spec);
    const SosGains gains = sosGains(sections);
    for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      std::vector<double> initial = sosfiltZi(sections);
      for (double& v : initial) v *= x.front();
      for (const std::int64_t stride : {std::int64_t{1}, std::int64_t{-1}}) {
        for (int chunk : {37, 1024}) {
          // The serial reference in the same filtering order.
          std::vector<double> ordered = x;
          if (stride < 0) std::reverse(ordered.begin(), ordered.end());
          std::vector<double> serial(n);
          SosState state = initial;
          sosfilt(sections, ordered, serial, state);
          if (stride < 0) std::reverse(serial.begin(), serial.end());
          const std::vector<double> scan = emulateScan(sections, x, stride, chunk, initial);
          double worst = 0, maxAbs = 0, maxInitial = 0;
          for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(scan[i] - serial[i]));
          for (double v : x) maxAbs = std::max(maxAbs, std::abs(v));
          for (double v : initial) maxInitial = std::max(maxInitial, std::abs(v));
          EXPECT_LE(worst, sosScanErrorBound(sections, gains, maxAbs, maxInitial))
              << "order " << spec.order << " n " << n << " stride " << stride << " chunk " << chunk << " (seed " << seed << ")";
        }
      }
    }
  }
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

bool sameGains(const SosGains& a, const SosGains& b) {
  return a.inputToState == b.inputToState && a.stateToOutput == b.stateToOutput && a.inputToOutput == b.inputToOutput &&
         a.decayed == b.decayed && a.stateFromInput == b.stateFromInput && a.sectionFromInput == b.sectionFromInput &&
         a.stateFromState == b.stateFromState && a.sectionFromState == b.sectionFromState &&
         a.outputFromState == b.outputFromState;
}

// sosGains keeps its last results: whatever was asked before (more sets than it keeps, one set
// differing from another in one coefficient's last bit), each set's gains are its own.
TEST(SosGains, KeptGainsAreEachSectionsOwnWhateverWasAskedBefore) {
  std::vector<Sections> sets;
  for (int order = 1; order <= 12; ++order) sets.push_back(butterworthSections(ButterworthSpec{order, 0.05 * order}));
  Sections nudged = sets[3];
  nudged[0][4] = std::nextafter(nudged[0][4], 1.0);
  sets.push_back(nudged);
  std::vector<SosGains> first;
  for (const Sections& s : sets) first.push_back(sosGains(s));
  EXPECT_FALSE(sameGains(first[3], first.back()));
  for (int round = 0; round < 2; ++round) {
    for (std::size_t k = sets.size(); k-- > 0;) {
      EXPECT_TRUE(sameGains(sosGains(sets[k]), first[k])) << k;
    }
  }
  EXPECT_THROW(sosGains(Sections{}), std::invalid_argument);  // checked before any kept answer
}

}  // namespace
}  // namespace siglab

// The block scan's carry (sos_segment_carry.hpp): every segment's carried response is stepped on the
// cores from a guessed start (the previous segment's zero-start end state) and the serial walk goes
// on from there, or starts it over where the guess was wrong (a response that outlasted its segment).
// On awkward sizes (0, 1, shorter than a segment, at and one past a segment's end, a multiple of
// nothing), outputs poisoned first: within the stated bound of the recursion, and streamed (decimate
// under auto: the scan in pieces of whole segments) the in-memory bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "siglab/butterworth.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/sos_filter.hpp"
#include "engine_test_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr std::size_t kSegment = 65536;  // the scan's segment (sos_segment_scan.hpp's kScanSegment)

std::vector<std::size_t> awkwardSizes() {
  return {0, 1, 100, kSegment - 1, kSegment, kSegment + 1, 3 * kSegment + 12345};
}

// Infinite where an output was left unwritten (still the poison, NaN).
double worstDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::abs(a[i] - b[i]);
    worst = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(worst, d);
  }
  return worst;
}

// A random signal with a spike just before every cut and a quiet stretch after the second: the
// spike's response must be carried until it fades below the quiet signal, past the guess's reach
// (kCarryGuessReach) for these poles.
std::vector<double> spikedSignal(std::size_t n, std::mt19937_64& rng) {
  std::vector<double> x = test::randomSignal(n, rng);
  for (std::size_t cut = kSegment; cut < n; cut += kSegment) x[cut - 2] = 1e6;
  if (n > 2 * kSegment + 30000) std::fill(x.begin() + 2 * kSegment, x.begin() + 2 * kSegment + 30000, 0.0);
  return x;
}

TEST(SosSegmentCarry, AwkwardSizesStayWithinTheStatedBoundOfTheRecursion) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  // The order 8 band-pass fades in ~1150 samples; the order 2 low-pass at 0.0001 in ~120000, longer
  // than a segment: its guesses are wrong and the walk starts each response over.
  const std::vector<ButterworthSpec> designs = {{8, 0.1, 0.3, BandType::Bandpass}, {2, 0.0001}};
  for (const ButterworthSpec& d : designs) {
    const Sections sections = butterworthSections(d);
    for (const std::size_t n : awkwardSizes()) {
      SCOPED_TRACE("order " + std::to_string(d.order) + ", " + std::to_string(n) + " samples (seed " +
                   std::to_string(seed) + ")");
      const std::vector<double> x = spikedSignal(n, rng);
      std::vector<double> serial(n, std::nan("")), parallel(n, std::nan(""));
      SosState state;
      sosfilt(sections, x, serial, state);
      const double bound = sosfiltParallel(sections, x, parallel, {});
      EXPECT_LE(worstDifference(parallel, serial), bound);
      if (n > sosfiltfiltPadLength(sections)) {
        std::fill(serial.begin(), serial.end(), std::nan(""));
        std::fill(parallel.begin(), parallel.end(), std::nan(""));
        sosfiltfilt(sections, x, serial);
        EXPECT_LE(worstDifference(parallel, serial), sosfiltfiltParallel(sections, x, parallel)) << "zero phase";
      }
    }
  }
}

// Decimate's IIR under auto streams the scan in blocks of whole segments: the in-memory bits for
// every awkward size a rate change takes (0 and 1 samples it refuses), causal (each core keeping every q-th output) and zero phase.
// `chain` over one channel `x`, in memory or streamed in blocks of 1,000 samples, on the CPU engines.
PipelineReport runChain(const char* chain, const std::vector<double>& x, Streaming streaming) {
  static const BackendList engines = test::cpuEngines();
  ChannelSource source;
  source.channels.emplace_back(x);
  PipelineOptions options;
  options.streaming = streaming;
  options.blockSamples = 1000;
  return runPipeline(parseChain(chain), source, MemorySink{}, engines, options);
}

TEST(SosSegmentCarry, AwkwardSizesStreamedAreTheInMemoryBits) {
  std::mt19937_64 rng(test::freshSeed());
  for (const std::size_t n : awkwardSizes()) {
    const std::vector<double> x = spikedSignal(n, rng);
    for (const char* chain : {"decimate 4 zero-phase=off", "decimate 3"}) {
      if (n < 4) continue;  // a rate change refuses a signal that leaves less than a sample
      SCOPED_TRACE(std::string(chain) + ", " + std::to_string(n) + " samples");
      const PipelineReport memory = runChain(chain, x, Streaming::never);
      const PipelineReport streamed = runChain(chain, x, Streaming::always);
      ASSERT_TRUE(memory.passed() && streamed.passed());
      ASSERT_TRUE(streamed.plan.stream) << streamed.plan.why;
      EXPECT_EQ(streamed.channels[0].stages[0].engine, "cpu-parallel");
      const SampleVector &a = memory.output.at(0), &b = streamed.output.at(0);
      EXPECT_TRUE(a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0));
    }
  }
}


// decimate 18's cheby1 fades to 2^-53 in ~3600 samples (auto's scan takes it: under 4096). After a spike
// of 1e6 just before segment 15, a segment of zeros brings its response down only to ~1e-281, above the
// carry's floor (1e-290): it has not faded at the segment's end, so segment 16's guessed start is wrong
// and the walk starts its response over from the true state, as the stream does, whose second block
// begins at segment 16 from the carried state: the same bits.
TEST(SosSegmentCarry, AResponseOutlastingItsSegmentIsCarriedAsTheStreamCarriesIt) {
  std::mt19937_64 rng(test::freshSeed());
  std::vector<double> x = test::randomSignal((std::size_t{1} << 20) + 12345, rng);
  x[15 * kSegment - 5] = 1e6;
  std::fill(x.begin() + 15 * kSegment - 4, x.begin() + 16 * kSegment + 100, 0.0);
  const PipelineReport memory = runChain("decimate 18 zero-phase=off", x, Streaming::never);
  const PipelineReport streamed = runChain("decimate 18 zero-phase=off", x, Streaming::always);
  ASSERT_TRUE(memory.passed() && streamed.passed());
  ASSERT_TRUE(streamed.plan.stream) << streamed.plan.why;
  EXPECT_EQ(memory.channels[0].stages[0].engine, "cpu-parallel");
  EXPECT_EQ(streamed.channels[0].stages[0].engine, "cpu-parallel");
  const SampleVector &a = memory.output.at(0), &b = streamed.output.at(0);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
}

}  // namespace
}  // namespace siglab

#include "siglab/verify.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/job.hpp"
#include "memory_limit.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// An engine that computes the reference, then spoils what a buggy engine would, and reports the
// cuts such an engine makes: GPU-style blocks of 256 outputs and chunks of 3000.
class CorruptingEngine final : public FilterBackend {
 public:
  enum class Fault { None, LastPartialBlock, OneChunksHalo, OneInAHundred };
  explicit CorruptingEngine(Fault fault) : fault_(fault) {}
  std::string_view name() const override { return "corrupting"; }
  std::string_view description() const override { return "test engine"; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return {}; }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("no float32 path");
  }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions&,
                    const Progress&) override {
    filterSerial(in, spec, out);
    const std::size_t n = in.size(), r = spec.radius();
    FilterPass pass;
    pass.splits.every = kBlock;
    for (std::size_t c = kChunk; c < n; c += kChunk) pass.splits.at.push_back(c);
    switch (fault_) {
      case Fault::None: break;
      case Fault::LastPartialBlock:  // the tail block's last output read one sample short
        out[n - 1] = std::nextafter(out[n - 1], INFINITY);
        break;
      case Fault::OneChunksHalo: {  // the second chunk's left halo read as zeros
        std::vector<double> spoiled(in.begin(), in.end());
        for (std::size_t k = kChunk - r; k < kChunk; ++k) spoiled[k] = 0.0;
        std::vector<double> wrong(n);
        filterSerial(spoiled, spec, wrong);
        for (std::size_t i = kChunk; i < kChunk + r; ++i) out[i] = wrong[i];
        break;
      }
      case Fault::OneInAHundred:
        for (std::size_t i = 37; i < n; i += 100) out[i] = std::nextafter(out[i], INFINITY);
        break;
    }
    return pass;
  }
  static constexpr std::size_t kBlock = 256;
  static constexpr std::size_t kChunk = 3000;

 private:
  Fault fault_;
};

Job verifyingJob(std::size_t random) {
  Job job;
  job.spec = FilterSpec{{0.1, 0.2, 0.4, 0.2, 0.1}, BoundaryMode::Reflect};
  job.verifyRandom = random;
  return job;
}

TEST(Verify, PositionsCoverTheEndsBothSidesOfEveryCutAndRandomOnes) {
  WorkSplits splits;
  splits.at = {500};
  splits.every = 300;
  const std::vector<std::size_t> p = verificationPositions(1000, 5, splits, 10, 7);
  auto has = [&](std::size_t i) { return std::binary_search(p.begin(), p.end(), i); };
  // The grid of 300 starts afresh at the cut at 500 (a chunk's tiles count from its start): 300, 500, 800.
  for (std::size_t i : {0, 4, 995, 999, 496, 499, 500, 503, 296, 303, 796, 803}) {
    EXPECT_TRUE(has(static_cast<std::size_t>(i))) << i;
  }
  EXPECT_FALSE(has(150));
  EXPECT_FALSE(has(600));
  EXPECT_TRUE(std::is_sorted(p.begin(), p.end()));
  EXPECT_LT(p.size(), 1000u);
  EXPECT_TRUE(verificationPositions(0, 5, splits, 10, 7).empty());
  EXPECT_EQ(verificationPositions(3, 5, splits, 10, 7), (std::vector<std::size_t>{0, 1, 2}));
}

// The positions are the naive rule's (every stretch pushed, then sorted and made distinct), made
// without sorting hundreds of thousands of them: cuts at given places and on a grid, overlapping
// the ends and each other, random draws landing on them.
TEST(Verify, PositionsAreTheEndsCutsAndDrawsSortedAndDistinct) {
  std::mt19937_64 rng(test::freshSeed());
  for (int round = 0; round < 50; ++round) {
    const std::size_t samples = rng() % 5000, window = 1 + rng() % 40, random = rng() % 300;
    WorkSplits splits;
    for (std::uint64_t k = rng() % 4; k > 0; --k) splits.at.push_back(rng() % (samples + 10));
    splits.every = rng() % 3 == 0 ? 0 : 1 + rng() % 64;
    std::vector<std::size_t> naive;
    const auto add = [&](std::size_t begin, std::size_t end) {
      for (std::size_t p = begin; p < end; ++p) naive.push_back(p);
    };
    const auto cut = [&](std::size_t c) { add(c > kOutputsEachSideOfCut ? c - kOutputsEachSideOfCut : 0,
                                              std::min(samples, c + kOutputsEachSideOfCut)); };
    add(0, std::min(samples, window));
    add(samples > window ? samples - window : 0, samples);
    std::vector<std::size_t> pieces = splits.at;
    std::sort(pieces.begin(), pieces.end());
    for (const std::size_t c : pieces) cut(c);
    if (splits.every > 0) {
      pieces.insert(pieces.begin(), 0);
      pieces.push_back(samples);
      for (std::size_t k = 0; k + 1 < pieces.size(); ++k) {
        for (std::size_t c = pieces[k] + splits.every; c < pieces[k + 1]; c += splits.every) cut(c);
      }
    }
    if (random >= samples) {
      add(0, samples);
    } else if (samples > 0) {
      std::mt19937_64 draws(11);
      std::uniform_int_distribution<std::size_t> anywhere(0, samples - 1);
      for (std::size_t k = 0; k < random; ++k) naive.push_back(anywhere(draws));
    }
    std::sort(naive.begin(), naive.end());
    naive.erase(std::unique(naive.begin(), naive.end()), naive.end());
    EXPECT_EQ(verificationPositions(samples, window, splits, random, 11), naive)
        << samples << " samples, window " << window << ", every " << splits.every << ", " << random << " drawn";
  }
}

TEST(Verify, ARandomCountBeyondTheSignalChecksEveryOutputInBoundedMemory) {
  // --verify -1 once wrapped to 2^64 - 1 positions, grown until memory ran out.
  for (const std::size_t count : {std::size_t{100}, std::size_t{1} << 28, SIZE_MAX}) {
    EXPECT_TRUE(test::succeedsWithin(test::kBoundedAddressSpace, [count] {
      const std::vector<std::size_t> p = verificationPositions(100, 5, WorkSplits{}, count, 7);
      return p.size() == 100 && p.front() == 0 && p.back() == 99;
    })) << count;
  }
  EXPECT_TRUE(test::succeedsWithin(test::kBoundedAddressSpace, [] {
    CpuSerialBackend serial;  // no OpenMP in a forked child
    const std::vector<double> in(1000, 1.0);
    return applyFilter(serial, in, verifyingJob(SIZE_MAX)).verification.checked == in.size();
  }));
}

TEST(Verify, ExactAndToleratedEnginesPassOnAwkwardSizes) {
  std::mt19937_64 rng(test::freshSeed());
  CpuParallelBackend parallel;
  CpuRunningBackend running;
  for (std::size_t n : {0, 1, 2, 4, 5, 1000, 70001}) {
    const std::vector<double> in = test::randomSignal(n, rng);
    Job job = verifyingJob(100);
    const ApplyResult exact = applyFilter(parallel, in, job);
    EXPECT_TRUE(exact.verification.passed()) << n;
    EXPECT_EQ(exact.verification.tolerance, 0.0);
    job.spec = makeMeanFilter(5, BoundaryMode::Wrap);
    const ApplyResult tolerated = applyFilter(running, in, job);
    EXPECT_TRUE(tolerated.verification.passed()) << n;
    if (n > 0) {
      EXPECT_GT(tolerated.verification.tolerance, 0.0);
    }
    job.sampleType = SampleType::f32;
    job.spec.accumulator = Accumulator::Float64;
    EXPECT_TRUE(applyFilter(parallel, in, job).verification.passed()) << n;
  }
}

TEST(Verify, CatchesACorruptLastPartialBlockWithoutRandomPositions) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(10007, rng);  // 10007 = 39 x 256 + 23
  CorruptingEngine clean(CorruptingEngine::Fault::None), faulty(CorruptingEngine::Fault::LastPartialBlock);
  EXPECT_TRUE(applyFilter(clean, in, verifyingJob(0)).verification.passed());
  const Verification v = applyFilter(faulty, in, verifyingJob(0)).verification;
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_EQ(v.firstMismatch, in.size() - 1);
}

TEST(Verify, CatchesOneChunksHaloWithoutRandomPositions) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(10007, rng, 100.0);
  const Verification v = applyFilter(*std::make_unique<CorruptingEngine>(CorruptingEngine::Fault::OneChunksHalo), in,
                                     verifyingJob(0))
                             .verification;
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.firstMismatch, CorruptingEngine::kChunk);
  EXPECT_LT(v.checked, in.size() / 4);  // not a serial pass
}

TEST(Verify, CatchesOneOutputInAHundredByRandomPositions) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(100003, rng);
  CorruptingEngine faulty(CorruptingEngine::Fault::OneInAHundred);
  Job job = verifyingJob(kDefaultVerifyRandom);
  const ApplyResult result = applyFilter(faulty, in, job);
  // 4096 random outputs miss every one of the 1% with probability 0.99^4096 < 1e-17.
  EXPECT_GT(result.verification.mismatches, 10u);
  EXPECT_EQ(result.verification.firstMismatch % 100, 37u);
  EXPECT_LT(result.verification.checked, in.size() / 4);
}

// The positions are compared in pieces on every core: each piece's mismatches counted once, the
// first reported the lowest of all (a 1% fault over 300k outputs, checked whole: several pieces).
TEST(Verify, EveryPieceCountsAndTheFirstMismatchIsTheLowest) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(300007, rng);
  CorruptingEngine faulty(CorruptingEngine::Fault::OneInAHundred);
  const Verification v = applyFilter(faulty, in, verifyingJob(in.size())).verification;  // every output
  EXPECT_EQ(v.checked, in.size());
  EXPECT_EQ(v.mismatches, (in.size() - 37 + 99) / 100);
  EXPECT_EQ(v.firstMismatch, 37u);
}

// The one comparison every verification makes (verifyOutputs, verifySosStretches): bits or a
// tolerance, NaN against NaN, and the lowest mismatch whatever order the outputs come in.
TEST(Verify, CompareOutputCountsBitsToleranceNaNAndTheLowestMismatch) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Verification v;
  compareOutput(v, 9, 1.0, 1.0, true, 0.0);
  compareOutput(v, 8, 0.0, -0.0, true, 0.0);  // equal values, other bits
  EXPECT_EQ(v.mismatches, 1u);
  compareOutput(v, 7, 1.0, 1.0 + 1e-9, false, 1e-8);  // within the tolerance
  compareOutput(v, 5, nan, nan, true, 0.0);
  EXPECT_EQ(v.mismatches, 1u);
  compareOutput(v, 3, 1.0, nan, false, 1e300);  // a backward pass meets position 3 after 8
  EXPECT_EQ(v.checked, 5u);
  EXPECT_EQ(v.mismatches, 2u);
  EXPECT_EQ(v.firstMismatch, 3u);
  EXPECT_TRUE(std::isinf(v.maxAbsDiff));
  Verification narrow;
  compareOutput(narrow, 0, 1.0f, std::nextafter(1.0f, 2.0f), false, 1e-7);
  compareOutput(narrow, 1, 1.0f, std::nextafter(1.0f, 2.0f), true, 1.0);
  EXPECT_EQ(narrow.mismatches, 2u);
  EXPECT_EQ(narrow.firstMismatch, 0u);
}

TEST(Verify, NaNAgreesWithNaNAndDiffersFromANumber) {
  const std::vector<double> in = {1.0, NAN, 3.0};
  std::vector<double> out(3);
  const FilterSpec spec = makeMeanFilter(1);
  filterSerial(in, spec, out);
  const std::vector<std::size_t> all = {0, 1, 2};
  EXPECT_TRUE(verifyOutputs(in, spec, out, all, 0.0).passed());
  out[1] = 2.0;
  const Verification v = verifyOutputs(in, spec, out, all, 1.0);
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_TRUE(std::isinf(v.maxAbsDiff));
}

}  // namespace
}  // namespace siglab

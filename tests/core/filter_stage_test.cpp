#include "siglab/filter_stage.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/stage_registry.hpp"
#include "siglab/taps.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

BackendList cpuEngines() {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  engines.push_back(std::make_unique<CpuRunningBackend>());
  return engines;
}

bool sameBits(const SampleVector& a, const SampleVector& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

std::vector<FilterSpec> todaysSpecs() {
  ButterworthSpec band;
  band.order = 4;
  band.cutoff = 0.1;
  band.cutoff2 = 0.3;
  band.type = BandType::Bandpass;
  return {makeMeanFilter(5, BoundaryMode::Reflect),  makeGaussianFilter(2.0, BoundaryMode::Nearest),
          makeMedianFilter(7, BoundaryMode::Wrap),   makeSavgolFilter(11, 3, 0, true, BoundaryMode::Mirror),
          makeSavgolFilter(9, 2, 1, false, BoundaryMode::Zero), makeButterworthFilter(band, true)};
}

TEST(FilterStage, AppliesEachKindToTheSameBitsAsApplyJobInBothSampleTypes) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<double> signal = test::randomSignal(1009, rng);
  const BackendList engines = cpuEngines();
  for (const FilterSpec& spec : todaysSpecs()) {
    for (const SampleType type : {SampleType::f64, SampleType::f32}) {
      for (const std::string engine : {"auto", "cpu-serial"}) {
        const auto stage = makeFilterStage(spec);
        StageRunOptions options;
        options.engine = engine;
        options.sampleType = type;
        const AppliedJob staged = stage->apply(engines, signal, options);
        Job job;
        job.spec = spec;
        job.engines = engine;
        job.sampleType = type;
        const AppliedJob direct = applyJob(engines, signal, job);
        SCOPED_TRACE(describeFilter(spec) + " on " + engine + ", seed " + std::to_string(seed));
        EXPECT_EQ(staged.result.engine, direct.result.engine);
        EXPECT_TRUE(sameBits(staged.result.output, direct.result.output));
        EXPECT_GT(staged.result.verification.checked, 0u);
        EXPECT_TRUE(staged.result.verification.passed());
        EXPECT_EQ(stage->describe(), describeFilter(spec));
      }
    }
  }
}

TEST(FilterStage, HistoryIsTheWindowsReachAndNoneForSections) {
  const std::vector<FilterSpec> specs = todaysSpecs();
  EXPECT_EQ(makeFilterStage(specs[0])->historyBefore(), 2u);
  EXPECT_EQ(makeFilterStage(specs[2])->historyAfter(), 3u);
  // interp edges fit the first and last W samples: output 0 reads samples 0..W-1.
  EXPECT_EQ(makeFilterStage(specs[3])->historyBefore(), 10u);
  EXPECT_EQ(makeFilterStage(specs[3])->historyAfter(), 10u);
  EXPECT_EQ(makeFilterStage(specs[4])->historyAfter(), 4u);
  EXPECT_EQ(makeFilterStage(specs[5])->historyBefore(), std::nullopt);
  EXPECT_EQ(makeFilterStage(specs[5])->historyAfter(), std::nullopt);
}

TEST(FilterStage, ListsTheEnginesThatRunItAndNamesOneThatCannot) {
  const BackendList engines = cpuEngines();
  const auto mean = makeFilterStage(makeMeanFilter(5));
  EXPECT_EQ(mean->engineNames(engines), (std::vector<std::string>{"cpu-serial", "cpu-parallel", "cpu-running"}));
  const auto median = makeFilterStage(makeMedianFilter(5, BoundaryMode::Zero));
  EXPECT_EQ(median->engineNames(engines), (std::vector<std::string>{"cpu-serial", "cpu-parallel"}));
  StageRunOptions options;
  options.engine = "cpu-running";
  const std::vector<double> signal(50, 1.0);
  try {
    median->apply(engines, signal, options);
    FAIL() << "cpu-running ran a median";
  } catch (const StageError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-running"), std::string::npos) << e.what();
  }
  options.engine = "no-such-engine";
  EXPECT_THROW(mean->apply(engines, signal, options), StageError);
}

TEST(FilterStage, RespondsAsTheFilterDoesAndNotForAMedian) {
  const FilterSpec mean = makeMeanFilter(5);
  const auto response = makeFilterStage(mean, {}, 1000.0)->response(64);
  const auto expected = filterResponse(mean, 64, 1000.0);
  ASSERT_TRUE(response && expected);
  EXPECT_EQ(response->frequency, expected->frequency);
  EXPECT_EQ(response->response, expected->response);
  EXPECT_FALSE(makeFilterStage(makeMedianFilter(5, BoundaryMode::Zero))->response(64));
  EXPECT_EQ(makeFilterStage(mean, "taps dropped")->note(), "taps dropped");
}


// Every registered kind that runs a filter, bound from its example value to a signal of awkward
// length: the stage's apply is applyJob's on the spec it built, bit for bit.
TEST(FilterStage, EveryRegisteredFilterKindAppliesAsApplyJobDoes) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  test::writeFile(dir.file("taps.txt"), "0.25\n0.5\n-0.125\n");
  const std::vector<double> signal = test::randomSignal(997, rng);
  const BackendList engines = cpuEngines();
  std::size_t filters = 0;
  for (const StageKind* kind : stageKinds()) {
    StageParameters values = completeParameters(*kind, kind->parseValue(kind->exampleValue()));
    for (const ParameterInfo& info : kind->parameters()) {
      if (info.type == ParameterType::Text) values[info.name] = dir.file("taps.txt");
    }
    StageContext context;
    context.samples = signal.size();
    std::unique_ptr<BoundStage> stage;
    try {
      stage = kind->bind(values, context);
    } catch (const std::exception& e) {  // files of another form (b/a: unstable, sections) refuse the taps
      EXPECT_NE(kind->name(), "taps") << e.what();
      continue;
    }
    if (!stage->filterSpec()) continue;
    ++filters;
    SCOPED_TRACE(std::string(kind->name()) + ", seed " + std::to_string(seed));
    Job job;
    job.spec = *stage->filterSpec();
    EXPECT_TRUE(sameBits(stage->apply(engines, signal, {}).result.output, applyJob(engines, signal, job).result.output));
    EXPECT_EQ(stage->engineNames(engines).empty(), false);
  }
  EXPECT_GE(filters, 6u);
}


// What a block runner does with a stage's history: each block of outputs computed from its own
// samples and `history` samples on each side gives the whole run's bits, for blocks down to one
// sample. In zero mode and with Savitzky-Golay's interp edges nothing is padded at the signal's
// ends (the other modes pad them as streamFilter does). interp needs W - 1 (an output near an end
// is the fit of the first or last W samples); the other kinds, the radius.
TEST(FilterStage, BlocksWithTheirHistoryGiveTheWholeRunsBits) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<double> signal = test::randomSignal(41, rng);
  const BackendList engines = cpuEngines();
  StageRunOptions options;
  options.engine = "cpu-serial";
  options.verify = false;
  const std::vector<FilterSpec> unpadded = {makeMeanFilter(5), makeGaussianFilter(2.0), makeMedianFilter(7, BoundaryMode::Zero),
                                            makeSavgolFilter(11, 3, 0, true, BoundaryMode::Mirror),
                                            makeSavgolFilter(9, 2, 1, false, BoundaryMode::Zero)};
  for (const FilterSpec& spec : unpadded) {
    const auto stage = makeFilterStage(spec);
    const std::size_t before = *stage->historyBefore(), after = *stage->historyAfter();
    const SampleVector whole = stage->apply(engines, signal, options).result.output;
    for (const std::size_t block : {std::size_t{1}, std::size_t{6}}) {
      for (std::size_t start = 0; start < signal.size(); start += block) {
        const std::size_t end = std::min(signal.size(), start + block);
        const std::size_t from = start - std::min(start, before), to = std::min(signal.size(), end + after);
        const SampleVector part =
            stage->apply(engines, std::span(signal).subspan(from, to - from), options).result.output;
        for (std::size_t i = start; i < end; ++i) {
          ASSERT_EQ(std::memcmp(&part[i - from], &whole[i], sizeof(double)), 0)
              << stage->describe() << " block " << block << " output " << i << " seed " << seed;
        }
      }
    }
  }
}

}  // namespace
}  // namespace siglab

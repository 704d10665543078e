// pipelineReach: how far a chain's outputs read, for front-ends that run it in overlapping blocks.
#include <gtest/gtest.h>

#include "siglab/pipeline_reach.hpp"

namespace siglab {
namespace {

PipelineReach reachOf(std::string_view chain, std::uint64_t samples = 1000) {
  return pipelineReach(parseChain(chain), StageContext{samples, std::nullopt, Accumulator::SampleType});
}

TEST(PipelineReach, IsTheSumOfTheStagesHistories) {
  const PipelineReach reach = reachOf("median 5; mean 3; savgol 7,2 mode nearest");
  EXPECT_EQ(reach.before, 2u + 1u + 3u);
  EXPECT_EQ(reach.after, 6u);
  EXPECT_FALSE(reach.circular);
  EXPECT_EQ(reach.wholeOnly, "");
  EXPECT_EQ(reachOf("savgol 7,2").before, 6u);  // interp edges fit W samples: W - 1 past an output
}

TEST(PipelineReach, NamesTheStageThatNeedsTheWholeSignalOrMixesWrapWithOtherEnds) {
  EXPECT_EQ(reachOf("median 5; detrend").wholeOnly, "stage 2 (detrend) depends on the whole signal (no finite history)");
  EXPECT_EQ(reachOf("butter 2,0.2; mean 3").wholeOnly, "stage 1 (butter) depends on the whole signal (no finite history)");
  EXPECT_TRUE(reachOf("median 5 mode wrap; mean 3 mode wrap").circular);
  EXPECT_EQ(reachOf("median 5 mode wrap; mean 3").wholeOnly, "stage 1 (median) wraps around the signal's ends and stage 2 (mean) does not");
}

// A rate change with FIR taps has a finite history, in the pipeline's input samples; the outputs
// scale by up / down, and blocks start at multiples of the period where every stage's phase is the
// whole signal's. An IIR decimation reads the whole signal.
TEST(PipelineReach, ScalesRateChangesAndNamesTheirBlocksPeriod) {
  const PipelineReach resample = reachOf("resample-poly 3,2");
  EXPECT_EQ(resample.wholeOnly, "");
  EXPECT_EQ(resample.up, 3u);
  EXPECT_EQ(resample.down, 2u);
  EXPECT_EQ(resample.period, 2u);
  EXPECT_GT(resample.before, 0u);
  const PipelineReach chain = reachOf("median 5; decimate 4 ftype fir; resample-poly 3,2; mean 3");
  EXPECT_EQ(chain.wholeOnly, "");
  EXPECT_EQ(chain.up, 3u);
  EXPECT_EQ(chain.down, 8u);
  EXPECT_EQ(chain.period, 8u);  // 4 for the decimation, then 2 of its outputs for the resampling
  const PipelineReach decimated = reachOf("decimate 4 ftype fir");
  EXPECT_EQ(chain.before, 2u + decimated.before + resample.before * 4 + 3)
      << "the stages' histories in the input's samples (mean 3: one sample of its input, 8/3 of the input's)";
  EXPECT_EQ(reachOf("decimate 4").wholeOnly, "stage 1 (decimate) depends on the whole signal (no finite history)");
}

TEST(PipelineReach, RefusesAStageThatCannotRunOnTheSignalNamingIt) {
  try {
    reachOf("median 5; savgol 7,2", 3);
    FAIL() << "bound";
  } catch (const StageError& e) {
    EXPECT_NE(std::string(e.what()).find("stage 2 (savgol): interp edges need at least W = 7 samples"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace siglab

// compare's core from the bound stage (compareStage, compareChain) and a chain's response
// (pipelineResponse): a stage that is not a filter compares its own engines, a chain compares each
// stage on its own input, and a chain's response is the product of its stages'.
#include "siglab/stage_comparison.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/generate.hpp"
#include "siglab/pipeline_response.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/report.hpp"
#include "engine_test_support.hpp"

namespace siglab {
namespace {

using test::cpuEngines;

std::vector<double> signalOf(std::uint64_t n) {
  GenerateOptions options;
  options.count = n;
  return generateSignal(options);
}

StageCompareOptions quick() {
  StageCompareOptions options;
  options.compare.measure.warmups = 0;
  options.compare.measure.repeats = 1;
  return options;
}

TEST(StageComparison, DetrendComparesItsOwnEnginesBitForBit) {
  const BackendList engines = cpuEngines();
  const std::vector<double> in = signalOf(3000);
  const Pipeline p = parseChain("detrend");
  const auto stage = bindStage(p.stages.front(), 1, StageContext{in.size(), std::nullopt, Accumulator::SampleType});
  const Comparison c = compareStage(*stage, engines, in, quick());
  ASSERT_EQ(c.results.size(), 2u);
  EXPECT_EQ(c.results[0].name, "cpu-serial");
  EXPECT_EQ(c.results[1].name, "cpu-parallel");
  EXPECT_EQ(c.results[1].run.status, RunStatus::Ok) << c.results[1].run.message;
  EXPECT_TRUE(c.results[1].agreement.bitIdentical());
  EXPECT_TRUE(c.allAgree());
  EXPECT_FALSE(c.isFilter());
  EXPECT_EQ(c.stageDescription, "detrend linear");
  ASSERT_EQ(c.reference.size(), in.size());
  const nlohmann::json report = comparisonToJson(c, "x");
  EXPECT_EQ(report["kind"], "detrend");
  EXPECT_TRUE(report["window"].is_null());
}

TEST(StageComparison, AChainComparesEachStageOnThePreviousStagesOutput) {
  const BackendList engines = cpuEngines();
  const std::vector<double> in = signalOf(2000);
  const Pipeline chain = parseChain("butter 4,0.2; mean 5");
  const ChainComparison c = compareChain(chain, in, std::nullopt, engines, quick());
  ASSERT_EQ(c.stages.size(), 2u);
  EXPECT_EQ(c.stages[0].label, "stage 1 (butter)");
  EXPECT_EQ(c.stages[1].chain, "mean 5");
  EXPECT_TRUE(c.allAgree());
  // Stage 2's reference is the mean of stage 1's output, which is the chain's output.
  const PipelineReport whole = runPipeline(chain, ChannelSource{{in}, std::nullopt, "x"}, MemorySink{}, engines);
  const SampleVector& out = whole.output.front();
  ASSERT_EQ(c.stages[1].comparison.reference.size(), out.size());
  EXPECT_TRUE(std::equal(out.begin(), out.end(), c.stages[1].comparison.reference.begin()));
}

TEST(StageComparison, AChainsReportHasASectionPerStage) {
  const BackendList engines = cpuEngines();
  const std::vector<double> in = signalOf(500);
  const ChainComparison c = compareChain(parseChain("median 3; detrend constant"), in, std::nullopt, engines, quick());
  const nlohmann::json json = nlohmann::json::parse(chainComparisonReport(c, "in.npy", "r.json"));
  ASSERT_EQ(json["stages"].size(), 2u);
  EXPECT_EQ(json["stages"][0]["kind"], "median");
  EXPECT_EQ(json["stages"][1]["kind"], "detrend");
  EXPECT_EQ(json["stages"][1]["backends"].size(), 2u);
  EXPECT_EQ(json["chain"], "median 3; detrend constant");
  const std::string csv = chainComparisonReport(c, "in.npy", "r.csv");
  EXPECT_TRUE(csv.starts_with("stage,stage_chain,input,")) << csv;
  EXPECT_NE(csv.find("\n2,\"detrend constant\",in.npy,500,"), std::string::npos) << csv;
  // One stage: the report is a one-stage comparison's, as before chains.
  const ChainComparison one = compareChain(parseChain("mean 3"), in, std::nullopt, engines, quick());
  EXPECT_EQ(chainComparisonReport(one, "in.npy", "r.json"), comparisonReport(one.stages[0].comparison, "in.npy", "r.json"));
}

TEST(PipelineResponse, AChainsResponseIsTheProductOfItsStages) {
  const FrequencyResponse chain = pipelineResponse(parseChain("butter 4,0.2; mean 5"), 64, std::nullopt);
  const FrequencyResponse butter = pipelineResponse(parseChain("butter 4,0.2"), 64, std::nullopt);
  const FrequencyResponse mean = meanResponse(5, 64);
  ASSERT_EQ(chain.response.size(), 64u);
  for (std::size_t i = 0; i < 64; ++i) {
    EXPECT_DOUBLE_EQ(chain.frequency[i], mean.frequency[i]);
    EXPECT_NEAR(std::abs(chain.response[i] - butter.response[i] * mean.response[i]), 0.0, 1e-15) << i;
  }
}

TEST(PipelineResponse, AMedianIsRefusedNamingItsStage) {
  try {
    pipelineResponse(parseChain("butter 4,0.2; median 5"), 16, std::nullopt);
    FAIL() << "a median has no response";
  } catch (const StageError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("stage 2 (median): a median has no frequency response")) << e.what();
  }
}

}  // namespace
}  // namespace siglab

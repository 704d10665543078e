#include <gtest/gtest.h>

#include "siglab/pipeline.hpp"
#include "siglab/stage_registry.hpp"
#include <cstdint>

namespace siglab {
namespace {

std::string parseError(std::string_view chain) {
  try {
    parseChain(chain);
  } catch (const StageError& e) {
    return e.what();
  }
  return "(parsed)";
}

void expectSameStages(const Pipeline& a, const Pipeline& b) {
  ASSERT_EQ(a.stages.size(), b.stages.size());
  for (std::size_t k = 0; k < a.stages.size(); ++k) {
    EXPECT_EQ(a.stages[k].kind, b.stages[k].kind) << k;
    EXPECT_EQ(a.stages[k].values, b.stages[k].values) << k;
  }
}

// Every kind with its example value and every parameter written after it away from its default
// (of the analysis kinds, which end a chain, the first only, last).
Pipeline everyKind() {
  Pipeline pipeline;
  std::vector<const StageKind*> kinds;
  const StageKind* analysis = nullptr;
  for (const StageKind* kind : stageKinds()) {
    if (!kind->endsChain()) kinds.push_back(kind);
    if (kind->endsChain() && !analysis) analysis = kind;
  }
  if (analysis) kinds.push_back(analysis);
  for (const StageKind* kind : kinds) {
    StageParameters values = kind->parseValue(kind->exampleValue());
    for (const ParameterInfo& info : kind->parameters()) {
      if (info.inValue) continue;
      if (info.type == ParameterType::Flag) values[info.name] = true;
      if (info.type == ParameterType::Choice) values[info.name] = info.choices.back();
    }
    pipeline.stages.push_back(Stage{kind, completeParameters(*kind, values)});
  }
  return pipeline;
}

TEST(PipelineText, ReadsStagesTheirValuesAndTheParametersAfterThem) {
  const Pipeline p = parseChain("butter 4,0.1,0.3,bandpass zero-phase; median 5;mean 3 mode reflect");
  ASSERT_EQ(p.stages.size(), 3u);
  EXPECT_EQ(p.stages[0].kind->name(), "butter");
  EXPECT_EQ(p.stages[0].values.at("cutoff2"), ParameterValue(0.3));
  EXPECT_EQ(p.stages[0].values.at("zero-phase"), ParameterValue(true));
  EXPECT_EQ(p.stages[1].values.at("mode"), ParameterValue(std::string("zero")));
  EXPECT_EQ(p.stages[2].values.at("window"), ParameterValue(std::int64_t{3}));
  EXPECT_EQ(chainText(p), "butter 4,0.1,0.3 zero-phase; median 5; mean 3 mode reflect");
  // The one-stage options' words, dashes and '=' are read too.
  expectSameStages(parseChain("--window 3 --mode=reflect"), parseChain("mean 3 mode=reflect"));
  expectSameStages(parseChain("median 5;"), parseChain("median 5"));
  EXPECT_EQ(parseChain("mean").stages.front().values.at("window"), ParameterValue(std::int64_t{5}));
}

TEST(PipelineText, EveryKindsChainReadsBackToTheSameStages) {
  const Pipeline all = everyKind();
  const std::string text = chainText(all);
  SCOPED_TRACE(text);
  expectSameStages(parseChain(text), all);
  EXPECT_EQ(chainText(parseChain(text)), text);
}

TEST(PipelineText, QuotesAPathWithBlanksOrSemicolons) {
  const Pipeline p = parseChain("taps \"my taps; \\\"v2\\\".txt\" mode wrap; median 3");
  ASSERT_EQ(p.stages.size(), 2u);
  EXPECT_EQ(p.stages[0].values.at("file"), ParameterValue(std::string("my taps; \"v2\".txt")));
  expectSameStages(parseChain(chainText(p)), p);
}

TEST(PipelineText, ErrorsNameTheStageItsKindAndTheWord) {
  EXPECT_EQ(parseError("median 5; foo 3"), "stage 2: unknown stage \"foo\" (known: " + stageKindNames() + ")");
  EXPECT_EQ(parseError("median 5; median 4"),
            "stage 2 (median): W must be a positive odd number (1, 3, 5, ...) up to 16777216, got 4");
  EXPECT_EQ(parseError("median 5 bogus"), "stage 1 (median): \"bogus\" is not one of its parameters (mode)");
  EXPECT_EQ(parseError("median 5 mode"), "stage 1 (median): mode needs a value");
  EXPECT_EQ(parseError("median 5 mode sideways"),
            "stage 1 (median): mode must be one of zero, reflect, mirror, nearest, wrap, got \"sideways\"");
  EXPECT_EQ(parseError("median 5 mode wrap mode zero"), "stage 1 (median): mode is given twice");
  EXPECT_EQ(parseError("butter 4,0.2 zero-phase=maybe"),
            "stage 1 (butter): zero-phase must be on or off (a flag), got \"maybe\"");
  EXPECT_EQ(parseError("savgol"), "stage 1 (savgol): needs its window (W,ORDER[,DERIV])");
  EXPECT_EQ(parseError("savgol 7,2 mode sideways").rfind("stage 1 (savgol): mode must be one of interp, zero", 0), 0u);
  EXPECT_EQ(parseError("median 5;; mean 3"), "stage 2 is empty (two ';' in a row)");
  EXPECT_EQ(parseError("  "), "the chain is empty: write stages such as \"median 5; mean 3\"");
  EXPECT_EQ(parseError("taps \"unclosed"), "a quote (\") is not closed: \"taps \\\"unclosed\"");
  // A long word is cut in the message.
  EXPECT_EQ(parseError("median 5 " + std::string(1000, 'x')),
            "stage 1 (median): \"" + std::string(40, 'x') + "...\" is not one of its parameters (mode)");
}

}  // namespace
}  // namespace siglab

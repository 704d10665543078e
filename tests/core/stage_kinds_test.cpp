// Every registered stage kind, through its description only: a new kind is tested here without
// new test code.
#include "siglab/stage_registry.hpp"

#include <gtest/gtest.h>

#include "siglab/errors.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <set>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// The kind's example, complete.
StageParameters sampleValues(const StageKind& kind) {
  return completeParameters(kind, kind.parseValue(kind.exampleValue()));
}

TEST(StageKinds, EachKindIsFoundByItsNameAndItsOptionAndListed) {
  ASSERT_FALSE(stageKinds().empty());
  std::set<std::string_view> names;
  for (const StageKind* kind : stageKinds()) {
    EXPECT_TRUE(names.insert(kind->name()).second) << kind->name();
    EXPECT_EQ(findStageKind(kind->name()), kind);
    EXPECT_EQ(findStageKind(kind->optionName()), kind);
    EXPECT_NE(stageKindNames().find(kind->name()), std::string::npos);
    EXPECT_FALSE(kind->summary().empty());
    EXPECT_FALSE(kind->valueSyntax().empty());
    EXPECT_NO_THROW(kind->check(completeParameters(*kind, kind->parseValue(kind->exampleValue()))));
  }
  EXPECT_EQ(findStageKind("no-such-kind"), nullptr);
}

TEST(StageKinds, EachParameterIsDescribedAndItsDefaultReadsBackInRange) {
  for (const StageKind* kind : stageKinds()) {
    std::set<std::string> names;
    for (const ParameterInfo& info : kind->parameters()) {
      SCOPED_TRACE(std::string(kind->name()) + " " + info.name);
      EXPECT_TRUE(names.insert(info.name).second);
      EXPECT_FALSE(info.help.empty());
      if (info.type == ParameterType::Choice) {
        EXPECT_FALSE(info.choices.empty());
      }
      if (info.type == ParameterType::Whole || info.type == ParameterType::Number) {
        EXPECT_LE(info.min, info.max);
      }
      if (info.defaultValue) {
        const ParameterValue value = parameterFromText(info, *info.defaultValue);
        EXPECT_EQ(parameterText(value), *info.defaultValue);
        StageParameters withDefault = sampleValues(*kind);
        withDefault[info.name] = value;
        EXPECT_NO_THROW(completeParameters(*kind, withDefault));
      }
    }
  }
}

TEST(StageKinds, EachKindsValueReadsBackToItsParameters) {
  for (const StageKind* kind : stageKinds()) {
    const StageParameters values = sampleValues(*kind);
    const std::string text = kind->formatValue(values);
    SCOPED_TRACE(std::string(kind->name()) + " " + text);
    const StageParameters read = completeParameters(*kind, kind->parseValue(text));
    for (const ParameterInfo& info : kind->parameters()) {
      if (info.inValue) {
        EXPECT_EQ(read.at(info.name), values.at(info.name)) << info.name;
      }
    }
    EXPECT_EQ(kind->formatValue(read), text);
  }
}

TEST(StageKinds, CompletingRefusesUnknownMistypedAndMissingParametersByName) {
  for (const StageKind* kind : stageKinds()) {
    SCOPED_TRACE(std::string(kind->name()));
    StageParameters values = sampleValues(*kind);
    values["no-such-parameter"] = true;
    try {
      completeParameters(*kind, values);
      FAIL() << "an unknown parameter was taken";
    } catch (const StageError& e) {
      EXPECT_NE(std::string(e.what()).find("unknown parameter \"no-such-parameter\""), std::string::npos) << e.what();
    }
    for (const ParameterInfo& info : kind->parameters()) {
      StageParameters mistyped = sampleValues(*kind);
      mistyped[info.name] = info.type == ParameterType::Flag ? ParameterValue(std::string("yes")) : ParameterValue(true);
      try {
        completeParameters(*kind, mistyped);
        ADD_FAILURE() << info.name << " took a value of the wrong type";
      } catch (const StageError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(info.name + " must be", 0), 0u) << e.what();
      }
      if (!info.defaultValue && !info.optional && info.type != ParameterType::Flag) {
        StageParameters missing = sampleValues(*kind);
        missing.erase(info.name);
        EXPECT_THROW(completeParameters(*kind, missing), StageError) << info.name;
      }
    }
  }
}

TEST(StageKinds, ParameterTextIsTheShortestThatReadsBack) {
  EXPECT_EQ(parameterText(ParameterValue(0.1)), "0.1");
  EXPECT_EQ(parameterText(ParameterValue(std::int64_t{5})), "5");
  EXPECT_EQ(parameterText(ParameterValue(true)), "");
  EXPECT_EQ(parameterText(ParameterValue(1e300)), "1e+300");
  ParameterInfo number;
  number.name = "cutoff";
  number.type = ParameterType::Number;
  number.max = INFINITY;
  EXPECT_THROW(parameterFromText(number, "nan"), StageError);
  EXPECT_THROW(parameterFromText(number, "0.1x"), StageError);
  EXPECT_EQ(std::get<double>(parameterFromText(number, "0.30000000000000004")), 0.30000000000000004);
}


// Each kind's example bound to signals of awkward lengths (its file parameters pointing at a
// file of taps) runs to an output of the signal's length (its rate change's count for a rate
// change), or is refused with a StageError.
TEST(StageKinds, EachKindsExampleRunsOrIsRefusedInWordsOnAwkwardLengths) {
  test::TempDir dir;
  test::writeFile(dir.file("taps.txt"), "1\n2\n1\n");
  std::mt19937_64 rng(test::freshSeed());
  const BackendList engines = [] {
    BackendList list;
    list.push_back(std::make_unique<CpuSerialBackend>());
    list.push_back(std::make_unique<CpuParallelBackend>());
    return list;
  }();
  for (const StageKind* kind : stageKinds()) {
    if (kind->endsChain()) continue;  // an analysis writes a file, not samples: analysis_stages_test.cpp
    StageParameters values = completeParameters(*kind, kind->parseValue(kind->exampleValue()));
    for (const ParameterInfo& info : kind->parameters()) {
      if (info.type == ParameterType::Text) values[info.name] = dir.file("taps.txt");
    }
    for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{15}, std::size_t{1001}}) {
      SCOPED_TRACE(std::string(kind->name()) + " on " + std::to_string(n));
      const std::vector<double> x = test::randomSignal(n, rng);
      StageContext context;
      context.samples = n;
      std::unique_ptr<BoundStage> stage;
      try {
        stage = kind->bind(values, context);
      } catch (const StageError& e) {
        // Too short for it, or (the taps read as a, 1 2 1: poles at -1) an unstable filter.
        const std::string why = e.what();
        EXPECT_TRUE(why.find("samples") != std::string::npos || why.find("unstable") != std::string::npos) << why;
        continue;
      } catch (const InputError& e) {  // a file of another format (sections) refuses the taps, naming the file
        EXPECT_NE(std::string(e.what()).find("taps.txt"), std::string::npos) << e.what();
        continue;
      }
      const AppliedJob applied = stage->apply(engines, x, {});
      EXPECT_EQ(applied.result.output.size(), stage->outputSamples(n));
      EXPECT_TRUE(applied.result.verification.passed());
    }
  }
}

}  // namespace
}  // namespace siglab

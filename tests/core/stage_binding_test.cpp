// Binding each kind to a signal: what it builds, and what it refuses, naming the parameter.
#include <gtest/gtest.h>

#include "siglab/filter_kinds.hpp"
#include "siglab/stage_registry.hpp"

namespace siglab {
namespace {

StageContext ofLength(std::uint64_t samples, std::optional<double> rate = std::nullopt) {
  StageContext context;
  context.samples = samples;
  context.sampleRate = rate;
  return context;
}

std::unique_ptr<BoundStage> bound(std::string_view kind, std::string_view value, StageContext context,
                                  StageParameters more = {}) {
  const StageKind* found = findStageKind(kind);
  if (!found) throw std::logic_error("no kind " + std::string(kind));
  StageParameters values = found->parseValue(value);
  values.merge(more);
  values = completeParameters(*found, values);
  found->check(values);
  return found->bind(values, context);
}

std::string bindError(std::string_view kind, std::string_view value, StageContext context, StageParameters more = {}) {
  try {
    bound(kind, value, context, std::move(more));
  } catch (const StageError& e) {
    return e.what();
  }
  return "(bound)";
}

TEST(StageBinding, MeanCropsToTheSignalAndSaysSoAndRefusesAnEvenWindow) {
  const auto mean = bound("window", "101", ofLength(10));
  EXPECT_EQ(mean->filterSpec()->window(), 19u);
  EXPECT_NE(mean->note().find("cropped to the 19"), std::string::npos) << mean->note();
  EXPECT_EQ(bound("mean", "5", {})->filterSpec()->window(), 5u);
  EXPECT_EQ(bindError("mean", "4", {}), "W must be odd, got 4");
  EXPECT_EQ(bindError("mean", "x", {}), "W must be a whole number from 1 to 4611686018427387903, got \"x\"");
  EXPECT_EQ(bindError("mean", "99999999", ofLength(3), {{"mode", std::string("reflect")}}).rfind("W 99999999 is too long for 3 samples", 0), 0u)
      << bindError("mean", "99999999", ofLength(3), {{"mode", std::string("reflect")}});
  EXPECT_NE(bindError("mean", "2000001", {}).find("known length"), std::string::npos);
}

}  // namespace
}  // namespace siglab

#include <gtest/gtest.h>

#include "siglab/ladder.hpp"

namespace siglab {
namespace {

LadderRung rung(const char* name, double ms, RungKind kind = RungKind::Rung, double work = 1e9) {
  LadderRung r;
  r.name = name;
  r.kind = kind;
  r.work = work;
  r.time.medianMs = ms;
  return r;
}

TEST(Ladder, RatesAndSpeedupsComeFromWorkAndMedianTime) {
  Ladder ladder;
  ladder.rungs = {rung("cpu", 1000.0), rung("slow", 100.0), rung("fast", 20.0), rung("copy", 10.0, RungKind::Yardstick),
                  rung("squares", 40.0, RungKind::Extra)};
  computeLadderMetrics(ladder);
  EXPECT_DOUBLE_EQ(ladder.rungs[0].rate, 1.0);  // 1e9 units in one second
  EXPECT_DOUBLE_EQ(ladder.rungs[2].rate, 50.0);
  EXPECT_EQ(ladder.rungs[0].stepSpeedup, 0.0);  // no previous rung
  EXPECT_DOUBLE_EQ(ladder.rungs[0].totalSpeedup, 1.0);
  EXPECT_DOUBLE_EQ(ladder.rungs[1].stepSpeedup, 10.0);
  EXPECT_DOUBLE_EQ(ladder.rungs[2].stepSpeedup, 5.0);
  EXPECT_DOUBLE_EQ(ladder.rungs[2].totalSpeedup, 50.0);
  EXPECT_DOUBLE_EQ(ladder.rungs[2].ofYardstick, 0.5);
  EXPECT_DOUBLE_EQ(ladder.rungs[3].ofYardstick, 1.0);
  EXPECT_EQ(ladder.rungs[3].stepSpeedup, 0.0);  // the yardstick is not a step of the ladder
  EXPECT_EQ(ladder.rungs[4].totalSpeedup, 0.0);
  EXPECT_DOUBLE_EQ(ladder.rungs[4].ofYardstick, 0.25);
  EXPECT_EQ(fastestRung(ladder)->name, "fast");
  EXPECT_EQ(yardstickOf(ladder)->name, "copy");
}

TEST(Ladder, ARungThatTimedPartOfTheProblemComparesByRate) {
  Ladder ladder;
  ladder.rungs = {rung("band", 10.0, RungKind::Rung, 1e8), rung("whole", 10.0)};  // a tenth of the work, same time
  computeLadderMetrics(ladder);
  EXPECT_DOUBLE_EQ(ladder.rungs[1].stepSpeedup, 10.0);
}

TEST(Ladder, RungsThatDidNotRunAreSkipped) {
  Ladder ladder;
  ladder.rungs = {rung("cpu", 100.0), rung("gpu", 1.0), rung("next", 0.5), rung("cub", 1.0, RungKind::Yardstick)};
  ladder.rungs[1].problem = "no GPU";
  ladder.rungs[3].problem = "no GPU";
  ladder.rungs[1].correct = false;  // not checked: it did not run
  computeLadderMetrics(ladder);
  EXPECT_EQ(ladder.rungs[1].rate, 0.0);
  EXPECT_DOUBLE_EQ(ladder.rungs[2].stepSpeedup, 200.0);  // against cpu, the previous rung that ran
  EXPECT_EQ(ladder.rungs[2].ofYardstick, 0.0);
  EXPECT_EQ(yardstickOf(ladder), nullptr);
  EXPECT_TRUE(allCorrect(ladder));
  ladder.rungs[2].correct = false;
  EXPECT_FALSE(allCorrect(ladder));
  EXPECT_EQ(findRung(ladder, "next"), &ladder.rungs[2]);
  EXPECT_EQ(findRung(ladder, "absent"), nullptr);
}

TEST(Ladder, RatiosKeepTwoSignificantDigitsWhenSmall) {
  EXPECT_EQ(ratioText(0.0), "");
  EXPECT_EQ(ratioText(12.345), "12.35x");
  EXPECT_EQ(ratioText(158.4), "158x");
  EXPECT_EQ(ratioText(0.0058123), "0.0058x");
}

TEST(Ladder, PerSecondIsZeroWithoutTime) {
  EXPECT_EQ(perSecond(1e9, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(perSecond(2e9, 500.0), 4.0);
}

}  // namespace
}  // namespace siglab

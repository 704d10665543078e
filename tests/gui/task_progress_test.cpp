// Issue 29 item 6: the status bar says how far a task is and about how long it has left.
#include <QLabel>

#include <gtest/gtest.h>

#include "task_status.hpp"

namespace siglab {
namespace {

TEST(TaskProgress, TheStatusBarShowsThePercentageDone) {
  gui::TaskStatus status;
  status.begin("Loading big.txt", std::make_shared<std::atomic<bool>>(false));
  status.setProgress(250);
  auto* label = status.findChild<QLabel*>();
  ASSERT_TRUE(label);
  EXPECT_TRUE(label->text().contains("Loading big.txt")) << label->text().toStdString();
  EXPECT_TRUE(label->text().contains("25%")) << label->text().toStdString();
  status.cancel();
  EXPECT_TRUE(label->text().contains("cancelling")) << label->text().toStdString();
}

TEST(TaskProgress, TheEstimateFollowsThePaceSoFar) {
  EXPECT_EQ(gui::remainingEstimate(100, 500), "") << "too soon to tell";
  EXPECT_EQ(gui::remainingEstimate(4000, 0), "") << "no progress yet";
  EXPECT_EQ(gui::remainingEstimate(4000, 500), "about 4 s left");
  EXPECT_EQ(gui::remainingEstimate(1000, 900), "less than a second left");
  EXPECT_EQ(gui::remainingEstimate(60'000, 250), "about 3 min left");
}

}  // namespace
}  // namespace siglab

// Issue 29 item 9: a request made while a task runs replaces it (the running one stops and its
// result is never shown) instead of being dropped.
#include <QSettings>
#include <QUndoStack>

#include "gui_test_support.hpp"
#include "siglab/pipeline.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

class RequestReplacesTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
  static void openSample(MainWindow& window) {
    window.openFile(SIGLAB_SAMPLE_PATH);
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  }
};

TEST_F(RequestReplacesTest, ApplyDuringACompareReplacesTheCompare) {
  QSettings().setValue("filter/repeat", 1000);  // a Compare that is still running when Apply comes
  MainWindow window;
  openSample(window);
  window.runEngines();
  ASSERT_TRUE(window.busy());
  window.applyFilter();
  EXPECT_TRUE(window.busy()) << "the Apply runs";
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_EQ(window.chainSteps().size(), 1u) << "the Apply was dropped while the Compare ran";
  EXPECT_FALSE(window.comparison()) << "the replaced Compare's result is never shown";
  EXPECT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
}

TEST_F(RequestReplacesTest, UndoDuringAnApplyDropsTheApplysResult) {
  MainWindow window;
  openSample(window);
  window.applyFilter();
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_EQ(window.chainSteps().size(), 1u);
  window.applyFilter();
  ASSERT_TRUE(window.busy());
  window.undoStack()->undo();
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_TRUE(window.chainSteps().empty()) << "the Apply started before the Undo came back on top of it";
}

}  // namespace
}  // namespace siglab

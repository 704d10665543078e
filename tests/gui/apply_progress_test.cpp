// Apply of a median shows the engine's progress in the status bar while it runs, and Esc stops it
// there (issue 24, item 14: the bar stood still through a whole median, and Esc waited for it).
#include <QAction>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>

#include "gui_test_support.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/text_format.hpp"
#include "task_status.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

QAction* escapeAction(const MainWindow& window) {
  for (QAction* action : window.findChildren<QAction*>()) {
    if (action->shortcut() == QKeySequence(Qt::Key_Escape)) return action;
  }
  return nullptr;
}

TEST(ApplyProgress, AMediansApplyShowsItsProgressAndEscStopsIt) {
  QSettings().clear();
  test::TempDir dir;
  GenerateOptions options;
  options.count = 100'000;
  writeTextSignal(dir.file("signal.txt"), generateSignal(options));
  // cpu-serial selects 2001 samples per output: about a second of work, reported every 524 outputs.
  QSettings().setValue("filter/stage", "median 2001");
  QSettings().setValue("filter/applyEngine", "cpu-serial");
  MainWindow window;
  window.openFile(QString::fromStdString(dir.file("signal.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  auto* bar = window.findChild<gui::TaskStatus*>()->findChild<QProgressBar*>();
  ASSERT_TRUE(bar);
  QAction* escape = escapeAction(window);
  ASSERT_TRUE(escape);

  window.applyFilter();
  ASSERT_TRUE(window.busy()) << window.lastError().toStdString();
  // Inside the engine's run: above 0, below the 90% where the engine's share of the bar ends.
  bool moved = false;
  while (window.busy() && !moved) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    moved = bar->value() > 0 && bar->value() < 900;
  }
  EXPECT_TRUE(moved) << "the status bar showed no progress during the median's run (last value " << bar->value() << ")";
  escape->trigger();
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(window.filtered()) << "Esc stopped the run: nothing is shown";
  EXPECT_TRUE(window.lastError().isEmpty()) << "a cancel is not an error";
  EXPECT_EQ(window.statusBar()->currentMessage(), "Apply cancelled");
}

}  // namespace
}  // namespace siglab

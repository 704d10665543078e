// Issue 29 item 1: the signal in the centre with at least 60% of the window at 1600x1000 and at
// 1366x768, the other views docks that close, come back and are remembered, the sample rate in
// reach (not in a toolbar's overflow), and x tick labels that never run together.
#include <qcustomplot.h>

#include <QDockWidget>
#include <QFontMetrics>
#include <QMenuBar>
#include <QSettings>
#include <QToolBar>
#include <QToolButton>

#include <filesystem>
#include <fstream>

#include "gui_test_support.hpp"
#include "chain_view.hpp"
#include "lab_view.hpp"
#include "sample_rate_field.hpp"
#include "signal_plot.hpp"
#include "spectrum_view.hpp"
#include "timing_view.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

class DesktopLayoutTest : public ::testing::TestWithParam<QSize> {
 protected:
  void SetUp() override { QSettings().clear(); }
};

double plotShare(const MainWindow& window) {
  const QWidget* plot = window.signalPlot();
  return static_cast<double>(plot->width()) * plot->height() / (static_cast<double>(window.width()) * window.height());
}

void showAt(MainWindow& window, QSize size) {
  window.resize(size);
  window.show();
  QCoreApplication::processEvents();
}

TEST_P(DesktopLayoutTest, TheSignalTakesAtLeast60PercentAndTheRateFieldIsInReach) {
  MainWindow window;
  window.openFile(SIGLAB_SAMPLE_PATH);
  ASSERT_TRUE(test::waitForTask(window));
  showAt(window, GetParam());
  ASSERT_EQ(window.size(), GetParam());
  EXPECT_GE(plotShare(window), 0.60) << "the plot is " << window.signalPlot()->width() << "x"
                                     << window.signalPlot()->height();
  EXPECT_TRUE(window.sampleRateField()->isVisible()) << "the sample rate is hidden";
  for (QToolBar* bar : window.findChildren<QToolBar*>()) {
    auto* overflow = bar->findChild<QToolButton*>("qt_toolbar_ext_button");
    EXPECT_TRUE(!overflow || !overflow->isVisible()) << bar->windowTitle().toStdString() << " overflows";
    EXPECT_FALSE(bar->isAncestorOf(window.sampleRateField())) << "a toolbar field may fall into its overflow";
  }
}

INSTANTIATE_TEST_SUITE_P(ScreenSizes, DesktopLayoutTest, ::testing::Values(QSize(1600, 1000), QSize(1366, 768)));

QDockWidget* dockOf(const MainWindow& window, QWidget* view) {
  for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
    if (dock->widget() == view) return dock;
  }
  return nullptr;
}

TEST(DesktopDocks, AClosedViewStaysClosedNextTimeAndComesBackFromTheViewMenu) {
  QSettings().clear();
  {
    MainWindow window;
    showAt(window, QSize(1366, 768));
    for (QWidget* view : std::initializer_list<QWidget*>{window.timingView(), window.statisticsPanel(),
                                                         window.spectrumView(), window.chainView(), window.labView()}) {
      ASSERT_TRUE(dockOf(window, view)) << "a view that is not a dock";
    }
    dockOf(window, window.timingView())->close();
    window.close();  // remembers the layout
  }
  MainWindow window;
  showAt(window, QSize(1366, 768));
  QDockWidget* timings = dockOf(window, window.timingView());
  EXPECT_FALSE(timings->isVisible()) << "the closed view came back: the layout was not remembered";
  QAction* restore = nullptr;
  for (QAction* action : window.menuBar()->findChildren<QAction*>()) {
    if (action->text().contains("Restore the")) restore = action;
  }
  ASSERT_TRUE(restore);
  restore->trigger();
  window.showView(window.timingView());
  QCoreApplication::processEvents();
  EXPECT_TRUE(timings->isVisible());
  EXPECT_GE(plotShare(window), 0.60);
}

// The x axis's tick labels at large indices, each box apart from the next (none drawn over another).
TEST(DesktopTicks, TickLabelsAtLargeIndicesNeverOverlap) {
  test::TempDir dir;
  const std::string path = dir.file("sparse.raw");
  { std::ofstream(path, std::ios::binary); }
  std::filesystem::resize_file(path, 100'000'000ull * sizeof(double));  // a sparse file: nothing written
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  auto preview = std::make_shared<const gui::LoadedSignal>(
      "sparse", std::shared_ptr<const MappedSignal>(MappedSignal::open(path, raw, dir.file("cache"))));
  for (const int width : {360, 480, 700, 1100}) {
    gui::SignalPlot plot;
    plot.resize(width, 300);
    plot.show();
    plot.setOriginal(preview);
    plot.setVisibleRange(97'000'000, 97'600'000);
    plot.plot()->replot();
    plot.plot()->replot();  // the second with the axis's width known
    QCPAxis* x = plot.plot()->axisRect(0)->axis(QCPAxis::atBottom);
    const QVector<double> ticks = x->tickVector();
    const QVector<QString> labels = x->tickVectorLabels();
    ASSERT_GE(ticks.size(), 2) << "at " << width << " pixels";
    const QFontMetrics metrics(x->tickLabelFont());
    for (qsizetype i = 1; i < ticks.size(); ++i) {
      const double gap = x->coordToPixel(ticks[i]) - x->coordToPixel(ticks[i - 1]);
      const double half = (metrics.horizontalAdvance(labels[i]) + metrics.horizontalAdvance(labels[i - 1])) / 2.0;
      EXPECT_GT(gap, half) << labels[i - 1].toStdString() << " and " << labels[i].toStdString() << " run together at "
                           << width << " pixels";
    }
  }
}

}  // namespace
}  // namespace siglab

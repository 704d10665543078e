#include <qcustomplot.h>

#include <QLocale>
#include <QSettings>
#include <QTableWidget>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <memory>

#include "gui_test_support.hpp"
#include "signal_plot.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/io/text_format.hpp"
#include "statistics_panel.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::StatisticsPanel;

enum Row { kCount, kMean, kRms, kStddev, kMin, kMax };
enum Column { kWhole, kVisible };

QString cell(const StatisticsPanel& panel, int row, int column) { return panel.table()->item(row, column)->text(); }
QString visibleHeader(const StatisticsPanel& panel) { return panel.table()->horizontalHeaderItem(kVisible)->text(); }
QString integer(std::uint64_t n) { return QLocale().toString(static_cast<qulonglong>(n)); }

gui::SignalPtr makeSignal(std::vector<double> samples) {
  return std::make_shared<const gui::LoadedSignal>("test", std::move(samples));
}

// `got` (statisticsParallel, what the panel shows) against the serial reference on the same
// samples: count, extremes and their indices exactly; the sums within the parallel pass's
// documented bounds (statistics.hpp), the standard deviation within its variance's.
void expectMatchesReference(const Statistics& got, std::span<const double> signal, SampleRange range) {
  const Statistics want = statisticsSerial(signal, range);
  ASSERT_EQ(got.count, want.count);
  ASSERT_GT(want.count, 0u);
  EXPECT_EQ(got.min, want.min);
  EXPECT_EQ(got.minIndex, want.minIndex);
  EXPECT_EQ(got.max, want.max);
  EXPECT_EQ(got.maxIndex, want.maxIndex);
  double sumAbs = 0.0, maxAbs = 0.0;
  for (double x : selectRange(signal, range)) sumAbs += std::abs(x), maxAbs = std::max(maxAbs, std::abs(x));
  const auto n = static_cast<double>(want.count);
  const double u = 0x1p-53;
  const double sumsqRelative = 8 * kStatisticsSumBound * u * (want.sumsq + n * maxAbs * maxAbs) / want.sumsq;
  EXPECT_NEAR(got.mean, want.mean, kStatisticsSumBound * u * (sumAbs + n * maxAbs) / n + 4 * u * std::abs(want.mean));
  EXPECT_NEAR(got.rms, want.rms, want.rms * (sumsqRelative + 4 * u));
  EXPECT_NEAR(got.stddev, want.stddev, want.stddev * kStatisticsVarianceRelativeBound);
}

TEST(StatisticsPanel, ShowsDashesWithoutASignal) {
  StatisticsPanel panel;
  for (int row = kCount; row <= kMax; ++row) {
    EXPECT_EQ(cell(panel, row, kWhole), "—");
    EXPECT_EQ(cell(panel, row, kVisible), "—");
  }
  EXPECT_EQ(visibleHeader(panel), "Visible range");
}

TEST(StatisticsPanel, SummarisesTheWholeSignalAndTheClampedVisibleRange) {
  const std::vector<double> samples{3, -1, 4, 1, -5, 9, 2, 6};
  StatisticsPanel panel;
  panel.setOriginal(makeSignal(samples));
  EXPECT_EQ(panel.whole().count, 8u);
  EXPECT_EQ(panel.whole().mean, 19.0 / 8);
  EXPECT_EQ(cell(panel, kCount, kWhole), integer(8));
  EXPECT_EQ(cell(panel, kMean, kWhole), QLocale().toString(19.0 / 8, 'g', 6));
  EXPECT_EQ(cell(panel, kMin, kWhole), QLocale().toString(-5.0) + " at 4");
  EXPECT_EQ(cell(panel, kMax, kWhole), QLocale().toString(9.0) + " at 5");
  EXPECT_EQ(visibleHeader(panel), "Visible range\n(samples 0–7)") << "a new signal starts with all of it visible";

  panel.setVisibleRange(5, 100);
  EXPECT_TRUE(panel.refreshPending()) << "the visible range waits for the timer";
  ASSERT_TRUE(test::waitForVisibleStatistics(panel));
  EXPECT_EQ(panel.visibleRange().begin, 5u);
  EXPECT_EQ(panel.visibleRange().end, 8u);
  EXPECT_EQ(panel.visible().count, 3u);
  EXPECT_EQ(panel.visible().minIndex, 6u) << "indices count from the start of the signal";
  EXPECT_EQ(cell(panel, kMax, kVisible), QLocale().toString(9.0) + " at 5");
  EXPECT_EQ(visibleHeader(panel), "Visible range\n(samples 5–7)");

  panel.setVisibleRange(100, 200);
  panel.refreshVisible();
  EXPECT_EQ(panel.visible().count, 0u);
  EXPECT_EQ(cell(panel, kCount, kVisible), "0");
  for (int row = kMean; row <= kMax; ++row) EXPECT_EQ(cell(panel, row, kVisible), "—");
  EXPECT_EQ(visibleHeader(panel), "Visible range\n(no samples)");
  EXPECT_EQ(cell(panel, kCount, kWhole), integer(8)) << "the whole signal's stay";
}

TEST(StatisticsPanel, ADragIsSummarisedOnItsLatestRange) {
  std::vector<double> samples(1000);
  for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = std::sin(0.01 * static_cast<double>(i));
  StatisticsPanel panel;
  panel.setOriginal(makeSignal(samples));
  for (std::size_t first = 0; first < 100; first += 10) panel.setVisibleRange(first, first + 500);
  EXPECT_EQ(panel.visibleRange().end, 1000u) << "nothing recomputed yet";
  ASSERT_TRUE(test::waitForVisibleStatistics(panel));
  EXPECT_EQ(panel.visibleRange().begin, 90u);
  EXPECT_EQ(panel.visibleRange().end, 590u);
  expectMatchesReference(panel.visible(), samples, {90, 590});
}

// A mapped file's visible range is read from disk: summed once the view rests, each new range of a
// zoom starting the wait again (its steps' tiles and points not slowed by it), then on the latest range.
TEST(StatisticsPanel, AMappedFilesVisibleRangeIsSummedOnceTheViewRests) {
  test::TempDir dir;
  std::vector<double> samples(5000);
  for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = std::sin(0.003 * static_cast<double>(i)) + 1e-4 * static_cast<double>(i);
  writeSignal(dir.file("in.raw"), samples, WriteOptions{FileFormat::raw});
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  StatisticsPanel panel;
  panel.setOriginal(std::make_shared<const gui::LoadedSignal>(
      "in.raw", std::shared_ptr<const MappedSignal>(MappedSignal::open(dir.file("in.raw"), raw, dir.file("cache")))));
  const auto* rest = panel.findChild<QTimer*>("visibleRefreshTimer");
  ASSERT_NE(rest, nullptr);
  for (std::size_t first = 0; first < 100; first += 10) {
    panel.setVisibleRange(first, first + 3000);
    EXPECT_GT(rest->remainingTime(), StatisticsPanel::kVisibleRefreshMs) << "a zoom step's wait, not the rest's";
  }
  ASSERT_TRUE(test::waitForVisibleStatistics(panel));
  EXPECT_EQ(panel.visibleRange().begin, 90u);
  EXPECT_EQ(panel.visibleRange().end, 3090u);
  expectMatchesReference(panel.visible(), samples, {90, 3090});
}

// Long ranges are summed off the GUI thread; ranges that arrive meanwhile are not lost, and the
// panel ends on the latest one. Threshold 0 sends every range to the background here.
TEST(StatisticsPanel, LongRangesAreSummedInTheBackgroundAndEndOnTheLatestRange) {
  std::vector<double> samples(200003);
  for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = std::cos(0.001 * static_cast<double>(i)) + 1e-3 * static_cast<double>(i);
  StatisticsPanel panel;
  panel.setBackgroundFrom(0);
  panel.setOriginal(makeSignal(samples));
  panel.setVisibleRange(10, 150000);
  panel.refreshVisible();
  EXPECT_TRUE(panel.refreshPending()) << "the sum runs in the background";
  panel.setVisibleRange(777, 199999);  // while it runs
  panel.refreshVisible();
  ASSERT_TRUE(test::waitForVisibleStatistics(panel));
  EXPECT_EQ(panel.visibleRange().begin, 777u);
  EXPECT_EQ(panel.visibleRange().end, 199999u);
  expectMatchesReference(panel.visible(), samples, {777, 199999});
  EXPECT_EQ(visibleHeader(panel), "Visible range\n(samples " + integer(777) + "–" + integer(199998) + ")");
}

TEST(StatisticsPanel, SwitchesToTheFilteredSignalWhileThereIsOne) {
  StatisticsPanel panel;
  panel.setOriginal(makeSignal({1, 2, 3, 4}));
  panel.setShowFiltered(true);
  EXPECT_FALSE(panel.showsFiltered()) << "no filtered signal yet";
  panel.setFiltered(makeSignal({10, 20, 30, 40}));
  panel.setVisibleRange(1, 3);
  panel.refreshVisible();
  EXPECT_EQ(panel.whole().mean, 2.5);
  panel.setShowFiltered(true);
  EXPECT_TRUE(panel.showsFiltered());
  EXPECT_EQ(panel.whole().mean, 25.0);
  EXPECT_EQ(panel.visible().mean, 25.0);
  EXPECT_EQ(panel.visible().maxIndex, 2u);

  panel.setOriginal(makeSignal({5, 6, 7}));  // a new signal: its filtered one is gone
  EXPECT_FALSE(panel.showsFiltered());
  EXPECT_EQ(panel.whole().mean, 6.0);
  EXPECT_EQ(panel.visibleRange().end, 3u);
}

class StatisticsInTheWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();  // the default filter, whatever ran before in this process
    window_ = std::make_unique<gui::MainWindow>();
    window_->resize(1400, 800);
    window_->show();
  }
  void open(const QString& path) {
    window_->openFile(path);
    ASSERT_TRUE(test::waitForTask(*window_));
    ASSERT_TRUE(test::waitForVisibleStatistics(*window_->statisticsPanel()));
  }
  std::unique_ptr<gui::MainWindow> window_;
};

TEST_F(StatisticsInTheWindow, MatchTheReferenceForTheWholeSignalAndTheZoomedRange) {
  ASSERT_NO_FATAL_FAILURE(open(SIGLAB_SAMPLE_PATH));
  const StatisticsPanel& panel = *window_->statisticsPanel();
  const std::span<const double> samples = window_->signal()->samples();
  ASSERT_EQ(samples.size(), 10000u);
  expectMatchesReference(panel.whole(), samples, {});
  EXPECT_EQ(cell(panel, kCount, kWhole), integer(10000));
  EXPECT_EQ(cell(panel, kStddev, kWhole), QLocale().toString(panel.whole().stddev, 'g', 6));
  EXPECT_EQ(panel.visibleRange().begin, 0u);
  EXPECT_EQ(panel.visibleRange().end, 10000u);

  window_->signalPlot()->setVisibleRange(1000, 2999);
  ASSERT_TRUE(test::waitForVisibleStatistics(panel));
  EXPECT_EQ(panel.visibleRange().begin, 1000u);
  EXPECT_EQ(panel.visibleRange().end, 3000u);
  expectMatchesReference(panel.visible(), samples, {1000, 3000});
  EXPECT_EQ(visibleHeader(panel), QString("Visible range\n(samples %1–%2)").arg(integer(1000), integer(2999)));

  // Between samples: the ones whose index lies on the axis.
  window_->signalPlot()->plot()->graph(0)->keyAxis()->setRange(250.5, 780.25);
  ASSERT_TRUE(test::waitForVisibleStatistics(panel));
  EXPECT_EQ(panel.visibleRange().begin, 251u);
  EXPECT_EQ(panel.visibleRange().end, 781u);
  expectMatchesReference(panel.visible(), samples, {251, 781});

  window_->runEngines();
  ASSERT_TRUE(test::waitForTask(*window_));
  ASSERT_TRUE(window_->filtered()) << window_->lastError().toStdString();
  window_->statisticsPanel()->setShowFiltered(true);
  ASSERT_TRUE(panel.showsFiltered());
  expectMatchesReference(panel.whole(), window_->filtered()->samples(), {});
  expectMatchesReference(panel.visible(), window_->filtered()->samples(), {251, 781});
}

TEST_F(StatisticsInTheWindow, AFailedLoadKeepsThemAndANewSignalReplacesThem) {
  test::TempDir dir;
  test::writeFile(dir.file("bad.txt"), "1.0\n2.0\n0.1x\n");
  GenerateOptions options;
  options.count = 5000;
  writeTextSignal(dir.file("other.txt"), generateSignal(options));
  ASSERT_NO_FATAL_FAILURE(open(SIGLAB_SAMPLE_PATH));
  const StatisticsPanel& panel = *window_->statisticsPanel();
  window_->signalPlot()->setVisibleRange(100, 199);
  ASSERT_TRUE(test::waitForVisibleStatistics(panel));
  const Statistics whole = panel.whole();

  ASSERT_NO_FATAL_FAILURE(open(QString::fromStdString(dir.file("bad.txt"))));
  EXPECT_FALSE(window_->lastError().isEmpty());
  EXPECT_EQ(panel.whole().count, 10000u);
  EXPECT_EQ(panel.whole().mean, whole.mean);
  EXPECT_EQ(panel.visibleRange().begin, 100u);
  EXPECT_EQ(panel.visible().count, 100u);

  ASSERT_NO_FATAL_FAILURE(open(QString::fromStdString(dir.file("other.txt"))));
  EXPECT_EQ(panel.whole().count, 5000u);
  EXPECT_EQ(panel.visibleRange().begin, 0u);
  EXPECT_EQ(panel.visibleRange().end, 5000u);
  EXPECT_EQ(cell(panel, kCount, kVisible), integer(5000));
}

}  // namespace
}  // namespace siglab

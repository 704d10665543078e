// Cursors, markers and regions, the Lab's tables (issue 29, items 3, 4 and 8): the readouts after
// zoom and after the signal changes, the span's statistics against core's, markers and regions
// through CSV and the session, the spectrum's frequency cursor and the Lab's empty charts.
#include <qcustomplot.h>

#include <QAction>
#include <QCheckBox>
#include <QMouseEvent>
#include <QTableWidget>

#include <cmath>
#include <fstream>
#include <random>

#include "cursor_docks.hpp"
#include "cursor_links.hpp"
#include "cursor_readout_view.hpp"
#include "signal_session.hpp"
#include "filter_panel.hpp"
#include "gui_test_support.hpp"
#include "lab_view.hpp"
#include "ladder_view.hpp"
#include "markers_view.hpp"
#include "signal_cursors.hpp"
#include "signal_plot.hpp"
#include "siglab/spectrum.hpp"
#include "spectrum_cursor.hpp"
#include "spectrum_view.hpp"
#include "statistics_panel.hpp"
#include "timing_view.hpp"
#include "siglab/pipeline.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::SignalCursors;
using gui::SignalPlot;

std::vector<double> randomSignal(std::size_t size, double offset = 0.0) {
  std::mt19937_64 rng(test::freshSeed());
  std::normal_distribution<double> normal(offset, 1.0);
  std::vector<double> samples(size);
  for (double& x : samples) x = normal(rng);
  return samples;
}

gui::SignalPtr loaded(const std::vector<double>& samples, std::optional<double> rate = std::nullopt) {
  return std::make_shared<const gui::LoadedSignal>("test", samples, Progress{}, rate);
}

int itemsOf(const QCustomPlot* plot, const char* className) {
  int count = 0;
  for (int i = 0; i < plot->itemCount(); ++i) count += plot->item(i)->inherits(className) ? 1 : 0;
  return count;
}

void mouse(QWidget* widget, QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
  QMouseEvent event(type, at, widget->mapToGlobal(at), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                    buttons, Qt::NoModifier);
  QCoreApplication::sendEvent(widget, &event);
}

class SignalPlotFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    plot_.resize(900, 400);
    plot_.show();
    QCoreApplication::processEvents();
  }
  SignalPlot plot_;
};

TEST_F(SignalPlotFixture, TheHoverReadoutFollowsAWheelZoom) {
  const std::vector<double> samples = randomSignal(10'000);
  plot_.setOriginal(loaded(samples));
  QCoreApplication::processEvents();
  QString readout;
  QObject::connect(&plot_, &SignalPlot::cursorReadout, [&](const QString& text) { readout = text; });
  QCPAxis* x = plot_.plot()->axisRect()->axis(QCPAxis::atBottom);
  const QPointF at(x->coordToPixel(5000.0), plot_.plot()->axisRect()->center().y());
  mouse(plot_.plot(), QEvent::MouseMove, at, Qt::NoButton);
  ASSERT_TRUE(readout.contains("sample " + QLocale().toString(5000) + ":")) << readout.toStdString();
  plot_.setVisibleRange(0, 100);  // what a wheel zoom does: the mouse stays, the sample under it changes
  const auto under = static_cast<qulonglong>(std::round(x->pixelToCoord(at.x())));
  EXPECT_TRUE(readout.contains(QString("sample %1:").arg(QLocale().toString(under)))) << readout.toStdString();
}

TEST_F(SignalPlotFixture, CursorsReadTheirSamplesAfterZoomAndAfterTheSignalChanges) {
  const std::vector<double> samples = randomSignal(10'000);
  plot_.setOriginal(loaded(samples));
  plot_.setSampleRate(1000.0);
  SignalCursors cursors(&plot_);
  EXPECT_TRUE(cursors.readoutText().isEmpty()) << "hidden: nothing to read";
  cursors.setShown(true);
  cursors.setPositions(100, 300);
  const QString atA = QString::number(samples[100], 'g', 8);
  EXPECT_TRUE(cursors.readoutText().contains(atA)) << cursors.readoutText().toStdString();
  EXPECT_TRUE(cursors.readoutText().contains("B - A: 200 ms")) << cursors.readoutText().toStdString();
  EXPECT_TRUE(cursors.readoutText().contains("1 / (B - A): 5 Hz")) << cursors.readoutText().toStdString();
  EXPECT_EQ(itemsOf(plot_.plot(), "QCPItemStraightLine"), 2);

  plot_.setVisibleRange(50, 400);  // zoom
  plot_.setStacked(true);          // new lanes: the cursors are drawn in each
  EXPECT_EQ(itemsOf(plot_.plot(), "QCPItemStraightLine"), 4);
  EXPECT_EQ(cursors.a(), 100);
  EXPECT_TRUE(cursors.readoutText().contains(atA));

  std::vector<double> filtered = samples;
  for (double& x : filtered) x *= 0.5;
  plot_.setFiltered(loaded(filtered), "half");
  EXPECT_TRUE(cursors.readoutText().contains("filtered " + QString::number(filtered[100], 'g', 8)))
      << cursors.readoutText().toStdString();

  const std::vector<double> other = randomSignal(5'000, 3.0);
  plot_.setOriginal(loaded(other));
  EXPECT_TRUE(cursors.readoutText().contains(QString::number(other[100], 'g', 8))) << "the new signal's values";
  EXPECT_FALSE(cursors.readoutText().contains(atA));
  const Statistics expected = statisticsSerial(other, {100, 301});
  EXPECT_EQ(cursors.spanStatistics().count, 201u);
  EXPECT_EQ(cursors.spanStatistics().max, expected.max);
  EXPECT_NEAR(cursors.spanStatistics().mean, expected.mean, 1e-12 * std::abs(expected.mean));
}

TEST_F(SignalPlotFixture, ADraggedCursorMovesAndTheViewDoesNot) {
  plot_.setOriginal(loaded(randomSignal(10'000)));
  SignalCursors cursors(&plot_);
  cursors.setShown(true);
  cursors.setPositions(2000, 8000);
  QCPAxis* x = plot_.plot()->axisRect()->axis(QCPAxis::atBottom);
  const QCPRange before = x->range();
  const double y = plot_.plot()->axisRect()->center().y();
  mouse(plot_.plot(), QEvent::MouseButtonPress, {x->coordToPixel(2000) + 2, y}, Qt::LeftButton);
  mouse(plot_.plot(), QEvent::MouseMove, {x->coordToPixel(4000), y}, Qt::LeftButton);
  mouse(plot_.plot(), QEvent::MouseButtonRelease, {x->coordToPixel(4000), y}, Qt::NoButton);
  EXPECT_NEAR(cursors.a(), 4000, 20);
  EXPECT_EQ(cursors.b(), 8000);
  EXPECT_EQ(x->range(), before) << "the drag moved the cursor, not the view";
}

TEST_F(SignalPlotFixture, ALongSpansStatisticsComeFromAWorkerAndMatchCores) {
  const std::vector<double> samples = randomSignal(SignalCursors::kSpanOnGuiThread + 300'000, 1.0);
  plot_.setOriginal(loaded(samples));
  SignalCursors cursors(&plot_);
  cursors.setShown(true);
  cursors.setPositions(10, 20);
  cursors.setPositions(0, static_cast<double>(samples.size()));  // clamped to the last sample
  EXPECT_TRUE(cursors.spanPending());
  EXPECT_TRUE(cursors.readoutText().contains("computing")) << cursors.readoutText().toStdString();
  cursors.setPositions(5, static_cast<double>(samples.size() - 7));  // replaces the running request
  QElapsedTimer timer;
  timer.start();
  while (cursors.spanPending() && timer.elapsed() < 10'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  ASSERT_FALSE(cursors.spanPending());
  const Statistics expected = statisticsSerial(samples, {5, samples.size() - 6});
  const Statistics& got = cursors.spanStatistics();
  EXPECT_EQ(got.count, expected.count) << "the latest span's, not the earlier one's";
  EXPECT_EQ(got.min, expected.min);
  EXPECT_EQ(got.maxIndex, expected.maxIndex);
  EXPECT_NEAR(got.mean, expected.mean, 1e-12);
  EXPECT_NEAR(got.stddev, expected.stddev, 1e-10);
}

TEST(CursorsInTheWindow, MarkersAndRegionsRoundTripThroughCsvAndTheSession) {
  test::TempDir dir;
  std::vector<Marker> expected;
  {
    gui::MainWindow window;
    window.openFile(QString::fromStdString(SIGLAB_SAMPLE_PATH));
    ASSERT_TRUE(test::waitForTask(window));
    gui::MarkersView* markers = gui::CursorDocks::of(&window)->markers();
    SignalCursors* cursors = gui::CursorDocks::of(&window)->cursors();
    cursors->setShown(true);
    cursors->setPositions(1200, 900);
    markers->addMarker({250, "onset", std::nullopt});
    markers->addRegionFromCursors("burst, loud");
    expected = markers->markers();
    ASSERT_EQ(expected.size(), 2u);
    EXPECT_EQ(expected[1], (Marker{900, "burst, loud", 1200}));
    EXPECT_EQ(markers->table()->rowCount(), 2);
    EXPECT_EQ(itemsOf(window.signalPlot()->plot(), "QCPItemRect"), 1) << "the region drawn";

    EXPECT_TRUE(markers->exportCsv(QString::fromStdString(dir.file("m.csv"))).startsWith("Exported"));
    markers->table()->setCurrentCell(1, 0);
    ASSERT_TRUE(markers->measureSelected());
    EXPECT_EQ(cursors->spanStatistics().count, 301u) << "the region as the range of the statistics";
    window.saveSession(QString::fromStdString(dir.file("s.siglab")));
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
  }
  gui::MainWindow restored;
  restored.openFile(QString::fromStdString(dir.file("s.siglab")));
  ASSERT_TRUE(test::waitForTask(restored));
  EXPECT_EQ(gui::CursorDocks::of(&restored)->markers()->markers(), expected);

  gui::MarkersView* imported = gui::CursorDocks::of(&restored)->markers();
  imported->setMarkers({});
  EXPECT_TRUE(imported->importCsv(QString::fromStdString(dir.file("m.csv"))).startsWith("Imported"));
  EXPECT_EQ(imported->markers(), expected);
  std::ofstream(dir.file("bad.csv")) << "sample,label,end_sample\n1,a\nnope,b\n";
  const QString problem = imported->importCsv(QString::fromStdString(dir.file("bad.csv")));
  EXPECT_TRUE(problem.contains("bad.csv:3")) << problem.toStdString();
  EXPECT_EQ(imported->markers(), expected) << "nothing added from a bad file";
}

TEST(CursorsInTheWindow, ARegionIsTheRangeOfTheStatisticsAndOfCompare) {
  gui::MainWindow window;
  window.openFile(QString::fromStdString(SIGLAB_SAMPLE_PATH));
  ASSERT_TRUE(test::waitForTask(window));
  gui::MarkersView* markers = gui::CursorDocks::of(&window)->markers();
  markers->setMarkers({{250, "onset", std::nullopt}, {900, "burst", 1199}});
  EXPECT_FALSE(markers->useSelected(gui::RegionUse::statistics)) << "no row chosen";
  markers->table()->setCurrentCell(1, 0);
  const QList<QAction*> menu = markers->table()->actions();
  ASSERT_EQ(menu.size(), 2) << "the region's context menu";
  menu[0]->trigger();  // Statistics of this region
  while (window.statisticsPanel()->regionPending()) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  const SampleRange range = rangeOf(markers->markers()[1], window.signal()->size());
  ASSERT_TRUE(window.statisticsPanel()->regionRange());
  EXPECT_EQ(window.statisticsPanel()->regionRange()->begin, range.begin);
  EXPECT_EQ(window.statisticsPanel()->regionRange()->end, range.end);
  const Statistics expected = window.signal()->statisticsOf(range);
  EXPECT_EQ(window.statisticsPanel()->regionStatistics().count, 300u);
  EXPECT_EQ(window.statisticsPanel()->regionStatistics().mean, expected.mean);
  EXPECT_TRUE(window.statisticsPanel()->table()->horizontalHeaderItem(2)->text().startsWith("burst"));

  window.filterPanel()->setStage(parseChain("median 5").stages.front());
  menu[1]->trigger();  // Compare engines on this region
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.comparison()) << window.lastError().toStdString();
  EXPECT_EQ(window.comparison()->samples, 300u) << "the region's samples only";
  EXPECT_TRUE(window.timingView()->summary().contains("burst")) << window.timingView()->summary().toStdString();
}

// The cursors are the session's: a second time view (as the spectrogram will be) linked to it shows
// the same A and B, a move in either moves both, and the frequency cursor is shared the same way.
TEST(CursorsInTheWindow, EveryTimeViewAndFrequencyViewFollowsTheSessionsCursors) {
  gui::MainWindow window;
  window.openFile(QString::fromStdString(SIGLAB_SAMPLE_PATH));
  ASSERT_TRUE(test::waitForTask(window));
  gui::SignalSession* session = window.session();
  std::vector<gui::TimeCursors> heard;  // what a subscribing time view hears
  QObject::connect(session, &gui::SignalSession::timeCursorsChanged, [&](const gui::TimeCursors& c) { heard.push_back(c); });
  SignalCursors* cursors = gui::CursorDocks::of(&window)->cursors();
  auto* other = new SignalPlot;
  std::unique_ptr<SignalPlot> owner(other);
  other->setOriginal(window.signal());
  auto* otherCursors = new SignalCursors(other);
  gui::linkCursors(session, otherCursors, nullptr);

  cursors->setShown(true);
  cursors->setPositions(100, 300);
  ASSERT_FALSE(heard.empty());
  EXPECT_EQ(heard.back(), (gui::TimeCursors{true, 100, 300}));
  EXPECT_TRUE(otherCursors->shown());
  EXPECT_EQ(otherCursors->a(), 100);
  EXPECT_EQ(otherCursors->b(), 300);

  session->setTimeCursors({true, 400, 520});  // a drag in another view
  EXPECT_EQ(cursors->a(), 400);
  EXPECT_EQ(cursors->b(), 520);
  EXPECT_TRUE(gui::CursorDocks::of(&window)->readout()->signalText().contains("A: sample 400"))
      << gui::CursorDocks::of(&window)->readout()->signalText().toStdString();
  otherCursors->setPositions(10, 20);
  EXPECT_EQ(cursors->a(), 10);
  EXPECT_EQ(session->timeCursors(), (gui::TimeCursors{true, 10, 20}));
  session->setTimeCursors({false, 10, 20});
  EXPECT_FALSE(cursors->shown());
  EXPECT_FALSE(gui::CursorDocks::of(&window)->readout()->showCursors()->isChecked());

  gui::SpectrumCursor* frequency = gui::CursorDocks::of(&window)->spectrumCursor();
  frequency->setFrequency(0.125);
  EXPECT_EQ(session->frequencyCursor(), 0.125);
  session->setFrequencyCursor(0.25);  // a spectrogram's frequency cursor
  EXPECT_EQ(frequency->frequency(), 0.25);
}

TEST(CursorsInTheWindow, TheFrequencyCursorReadsTheSpectrumsBin) {
  gui::MainWindow window;
  window.openFile(QString::fromStdString(SIGLAB_SAMPLE_PATH));
  ASSERT_TRUE(test::waitForTask(window));
  gui::SpectrumView* spectrum = window.spectrumView();
  QElapsedTimer timer;
  timer.start();
  while (spectrum->computing() && timer.elapsed() < 10'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  const Spectrum& o = spectrum->curves().original;
  ASSERT_GT(o.frequency.size(), 10u);
  gui::SpectrumCursor* cursor = gui::CursorDocks::of(&window)->spectrumCursor();
  cursor->setFrequency(o.frequency[7] + 0.1 * (o.frequency[8] - o.frequency[7]));
  const QString expected = QString::number(powerToDecibels(o.power)[7], 'f', 2);
  EXPECT_TRUE(cursor->readoutText().contains("power " + expected + " dB")) << cursor->readoutText().toStdString();
}

TEST(LabTables, ChartsStartEmptyAndABandTimedRungSaysSo) {
  gui::LabView lab;
  gui::LadderView* view = lab.ladderView(LabExperiment::Matmul);
  EXPECT_TRUE(view->chartEmpty()) << "before a run: a line, not bare axes";
  auto ladder = std::make_shared<Ladder>();
  ladder->title = "matmul";
  ladder->rateUnit = "GFLOP/s";
  LadderRung band;
  band.name = "cpu-serial";
  band.time.medianMs = 10.0;
  band.time.minMs = 9.0;
  band.time.maxMs = 11.0;
  band.work = 1e9;
  band.timedShare = 0.1;
  band.timedPart = "a band: rows 0..99 of 1000";
  LadderRung whole;
  whole.name = "gpu-naive";
  whole.time.medianMs = whole.time.minMs = whole.time.maxMs = 2.0;
  whole.work = 1e10;
  ladder->rungs = {band, whole};
  computeLadderMetrics(*ladder);
  view->setLadder(ladder);
  EXPECT_FALSE(view->chartEmpty());
  QTableWidget* table = view->table();
  EXPECT_EQ(table->horizontalHeaderItem(1)->text(), "Times");
  EXPECT_EQ(table->item(0, 1)->text(), "a band: rows 0..99 of 1000");
  EXPECT_EQ(table->item(1, 1)->text(), "the whole problem");
  EXPECT_TRUE(table->item(0, 2)->text().startsWith("≈ 100.0000")) << "scaled to the whole problem, like the others";
  EXPECT_TRUE(table->item(1, 2)->text().startsWith("2.0000"));
}

}  // namespace
}  // namespace siglab

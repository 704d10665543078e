// Signals of several channels in the GUI (issue 25, item 5): every channel loads (WAV, raw with
// a channel count, CSV columns), shows as a lane of its own on the shared time axis, a selector
// shows all lanes or one, Apply and undo run the chain on every channel, and Export writes them.
#include <qcustomplot.h>

#include <QComboBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QUndoStack>

#include <random>

#include "cursor_docks.hpp"
#include "filter_panel.hpp"
#include "gui_dialog_support.hpp"
#include "gui_test_support.hpp"
#include "import_dialog.hpp"
#include "signal_cursors.hpp"
#include "signal_plot.hpp"
#include "timing_view.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/pipeline_run.hpp"
#include "statistics_panel.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

constexpr const char* kStage = "median 5 mode reflect";

// What the core's one run makes of kStage on one channel alone, on cpu-serial.
std::vector<double> oneChannelRun(std::span<const double> channel) {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  PipelineOptions options;
  options.engines = {"cpu-serial"};
  PipelineReport report = runPipeline(parseChain(kStage), ChannelSource{{channel}, std::nullopt, "a channel"}, MemorySink{}, engines, options);
  return {report.output.front().begin(), report.output.front().end()};
}

class ChannelLanesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    QSettings().setValue("filter/applyEngine", "cpu-serial");
    std::mt19937_64 rng(test::freshSeed());
    test::writeRandomPcm16Wav(dir_.file("stereo.wav"), 2, 3001, rng);
    ReadOptions channel;
    channel.oneChannel = true;
    left_ = test::asVector(readSignal(dir_.file("stereo.wav"), channel).samples);
    channel.channel = 2;
    right_ = test::asVector(readSignal(dir_.file("stereo.wav"), channel).samples);
    ASSERT_NE(left_, right_) << "the test needs channels that differ";
  }
  void openStereo(MainWindow& window) {
    window.openFile(QString::fromStdString(dir_.file("stereo.wav")), ReadOptions{});
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  }
  static void apply(MainWindow& window) {
    window.filterPanel()->setStage(parseChain(kStage).stages.front());
    window.applyFilter();
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.filtered()) << window.lastError().toStdString();
  }

  test::TempDir dir_;
  std::vector<double> left_;
  std::vector<double> right_;
};

TEST_F(ChannelLanesTest, AStereoWavLoadsAsTwoLanesOnOneTimeAxis) {
  MainWindow window;
  openStereo(window);
  const gui::SignalPtr signal = window.signal();
  ASSERT_EQ(signal->channelCount(), 2u);
  EXPECT_EQ(test::asVector(signal->channel(0).samples()), left_);
  EXPECT_EQ(test::asVector(signal->channel(1).samples()), right_);
  EXPECT_EQ(signal->channel(1).statistics().count, right_.size()) << "each channel has its own statistics";

  gui::SignalPlot* plot = window.signalPlot();
  EXPECT_EQ(plot->lanes(), (std::vector<std::size_t>{0, 1}));
  ASSERT_EQ(plot->plot()->axisRectCount(), 2);
  EXPECT_EQ(plot->plot()->axisRect(1)->axis(QCPAxis::atLeft)->label(), "channel 2");
  EXPECT_GT(plot->plot()->graph(2)->dataCount(), 0) << "the second lane's curve is drawn";
  auto* legend = qobject_cast<QCPLegend*>(plot->plot()->axisRect(0)->insetLayout()->elementAt(0));
  ASSERT_TRUE(legend);
  EXPECT_EQ(legend->itemCount(), 2) << "one legend, of the first lane's two curves";
  plot->plot()->axisRect(1)->axis(QCPAxis::atBottom)->setRange(200, 700);
  EXPECT_EQ(plot->plot()->axisRect(0)->axis(QCPAxis::atBottom)->range(), QCPRange(200, 700)) << "zoom and pan are linked";
  EXPECT_TRUE(plot->channelBox()->isVisibleTo(plot));
  EXPECT_TRUE(plot->readoutAt(300, 1).contains("channel 2")) << plot->readoutAt(300, 1).toStdString();
}

TEST_F(ChannelLanesTest, ApplyFiltersEveryChannelAsOneChannelRunsDoAndUndoKeepsThem) {
  MainWindow window;
  openStereo(window);
  apply(window);
  const gui::SignalPtr filtered = window.filtered();
  ASSERT_EQ(filtered->channelCount(), 2u);
  EXPECT_EQ(test::asVector(filtered->channel(0).samples()), oneChannelRun(left_));
  EXPECT_EQ(test::asVector(filtered->channel(1).samples()), oneChannelRun(right_));
  EXPECT_GT(window.signalPlot()->plot()->graph(3)->dataCount(), 0) << "the second lane's filtered curve";

  apply(window);  // the chain's second stage runs on both channels of the first's result
  EXPECT_EQ(test::asVector(window.filtered()->channel(1).samples()), oneChannelRun(oneChannelRun(right_)));
  window.undoStack()->undo();
  EXPECT_EQ(window.filtered(), filtered);
  window.undoStack()->undo();
  EXPECT_EQ(window.filtered(), nullptr);
  window.undoStack()->redo();
  EXPECT_EQ(window.filtered(), filtered);
}

TEST_F(ChannelLanesTest, TheSelectorShowsOneLaneOrAllAndTheStatisticsFollow) {
  MainWindow window;
  openStereo(window);
  gui::SignalPlot* plot = window.signalPlot();
  QComboBox* box = plot->channelBox();
  ASSERT_EQ(box->count(), 3);
  EXPECT_EQ(box->itemText(0), "All channels");
  emit box->activated(2);  // as a person picks "Channel 2"
  EXPECT_EQ(plot->lanes(), (std::vector<std::size_t>{1}));
  EXPECT_EQ(plot->plot()->axisRectCount(), 1);
  EXPECT_EQ(window.statisticsPanel()->channel(), 1u);
  EXPECT_EQ(window.statisticsPanel()->whole().count, right_.size());
  EXPECT_EQ(window.statisticsPanel()->whole().max, *std::ranges::max_element(right_));
  emit box->activated(0);
  EXPECT_EQ(plot->lanes(), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(plot->plot()->axisRectCount(), 2);

  plot->setStacked(true);  // each lane's original and filtered in two plots
  EXPECT_EQ(plot->plot()->axisRectCount(), 4);
}

TEST_F(ChannelLanesTest, ExportWritesEveryChannelAndTextSaysItHoldsOne) {
  MainWindow window;
  openStereo(window);
  apply(window);
  window.exportResult(QString::fromStdString(dir_.file("out.npy")));
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
  const Channels written = readChannels(dir_.file("out.npy"));
  ASSERT_EQ(written.channels.size(), 2u) << "N x 2";
  EXPECT_EQ(test::asVector(written.channels[1]), test::asVector(window.filtered()->channel(1).samples()));
  EXPECT_EQ(test::asVector(written.channels[0]), test::asVector(window.filtered()->channel(0).samples()));
  const std::vector<double> right = test::asVector(window.filtered()->channel(1).samples());

  MainWindow reopened;  // the N x 2 .npy opens as two lanes again
  reopened.openFile(QString::fromStdString(dir_.file("out.npy")));
  ASSERT_TRUE(test::waitForTask(reopened));
  ASSERT_TRUE(reopened.signal()) << reopened.lastError().toStdString();
  ASSERT_EQ(reopened.signal()->channelCount(), 2u);
  EXPECT_EQ(test::asVector(reopened.signal()->channel(1).samples()), right);
  EXPECT_EQ(reopened.signalPlot()->lanes(), (std::vector<std::size_t>{0, 1}));

  window.exportResult(QString::fromStdString(dir_.file("out.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_TRUE(window.lastError().contains("the text format holds one channel, not 2")) << window.lastError().toStdString();
  EXPECT_FALSE(std::filesystem::exists(dir_.file("out.txt")));
}

// A session keeps how the channels were read: every channel comes back (older sessions read one).
TEST_F(ChannelLanesTest, ASessionOpensEveryChannelAgain) {
  MainWindow window;
  openStereo(window);
  window.saveSession(QString::fromStdString(dir_.file("stereo.siglab")));
  ASSERT_TRUE(test::waitForTask(window));
  MainWindow restored;
  restored.openFile(QString::fromStdString(dir_.file("stereo.siglab")));
  ASSERT_TRUE(test::waitForTask(restored));
  ASSERT_TRUE(restored.signal()) << restored.lastError().toStdString();
  EXPECT_EQ(restored.signal()->channelCount(), 2u);
}

// Compare measures the engines on one channel, and says so where the signal has several.
TEST_F(ChannelLanesTest, CompareSaysItRanOnTheFirstChannel) {
  MainWindow window;
  openStereo(window);
  window.filterPanel()->setStage(parseChain(kStage).stages.front());
  window.runEngines();
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.filtered()) << window.lastError().toStdString();
  EXPECT_EQ(window.filtered()->channelCount(), 1u);
  EXPECT_EQ(test::asVector(window.filtered()->samples()), oneChannelRun(left_));
  EXPECT_TRUE(window.statusBar()->currentMessage().contains("compared on channel 1"))
      << window.statusBar()->currentMessage().toStdString();
}

TEST_F(ChannelLanesTest, TheImportDialogReadsRawChannelsAndCsvColumns) {
  const std::vector<float> frames = {1, 10, 2, 20, 3, 30};  // 3 frames of 2 interleaved channels
  test::writeFile(dir_.file("two.bin"), std::string(reinterpret_cast<const char*>(frames.data()), frames.size() * 4));
  test::writeFile(dir_.file("three.csv"), "1,5,9\n2,6,8\n3,7,7\n");
  MainWindow window;
  window.openFile(QString::fromStdString(dir_.file("two.bin")));
  auto* dialog = test::waitForChild<gui::ImportDialog>(window);
  ASSERT_TRUE(dialog);
  EXPECT_EQ(dialog->rawChannelsBox()->value(), 1);
  dialog->rawTypeBox()->setCurrentText("f32");
  dialog->rawChannelsBox()->setValue(2);
  dialog->accept();
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  ASSERT_EQ(window.signal()->channelCount(), 2u);
  EXPECT_EQ(test::asVector(window.signal()->channel(1).samples()), (std::vector<double>{10, 20, 30}));
  EXPECT_EQ(window.currentSession().read.rawChannels, 2u) << "the session keeps it";

  window.openFile(QString::fromStdString(dir_.file("three.csv")));
  dialog = test::waitForChild<gui::ImportDialog>(window);
  ASSERT_TRUE(dialog);
  EXPECT_TRUE(dialog->columnsEdit()->placeholderText().contains("3 columns")) << "what the probe found";
  dialog->columnsEdit()->setText("3, 1");
  dialog->accept();
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  ASSERT_EQ(window.signal()->channelCount(), 2u);
  EXPECT_EQ(test::asVector(window.signal()->channel(0).samples()), (std::vector<double>{9, 8, 7}));
  EXPECT_EQ(test::asVector(window.signal()->channel(1).samples()), (std::vector<double>{1, 2, 3}));
}

TEST_F(ChannelLanesTest, AOneChannelSignalShowsNoSelectorAndOneLane) {
  MainWindow window;
  window.openFile(SIGLAB_SAMPLE_PATH);
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  EXPECT_EQ(window.signal()->channelCount(), 1u);
  EXPECT_FALSE(window.signalPlot()->channelBox()->isVisibleTo(window.signalPlot()));
  EXPECT_FALSE(window.statisticsPanel()->channelBox()->isVisibleTo(window.statisticsPanel()));
  EXPECT_EQ(window.signalPlot()->plot()->axisRectCount(), 1);
  EXPECT_EQ(window.signalPlot()->plot()->axisRect(0)->axis(QCPAxis::atLeft)->label(), "value");
  EXPECT_FALSE(window.signalPlot()->readoutAt(3).contains("channel"));
}

// Issue 26 item 5: a CSV header's names are the channels' names, in the lanes, the statistics'
// selector, the cursor readout and the timings (what Compare measured).
TEST_F(ChannelLanesTest, AHeadersNamesLabelTheLanesStatisticsReadoutAndTimings) {
  std::string text = "pressure,flow\n";
  for (int i = 0; i < 400; ++i) text += std::to_string(i % 7) + "," + std::to_string(i % 5) + "\n";
  test::writeFile(dir_.file("named.csv"), text);
  MainWindow window;
  window.openFile(QString::fromStdString(dir_.file("named.csv")));  // probed: the import dialog skips the header
  auto* dialog = test::waitForChild<gui::ImportDialog>(window);
  ASSERT_TRUE(dialog);
  dialog->columnsEdit()->setText("1, 2");
  dialog->accept();
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  ASSERT_EQ(window.signal()->channelCount(), 2u);
  QCustomPlot* plot = window.signalPlot()->plot();
  EXPECT_EQ(plot->axisRect(0)->axis(QCPAxis::atLeft)->label(), "pressure");
  EXPECT_EQ(plot->axisRect(1)->axis(QCPAxis::atLeft)->label(), "flow");
  EXPECT_TRUE(window.signalPlot()->readoutAt(3, 1).startsWith("flow, ")) << window.signalPlot()->readoutAt(3, 1).toStdString();
  QComboBox* channels = window.statisticsPanel()->channelBox();
  ASSERT_EQ(channels->count(), 2);
  EXPECT_EQ(channels->itemText(0), "pressure");
  EXPECT_EQ(channels->itemText(1), "flow");
  gui::SignalCursors* cursors = gui::CursorDocks::of(&window)->cursors();
  cursors->setShown(true);
  cursors->setPositions(10, 20);
  EXPECT_TRUE(cursors->readoutText().contains("pressure: 3")) << cursors->readoutText().toStdString();
  EXPECT_TRUE(cursors->readoutText().contains("flow: 0")) << cursors->readoutText().toStdString();
  window.filterPanel()->setStage(parseChain(kStage).stages.front());
  window.runEngines();
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.comparison()) << window.lastError().toStdString();
  EXPECT_TRUE(window.timingView()->summary().contains("(pressure)")) << window.timingView()->summary().toStdString();
  EXPECT_TRUE(window.statusBar()->currentMessage().contains("compared on pressure"))
      << window.statusBar()->currentMessage().toStdString();
}

}  // namespace
}  // namespace siglab

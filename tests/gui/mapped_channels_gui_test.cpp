// A file of several channels larger than memory in the window: viewed from its mapping one channel
// at a time, the plot's selector lists the file's channels, choosing one reopens the mapping on it
// (the channel shown kept until it is ready), and Apply, Export and sessions follow the channel
// shown. The threshold is set to 0 so small files take the mapped path (large_signal_gui_test.cpp).
#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>

#include <cstdint>
#include <filesystem>
#include <random>

#include "gui_test_support.hpp"
#include "signal_plot.hpp"
#include "siglab/io/channel_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

const char* const kOneAtATime = "(a file larger than memory is viewed one channel at a time)";

class MappedChannelsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    const std::uint64_t seed = test::freshSeed();
    trace_ = "seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)";
    rng_.seed(seed);
  }

  std::unique_ptr<MainWindow> window(bool mapped) {
    auto window = std::make_unique<MainWindow>();
    if (mapped) window->setMappedAboveBytes(0);
    window->setCacheFolder(QString::fromStdString(cache()));
    window->resize(1200, 700);
    window->show();
    return window;
  }
  static void open(MainWindow& window, const std::string& path, const ReadOptions& options = {}) {
    window.openFile(QString::fromStdString(path), options);
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
    ASSERT_TRUE(window.signal()->indexed());
  }
  // As a person picks "Channel K" (1-based) above the plot; waits for the mapping to open.
  static void choose(MainWindow& window, int channel) {
    emit window.signalPlot()->channelBox()->activated(channel - 1);
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
  }
  static std::vector<double> shown(const MainWindow& window) {
    std::vector<double> all(window.signal()->size());
    window.signal()->read(0, all);
    return all;
  }
  // One channel of the file, mapped: the selector lists the file's channels with it chosen, and
  // the status bar and the statistics panel say which.
  static void expectViewing(const MainWindow& window, std::size_t channel, std::size_t channels) {
    const gui::SignalPtr signal = window.signal();
    ASSERT_NE(signal->mapping(), nullptr) << "the mapped path, not readChannels";
    EXPECT_EQ(signal->channelCount(), 1u) << "one channel in the window at a time";
    EXPECT_EQ(signal->mapping()->channel(), channel);
    EXPECT_EQ(signal->mapping()->channels(), channels);
    const QComboBox* box = window.signalPlot()->channelBox();
    EXPECT_TRUE(box->isVisibleTo(window.signalPlot()));
    ASSERT_EQ(box->count(), static_cast<int>(channels)) << "no \"All channels\" for a mapped file";
    for (std::size_t c = 1; c <= channels; ++c) {
      EXPECT_EQ(box->itemText(static_cast<int>(c) - 1), QString("Channel %1").arg(c));
    }
    EXPECT_EQ(box->currentIndex(), static_cast<int>(channel) - 1);
    const QString note = QString("channel %1 of %2 %3").arg(channel).arg(channels).arg(kOneAtATime);
    const QString status = window.statusBar()->currentMessage();
    EXPECT_TRUE(status.contains(note)) << status.toStdString();
    const QLabel* panelNote = window.statisticsPanel()->fileChannelNote();
    EXPECT_TRUE(panelNote->isVisibleTo(window.statisticsPanel()));
    EXPECT_TRUE(panelNote->text().contains(note)) << panelNote->text().toStdString();
    EXPECT_EQ(window.statisticsPanel()->whole().count, signal->size()) << "the statistics of the channel shown";
  }
  // Apply on the mapped channel shown against in-memory Apply on every channel: its channel, bit for bit.
  void expectApplyAsInMemory(MainWindow& mapped, MainWindow& inMemory, std::size_t channel) {
    inMemory.applyFilter();
    ASSERT_TRUE(test::waitForTask(inMemory));
    ASSERT_TRUE(inMemory.filtered()) << inMemory.lastError().toStdString();
    mapped.applyFilterTo(QString::fromStdString(dir_.file("filtered.raw")));
    ASSERT_TRUE(test::waitForTask(mapped));
    ASSERT_TRUE(mapped.filtered()) << mapped.lastError().toStdString();
    EXPECT_TRUE(mapped.statusBar()->currentMessage().contains(QString("channel %1 of").arg(channel)))
        << "Apply says which channel it filtered: " << mapped.statusBar()->currentMessage().toStdString();
    const gui::LoadedSignal& want = inMemory.filtered()->channel(channel - 1);
    EXPECT_TRUE(std::ranges::equal(mapped.filtered()->samples(), want.samples()))
        << "channel " << channel << " filtered as in memory, bit for bit";
  }
  std::string cache() const { return dir_.file("cache"); }

  test::TempDir dir_;
  std::mt19937_64 rng_;
  std::string trace_;
};

TEST_F(MappedChannelsTest, AStereoWavListsItsChannelsAndShowsAppliesAndExportsTheOneChosen) {
  SCOPED_TRACE(trace_);
  const std::string wav = dir_.file("in.wav");
  test::writeRandomPcm16Wav(wav, 2, 8011, rng_);
  const Channels file = readChannels(wav);
  const auto mapped = window(true);
  open(*mapped, wav);
  expectViewing(*mapped, 1, 2);
  EXPECT_EQ(shown(*mapped), file.channels[0]);

  choose(*mapped, 2);
  expectViewing(*mapped, 2, 2);
  EXPECT_EQ(shown(*mapped), file.channels[1]);
  EXPECT_FALSE(mapped->signal()->mapping()->fromCache()) << "read in place with its frame stride";
  EXPECT_TRUE(mapped->plotTitle().contains("in.wav, channel 2 of 2")) << mapped->plotTitle().toStdString();
  EXPECT_FALSE(std::filesystem::exists(cache()));

  const auto inMemory = window(false);
  open(*inMemory, wav);
  ASSERT_EQ(inMemory->signal()->channelCount(), 2u);
  expectApplyAsInMemory(*mapped, *inMemory, 2);

  mapped->exportResult(QString::fromStdString(dir_.file("exported.npy")));
  ASSERT_TRUE(test::waitForTask(*mapped));
  const QString wrote = mapped->statusBar()->currentMessage();
  EXPECT_TRUE(wrote.contains("channel 2 of 2")) << "Export says which channel it wrote: " << wrote.toStdString();
  EXPECT_EQ(readSignal(dir_.file("exported.npy")).samples.size(), file.channels[1].size()) << "the one channel shown";

}

TEST_F(MappedChannelsTest, ASessionKeepsTheChannelShown) {
  SCOPED_TRACE(trace_);
  const std::string wav = dir_.file("in.wav");
  test::writeRandomPcm16Wav(wav, 3, 8011, rng_);
  const auto mapped = window(true);
  open(*mapped, wav);
  choose(*mapped, 3);
  mapped->saveSession(QString::fromStdString(dir_.file("s.siglab")));
  ASSERT_TRUE(test::waitForTask(*mapped));
  EXPECT_EQ(mapped->currentSession().read.channel, 3u);
  const auto restored = window(true);
  restored->openFile(QString::fromStdString(dir_.file("s.siglab")));
  ASSERT_TRUE(test::waitForTask(*restored));
  ASSERT_TRUE(restored->signal()) << restored->lastError().toStdString();
  expectViewing(*restored, 3, 3);
  EXPECT_EQ(shown(*restored), readChannels(wav).channels[2]);
}

TEST_F(MappedChannelsTest, AThreeColumnCsvIsCachedOneColumnAtATimeAndChannel2AppliesAsInMemory) {
  SCOPED_TRACE(trace_);
  std::vector<std::vector<double>> columns;
  for (int c = 0; c < 3; ++c) columns.push_back(test::randomSignal(8011, rng_));
  const std::string csv = dir_.file("in.csv");
  writeChannels(csv, std::vector<std::span<const double>>(columns.begin(), columns.end()));
  const Channels file = readChannels(csv);
  ASSERT_EQ(file.channels.size(), 3u);
  const auto mapped = window(true);
  open(*mapped, csv);
  expectViewing(*mapped, 1, 3);
  EXPECT_EQ(shown(*mapped), file.channels[0]);

  choose(*mapped, 2);
  expectViewing(*mapped, 2, 3);
  EXPECT_EQ(shown(*mapped), file.channels[1]);
  // Bounded memory: each channel shown was parsed into a cache file of its own samples only.
  std::size_t caches = 0;
  for (const auto& entry : std::filesystem::directory_iterator(cache())) {
    ++caches;
    EXPECT_EQ(entry.file_size(), file.channels[0].size() * sizeof(double)) << entry.path();
  }
  EXPECT_EQ(caches, 2u) << "channels 1 and 2, not 3";

  const auto inMemory = window(false);
  open(*inMemory, csv);
  ASSERT_EQ(inMemory->signal()->channelCount(), 3u);
  expectApplyAsInMemory(*mapped, *inMemory, 2);

  // Channel 3: channel 2's result is not drawn over it; the chain applies again as after an open,
  // which for a mapped file means stage by stage into files the user names, as the window says.
  emit mapped->signalPlot()->channelBox()->activated(2);
  ASSERT_TRUE(test::waitForTask(*mapped));
  EXPECT_EQ(mapped->signal()->mapping()->channel(), 3u);
  EXPECT_EQ(shown(*mapped), file.channels[2]);
  EXPECT_FALSE(mapped->filtered());
  EXPECT_TRUE(mapped->chainSteps().empty());
  EXPECT_TRUE(mapped->lastError().contains("one by one")) << mapped->lastError().toStdString();
}

TEST_F(MappedChannelsTest, CancellingAChannelKeepsTheChannelShown) {
  SCOPED_TRACE(trace_);
  std::vector<std::vector<double>> columns;
  for (int c = 0; c < 2; ++c) columns.push_back(test::randomSignal(8011, rng_));
  const std::string csv = dir_.file("in.csv");
  writeChannels(csv, std::vector<std::span<const double>>(columns.begin(), columns.end()));
  const auto mapped = window(true);
  open(*mapped, csv);
  const gui::SignalPtr before = mapped->signal();
  const int points = mapped->signalPlot()->plot()->graph(0)->dataCount();
  emit mapped->signalPlot()->channelBox()->activated(1);
  EXPECT_TRUE(mapped->busy());
  EXPECT_EQ(mapped->signalPlot()->channelBox()->currentIndex(), 0) << "the channel drawn until the next is ready";
  mapped->cancelTask();
  ASSERT_TRUE(test::waitForTask(*mapped));
  EXPECT_EQ(mapped->signal(), before);
  EXPECT_EQ(mapped->signalPlot()->plot()->graph(0)->dataCount(), points);
  EXPECT_EQ(mapped->signalPlot()->channelBox()->currentIndex(), 0);
  EXPECT_EQ(mapped->currentSession().read.channel, 1u);
}

}  // namespace
}  // namespace siglab

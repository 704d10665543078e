// Signals larger than memory in the window: a text file through the float64 cache, a raw file
// through its mapping, each drawn and summarised as the in-memory path does; Apply streamed into
// a file; Compare on a range. The threshold is set to 0 so small files take the mapped path.
#include <qcustomplot.h>

#include <QDir>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>

#include <algorithm>
#include <filesystem>
#include <random>

#include "gui_test_support.hpp"
#include "signal_plot.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

std::size_t cacheFiles(const std::string& folder) {
  std::size_t n = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(folder, ec)) n += e.path().extension() == ".f64";
  return n;
}

class LargeSignalTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }

  // A window that views every file from its mapping, with its cache in the test's folder.
  std::unique_ptr<MainWindow> mappedWindow() {
    auto window = std::make_unique<MainWindow>();
    window->setMappedAboveBytes(0);
    window->setCacheFolder(QString::fromStdString(cache()));
    show(*window);
    return window;
  }
  std::unique_ptr<MainWindow> inMemoryWindow() {
    auto window = std::make_unique<MainWindow>();
    show(*window);
    return window;
  }
  static void show(MainWindow& window) {
    window.resize(1200, 700);
    window.show();
  }
  static void open(MainWindow& window, const std::string& path, const ReadOptions& options = {}) {
    window.openFile(QString::fromStdString(path), options);
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
    ASSERT_TRUE(window.signal()->indexed());
  }
  std::string cache() const { return dir_.file("cache"); }

  // The same points on the same views, and the same statistics within statisticsParallel's bounds.
  static void expectSameViews(MainWindow& mapped, MainWindow& inMemory) {
    const std::size_t n = inMemory.signal()->size();
    const double third = static_cast<double>(n / 3);
    const double views[][2] = {{0.0, static_cast<double>(n - 1)}, {third + 0.5, third + 900.25}, {17.0, 300.0}};
    for (const auto& view : views) {
      for (MainWindow* window : {&mapped, &inMemory}) {
        window->signalPlot()->setVisibleRange(view[0], view[1]);
        ASSERT_TRUE(test::waitForPoints(*window->signalPlot()));
        window->statisticsPanel()->refreshVisible();
        ASSERT_TRUE(test::waitForVisibleStatistics(*window->statisticsPanel()));
      }
      for (int g = 0; g < 2; ++g) {
        const QCPGraph* a = mapped.signalPlot()->plot()->graph(g);
        const QCPGraph* b = inMemory.signalPlot()->plot()->graph(g);
        ASSERT_EQ(a->dataCount(), b->dataCount()) << "graph " << g << " view " << view[0];
        for (int i = 0; i < a->dataCount(); ++i) {
          ASSERT_EQ(a->dataMainKey(i), b->dataMainKey(i));
          ASSERT_EQ(a->dataMainValue(i), b->dataMainValue(i)) << "graph " << g << " point " << i;
        }
      }
      expectSameStatistics(mapped.statisticsPanel()->visible(), inMemory.statisticsPanel()->visible());
    }
    expectSameStatistics(mapped.statisticsPanel()->whole(), inMemory.statisticsPanel()->whole());
    EXPECT_EQ(mapped.statisticsPanel()->whole().count, n);
  }
  static void expectSameStatistics(const Statistics& a, const Statistics& b) {
    EXPECT_EQ(a.count, b.count);
    EXPECT_EQ(a.min, b.min);
    EXPECT_EQ(a.max, b.max);
    EXPECT_EQ(a.minIndex, b.minIndex);
    EXPECT_EQ(a.maxIndex, b.maxIndex);
    const double scale = static_cast<double>(a.count) * std::max(std::abs(a.min), std::abs(a.max));
    EXPECT_NEAR(a.sum, b.sum, 1e-12 * scale);
    EXPECT_NEAR(a.rms, b.rms, 1e-12 * std::abs(b.rms));
    EXPECT_NEAR(a.stddev, b.stddev, 1e-9 * std::abs(b.stddev));
  }

  std::vector<double> randomSignal(std::size_t n) {
    const std::uint64_t seed = test::freshSeed();
    seedTrace_ = "seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)";
    std::mt19937_64 rng(seed);
    return test::randomSignal(n, rng);
  }

  test::TempDir dir_;
  std::string seedTrace_;
};

TEST_F(LargeSignalTest, ATextFileIsParsedOnceIntoTheCacheAndDrawnAsInMemory) {
  const std::vector<double> x = randomSignal(20011);
  SCOPED_TRACE(seedTrace_);
  writeSignal(dir_.file("in.txt"), x);
  const auto inMemory = inMemoryWindow();
  open(*inMemory, dir_.file("in.txt"));
  EXPECT_EQ(inMemory->signal()->mapping(), nullptr) << "small files stay in memory by default";

  const auto mapped = mappedWindow();
  open(*mapped, dir_.file("in.txt"));
  ASSERT_NE(mapped->signal()->mapping(), nullptr);
  EXPECT_TRUE(mapped->signal()->mapping()->fromCache());
  EXPECT_EQ(cacheFiles(cache()), 1u);
  EXPECT_TRUE(std::ranges::equal(mapped->signal()->samples(), inMemory->signal()->samples()));
  expectSameViews(*mapped, *inMemory);

  // Opened again: the cache is found by content and size, not parsed again.
  const auto again = mappedWindow();
  open(*again, dir_.file("in.txt"));
  EXPECT_EQ(again->signal()->mapping()->mappedPath(), mapped->signal()->mapping()->mappedPath());
  EXPECT_EQ(cacheFiles(cache()), 1u);
}

TEST_F(LargeSignalTest, ARawFileIsViewedFromItsMappingAndDrawnAsInMemory) {
  const std::vector<double> x = randomSignal(30011);
  SCOPED_TRACE(seedTrace_);
  writeSignal(dir_.file("in.raw"), x, WriteOptions{FileFormat::raw});
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  const auto inMemory = inMemoryWindow();
  open(*inMemory, dir_.file("in.raw"), raw);
  const auto mapped = mappedWindow();
  open(*mapped, dir_.file("in.raw"), raw);
  ASSERT_NE(mapped->signal()->mapping(), nullptr);
  EXPECT_FALSE(mapped->signal()->mapping()->fromCache());
  EXPECT_EQ(mapped->signal()->mapping()->mappedPath(), dir_.file("in.raw"));
  EXPECT_EQ(cacheFiles(cache()), 0u);
  expectSameViews(*mapped, *inMemory);

  // Apply streams into the chosen file; the filtered plot reads it back from its mapping.
  inMemory->applyFilter();
  ASSERT_TRUE(test::waitForTask(*inMemory));
  ASSERT_TRUE(inMemory->filtered()) << inMemory->lastError().toStdString();
  mapped->applyFilterTo(QString::fromStdString(dir_.file("filtered.raw")));
  ASSERT_TRUE(test::waitForTask(*mapped));
  ASSERT_TRUE(mapped->filtered()) << mapped->lastError().toStdString();
  ASSERT_NE(mapped->filtered()->mapping(), nullptr);
  EXPECT_EQ(mapped->filtered()->mapping()->mappedPath(), dir_.file("filtered.raw"));
  EXPECT_TRUE(std::ranges::equal(mapped->filtered()->samples(), inMemory->filtered()->samples()))
      << "the streamed result is the in-memory engine's, bit for bit";
  EXPECT_FALSE(mapped->hasUnexportedResult()) << "it is in its file already";
  expectSameViews(*mapped, *inMemory);
}

// An indexed raw file's zoom reads the samples beyond its pyramid's whole buckets by pread, never
// through the mapping: a fault there reads megabytes around a page that left the page cache, on a
// 16 GiB file seconds a step (session 20's benchmark). The points stay the in-memory window's.
TEST_F(LargeSignalTest, AnIndexedRawFilesZoomReadsItsRaggedEndsByPreadNotTheMapping) {
  const std::vector<double> x = randomSignal(30011);
  SCOPED_TRACE(seedTrace_);
  writeSignal(dir_.file("in.raw"), x, WriteOptions{FileFormat::raw});
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  const auto mapped = mappedWindow();
  open(*mapped, dir_.file("in.raw"), raw);
  ASSERT_NE(mapped->signal()->mapping(), nullptr);
  ASSERT_FALSE(mapped->signal()->converted());
  EXPECT_TRUE(mapped->signal()->pyramid().samples().empty()) << "the pyramid reads the mapping's span";
  const auto inMemory = inMemoryWindow();
  open(*inMemory, dir_.file("in.raw"), raw);
  expectSameViews(*mapped, *inMemory);
}

// A zoom on a mapped file reads none of it on the GUI thread (the kernel reads ahead megabytes a
// fault there): the points come from a worker, the previous view's shown meanwhile, a newer view
// replacing the request running, and they are the in-memory window's points.
TEST_F(LargeSignalTest, AZoomOnAMappedFileReadsItInAWorkerAndDrawsTheSamePoints) {
  const std::vector<double> x = randomSignal(30011);
  SCOPED_TRACE(seedTrace_);
  writeSignal(dir_.file("in.raw"), x, WriteOptions{FileFormat::raw});
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  const auto inMemory = inMemoryWindow();
  open(*inMemory, dir_.file("in.raw"), raw);
  const auto mapped = mappedWindow();
  open(*mapped, dir_.file("in.raw"), raw);
  ASSERT_NE(mapped->signal()->mapping(), nullptr);
  gui::SignalPlot* plot = mapped->signalPlot();
  const double views[][2] = {{100.0, 20'000.0}, {5000.5, 5900.25}, {17.0, 60.0}};
  for (const auto& view : views) {
    const int shown = plot->plot()->graph(0)->dataCount();
    ASSERT_GT(shown, 0);
    const std::size_t reads = gui::mappedReadsOnThisThread();
    plot->setVisibleRange(view[0] + 1000.0, view[1] + 1000.0);  // replaced at once by the next
    plot->setVisibleRange(view[0], view[1]);
    EXPECT_EQ(plot->plot()->graph(0)->dataCount(), shown) << "the previous view's points until the new ones come";
    ASSERT_TRUE(test::waitForPoints(*plot));
    EXPECT_EQ(gui::mappedReadsOnThisThread(), reads) << "the GUI thread read the file for the view " << view[0];
    inMemory->signalPlot()->setVisibleRange(view[0], view[1]);
    const QCPGraph* a = plot->plot()->graph(0);
    const QCPGraph* b = inMemory->signalPlot()->plot()->graph(0);
    ASSERT_EQ(a->dataCount(), b->dataCount()) << "view " << view[0];
    for (int i = 0; i < a->dataCount(); ++i) {
      ASSERT_EQ(a->dataMainKey(i), b->dataMainKey(i));
      ASSERT_EQ(a->dataMainValue(i), b->dataMainValue(i)) << "point " << i;
    }
    EXPECT_EQ(a->keyAxis()->range(), b->keyAxis()->range());
  }
}

TEST_F(LargeSignalTest, A16BitWavFileIsViewedFromItsMappingConvertedAndDrawnAsInMemory) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::writeRandomPcm16Wav(dir_.file("in.wav"), 2, 30011, rng);
  ReadOptions second;
  second.channel = 2;
  second.oneChannel = true;  // in memory every channel loads otherwise; a mapping is one channel
  const auto inMemory = inMemoryWindow();
  open(*inMemory, dir_.file("in.wav"), second);
  const auto mapped = mappedWindow();
  open(*mapped, dir_.file("in.wav"), second);
  ASSERT_NE(mapped->signal()->mapping(), nullptr);
  EXPECT_FALSE(mapped->signal()->mapping()->fromCache());
  EXPECT_TRUE(mapped->signal()->converted());
  EXPECT_EQ(mapped->signal()->mapping()->mappedPath(), dir_.file("in.wav"));
  EXPECT_FALSE(std::filesystem::exists(cache())) << "no cache file, not even its folder";
  EXPECT_EQ(mapped->signal()->sampleRate(), 8000.0);
  ASSERT_EQ(mapped->signal()->size(), inMemory->signal()->size());
  std::vector<double> all(mapped->signal()->size());
  mapped->signal()->read(0, all);
  EXPECT_TRUE(std::ranges::equal(all, inMemory->signal()->samples()));
  EXPECT_EQ(mapped->signal()->sampleAt(12345), inMemory->signal()->samples()[12345]);
  expectSameViews(*mapped, *inMemory);

  // Apply streams the WAV file's samples into the chosen file, as the in-memory engine filters them.
  inMemory->applyFilter();
  ASSERT_TRUE(test::waitForTask(*inMemory));
  ASSERT_TRUE(inMemory->filtered()) << inMemory->lastError().toStdString();
  mapped->applyFilterTo(QString::fromStdString(dir_.file("filtered.raw")));
  ASSERT_TRUE(test::waitForTask(*mapped));
  ASSERT_TRUE(mapped->filtered()) << mapped->lastError().toStdString();
  EXPECT_TRUE(std::ranges::equal(mapped->filtered()->samples(), inMemory->filtered()->samples()));
  expectSameViews(*mapped, *inMemory);

  // Compare on a range reads it converted.
  mapped->setMappedAboveBytes(2000 * sizeof(double));
  mapped->signalPlot()->setVisibleRange(500.0, 3499.0);
  mapped->runEngines();
  auto* prompt = mapped->findChild<QMessageBox*>("compareRangePrompt");
  ASSERT_NE(prompt, nullptr);
  prompt->button(QMessageBox::Yes)->click();
  ASSERT_TRUE(test::waitForTask(*mapped));
  ASSERT_TRUE(mapped->comparison()) << mapped->lastError().toStdString();
  EXPECT_EQ(mapped->comparison()->samples, 2000u);
  EXPECT_TRUE(mapped->comparison()->allAgree());
}

TEST_F(LargeSignalTest, CompareOnAMappedSignalOffersTheVisibleRangeAndRunsOnIt) {
  const std::vector<double> x = randomSignal(5003);
  SCOPED_TRACE(seedTrace_);
  writeSignal(dir_.file("in.npy"), x);
  const auto mapped = mappedWindow();
  open(*mapped, dir_.file("in.npy"));
  EXPECT_FALSE(mapped->signal()->mapping()->fromCache()) << ".npy float64 is mapped as it is";
  mapped->setMappedAboveBytes(2000 * sizeof(double));  // Compare takes at most 2000 samples here
  mapped->signalPlot()->setVisibleRange(500.0, 3499.0);  // 3000 visible: the middle 2000 are offered
  mapped->runEngines();
  auto* prompt = mapped->findChild<QMessageBox*>("compareRangePrompt");
  ASSERT_NE(prompt, nullptr) << "Compare says the signal is too large and offers a range";
  EXPECT_TRUE(prompt->text().contains("too large")) << prompt->text().toStdString();
  EXPECT_TRUE(prompt->text().contains("1,000 to 2,999") || prompt->text().contains("1000 to 2999")) << prompt->text().toStdString();
  prompt->button(QMessageBox::Yes)->click();
  ASSERT_TRUE(test::waitForTask(*mapped));
  ASSERT_TRUE(mapped->comparison()) << mapped->lastError().toStdString();
  EXPECT_EQ(mapped->comparison()->samples, 2000u);
  EXPECT_TRUE(mapped->comparison()->allAgree());
  EXPECT_FALSE(mapped->filtered()) << "the range's result is not drawn over the whole signal";
}

TEST_F(LargeSignalTest, CancellingTheCacheParseKeepsThePreviousSignalAndLeavesNoCache) {
  const std::vector<double> x = randomSignal(300001);
  SCOPED_TRACE(seedTrace_);
  writeSignal(dir_.file("small.npy"), std::vector<double>(x.begin(), x.begin() + 100));
  writeSignal(dir_.file("in.txt"), x);
  const auto mapped = mappedWindow();
  open(*mapped, dir_.file("small.npy"));
  const gui::SignalPtr before = mapped->signal();
  const int pointsBefore = mapped->signalPlot()->plot()->graph(0)->dataCount();
  ASSERT_GT(pointsBefore, 0);
  mapped->openFile(QString::fromStdString(dir_.file("in.txt")), {});
  mapped->cancelTask();
  ASSERT_TRUE(test::waitForTask(*mapped));
  EXPECT_EQ(mapped->signal(), before);
  EXPECT_EQ(mapped->signalPlot()->plot()->graph(0)->dataCount(), pointsBefore) << "the previous signal is drawn again";
  EXPECT_EQ(cacheFiles(cache()), 0u);
  EXPECT_TRUE(mapped->lastError().isEmpty()) << mapped->lastError().toStdString();
}

TEST_F(LargeSignalTest, CancellingAStreamedApplyLeavesNoOutputFile) {
  const std::vector<double> x = randomSignal(std::size_t{1} << 22);  // 32 MiB: the stream takes a while
  SCOPED_TRACE(seedTrace_);
  writeSignal(dir_.file("in.npy"), x);
  const auto mapped = mappedWindow();
  open(*mapped, dir_.file("in.npy"));
  mapped->applyFilterTo(QString::fromStdString(dir_.file("out.txt")));
  mapped->cancelTask();
  ASSERT_TRUE(test::waitForTask(*mapped));
  EXPECT_FALSE(mapped->filtered());
  EXPECT_FALSE(std::filesystem::exists(dir_.file("out.txt")));
  for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "in.npy" || name == "cache") << "left behind: " << name;
  }
}

}  // namespace
}  // namespace siglab

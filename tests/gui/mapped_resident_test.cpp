// A file viewed from its mapping stays out of the window's resident memory (issue 13: at most
// 1 GiB resident for a 16 GiB file). The kernel maps a page cache folio of up to 2 MiB for each
// sample read, so a coarse preview's few thousand probes once kept a whole file resident; now every
// reader lets its pages go behind it. The file-backed resident set of the test folder's mappings
// (the file, or its float64 cache) is watched while the window opens, indexes and zooms.
#include <qcustomplot.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSettings>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "gui_test_support.hpp"
#include "signal_plot.hpp"
#include "spectrum_view.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "siglab/spectrum.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr double kMiB = 1024.0;  // in KiB

// The resident KiB of this process's mappings of files under `folder` (/proc/self/smaps), summed.
double residentKiBUnder(const std::string& folder) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  double kib = 0.0;
  while (std::getline(smaps, line)) {
    const std::size_t colon = line.find(':');
    const bool header = !line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) &&
                        (colon == std::string::npos || colon > line.find(' '));
    if (header) {
      inside = line.find(" " + folder + "/") != std::string::npos;
    } else if (inside && line.rfind("Rss:", 0) == 0) {
      kib += std::stod(line.substr(4));
    }
  }
  return kib;
}

// A field of /proc/self/status in KiB ("VmHWM:": the peak resident set since the last reset).
double statusKiB(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field, 0) == 0) return std::stod(line.substr(field.size()));
  }
  return -1.0;
}

// Starts VmHWM again from the current resident set (the peak of a short-lived mapping, touched
// and let go between two samples of smaps, shows only there).
void resetPeakResident() { std::ofstream("/proc/self/clear_refs") << "5"; }

// AddressSanitizer keeps freed memory in quarantine and touches shadow memory for every access: the
// process's peak then says nothing about the mapping, so only the mapping's own resident set is checked.
#ifdef __SANITIZE_ADDRESS__
constexpr bool kProcessPeakMeaningful = false;
#else
constexpr bool kProcessPeakMeaningful = true;
#endif

class MappedResidentTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }

  // Runs the event loop until the window's task has finished, sampling the resident set every 5 ms.
  ::testing::AssertionResult waitWatching(const gui::MainWindow& window) {
    QElapsedTimer timer;
    timer.start();
    do {
      watch();
      if (timer.elapsed() > 60'000) return ::testing::AssertionFailure() << "the task did not finish in 60 s";
      QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    } while (window.busy());
    QCoreApplication::processEvents();
    watch();
    return ::testing::AssertionSuccess();
  }
  void watch() { peakKiB_ = std::max(peakKiB_, residentKiBUnder(dir_.path())); }

  // Opens `file` in a window that maps every file, zooms to random views (each redrawn, its
  // statistics computed), and checks the resident set of the mapping stayed a small part of the
  // file throughout: a stripe of the pyramid on each core, a block of statistics, a preview.
  void expectSmallResidentSet(const std::string& file, const ReadOptions& options) {
    gui::MainWindow window;
    window.setMappedAboveBytes(0);
    window.setCacheFolder(QString::fromStdString(dir_.file("cache")));
    window.resize(1500, 820);
    window.show();
    QCoreApplication::processEvents();
    resetPeakResident();
    const double before = statusKiB("VmRSS:");
    window.openFile(QString::fromStdString(file), options);
    ASSERT_TRUE(waitWatching(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
    ASSERT_NE(window.signal()->mapping(), nullptr);
    ASSERT_TRUE(window.signal()->indexed());
    const double fileKiB = static_cast<double>(window.signal()->size() * sizeof(double)) / 1024.0;
    ASSERT_GT(fileKiB, 4 * kMostKiB) << "the file must be large enough for the check to mean something";
    expectProcessGrewLittle(before, fileKiB, "opening");
    EXPECT_LE(peakKiB_, kMostKiB) << "opening and indexing kept " << peakKiB_ / kMiB << " MiB of the "
                                  << fileKiB / kMiB << " MiB mapping resident";

    const auto n = static_cast<double>(window.signal()->size());
    std::mt19937_64 rng(test::freshSeed());
    std::uniform_real_distribution<double> logWidth(std::log(100.0), std::log(n - 1));
    for (int zoom = 0; zoom < 30; ++zoom) {
      const double width = std::exp(logWidth(rng));
      const double first = std::uniform_real_distribution<double>(0.0, n - 1 - width)(rng);
      window.signalPlot()->setVisibleRange(first, first + width);
      window.signalPlot()->plot()->replot(QCustomPlot::rpImmediateRefresh);
      window.statisticsPanel()->refreshVisible();
      ASSERT_TRUE(test::waitForVisibleStatistics(*window.statisticsPanel()));
      watch();
    }
    expectProcessGrewLittle(before, fileKiB, "zooming in");
    EXPECT_LE(peakKiB_, kMostKiB) << "zooming kept " << peakKiB_ / kMiB << " MiB of the " << fileKiB / kMiB
                                  << " MiB mapping resident";
  }

  static void expectProcessGrewLittle(double beforeKiB, double fileKiB, const char* doing) {
    if (!kProcessPeakMeaningful) return;
    const double grewKiB = statusKiB("VmHWM:") - beforeKiB;
    EXPECT_LE(grewKiB, kMostGrowthKiB) << "the process grew by " << grewKiB / kMiB << " MiB while " << doing << " a "
                                       << fileKiB / kMiB << " MiB file";
  }

  std::vector<double> randomSignal(std::size_t n) {
    std::mt19937_64 rng(test::freshSeed());
    return test::randomSignal(n, rng);
  }

  static constexpr double kMostKiB = 32 * kMiB;
  // The whole process: the mapping's share, the pyramid (16 bytes a 16 samples) and Qt's drawing.
  static constexpr double kMostGrowthKiB = 64 * kMiB;
  static constexpr std::size_t kSamples = (std::size_t{1} << 24) + 5;  // 128 MiB of float64
  test::TempDir dir_;
  double peakKiB_ = 0.0;
};

TEST_F(MappedResidentTest, ARawFileStaysOutOfResidentMemory) {
  writeSignal(dir_.file("in.raw"), randomSignal(kSamples), WriteOptions{FileFormat::raw});
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  expectSmallResidentSet(dir_.file("in.raw"), raw);
}

// Short reads of a mapped file (a preview's probes, a spectrogram's frames, a readout) go by pread,
// not through the mapping, where each fault reads megabytes around it (MADV_SEQUENTIAL and the
// kernel's read-around): the mapping keeps no page, and the values are the file's.
TEST_F(MappedResidentTest, ShortReadsOfAMappedFileLeaveItsMappingUntouched) {
  const std::vector<double> x = randomSignal(std::size_t{1} << 20);  // 8 MiB
  writeSignal(dir_.file("in.npy"), x);  // its data start 128 bytes in
  const auto mapping = MappedSignal::open(dir_.file("in.npy"), {}, dir_.file("cache"));
  ASSERT_FALSE(mapping->converted());
  const double opened = residentKiBUnder(dir_.path());  // its header, read through the mapping
  std::vector<double> out(1000);
  for (std::size_t first = 7; first + out.size() <= x.size(); first += 65'537) {
    mapping->read(first, out);
    ASSERT_TRUE(std::equal(out.begin(), out.end(), x.begin() + static_cast<std::ptrdiff_t>(first))) << "from " << first;
  }
  EXPECT_EQ(residentKiBUnder(dir_.path()), opened) << "the reads faulted the mapping's pages in";
}

TEST_F(MappedResidentTest, ANpyFileStaysOutOfResidentMemory) {
  writeSignal(dir_.file("in.npy"), randomSignal(kSamples));  // its data start 128 bytes in: not page-aligned
  expectSmallResidentSet(dir_.file("in.npy"), {});
}

TEST_F(MappedResidentTest, AWavFileStaysOutOfResidentMemory) {
  writeSignal(dir_.file("in.wav"), randomSignal(kSamples));
  expectSmallResidentSet(dir_.file("in.wav"), {});
}

// A 16-bit stereo WAV file is converted as it is read from its mapping, with no float64 cache.
TEST_F(MappedResidentTest, A16BitWavFileStaysOutOfResidentMemoryWithNoCache) {
  std::mt19937_64 rng(test::freshSeed());
  test::writeRandomPcm16Wav(dir_.file("in.wav"), 2, kSamples, rng);
  ReadOptions second;
  second.channel = 2;
  expectSmallResidentSet(dir_.file("in.wav"), second);
  EXPECT_FALSE(std::filesystem::exists(dir_.file("cache")));
}

// The spectrum of a mapped signal is computed in pieces of whole segments (pages let go behind each):
// the same as welch() over all of it, to rounding.
TEST_F(MappedResidentTest, AMappedSignalsSpectrumInPiecesIsWelchsOverAllOfIt) {
  const std::vector<double> x = randomSignal(3'000'017);  // three pieces of 256-sample segments and a ragged end
  writeSignal(dir_.file("in.raw"), x, WriteOptions{FileFormat::raw});
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  auto mapped = std::make_shared<const gui::LoadedSignal>(
      "mapped", std::shared_ptr<const MappedSignal>(MappedSignal::open(dir_.file("in.raw"), raw, dir_.file("cache"))));
  gui::SpectrumView view;
  view.setSegment(256);
  view.setOriginal(mapped);
  QElapsedTimer timer;
  timer.start();
  while (view.computing() && timer.elapsed() < 20'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  ASSERT_FALSE(view.computing());
  WelchOptions options;
  options.segment = 256;
  const Spectrum expected = welch(x, options);
  const Spectrum& got = view.curves().original;
  ASSERT_EQ(got.power.size(), expected.power.size()) << view.curves().problem.toStdString();
  for (std::size_t k = 0; k < got.power.size(); ++k) {
    EXPECT_NEAR(got.power[k], expected.power[k], 1e-12 * expected.power[k]) << "bin " << k;
  }
  EXPECT_LE(residentKiBUnder(dir_.path()), 4 * kMiB) << "the pieces' pages are let go";
}

}  // namespace
}  // namespace siglab

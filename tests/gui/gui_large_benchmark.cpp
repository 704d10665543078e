// Benchmark (not a test), `siglab-gui-benchmark --large FILE [SAMPLES]`: a raw float64 file larger
// than memory (2^31 samples, 16 GiB, by default) written to FILE, opened in the real window on the
// offscreen platform, and FILE removed at the end. Prints the peak resident memory of the open
// (target 1 GiB), the time to the first (coarse) plot (target 2 s), the pyramid build and its MB/s
// against reading the same file with read() as `cat FILE > /dev/null` does, in the same run (page
// cache speed where the file fits), and the redraw time when zooming (target 30 ms).
#include "gui_large_benchmark.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QFile>
#include <QThread>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "main_window.hpp"
#include "signal_plot.hpp"
#include "siglab/large_signal_policy.hpp"
#include "siglab/measure.hpp"
#include "siglab/minmax_pyramid.hpp"

namespace siglab::gui {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double statusKiB(const char* field) {  // a line of /proc/self/status, in KiB
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field, 0) == 0) return std::stod(line.substr(std::string(field).size()));
  }
  return -1.0;
}

// Random non-zero samples, written in 8 MiB pieces.
void writeRandomRaw(const std::string& path, std::uint64_t samples) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw std::runtime_error(path + ": cannot create it");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> value(0.5, 100.0);
  std::vector<double> block(std::size_t{1} << 20);
  for (std::uint64_t done = 0; done < samples; done += block.size()) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), samples - done));
    for (std::size_t i = 0; i < n; ++i) block[i] = (rng() & 1 ? 1.0 : -1.0) * value(rng);
    if (std::fwrite(block.data(), sizeof(double), n, file) != n) throw std::runtime_error(path + ": write failed (disk full?)");
  }
  if (std::fclose(file) != 0) throw std::runtime_error(path + ": write failed");
}

// What `cat FILE > /dev/null` does: read() through 128 KiB, the buffer cat uses.
void readLikeCat(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error(path + ": cannot open it");
  std::vector<char> buffer(std::size_t{128} << 10);
  while (::read(fd, buffer.data(), buffer.size()) > 0) {
  }
  ::close(fd);
}

void print(const char* what, const TimingStats& t, int runs, double targetMs) {
  std::printf("%-46s median %10.2f ms  (min %10.2f, max %10.2f, %d runs)", what, t.medianMs, t.minMs, t.maxMs, runs);
  if (targetMs > 0) std::printf("  target %.0f ms: %.2fx of it", targetMs, t.medianMs / targetMs);
  std::printf("\n");
}

}  // namespace

int runLargeBenchmark(const std::string& path, std::uint64_t samples) {
  const std::uint64_t bytes = samples * sizeof(double);
  QFile loadavg("/proc/loadavg");
  if (loadavg.open(QIODevice::ReadOnly)) {
    std::printf("machine: %d cores, %.1f GiB of memory, load average %s", QThread::idealThreadCount(),
                static_cast<double>(physicalMemoryBytes()) / (kMiB * 1024.0), loadavg.readLine().constData());
  }
  std::printf("signal: %llu samples of random non-zero float64, %.2f GiB raw file; window 1500x820, offscreen raster\n",
              static_cast<unsigned long long>(samples), static_cast<double>(bytes) / (kMiB * 1024.0));
  const auto written = std::chrono::steady_clock::now();
  writeRandomRaw(path, samples);
  std::printf("file written in %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - written).count());

  MeasureOptions twice;  // each run reads the whole file
  twice.warmups = 1;
  twice.repeats = 2;
  const PhaseStats cat = measure([&] { return timeOnHost([&] { readLikeCat(path); }); }, twice);

  // The window, its peak resident memory counted from here (clear_refs 5 resets VmHWM).
  MainWindow window;
  if (bytes <= window.mappedAboveBytes()) {
    std::printf("(a file this small stays in memory by default: the mapped path is forced for this run)\n");
    window.setMappedAboveBytes(0);
  }
  window.resize(1500, 820);
  window.show();
  QCoreApplication::processEvents();
  {
    std::ofstream reset("/proc/self/clear_refs");
    reset << "5";
  }
  const double residentBeforeMiB = statusKiB("VmRSS:") / 1024.0;
  QCustomPlot* plot = window.signalPlot()->plot();
  double firstPlotMs = -1.0;
  const auto start = std::chrono::steady_clock::now();
  const auto connection = QObject::connect(plot, &QCustomPlot::afterReplot, [&] {
    if (firstPlotMs < 0 && plot->graph(0)->dataCount() > 0) {
      firstPlotMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
  });
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  window.openFile(QString::fromStdString(path), raw);
  while (window.busy()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
  const double indexedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  QObject::disconnect(connection);
  if (!window.signal() || !window.signal()->mapping()) {
    std::printf("FAILED to open the file from its mapping: %s\n", window.lastError().toUtf8().constData());
    std::remove(path.c_str());
    return 1;
  }
  const double openPeakMiB = statusKiB("VmHWM:") / 1024.0;

  // The pyramid on its own (the window's build was its warm-up), pages let go behind it.
  const MappedSignal& mapping = *window.signal()->mapping();
  MeasureOptions once;
  once.warmups = 0;
  once.repeats = 2;
  const PhaseStats pyramid = measure(
      [&] {
        return timeOnHost([&] {
          const MinMaxPyramid p(mapping.samples(), {}, MinMaxPyramid::kMaxFirstLevelBuckets,
                                [&](std::size_t first, std::size_t count) { mapping.release(first, count); });
        });
      },
      once);

  // Zooming: views of random width (log-uniform, 100 samples to all of them) at random places.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> logWidth(std::log(100.0), std::log(static_cast<double>(samples - 1)));
  std::uniform_real_distribution<double> where(0.0, 1.0);
  MeasureOptions zooms;
  zooms.warmups = 1;
  zooms.repeats = 40;
  const PhaseStats zoom = measure(
      [&] {
        const double width = std::exp(logWidth(rng));
        const double first = where(rng) * (static_cast<double>(samples - 1) - width);
        return timeOnHost([&] {
          window.signalPlot()->setVisibleRange(first, first + width);
          plot->replot(QCustomPlot::rpImmediateRefresh);
        });
      },
      zooms);
  const double peakMiB = statusKiB("VmHWM:") / 1024.0;
  std::remove(path.c_str());

  const double gib = static_cast<double>(bytes) / (kMiB * 1024.0);
  std::printf("resident before opening %.0f MiB; peak while opening (first plot, pyramid, statistics) %.0f MiB; "
              "peak to the end (zooms included) %.0f MiB  target 1024 MiB: %.2fx of it\n",
              residentBeforeMiB, openPeakMiB, peakMiB, peakMiB / 1024.0);
  std::printf("%-46s %10.2f ms  target 2000 ms: %.2fx of it\n", "open to first (coarse) plot (GUI, end to end)",
              firstPlotMs, firstPlotMs / 2000.0);
  std::printf("%-46s %10.2f ms  (%.0f MB/s: pyramid, then statistics, each a pass over the file)\n",
              "open to indexed (pyramid + statistics)", indexedMs, 2.0 * static_cast<double>(bytes) / 1e3 / indexedMs);
  print("read() of the file, 128 KiB at a time (cat)", cat.total, twice.repeats, 0);
  print("min/max pyramid build from the mapping", pyramid.total, once.repeats, 0);
  const double catMBs = static_cast<double>(bytes) / 1e3 / cat.total.medianMs;
  const double pyramidMBs = static_cast<double>(bytes) / 1e3 / pyramid.total.medianMs;
  std::printf("pyramid %.0f MB/s against cat's %.0f MB/s: %.2fx of it (medians, same run; %.2f GiB file)\n", pyramidMBs,
              catMBs, pyramidMBs / catMBs, gib);
  print("zoom redraw (points from pyramid/mapping + draw)", zoom.total, zooms.repeats, 30);
  return 0;
}

}  // namespace siglab::gui

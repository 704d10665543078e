// Benchmark (not a test), `siglab-gui-spectrogram-benchmark FILE`: the Spectrogram dock of the real
// window on a raw float64 file (16 GiB for the target; the file is the caller's, kept), on
// the offscreen platform. Prints, each with its target: the time from opening the file to the
// spectrogram's first complete view (2 s), the median time of a zoom step (the signal plot's range
// halved about a random point, until the spectrogram has drawn it at screen resolution; 100 ms),
// the peak resident memory from before opening to the end (1 GiB), and how long Esc takes to stop
// a running request (100 ms).
#include <qcustomplot.h>

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "main_window.hpp"
#include "signal_plot.hpp"
#include "siglab/large_signal_policy.hpp"
#include "spectrogram_view.hpp"

namespace {

double statusMiB(const char* field) {  // a line of /proc/self/status, in MiB
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field, 0) == 0) return std::stod(line.substr(std::string(field).size())) / 1024.0;
  }
  return -1.0;
}

// Runs the event loop until the view has drawn its range at screen resolution; the milliseconds taken.
double untilComplete(const siglab::gui::SpectrogramView& view, const QElapsedTimer& since) {
  while (view.busy() || !view.complete()) QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
  return static_cast<double>(since.nsecsElapsed()) / 1e6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

void target(const char* what, double value, const char* unit, double goal) {
  std::printf("%-58s %10.1f %s  target %.0f %s: %s (%.2fx of it)\n", what, value, unit, goal, unit,
              value <= goal ? "met" : "MISSED", value / goal);
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  using namespace siglab;
  using namespace siglab::gui;
  if (argc < 2) {
    std::fprintf(stderr, "usage: siglab-gui-spectrogram-benchmark FILE (raw float64)\n");
    return 2;
  }
  const QString path = QString::fromLocal8Bit(argv[1]);
  const auto bytes = static_cast<std::uint64_t>(QFileInfo(path).size());
  QFile loadavg("/proc/loadavg");
  if (loadavg.open(QIODevice::ReadOnly)) {
    std::printf("machine: %d cores, %.1f GiB of memory, load average %s", QThread::idealThreadCount(),
                static_cast<double>(physicalMemoryBytes()) / (1 << 30), loadavg.readLine().constData());
  }
  std::printf("signal: %s, %.2f GiB raw float64 (%llu samples); window 1500x1000, Spectrogram dock in front\n",
              argv[1], static_cast<double>(bytes) / (1 << 30), static_cast<unsigned long long>(bytes / 8));

  MainWindow window;
  window.resize(1500, 1000);
  window.show();
  auto* dock = window.findChild<QDockWidget*>("spectrogramDock");
  auto* view = dock->findChild<SpectrogramView*>();
  dock->raise();
  QCoreApplication::processEvents();
  {
    std::ofstream reset("/proc/self/clear_refs");  // 5: VmHWM starts again from here
    reset << "5";
  }
  const double residentBefore = statusMiB("VmRSS:");
  QElapsedTimer timer;
  timer.start();
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  window.openFile(path, raw);
  while (!window.signal()) QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
  const double firstView = untilComplete(*view, timer);
  if (!window.signal()->mapping()) std::printf("(the file was read into memory, not viewed from its mapping)\n");
  std::printf("first view: %s; drawn %d columns\n", view->note().toUtf8().constData(), view->colourMap()->data()->keySize());

  // Zoom steps: the signal plot's range halved about a random point, 3 runs of 20 from the whole signal.
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> where(0.0, 1.0);
  std::vector<double> steps;
  const auto samples = static_cast<double>(window.signal()->size());
  double finest = samples;
  for (int run = 0; run < 3; ++run) {
    double first = 0, last = samples;
    for (int step = 0; step < 20; ++step) {
      const double width = (last - first) / 2;
      const double centre = first + width / 2 + where(rng) * width;
      first = centre - width / 2;
      last = centre + width / 2;
      timer.restart();
      window.signalPlot()->setVisibleRange(first, last);
      steps.push_back(untilComplete(*view, timer));
      finest = std::min(finest, last - first);
    }
    window.signalPlot()->setVisibleRange(0, samples);
    untilComplete(*view, timer);
  }
  // Esc during a request: nperseg 8192 makes a new pyramid whose overview reads 1000 frames of 64 KiB.
  view->setSegment(8192, 1024, "hann");
  QCoreApplication::processEvents();
  timer.restart();
  view->cancel();
  while (view->busy()) QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
  const double escMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  while (window.busy()) {  // the window's own index (pyramid, statistics) of the file, for the record
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  }
  const double indexed = static_cast<double>(timer.elapsed()) / 1000.0;
  const double peak = statusMiB("VmHWM:");

  std::printf("zoom steps: %zu (halving from all %.0f samples down to %.0f), median %.1f ms, max %.1f ms\n", steps.size(),
              samples, finest, median(steps), *std::max_element(steps.begin(), steps.end()));
  std::printf("resident before opening %.0f MiB; the window's own index of the file still ran %.1f s after the steps\n",
              residentBefore, indexed);
  target("open to the spectrogram's first complete view", firstView, "ms", 2000);
  target("zoom step to the finer view drawn (median)", median(steps), "ms", 100);
  target("peak resident memory, open to the end (VmHWM)", peak, "MiB", 1024);
  target("Esc to the request stopped", escMs, "ms", 100);
  return 0;
}

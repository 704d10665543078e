// Benchmark (not a test), `siglab-gui-spectrogram-benchmark FILE`: the Spectrogram dock of the real
// window on a raw float64 file (16 GiB for the target; the file is the caller's, kept), on
// the offscreen platform. Prints, each with its target: the time from opening the file to the
// spectrogram's first complete view (2 s), the median time of a zoom step (the signal plot's range
// halved about a random point, until the spectrogram has drawn it at screen resolution and the
// signal plot shows its points; 100 ms),
// the peak resident memory from before opening to the end (1 GiB), and how long Esc takes to stop
// a running request (100 ms).
#include <qcustomplot.h>

#include <unistd.h>

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QDir>
#include <QThread>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "main_window.hpp"
#include "signal_plot.hpp"
#include "siglab/large_signal_policy.hpp"
#include "spectrogram_tasks.hpp"
#include "spectrogram_view.hpp"
#include "statistics_panel.hpp"
#include "process_memory.hpp"

namespace {

double statusMiB(const char* field) {  // a line of /proc/self/status, in MiB
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field, 0) == 0) return std::stod(line.substr(std::string(field).size())) / 1024.0;
  }
  return -1.0;
}

// Whether the signal plot still waits for a view's points (read in a worker since session 20; a
// build without that reads them on the GUI thread, so never waits).
bool plotPointsPending(const siglab::gui::SignalPlot* plot) {
  return [](const auto* p) {
    if constexpr (requires { p->pointsPending(); }) return p && p->pointsPending();
    else return false;
  }(plot);
}

// The spectrogram's requests of tiles so far (counted since session 20; -1 in a build without).
double tileRequests(const siglab::gui::SpectrogramView& view) {
  return [](const auto& v) {
    if constexpr (requires { v.tileRequests(); }) return static_cast<double>(v.tileRequests());
    else return -1.0;
  }(view);
}

// Runs the event loop until the view has drawn its range at screen resolution (and the plot, when
// given, shows its range's points); the milliseconds taken. It sleeps until the next event rather
// than polling, so the GUI thread's CPU time is the window's.
// `pointsMs` and `spectrogramMs`, when given, get the milliseconds until each of the two was done.
double untilComplete(const siglab::gui::SpectrogramView& view, const QElapsedTimer& since,
                     const siglab::gui::SignalPlot* plot = nullptr, double* pointsMs = nullptr,
                     double* spectrogramMs = nullptr) {
  const auto now = [&since] { return static_cast<double>(since.nsecsElapsed()) / 1e6; };
  bool pointsDone = false, spectrogramDone = false;
  for (;;) {
    if (!pointsDone && !plotPointsPending(plot)) {
      pointsDone = true;
      if (pointsMs) *pointsMs = now();
    }
    if (!spectrogramDone && !view.busy() && view.complete()) {
      spectrogramDone = true;
      if (spectrogramMs) *spectrogramMs = now();
    }
    if (pointsDone && spectrogramDone) break;
    QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
  }
  return now();
}

// CPU milliseconds of this (the GUI) thread, and of the whole process, so far.
double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}
double processCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// CPU milliseconds so far of each of this process's threads but the GUI thread, summed by name:
// the plot's points ("siglab-points"), the global pool's workers ("Thread (pooled)": tiles, statistics,
// the window's index), and the rest.
std::map<std::string, double> workerCpuMs() {
  std::map<std::string, double> byName;
  const long ticks = sysconf(_SC_CLK_TCK);
  const QString self = QString::number(getpid());
  for (const QString& tid : QDir("/proc/self/task").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    if (tid == self) continue;  // the GUI thread: threadCpuMs
    std::ifstream stat(("/proc/self/task/" + tid + "/stat").toStdString());
    std::string line;
    std::getline(stat, line);
    const auto open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    const std::string name = line.substr(open + 1, close - open - 1);
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
      if (i == 14) utime = std::stod(field);
      if (i == 15) stime = std::stod(field);
    }
    byName[name] += (utime + stime) * 1e3 / static_cast<double>(ticks);
  }
  return byName;
}

// MiB this process has had read from storage so far (its page faults' reads and read-ahead included).
double readMiB() {
  std::ifstream io("/proc/self/io");
  std::string line;
  while (std::getline(io, line)) {
    if (line.rfind("read_bytes:", 0) == 0) return std::stod(line.substr(11)) / (1 << 20);
  }
  return -1.0;
}

// A run of zoom steps: each one's wall time, the GUI thread's and the process's CPU time, and the
// spectrogram's drawings.
struct Steps {
  std::vector<double> wall, guiCpu, processCpu, drawings, readMiB, requests;
  std::vector<double> pointsMs, spectrogramMs, statisticsBusy;  // the step's split, and the visible statistics running at its end
  std::map<std::string, std::vector<double>> workerCpu;  // a step's CPU ms by thread name
};

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
  siglab::gui::returnLargeBlocksToTheSystem();  // as the desktop does (main.cpp)
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
  std::printf("signal: %s, %.2f GiB raw float64 (%llu samples); window 1500x1000, Spectrogram dock floating at 1500x600\n",
              argv[1], static_cast<double>(bytes) / (1 << 30), static_cast<unsigned long long>(bytes / 8));

  MainWindow window;
  window.resize(1500, 1000);
  window.show();
  auto* dock = window.findChild<QDockWidget*>("spectrogramDock");
  auto* view = dock->findChild<SpectrogramView*>();
  auto* statistics = window.findChild<StatisticsPanel*>();
  dock->setFloating(true);  // as a user gives it the screen's width: 1500x600 beside the window
  dock->resize(1500, 600);
  dock->show();
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
  while (!view->tiles()) QCoreApplication::processEvents(QEventLoop::AllEvents, 1);  // the plot's preview
  while (!view->covered()) QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
  const double firstView = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  const unsigned overviewLevel = view->levelDrawn();
  const double screenView = untilComplete(*view, timer);
  const bool indexedFirst = window.signal() != nullptr;
  std::printf("first view: %s; drawn %d columns x %d rows%s\n", view->note().toUtf8().constData(),
              view->colourMap()->data()->keySize(), view->colourMap()->data()->valueSize(),
              indexedFirst ? " (after the window's index)" : ", from the plot's preview, the window still indexing the file");

  // Zoom steps: the signal plot's range halved about a random point, 3 runs of 20 from the whole
  // signal, until the spectrogram has drawn it at screen resolution (the plot's own redraw included).
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> where(0.0, 1.0);
  const auto samples = static_cast<double>(bytes / 8);
  int drawings = 0;
  QObject::connect(view, &SpectrogramView::drawn, [&drawings] { ++drawings; });
  const auto zoomRuns = [&](int runs, const std::function<void(double, double)>& show, const SignalPlot* plot) {
    Steps steps;
    for (int run = 0; run < runs; ++run) {
      double first = 0, last = samples;
      for (int step = 0; step < 20; ++step) {
        const double width = (last - first) / 2;
        const double centre = first + width / 2 + where(rng) * width;
        first = centre - width / 2;
        last = centre + width / 2;
        drawings = 0;
        const double gui = threadCpuMs(), process = processCpuMs(), read = readMiB(), requests = tileRequests(*view);
        const auto workers = workerCpuMs();
        timer.restart();
        show(first, last);
        double pointsMs = 0, spectrogramMs = 0;
        steps.wall.push_back(untilComplete(*view, timer, plot, &pointsMs, &spectrogramMs));
        steps.pointsMs.push_back(pointsMs);
        steps.spectrogramMs.push_back(spectrogramMs);
        steps.statisticsBusy.push_back(statistics->refreshPending() ? 1.0 : 0.0);
        for (const auto& [name, ms] : workerCpuMs()) {
          const auto before = workers.find(name);
          steps.workerCpu[name].push_back(ms - (before == workers.end() ? 0.0 : before->second));
        }
        steps.requests.push_back(tileRequests(*view) - requests);
        steps.guiCpu.push_back(threadCpuMs() - gui);
        steps.processCpu.push_back(processCpuMs() - process);
        steps.drawings.push_back(drawings);
        steps.readMiB.push_back(readMiB() - read);
      }
      show(0, samples);
      untilComplete(*view, timer, plot);
    }
    return steps;
  };
  const auto throughPlot = [&](double first, double last) { window.signalPlot()->setVisibleRange(first, last); };
  const auto spectrogramOnly = [&](double first, double last) { view->setVisibleRange(first, last); };
  const Steps steps = zoomRuns(3, throughPlot, window.signalPlot());
  const bool indexingDuringSteps = window.busy();
  const Steps alone = zoomRuns(1, spectrogramOnly, nullptr);
  std::vector<double> redraws, redrawsCpu;
  for (int i = 0; i < 10; ++i) {
    const double gui = threadCpuMs();
    timer.restart();
    view->setDecibelRange(std::nullopt);  // one drawing of what is cached
    redraws.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    redrawsCpu.push_back(threadCpuMs() - gui);
  }
  // Esc during a request: nperseg 8192 with noverlap 8000 makes a new pyramid of 11M frames whose
  // first view reads some 1,700 frames of 64 KiB; Esc 20 ms after its worker started.
  view->setSegment(8192, 8000, "hann");
  while (tileWorkersRunning() == 0) QThread::usleep(100);
  QThread::usleep(20'000);
  const std::size_t columns = static_cast<std::size_t>(view->colourMap()->data()->keySize());
  const std::size_t tilesIn = view->tiles()->cache().size();
  timer.restart();
  view->cancel();
  while (view->busy()) QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
  const double escMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  while (tileWorkersRunning() > 0) QThread::usleep(200);
  const double workerMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  const std::size_t missing = view->tiles()->missingFor(view->first(), view->last(), columns).size();
  std::printf("Esc came with %zu tiles in and %zu still missing after it\n", tilesIn, missing);
  // The window's own index, waited for asleep: polling spun the GUI thread on a core for minutes,
  // slowing the index (at background priority since session 21) and adding its CPU to the run's.
  while (window.busy()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
  const double indexed = static_cast<double>(timer.elapsed()) / 1000.0;
  std::fprintf(stderr, "phase: idle steps through the plot start\n");  // where a profiler attaches
  const Steps afterIndex = zoomRuns(2, throughPlot, window.signalPlot());
  std::fprintf(stderr, "phase: idle steps through the plot end\n");
  const double peak = statusMiB("VmHWM:");

  const auto describe = [&](const char* what, const Steps& v) {
    std::printf("%-58s %zu steps (halving to %.0f samples), median %.1f ms, max %.1f ms; CPU a step (median): GUI thread %.1f ms, "
                "process %.1f ms; drawings a step (median) %.0f; read from storage a step (median) %.1f MiB; tile requests a step "
                "(max) %.0f\n",
                what, v.wall.size(), samples / (1 << 20), median(v.wall), *std::max_element(v.wall.begin(), v.wall.end()),
                median(v.guiCpu), median(v.processCpu), median(v.drawings), median(v.readMiB),
                *std::max_element(v.requests.begin(), v.requests.end()));
    double busy = 0;
    for (double b : v.statisticsBusy) busy += b;
    std::printf("%-58s plot's points in %.1f ms, spectrogram complete in %.1f ms (medians); the visible range's statistics "
                "still running at %.0f of %zu step ends; worker CPU a step (median):",
                "  split:", median(v.pointsMs), median(v.spectrogramMs), busy, v.wall.size());
    for (const auto& [name, ms] : v.workerCpu) std::printf(" %s %.1f ms (total %.0f ms);", name.c_str(), median(ms), [&ms] {
      double t = 0;
      for (double x : ms) t += x;
      return t;
    }());
    std::printf("\n");
  };
  describe(indexingDuringSteps ? "zoom steps through the plot, the window indexing the file:" : "zoom steps through the plot:", steps);
  describe("zoom steps of the spectrogram alone (no plot redraw):", alone);
  describe("zoom steps through the plot, the window idle (indexed):", afterIndex);
  std::printf("%-58s median %.1f ms, GUI thread CPU %.1f ms (%d columns x %d rows, replot included)\n",
              "one drawing of the cached tiles:", median(redraws), median(redrawsCpu), view->colourMap()->data()->keySize(),
              view->colourMap()->data()->valueSize());
  std::printf("resident before opening %.0f MiB; the window's own index of the file (pyramid, statistics: two passes) "
              "ended %.1f s after Esc\n", residentBefore, indexed);
  if (!window.signal() || !window.signal()->mapping()) std::printf("(the file was not viewed from its mapping)\n");
  target("open to the spectrogram's first view (overview, every column)", firstView, "ms", 2000);
  std::printf("%-58s %10.1f ms  (overview every %llu frames, then the screen's resolution)\n",
              "open to that view refined to the screen's columns", screenView,
              static_cast<unsigned long long>(1ull << overviewLevel));
  target("zoom step through the plot, window indexing (median)", median(steps.wall), "ms", 100);
  target("zoom step through the plot, window idle (median)", median(afterIndex.wall), "ms", 100);
  target("GUI thread CPU a zoom step through the plot, idle (median)", median(afterIndex.guiCpu), "ms", 100);
  target("peak resident memory, open to the end (VmHWM)", peak, "MiB", 1024);
  target("Esc to the view idle (the request dropped)", escMs, "ms", 100);
  target("Esc to its worker's end (after the reads in flight)", workerMs, "ms", 100);
  return 0;
}

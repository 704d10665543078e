// Benchmark (not a test): cursor A dragged across a 100M-sample signal (argument: another count)
// in a 1500x820 plot on the offscreen platform, each step a mouse move, the plot repainted and the
// readout's text taken, as a user's drag would. Prints the steps per second (target: 30) and how
// long the span's statistics (in a worker) took to settle after the drag.
#include <qcustomplot.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QMouseEvent>
#include <QThread>

#include <cstdio>
#include <string>

#include "cursor_readout_view.hpp"
#include "loaded_signal.hpp"
#include "signal_cursors.hpp"
#include "signal_plot.hpp"
#include "spectrum_cursor.hpp"
#include "spectrum_view.hpp"
#include "siglab/generate.hpp"
#include "process_memory.hpp"

namespace {

void mouse(QWidget* widget, QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
  QMouseEvent event(type, at, widget->mapToGlobal(at), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                    buttons, Qt::NoModifier);
  QCoreApplication::sendEvent(widget, &event);
}

}  // namespace

int main(int argc, char** argv) {
  siglab::gui::returnLargeBlocksToTheSystem();  // as the desktop does (main.cpp)
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  using namespace siglab;
  using namespace siglab::gui;
  GenerateOptions options;
  options.count = argc > 1 ? std::stoull(argv[1]) : 100'000'000;
  options.seed = 7;
  QFile loadavg("/proc/loadavg");
  if (loadavg.open(QIODevice::ReadOnly)) {
    std::printf("machine: %d cores, load average %s", QThread::idealThreadCount(), loadavg.readLine().constData());
  }
  QElapsedTimer timer;
  timer.start();
  auto signal = std::make_shared<const LoadedSignal>("benchmark", generateSignal(options), Progress{}, 48000.0);
  std::printf("signal: %llu samples (sine + noise, seed 7) at 48 kHz, made and indexed in %.1f s\n",
              static_cast<unsigned long long>(options.count), static_cast<double>(timer.elapsed()) / 1000.0);

  SignalPlot plot;
  plot.resize(1500, 820);
  plot.setSampleRate(48000.0);
  plot.setOriginal(signal);
  plot.show();
  SignalCursors cursors(&plot);
  SpectrumView spectrum;
  SpectrumCursor spectrumCursor(&spectrum);
  CursorReadoutView readout(&cursors, &spectrumCursor);
  readout.show();
  QCoreApplication::processEvents();
  cursors.setShown(true);
  QCoreApplication::processEvents();

  QCustomPlot* qcp = plot.plot();
  QCPAxis* x = qcp->axisRect()->axis(QCPAxis::atBottom);
  const double y = qcp->axisRect()->center().y();
  const double from = x->coordToPixel(cursors.a());
  const double to = x->coordToPixel(cursors.b()) - 20;
  constexpr int kSteps = 300;
  mouse(qcp, QEvent::MouseButtonPress, {from, y}, Qt::LeftButton);
  timer.restart();
  std::size_t characters = 0;
  for (int step = 1; step <= kSteps; ++step) {
    mouse(qcp, QEvent::MouseMove, {from + (to - from) * step / kSteps, y}, Qt::LeftButton);
    qcp->repaint();  // the redraw a user sees, now rather than at the next frame
    QCoreApplication::processEvents();
    characters += readout.signalText().size();
  }
  const double seconds = static_cast<double>(timer.elapsed()) / 1000.0;
  mouse(qcp, QEvent::MouseButtonRelease, {to, y}, Qt::NoButton);
  QElapsedTimer settle;
  settle.start();
  while (cursors.spanPending()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  const double rate = kSteps / seconds;
  std::printf("drag of cursor A: %d steps in %.3f s: %.1f steps per second (each a mouse move, a repaint of the "
              "1500x820 plot and the readout), target 30: %.2fx of it\n",
              kSteps, seconds, rate, rate / 30.0);
  std::printf("span after the drag: %llu samples; its statistics settled %.0f ms after the release (in a worker)\n",
              static_cast<unsigned long long>(cursors.spanStatistics().count), static_cast<double>(settle.elapsed()));
  std::printf("readout at the end:\n%s\n", cursors.readoutText().toStdString().c_str());
  return characters > 0 && rate >= 30.0 ? 0 : 1;
}

#pragma once
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QString>

#include <ostream>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "main_window.hpp"
#include "signal_plot.hpp"
#include "statistics_panel.hpp"

// Readable QStrings in GoogleTest's failure messages.
inline void PrintTo(const QString& text, std::ostream* out) { *out << '"' << text.toStdString() << '"'; }

namespace siglab::test {

// A signal's samples (in memory or mapped) as a vector, for comparisons.
inline std::vector<double> asVector(std::span<const double> samples) { return {samples.begin(), samples.end()}; }

// Runs the event loop until the plot shows its latest view's points (a mapped file's come from a
// worker; once drawn, a plot whose axis labels changed width asks again for its new width), or 10 s
// have passed.
inline ::testing::AssertionResult waitForPoints(const gui::SignalPlot& plot) {
  QElapsedTimer timer;
  timer.start();
  do {
    while (plot.pointsPending()) {
      if (timer.elapsed() > 10'000) return ::testing::AssertionFailure() << "the plot's points did not come in 10 s";
      QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    QCoreApplication::processEvents();  // the queued replot, and the points it may ask for
  } while (plot.pointsPending());
  return ::testing::AssertionSuccess();
}

// Runs the event loop until the window's background task has finished and the plot shows its
// latest view's points (or 60 s have passed).
inline ::testing::AssertionResult waitForTask(const gui::MainWindow& window) {
  QElapsedTimer timer;
  timer.start();
  while (window.busy()) {
    if (timer.elapsed() > 60'000) return ::testing::AssertionFailure() << "the task did not finish in 60 s";
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  QCoreApplication::processEvents();  // let queued replots and status updates run
  return waitForPoints(*window.signalPlot());
}

// Runs the event loop until the statistics panel's refresh timer has fired (or 5 s have passed).
inline ::testing::AssertionResult waitForVisibleStatistics(const gui::StatisticsPanel& panel) {
  QElapsedTimer timer;
  timer.start();
  while (panel.refreshPending()) {
    if (timer.elapsed() > 5'000) return ::testing::AssertionFailure() << "the visible statistics were not refreshed in 5 s";
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  }
  return ::testing::AssertionSuccess();
}

}  // namespace siglab::test

#include "statistics_tasks.hpp"

#include <QtConcurrent>

#include "background_priority.hpp"

namespace siglab::gui {

void computeStatistics(QPromise<StatisticsOutcome>& promise, SignalPtr signal, SampleRange range,
                       std::shared_ptr<const std::atomic<bool>> cancel) {
  promise.setProgressRange(0, 1000);
  Progress progress;
  progress.cancelFlag = cancel.get();
  progress.onProgress = [&promise](double fraction) { promise.setProgressValue(static_cast<int>(fraction * 1000)); };
  StatisticsOutcome outcome;
  try {
    outcome.statistics = signal->statisticsOf(range, progress);
  } catch (const Cancelled&) {
    return;
  } catch (const std::exception& e) {
    outcome.error = QString::fromStdString(e.what());
  }
  promise.addResult(std::move(outcome));
}

QFuture<Statistics> statisticsInBackground(SignalPtr signal, SampleRange range, std::shared_ptr<const std::atomic<bool>> stop) {
  return QtConcurrent::run([signal = std::move(signal), range, stop = std::move(stop)] {
    Progress progress;
    progress.cancelFlag = stop.get();
    try {
      // A mapped file's range is read from disk, gigabytes of it zoomed out: at background priority,
      // so the zoom step that asked for it gets its tiles and points first.
      if (signal->mapping()) return atBackgroundPriority([&] { return signal->statisticsOf(range, progress); });
      return signal->statisticsOf(range, progress);
    } catch (const Cancelled&) {
      return Statistics{};
    }
  });
}

}  // namespace siglab::gui

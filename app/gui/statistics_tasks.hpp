#pragma once
#include <QFuture>
#include <QPromise>
#include <QString>

#include <atomic>
#include <memory>

#include "loaded_signal.hpp"
#include "siglab/statistics.hpp"

namespace siglab::gui {

struct StatisticsOutcome {
  Statistics statistics;
  QString error;  // a read that failed (a mapped file cut short), in the reader's words
};

// The statistics of `range` of `signal` in a worker (TaskRunner), progress in thousandths; a cancel
// (Esc, or a newer request) stops it at its next piece and leaves no result.
void computeStatistics(QPromise<StatisticsOutcome>& promise, SignalPtr signal, SampleRange range,
                       std::shared_ptr<const std::atomic<bool>> cancel);

// The statistics of `range` in a worker for a view that keeps its latest request only (the visible
// range, the span between the cursors): `stop` set, it ends at its next piece with count 0.
QFuture<Statistics> statisticsInBackground(SignalPtr signal, SampleRange range, std::shared_ptr<const std::atomic<bool>> stop);

}  // namespace siglab::gui

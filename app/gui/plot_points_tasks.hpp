#pragma once
#include <QFuture>

#include <atomic>
#include <memory>
#include <vector>

#include "loaded_signal.hpp"

namespace siglab::gui {

// The points of a plot's curves for one view, read in a worker: a mapped file's samples are faulted
// in there (the kernel reads ahead megabytes a fault), never on the GUI thread during a zoom.
struct PointsRequest {
  std::vector<SignalPtr> curves;  // one a curve; null: a curve with nothing to draw
  double firstKey = 0;
  double lastKey = 0;
  std::size_t columns = 1;
};

// Each curve's LoadedSignal::pointsFor, in the request's order (empty for a null curve); `stop` set
// (a newer view), it ends before its next curve with what it has.
QFuture<std::vector<PlotPoints>> pointsInBackground(PointsRequest request, std::shared_ptr<const std::atomic<bool>> stop);

// Whether drawing `signal` reads a file (its points then come from pointsInBackground).
inline bool readsFile(const LoadedSignal* signal) { return signal && signal->mapping(); }

}  // namespace siglab::gui

#include "plot_points_tasks.hpp"

#include <pthread.h>

#include <QThreadPool>
#include <QtConcurrent>

#include <exception>

namespace siglab::gui {
namespace {

// A thread of their own: a view's points never wait behind a spectrogram's tiles or a file's index
// in the global pool (one thread a core), nor do those wait behind them.
struct OneThreadPool : QThreadPool {
  OneThreadPool() { setMaxThreadCount(1); }
};

QThreadPool& pointsPool() {
  static OneThreadPool pool;  // waits for its worker at exit
  return pool;
}

}  // namespace

QFuture<std::vector<PlotPoints>> pointsInBackground(PointsRequest request, std::shared_ptr<const std::atomic<bool>> stop) {
  return QtConcurrent::run(&pointsPool(), [request = std::move(request), stop = std::move(stop)] {
    pthread_setname_np(pthread_self(), "siglab-points");  // its CPU told apart from the pool's (top, perf)
    std::vector<PlotPoints> points(request.curves.size());
    // A newer view stops it before its next curve (a request replaced in the queue never starts one).
    for (std::size_t i = 0; i < request.curves.size() && !stop->load(); ++i) {
      if (!request.curves[i]) continue;
      try {
        points[i] = request.curves[i]->pointsFor(request.firstKey, request.lastKey, request.columns);
      } catch (const std::exception&) {
        points[i] = {};  // a read that failed (a file cut short while viewed): that curve draws nothing
      }
    }
    return points;
  });
}

}  // namespace siglab::gui

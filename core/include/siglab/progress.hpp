#pragma once
#include <atomic>
#include <functional>
#include <stdexcept>

namespace siglab {

// Thrown by long work that noticed its cancellation; whatever it was producing is discarded.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

// How long work (loading, filtering, exporting) reports progress and learns it should stop.
// Both parts are optional; the callback may be called from worker threads, so it must be
// thread-safe (the GUI forwards it through a queued signal).
struct Progress {
  std::function<void(double fraction)> onProgress;  // 0..1
  const std::atomic<bool>* cancelFlag = nullptr;

  void report(double fraction) const {
    if (onProgress) onProgress(fraction);
  }
  bool cancelled() const { return cancelFlag && cancelFlag->load(std::memory_order_relaxed); }
  void throwIfCancelled() const {
    if (cancelled()) throw Cancelled();
  }
};

}  // namespace siglab

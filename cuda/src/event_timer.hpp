#pragma once
// CUDA events, and the one timer built on them: every GPU time SigLab reports is the time between
// two events recorded on a stream of the engine's own (never the legacy default stream).
#include <cuda_runtime.h>

#include <utility>

#include "cuda_check.hpp"
#include "siglab/measure.hpp"
#include "stream.hpp"

namespace siglab::cuda {

// One CUDA event: a point in a stream's work that the host or another stream can wait for.
class Event {
 public:
  Event() { SIGLAB_CUDA_TRY(cudaEventCreate(&event_)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  ~Event() {
    if (event_) cudaEventDestroy(event_);
  }
  void record(StreamView stream) { SIGLAB_CUDA_TRY(cudaEventRecord(event_, stream.get())); }
  void synchronize() const { SIGLAB_CUDA_TRY(cudaEventSynchronize(event_)); }
  cudaEvent_t get() const { return event_; }

  // Milliseconds from `start` to this event; both must have completed.
  float millisSince(const Event& start) const {
    float ms = 0.0f;
    SIGLAB_CUDA_TRY(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

// The timer: start() and stopMs() around work queued on `stream`; as a callable, one execution for
// measure() of the work `launch` queues.
class EventTimer {
 public:
  explicit EventTimer(StreamView stream) : stream_(stream) {}
  void start() { start_.record(stream_); }
  // Waits for the work queued since start() and returns its milliseconds.
  double stopMs() {
    stop_.record(stream_);
    stop_.synchronize();
    return stop_.millisSince(start_);
  }
  template <class Launch>
  PhaseTimes operator()(const Launch& launch) {
    start();
    launch();
    const double ms = stopMs();
    return PhaseTimes{ms, 0.0, ms};
  }

 private:
  StreamView stream_;
  Event start_, stop_;
};

}  // namespace siglab::cuda

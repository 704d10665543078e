#pragma once
#include <cuda_runtime.h>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "siglab/measure.hpp"

namespace siglab::cuda {

// One execution for measure(): CUDA events around the work `launch` enqueues on `stream`.
class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream = nullptr) : stream_(stream) {}

  template <class Launch>
  PhaseTimes operator()(const Launch& launch) {
    start_.record(stream_);
    launch();
    stop_.record(stream_);
    SIGLAB_CUDA_TRY(cudaEventSynchronize(stop_.get()));
    const double ms = stop_.millisSince(start_);
    return PhaseTimes{ms, 0.0, ms};
  }

 private:
  cudaStream_t stream_;
  Event start_, stop_;
};

}  // namespace siglab::cuda

#pragma once
// One engine a device for issue 27's stage engines (cuda_stages.hpp), kept between runs with its
// stream and a few scratch areas that only grow: on 10M samples a stage's kernels take less time
// than cudaMalloc and cudaFree of its temporaries would (CuPy keeps a memory pool for the same
// reason). Runs on one device take turns: a lease holds the engine's lock for the run.
#include <array>
#include <cstddef>
#include <mutex>
#include <string>

#include "device_buffer.hpp"
#include "gpu_engine.hpp"

namespace siglab::cuda {

class StageEngine final : public GpuEngine {
 public:
  static constexpr int kScratchAreas = 4;
  StageEngine(std::string unavailable, int device) : GpuEngine(std::move(unavailable), device) {}
  ~StageEngine() override { releaseDeviceState(); }

  // Scratch area `area` as at least `count` Ts on the run's device, valid until the next run; call
  // inside run(). Its contents are whatever the last run left.
  template <class T>
  T* scratch(int area, std::size_t count, StreamView stream) {
    DeviceBuffer<std::byte>& buffer = areas_.at(static_cast<std::size_t>(area));
    if (buffer.size() < count * sizeof(T)) {
      buffer = {};  // the old area first: never both at once
      buffer = DeviceBuffer<std::byte>(count * sizeof(T), stream);
    }
    return reinterpret_cast<T*>(buffer.data());
  }

 protected:
  void dropDeviceState() noexcept override {
    for (DeviceBuffer<std::byte>& area : areas_) area = {};
  }

 private:
  std::array<DeviceBuffer<std::byte>, kScratchAreas> areas_;
};

// The engine of `device`, locked for one run (the lock ends with the lease).
struct StageEngineLease {
  std::unique_lock<std::mutex> lock;
  StageEngine* engine;
  StageEngine* operator->() const { return engine; }
};

// Throws EngineUnavailable where no CUDA GPU is usable or `device` is not one of them.
StageEngineLease leaseStageEngine(int device);

}  // namespace siglab::cuda

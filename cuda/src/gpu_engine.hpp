#pragma once
// The GPU engine base (issue 30), as faiss's GpuIndex: the public run does once what every GPU
// engine needs (the refusal where the engine cannot run, its device made current for the run, a
// stream of its own, staging of host data to the device and back, phase times, and CUDA's failures
// mapped to one typed error); an engine implements only the part that runs with its data resident
// on its device.
//
// The per-chunk hook: a resident part that reads a HaloedSpan (a stretch of signal with the
// boundary rule's halo around it) and writes its outputs is a ChunkKernel (haloed_span.hpp).
// stagedChunkRun() runs one over the whole signal, and ChunkPipeline (chunk_pipeline.cuh) runs the
// same callable on every chunk with the copies overlapped: an engine moves to the overlapped path
// by handing its chunk kernel to the pipeline instead.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_scope.hpp"
#include "event_timer.hpp"
#include "fft_plan_cache.hpp"
#include "haloed_span.hpp"
#include "pageable_staging.hpp"
#include "pinned_host.cuh"
#include "siglab/cuda_filters.hpp"
#include "siglab/filter_backend.hpp"
#include "stream.hpp"

namespace siglab::cuda {

// How a run failed on the device, mapped once from CUDA's and cuFFT's codes.
enum class GpuFailure { OutOfMemory, Failed };

class GpuRunError : public std::runtime_error {
 public:
  GpuRunError(GpuFailure failure, const std::string& message) : std::runtime_error(message), failure_(failure) {}
  GpuFailure failure() const { return failure_; }

 private:
  GpuFailure failure_;
};

// What the resident part runs on: the engine's device (current during the run) and its stream there.
struct OnDevice {
  int device;
  StreamView stream;
};

// Why no CUDA device can run anything here, or empty: the cheap check for engines made without a probe.
inline std::string noDeviceReason() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    return "no usable CUDA GPU was found";
  }
  return {};
}

class GpuEngine {
 public:
  // `unavailable`: why the engine cannot run on `device`, or empty.
  GpuEngine(std::string unavailable, int device) : unavailable_(std::move(unavailable)), device_(device) {}
  GpuEngine(const GpuEngine&) = delete;
  GpuEngine& operator=(const GpuEngine&) = delete;
  virtual ~GpuEngine() {
    if (!stream_) return;
    const DeviceScope scope(device_, std::nothrow);
    stream_.reset();
  }

  const std::string& unavailableReason() const { return unavailable_; }
  int device() const { return device_; }

  // The public run around `resident(OnDevice)`: throws EngineUnavailable where the engine cannot run;
  // otherwise runs it with the engine's device current and its stream, and maps a failure on the
  // device to GpuRunError: out of memory as "<outOfMemory> (<CUDA's words>)", any other CUDA or cuFFT
  // error with CUDA's words. After such a failure dropDeviceState() lets go of what may hold a broken
  // stream. Cancelled and the engine's own exceptions pass unchanged.
  template <class Resident>
  decltype(auto) run(std::string_view outOfMemory, const Resident& resident) {
    if (!unavailable_.empty()) throw EngineUnavailable(unavailable_);
    try {
      const DeviceScope scope(device_);
      if (!stream_) stream_ = std::make_unique<Stream>();
      return resident(OnDevice{device_, stream_->view()});
    } catch (const OutOfDeviceMemory& e) {
      dropAfterFailure();
      throw GpuRunError(GpuFailure::OutOfMemory, std::string(outOfMemory) + " (" + e.what() + ")");
    } catch (const CudaError& e) {
      dropAfterFailure();
      throw GpuRunError(GpuFailure::Failed, e.what());
    } catch (const CufftError& e) {
      dropAfterFailure();
      throw GpuRunError(GpuFailure::Failed, e.what());
    }
  }

 protected:
  // Frees the engine's device state after a failure (called with its device current).
  virtual void dropDeviceState() noexcept {}
  // dropDeviceState() with the engine's device current: for a derived destructor, and for failures
  // that are not the device's.
  void releaseDeviceState() noexcept {
    const DeviceScope scope(device_, std::nothrow);
    dropDeviceState();
  }

 private:
  void dropAfterFailure() noexcept {
    releaseDeviceState();
    const DeviceScope scope(device_, std::nothrow);
    stream_.reset();
  }

  std::string unavailable_;
  int device_;
  std::unique_ptr<Stream> stream_;  // made at the first run, on the engine's device
};

// Whether `pointer` is device memory of `device` (used in place); other memory is copied, pageable
// memory staged (StagedSignal).
inline bool isOnDevice(const void* pointer, int device) {
  cudaPointerAttributes attributes{};
  if (pointer == nullptr || cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return (attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged) &&
         attributes.device == device;
}

// A signal and its result on the device for one run: `in` copied to the device (or read in place
// when it is already there), the result copied back to `out` (or written in place). Pageable memory
// is staged by host threads through pinned pieces (pageable_staging.hpp).
template <class T>
class StagedSignal {
 public:
  StagedSignal(std::span<const T> in, std::span<T> out, const OnDevice& on)
      : in_(in), out_(out), inPlaceIn_(isOnDevice(in.data(), on.device)), inPlaceOut_(isOnDevice(out.data(), on.device)),
        pageableIn_(!inPlaceIn_ && memoryKindOf(in.data()) == MemoryKind::Pageable),
        pageableOut_(!inPlaceOut_ && memoryKindOf(out.data()) == MemoryKind::Pageable),
        d_in_(inPlaceIn_ ? 0 : in.size(), on.stream), d_out_(inPlaceOut_ ? 0 : out.size(), on.stream),
        staging_(on.stream) {}
  const T* d_in() const { return inPlaceIn_ ? in_.data() : d_in_.data(); }
  T* d_out() const { return inPlaceOut_ ? out_.data() : d_out_.data(); }
  void copyIn() const {
    copyIn([](std::size_t) {});
  }
  // The same, calling arrived(samples queued so far) as the copy goes (once at the end where it
  // is one copy), to queue work on the stream that reads them.
  template <class Arrived>
  void copyIn(const Arrived& arrived) const {
    if (pageableIn_) {
      staging_.toDevice(d_in_.data(), in_.data(), in_.size_bytes(), [&](std::size_t bytes) { arrived(bytes / sizeof(T)); });
      return;
    }
    if (!inPlaceIn_) d_in_.copyFrom(in_.data(), in_.size());
    arrived(in_.size());
  }
  void copyOut() const {
    if (pageableOut_) staging_.toHost(out_.data(), d_out_.data(), out_.size_bytes());
    else if (!inPlaceOut_) d_out_.copyTo(out_.data(), out_.size());
  }
  // Outputs [first, first + count) back now, queued on `stream`, where the copy engine writes `out`
  // directly (pinned memory); false where they wait for copyOut (pageable memory, staged) or need
  // no copy.
  bool copyOutNow(std::size_t first, std::size_t count, StreamView stream) const {
    if (pageableOut_ || inPlaceOut_) return false;
    if (count > 0) {
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(out_.data() + first, d_out_.data() + first, count * sizeof(T), cudaMemcpyDefault,
                                      stream.get()));
    }
    return true;
  }

 private:
  std::span<const T> in_;
  std::span<T> out_;
  bool inPlaceIn_, inPlaceOut_, pageableIn_, pageableOut_;
  DeviceBuffer<T> d_in_, d_out_;
  mutable PageableStaging staging_;  // last: destroyed first, once its copies are done
};

// One staged execution on `on`: the signal in, compute(d_in, d_out, stream) on the device, the
// result out, each phase timed by events on the engine's stream.
template <class T, class Compute>
PhaseTimes stagedRun(std::span<const T> in, std::span<T> out, const OnDevice& on, const Compute& compute) {
  const StagedSignal<T> signal(in, out, on);
  Event start, copiedIn, computed, copiedOut;
  start.record(on.stream);
  signal.copyIn();
  copiedIn.record(on.stream);
  compute(signal.d_in(), signal.d_out(), on.stream);
  computed.record(on.stream);
  signal.copyOut();
  copiedOut.record(on.stream);
  copiedOut.synchronize();
  return PhaseTimes{computed.millisSince(copiedIn), copiedIn.millisSince(start) + copiedOut.millisSince(computed),
                    copiedOut.millisSince(start)};
}

// A chunk kernel once on the whole signal (stagedRun): the halo from `mode` at the signal's ends.
template <class T, ChunkKernel<T> Kernel>
PhaseTimes stagedChunkRun(std::span<const T> in, std::span<T> out, int radius, BoundaryMode mode, const OnDevice& on,
                          const Kernel& kernel) {
  const auto n = static_cast<std::int64_t>(in.size());
  std::vector<T> halo(2 * static_cast<std::size_t>(radius));
  fillHaloAnywhere(in, memoryKindOf(in.data()) == MemoryKind::Device, 0, n, radius, mode, halo.data(), on.stream);
  DeviceBuffer<T> d_halo(halo.size(), on.stream);
  d_halo.copyFrom(halo.data(), halo.size());
  return stagedRun(in, out, on, [&](const T* d_in, T* d_out, StreamView stream) {
    kernel(HaloedSpan<T>{d_in, d_halo.data(), n}, d_out, stream);
  });
}

// For the cuda_filters.hpp functions, which report instead of throwing: run() (through `run`) with
// its refusal and failures as a GpuFilterResult's status. Cancelled passes unchanged.
template <class Run>
GpuFilterResult filterResultOf(const Run& run) {
  try {
    return run();
  } catch (const Cancelled&) {
    throw;
  } catch (const EngineUnavailable& e) {
    return {GpuStatus::Unavailable, e.what()};
  } catch (const GpuRunError& e) {
    return {e.failure() == GpuFailure::OutOfMemory ? GpuStatus::OutOfMemory : GpuStatus::Failed, e.what()};
  } catch (const std::exception& e) {
    return {GpuStatus::Failed, e.what()};
  }
}

}  // namespace siglab::cuda

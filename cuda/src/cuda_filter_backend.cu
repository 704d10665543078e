#include <cuda_runtime.h>

#include <algorithm>
#include <exception>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "mean_filter_kernels.cuh"
#include "siglab/cuda_backends.hpp"
#include "tuned_filter_backend.hpp"

namespace siglab {
namespace {

using cuda::KernelKind;

FilterRun notRun(RunStatus status, std::string message) {
  FilterRun run;
  run.status = status;
  run.message = std::move(message);
  return run;
}

std::string mebibytes(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

// One of the seed's kernel designs as a backend. Each run copies the signal in, filters it and
// copies the result back from pageable memory, as the seed does; every phase is timed with events.
class CudaFilterBackend final : public FilterBackend {
 public:
  CudaFilterBackend(KernelKind kind, std::string_view name, std::string_view description, std::string unavailable)
      : kind_(kind), name_(name), description_(description), unavailable_(std::move(unavailable)) {}

  std::string_view name() const override { return name_; }
  std::string_view description() const override { return description_; }
  std::string unavailableReason() const override { return unavailable_; }

  using FilterBackend::run;  // keep the float32 overload visible
  FilterRun run(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                const RunOptions& options) override {
    validate(spec);
    if (in.size() != out.size()) return notRun(RunStatus::Failed, "input and output sizes differ");
    if (!unavailable_.empty()) return notRun(RunStatus::Unavailable, unavailable_);
    if (options.blockSize < 32 || options.blockSize > 1024) {
      return notRun(RunStatus::Failed, "block size must be between 32 and 1024 threads");
    }
    if (kind_ != KernelKind::Global && spec.window() > cuda::kMaxConstantTaps) {
      return notRun(RunStatus::Unavailable, "window of " + std::to_string(spec.window()) + " taps exceeds the " +
                                                std::to_string(cuda::kMaxConstantTaps) +
                                                " that __constant__ memory holds; use gpu-global");
    }
    try {
      SIGLAB_CUDA_TRY(cudaSetDevice(0));
      if (kind_ == KernelKind::Shared) {
        int limit = 0;
        SIGLAB_CUDA_TRY(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
        const std::size_t need = cuda::sharedTileBytes(options.blockSize, static_cast<int>(spec.window()));
        if (need > static_cast<std::size_t>(limit)) {
          return notRun(RunStatus::Unavailable, "the tile for this window needs " + std::to_string(need / 1024) +
                                                    " KiB of shared memory per block; the device allows " +
                                                    std::to_string(limit / 1024) + " KiB");
        }
      }
      return timedRuns(in, spec, out, options);
    } catch (const cuda::CudaError& e) {
      if (e.code() == cudaErrorMemoryAllocation) {
        return notRun(RunStatus::Failed, "out of GPU memory: the signal and result need " +
                                             mebibytes(2 * in.size() * sizeof(double)) + " (" + e.what() + ")");
      }
      return notRun(RunStatus::Failed, e.what());
    } catch (const std::exception& e) {
      return notRun(RunStatus::Failed, e.what());
    }
  }

 private:
  FilterRun timedRuns(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                      const RunOptions& options) {
    const std::size_t bytes = in.size() * sizeof(double);
    cuda::DeviceBuffer<double> d_in(in.size());
    cuda::DeviceBuffer<double> d_out(in.size());
    cuda::DeviceBuffer<double> d_taps;
    if (kind_ == KernelKind::Global) {
      d_taps = cuda::DeviceBuffer<double>(spec.window());
      SIGLAB_CUDA_TRY(cudaMemcpy(d_taps.data(), spec.taps.data(), d_taps.bytes(), cudaMemcpyHostToDevice));
    } else {
      cuda::uploadConstantTaps(spec.taps);
    }
    cuda::FilterLaunch launch;
    launch.d_in = d_in.data();
    launch.d_out = d_out.data();
    launch.n = static_cast<std::int64_t>(in.size());
    launch.window = static_cast<int>(spec.window());
    launch.mode = spec.mode;
    launch.blockSize = options.blockSize;
    launch.d_taps = d_taps.data();

    cuda::Event start, copiedIn, filtered, copiedOut;
    std::vector<double> kernelMs, transferMs, totalMs;
    const int runs = std::max(1, options.repeat);
    for (int rep = -1; rep < runs; ++rep) {  // rep -1 is the warm-up
      start.record();
      SIGLAB_CUDA_TRY(cudaMemcpy(d_in.data(), in.data(), bytes, cudaMemcpyHostToDevice));
      copiedIn.record();
      cuda::launchFilter(kind_, launch);
      filtered.record();
      SIGLAB_CUDA_TRY(cudaMemcpy(out.data(), d_out.data(), bytes, cudaMemcpyDeviceToHost));
      copiedOut.record();
      SIGLAB_CUDA_TRY(cudaEventSynchronize(copiedOut.get()));
      if (rep < 0) continue;
      kernelMs.push_back(filtered.millisSince(copiedIn));
      transferMs.push_back(copiedIn.millisSince(start) + copiedOut.millisSince(filtered));
      totalMs.push_back(copiedOut.millisSince(start));
    }
    FilterRun result;
    result.kernel = summarize(kernelMs);
    result.transfer = summarize(transferMs);
    result.total = summarize(totalMs);
    return result;
  }

  KernelKind kind_;
  std::string_view name_;
  std::string_view description_;
  std::string unavailable_;
};

}  // namespace

namespace {

std::string firstDeviceProblem() {
  const std::vector<DeviceInfo> devices = probeDevices();
  return devices.front().available ? std::string() : devices.front().reason;
}

}  // namespace

std::unique_ptr<FilterBackend> makeTunedCudaBackend(const CudaOptions& options) {
  return makeTunedBackend(options, firstDeviceProblem());
}

BackendList makeCudaBackends(const CudaOptions& options) {
  const std::string reason = firstDeviceProblem();
  BackendList backends;
  backends.push_back(std::make_unique<CudaFilterBackend>(KernelKind::Global, "gpu-global",
                                                         "GPU, taps and samples in global memory", reason));
  backends.push_back(std::make_unique<CudaFilterBackend>(KernelKind::Constant, "gpu-constant",
                                                         "GPU, taps in __constant__ memory", reason));
  backends.push_back(std::make_unique<CudaFilterBackend>(KernelKind::Shared, "gpu-shared",
                                                         "GPU, constant taps + shared-memory tile", reason));
  backends.push_back(makeTunedBackend(options, reason));
  return backends;
}

}  // namespace siglab

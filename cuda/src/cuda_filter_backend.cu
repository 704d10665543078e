#include <cuda_runtime.h>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "gpu_engine.hpp"
#include "device_split.hpp"
#include "run_results.hpp"
#include "mean_filter_kernels.cuh"
#include "siglab/cuda_backends.hpp"
#include "tuned_filter_backend.hpp"

namespace siglab {
namespace {

using cuda::KernelKind;

using cuda::mebibytes;

// One of the seed's kernel designs as a backend. Each execution copies the signal in, filters it
// and copies the result back (stagedRun), as the seed does; every phase is timed with events on
// that one execution. Its resident part reads the whole signal (the kernels apply the boundary
// rule themselves), so it runs on the whole signal, not per chunk.
class CudaFilterBackend final : public FilterBackend, public cuda::GpuEngine {
 public:
  CudaFilterBackend(KernelKind kind, std::string_view name, std::string_view description, std::string unavailable,
                    int device)
      : GpuEngine(std::move(unavailable), device), kind_(kind), name_(name), description_(description) {}

  std::string_view name() const override { return name_; }
  std::string_view description() const override { return description_; }
  bool usesGpu() const override { return true; }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override {
    if (!unavailableReason().empty()) return unavailableReason();
    if (std::string why = whyNotSampleType(type); !why.empty()) return why;
    return whyNotCorrelation(spec, name_);
  }

  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                    const RunOptions& options, const Progress& progress) override {
    return guardedRun<double>(in, spec, out, options, progress);
  }
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                    const RunOptions& options, const Progress& progress) override {
    return guardedRun<float>(in, spec, out, options, progress);
  }

 private:
  template <class T>
  FilterPass guardedRun(std::span<const T> in, const FilterSpec& spec, std::span<T> out, const RunOptions& options,
                        const Progress& progress) {
    validate(spec);
    if (in.size() != out.size()) throw std::invalid_argument("input and output sizes differ");
    const std::string outOfMemory = "out of GPU memory: the signal and result need " + mebibytes(2 * in.size() * sizeof(T));
    return run(outOfMemory, [&](const cuda::OnDevice& on) {
      if (options.blockSize < 32 || options.blockSize > 1024) {
        throw std::invalid_argument("block size must be between 32 and 1024 threads");
      }
      progress.throwIfCancelled();
      if (kind_ == KernelKind::Shared) {
        int limit = 0;
        SIGLAB_CUDA_TRY(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, on.device));
        const std::size_t need = cuda::sharedTileBytes(options.blockSize, static_cast<int>(spec.window()), sizeof(T));
        if (need > static_cast<std::size_t>(limit)) {
          throw EngineUnavailable("the tile for this window needs " + std::to_string(need / 1024) +
                                  " KiB of shared memory per block; the device allows " +
                                  std::to_string(limit / 1024) + " KiB");
        }
      }
      return filterOnce(in, spec, out, options, on);
    });
  }

  template <class T>
  FilterPass filterOnce(std::span<const T> in, const FilterSpec& spec, std::span<T> out, const RunOptions& options,
                        const cuda::OnDevice& on) {
    FilterPass pass;
    pass.splits.every = static_cast<std::size_t>(options.blockSize);  // each block its own outputs (and tile)
    if (in.empty()) return pass;
    const cuda::StreamView view = on.stream;
    const std::vector<T> taps(spec.taps.begin(), spec.taps.end());
    cuda::FilterLaunch<T> launch;
    // Constant and Shared read the constant bank; a window it cannot hold falls back to taps in
    // device memory, said in the pass's note.
    launch.tapsInConstantMemory = kind_ != KernelKind::Global && taps.size() <= cuda::kMaxConstantTaps;
    cuda::DeviceBuffer<T> d_taps(taps.size(), view);
    d_taps.copyFrom(taps.data(), taps.size());
    if (launch.tapsInConstantMemory) cuda::uploadConstantTaps<T>(taps, view);
    launch.n = static_cast<std::int64_t>(in.size());
    launch.window = static_cast<int>(spec.window());
    launch.mode = spec.mode;
    launch.blockSize = options.blockSize;
    launch.d_taps = d_taps.data();

    pass.phases = cuda::stagedRun(in, out, on, [&](const T* d_in, T* d_out, cuda::StreamView stream) {
      launch.d_in = d_in;
      launch.d_out = d_out;
      cuda::launchFilter(kind_, launch, stream);
    });
    if (kind_ != KernelKind::Global && !launch.tapsInConstantMemory) {
      pass.note = "fallback: " + std::to_string(taps.size()) + " taps exceed the " +
                  std::to_string(cuda::kMaxConstantTaps) +
                  " that __constant__ memory holds, so they were read from device memory";
    }
    return pass;
  }

  KernelKind kind_;
  std::string_view name_;
  std::string_view description_;
};

}  // namespace

std::unique_ptr<FilterBackend> makeTunedCudaBackend(const CudaOptions& options) {
  const std::vector<DeviceInfo> probed = probeDevices();
  return cuda::engineOnDevices(
      options.devices, [&](int device) { return makeTunedBackend(options, cuda::deviceProblem(probed, device), device); },
      [&](int device) { return makeTunedPartEngine(options, cuda::deviceProblem(probed, device), device); });
}

BackendList makeCudaBackends(const CudaOptions& options) { return makeCudaBackends(options, probeDevices().front()); }

BackendList makeCudaBackends(const CudaOptions& options, const DeviceInfo& firstDevice) {
  // A session's probe of the first device spares probing again for the usual one-device case.
  const std::vector<DeviceInfo> probed =
      options.devices.size() <= 1 && (options.devices.empty() || options.devices.front() == 0) ? std::vector{firstDevice}
                                                                                               : probeDevices();
  auto problem = [&](int device) { return cuda::deviceProblem(probed, device); };
  auto seedEngine = [&](KernelKind kind, std::string_view name, std::string_view description) {
    return cuda::engineOnDevices(options.devices, [&, kind, name, description](int device) -> std::unique_ptr<FilterBackend> {
      return std::make_unique<CudaFilterBackend>(kind, name, description, problem(device), device);
    });
  };
  BackendList backends;
  backends.push_back(seedEngine(KernelKind::Global, "gpu-global", "GPU, taps and samples in global memory"));
  backends.push_back(seedEngine(KernelKind::Constant, "gpu-constant", "GPU, taps in __constant__ memory"));
  backends.push_back(seedEngine(KernelKind::Shared, "gpu-shared", "GPU, constant taps + shared-memory tile"));
  backends.push_back(cuda::engineOnDevices(
      options.devices, [&](int device) { return makeTunedBackend(options, problem(device), device); },
      [&](int device) { return makeTunedPartEngine(options, problem(device), device); }));
  return backends;
}

}  // namespace siglab

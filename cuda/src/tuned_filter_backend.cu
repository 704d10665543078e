#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <vector>

#include "chunk_pipeline.cuh"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "run_results.hpp"
#include "tuned_filter_backend.hpp"
#include "tuned_filter_kernel.cuh"

namespace siglab {
namespace {

using cuda::ChunkPipeline;
using cuda::DeviceBuffer;
using cuda::Event;

using cuda::mebibytes;
using cuda::notRun;

template <class T>
std::vector<T> tapsAs(const FilterSpec& spec) {
  return std::vector<T>(spec.taps.begin(), spec.taps.end());
}

// The whole signal on the device, with its halo (the boundary rule's values) and a launch over it.
template <class T>
struct ResidentSignal {
  ResidentSignal(std::span<const T> in, const FilterSpec& spec, const cuda::TunedLaunch<T>& kernel)
      : d_in(in.size()), d_out(in.size()), d_halo(2 * spec.radius()), launch(kernel) {
    const int radius = static_cast<int>(spec.radius());
    std::vector<T> halo(d_halo.size());
    cuda::fillHalo(in, 0, static_cast<std::int64_t>(in.size()), radius, spec.mode, halo.data());
    SIGLAB_CUDA_TRY(cudaMemcpy(d_halo.data(), halo.data(), d_halo.bytes(), cudaMemcpyHostToDevice));
    launch.in = {d_in.data(), d_halo.data(), static_cast<std::int64_t>(in.size())};
    launch.d_out = d_out.data();
  }
  DeviceBuffer<T> d_in, d_out, d_halo;
  cuda::TunedLaunch<T> launch;
};

class TunedFilterBackend final : public FilterBackend {
 public:
  TunedFilterBackend(const CudaOptions& options, std::string unavailable)
      : options_(options), unavailable_(std::move(unavailable)) {}

  std::string_view name() const override { return "gpu-tuned"; }
  std::string_view description() const override {
    return "GPU, 16-byte loads, shared tile, several outputs a thread; pinned chunked multi-stream copies";
  }
  std::string unavailableReason() const override { return unavailable_; }
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override {
    return usesPrefixSum<double>(spec) ? cuda::prefixSumErrorBound(static_cast<int>(spec.window()), maxAbsInput) : 0.0;
  }

  FilterRun run(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                const RunOptions& options) override {
    return guardedRun<double>(in, spec, out, options);
  }
  FilterRun run(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                const RunOptions& options) override {
    return guardedRun<float>(in, spec, out, options);
  }

 private:
  template <class T>
  FilterRun guardedRun(std::span<const T> in, const FilterSpec& spec, std::span<T> out, const RunOptions& options) {
    validate(spec);
    if (in.size() != out.size()) return notRun(RunStatus::Failed, "input and output sizes differ");
    if (!unavailable_.empty()) return notRun(RunStatus::Unavailable, unavailable_);
    if (spec.window() > static_cast<std::size_t>(cuda::kMaxTunedWindow)) {
      return notRun(RunStatus::Unavailable, "gpu-tuned takes windows up to " + std::to_string(cuda::kMaxTunedWindow) +
                                                " taps; use gpu-global for " + std::to_string(spec.window()));
    }
    try {
      SIGLAB_CUDA_TRY(cudaSetDevice(0));
      if (in.empty()) return FilterRun{};
      return timedRuns(in, spec, out, options);
    } catch (const cuda::CudaError& e) {
      pipelines_ = {};
      if (e.code() == cudaErrorMemoryAllocation) {
        return notRun(RunStatus::Failed, std::string("out of GPU memory; a smaller --gpu-memory-budget makes smaller "
                                                     "chunks (") + e.what() + ")");
      }
      return notRun(RunStatus::Failed, e.what());
    } catch (const std::exception& e) {
      pipelines_ = {};
      return notRun(RunStatus::Failed, e.what());
    }
  }

  std::size_t budgetBytes() const {
    if (options_.memoryBudgetBytes > 0) return options_.memoryBudgetBytes;
    std::size_t freeBytes = 0, totalBytes = 0;
    SIGLAB_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes));
    return freeBytes / 10 * 9;
  }

  template <class T>
  FilterRun timedRuns(std::span<const T> in, const FilterSpec& spec, std::span<T> out, const RunOptions& options) {
    const int window = static_cast<int>(spec.window());
    const int radius = window / 2;
    const std::vector<T> taps = tapsAs<T>(spec);
    DeviceBuffer<T> d_taps(taps.size());
    SIGLAB_CUDA_TRY(cudaMemcpy(d_taps.data(), taps.data(), d_taps.bytes(), cudaMemcpyHostToDevice));
    const int runs = std::max(1, options.repeat);
    const std::size_t budget = budgetBytes();
    const std::size_t residentBytes = (2 * in.size() + 2 * static_cast<std::size_t>(radius)) * sizeof(T);
    const bool resident = residentBytes <= budget;

    cuda::TunedLaunch<T> kernel;
    kernel.d_taps = d_taps.data();
    kernel.window = window;
    // A NaN or infinity would stay in the prefix sums past its window: the direct path then.
    kernel.prefixSum = usesPrefixSum<T>(spec) && std::all_of(in.begin(), in.end(), [](T v) { return std::isfinite(v); });
    kernel.uniformTap = taps.front();

    FilterRun result;
    if (resident && !options_.overlapTransfers) return noted(seedStyleRuns(in, spec, out, kernel, runs), kernel);
    if (resident) result.kernel = residentKernelTimes(in, spec, kernel, runs);

    ChunkPipeline<T>& pipeline = pipelineFor<T>(in.size(), radius, budget);
    std::vector<double> kernelMs, transferMs, totalMs;
    for (int rep = -1; rep < runs; ++rep) {  // rep -1 is the warm-up
      const cuda::PipelinePass pass = pipeline.run(in, out, kernel, spec.mode);
      if (rep < 0) continue;
      kernelMs.push_back(pass.kernelMs);
      transferMs.push_back(pass.transferMs);
      totalMs.push_back(pass.totalMs);
    }
    if (!resident) result.kernel = summarize(kernelMs);
    result.transfer = summarize(transferMs);
    result.total = summarize(totalMs);
    const std::size_t chunks = (in.size() + pipeline.chunkSamples() - 1) / pipeline.chunkSamples();
    result.message = std::to_string(chunks) + " chunk(s) of " + std::to_string(pipeline.chunkSamples()) +
                     " samples on " + std::to_string(pipeline.slots()) + " streams" +
                     (resident ? "" : ", signal over the " + mebibytes(budget) + " memory budget: kernel time summed");
    return noted(result, kernel);
  }

  template <class T>
  static bool usesPrefixSum(const FilterSpec& spec) {
    return std::is_same_v<T, double> && spec.isUniform() && spec.window() >= cuda::kPrefixSumMinWindow;
  }

  template <class T>
  static FilterRun noted(FilterRun run, const cuda::TunedLaunch<T>& kernel) {
    if (kernel.prefixSum) {
      run.message += std::string(run.message.empty() ? "" : "; ") +
                     "prefix-sum path (uniform window >= " + std::to_string(cuda::kPrefixSumMinWindow) +
                     "): within the stated error bound, not bit-identical";
    }
    return run;
  }

  // The kernel alone, on the whole signal resident on the device.
  template <class T>
  TimingStats residentKernelTimes(std::span<const T> in, const FilterSpec& spec, const cuda::TunedLaunch<T>& kernel,
                                  int runs) {
    ResidentSignal<T> signal(in, spec, kernel);
    SIGLAB_CUDA_TRY(cudaMemcpy(signal.d_in.data(), in.data(), signal.d_in.bytes(), cudaMemcpyHostToDevice));
    Event start, stop;
    std::vector<double> kernelMs;
    for (int rep = -1; rep < runs; ++rep) {
      start.record();
      cuda::launchTunedFilter(signal.launch);
      stop.record();
      SIGLAB_CUDA_TRY(cudaEventSynchronize(stop.get()));
      if (rep >= 0) kernelMs.push_back(stop.millisSince(start));
    }
    return summarize(kernelMs);
  }

  // As the seed: copy the whole signal in, filter, copy the result out, each phase timed.
  template <class T>
  FilterRun seedStyleRuns(std::span<const T> in, const FilterSpec& spec, std::span<T> out,
                          const cuda::TunedLaunch<T>& kernel, int runs) {
    ResidentSignal<T> signal(in, spec, kernel);
    Event start, copiedIn, filtered, copiedOut;
    std::vector<double> kernelMs, transferMs, totalMs;
    for (int rep = -1; rep < runs; ++rep) {
      start.record();
      SIGLAB_CUDA_TRY(cudaMemcpy(signal.d_in.data(), in.data(), signal.d_in.bytes(), cudaMemcpyHostToDevice));
      copiedIn.record();
      cuda::launchTunedFilter(signal.launch);
      filtered.record();
      SIGLAB_CUDA_TRY(cudaMemcpy(out.data(), signal.d_out.data(), signal.d_out.bytes(), cudaMemcpyDeviceToHost));
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
    result.message = "whole-signal copies, no overlap";
    return result;
  }

  // The pipeline for this element type, rebuilt only when the chunk shape changes.
  template <class T>
  ChunkPipeline<T>& pipelineFor(std::size_t samples, int radius, std::size_t budget) {
    const int slots = std::max(1, options_.streams);
    std::size_t chunk = options_.chunkSamples;
    if (chunk == 0) chunk = std::clamp<std::size_t>(samples / 16 / 4096 * 4096, 65536, 1 << 20);
    const std::size_t fitting = budget / sizeof(T) / static_cast<std::size_t>(slots);
    if (fitting <= 2 * static_cast<std::size_t>(radius) + 2) {
      throw std::runtime_error("the GPU memory budget of " + std::to_string(budget) + " bytes cannot hold " +
                               std::to_string(slots) + " chunks with their halos");
    }
    chunk = std::min({chunk, (fitting - 2 * static_cast<std::size_t>(radius)) / 2, samples});
    auto& held = std::get<std::unique_ptr<ChunkPipeline<T>>>(pipelines_);
    if (!held || held->chunkSamples() != chunk || held->radius() != radius ||
        held->slots() != static_cast<std::size_t>(slots)) {
      held.reset();  // free the old buffers before taking new ones
      held = std::make_unique<ChunkPipeline<T>>(chunk, radius, slots);
    }
    return *held;
  }

  CudaOptions options_;
  std::string unavailable_;
  std::tuple<std::unique_ptr<ChunkPipeline<double>>, std::unique_ptr<ChunkPipeline<float>>> pipelines_;
};

}  // namespace

std::unique_ptr<FilterBackend> makeTunedBackend(const CudaOptions& options, std::string unavailable) {
  return std::make_unique<TunedFilterBackend>(options, std::move(unavailable));
}

}  // namespace siglab

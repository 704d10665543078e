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
#include "device_scope.hpp"
#include "siglab/cuda_stages.hpp"
#include "gpu_engine.hpp"
#include "pinned_host.cuh"
#include "run_results.hpp"
#include "stage_pass.hpp"
#include "tuned_filter_backend.hpp"
#include "tuned_filter_kernel.cuh"

namespace siglab {
namespace {

using cuda::ChunkPipeline;
using cuda::DeviceBuffer;

using cuda::mebibytes;

template <class T>
std::vector<T> tapsAs(const FilterSpec& spec) {
  return std::vector<T>(spec.taps.begin(), spec.taps.end());
}

// gpu-tuned: its resident part is a chunk kernel (tunedChunkKernel), run on every chunk by the
// pipeline, or once on the whole signal by stagedRun when overlapTransfers is off.
class TunedFilterBackend final : public FilterBackend, public cuda::GpuEngine {
 public:
  TunedFilterBackend(const CudaOptions& options, std::string unavailable, int device)
      : GpuEngine(std::move(unavailable), device), options_(options) {}
  ~TunedFilterBackend() override {
    if (std::get<0>(pipelines_) || std::get<1>(pipelines_)) releaseDeviceState();  // streams of its device
  }

  std::string_view name() const override { return "gpu-tuned"; }
  std::string_view description() const override {
    return "GPU, 16-byte loads, shared tile, several outputs a thread; pinned chunked multi-stream copies";
  }
  bool usesGpu() const override { return true; }
  // FIR rate changes: polyphaseCuda, one thread an output, cpu-serial's bits (cuda_stages.hpp).
  std::string whyNotPolyphase() const override { return unavailableReason(); }
  FilterPass polyphase(const Polyphase& fir, std::span<const double> in, std::span<double> out,
                       const Progress& progress) override {
    progress.throwIfCancelled();
    const auto n = static_cast<std::int64_t>(in.size());
    return passOf(polyphaseCuda(fir, in, 0, n, 0, out, device()));
  }
  // find-peaks by height, threshold and distance: findPeaksCuda, PeakFinder's rows exactly.
  std::string whyNotFindPeaks(const PeakOptions& options) const override {
    if (!unavailableReason().empty()) return unavailableReason();
    if (!gpuFindsPeaks(options)) return "gpu-tuned finds peaks by minimum height, threshold and distance; prominence, width and maxima run on the CPU";
    return {};
  }
  FilterPass findPeaks(std::span<const double> x, const PeakOptions& options, std::vector<PeakRow>& rows,
                       const Progress& progress) override {
    progress.throwIfCancelled();
    if (std::string why = whyNotFindPeaks(options); !why.empty()) throw EngineUnavailable(why);
    return passOf(findPeaksCuda(x, options, rows, device()));
  }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override {
    if (!unavailableReason().empty()) return unavailableReason();
    if (std::string why = whyNotSampleType(type); !why.empty()) return why;
    if (std::string why = whyNotCorrelation(spec, name()); !why.empty()) return why;
    if (spec.window() > static_cast<std::size_t>(cuda::kMaxTunedWindow)) {
      return "gpu-tuned takes windows up to " + std::to_string(cuda::kMaxTunedWindow) + " taps; use gpu-global for " +
             std::to_string(spec.window());
    }
    return {};
  }
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override {
    return usesPrefixSum<double>(spec) ? cuda::prefixSumErrorBound(static_cast<int>(spec.window()), maxAbsInput) : 0.0;
  }

  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                    const RunOptions& options, const Progress& progress) override {
    return guardedRun<double>(in, spec, out, options, progress, {0, in.size()});
  }
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                    const RunOptions& options, const Progress& progress) override {
    return guardedRun<float>(in, spec, out, options, progress, {0, in.size()});
  }

  // Outputs [part.begin, part.end) of `in`, into the same places of `out`.
  template <class T>
  FilterPass guardedRun(std::span<const T> in, const FilterSpec& spec, std::span<T> out, const RunOptions& options,
                        const Progress& progress, SignalPart part) {
    validate(spec);
    if (in.size() != out.size()) throw std::invalid_argument("input and output sizes differ");
    if (std::string why = whyNot(spec, std::is_same_v<T, float> ? SampleType::f32 : SampleType::f64); !why.empty()) {
      throw EngineUnavailable(why);
    }
    progress.throwIfCancelled();
    try {
      return run("out of GPU memory; a smaller --gpu-memory-budget makes smaller chunks", [&](const cuda::OnDevice& on) {
        if (part.size() == 0) return FilterPass{};
        return filterOnce(in, spec, out, options, progress, part, on);
      });
    } catch (const cuda::GpuRunError&) {
      throw;  // the base has dropped the device state
    } catch (const Cancelled&) {
      throw;  // the pipeline drained its chunks before throwing: it stays usable
    } catch (const std::exception&) {
      releaseDeviceState();
      throw;
    }
  }

 private:
  // After a failure: the pipelines may hold a broken stream.
  void dropDeviceState() noexcept override {
    pipelines_ = {};
    taps_ = {};
  }

  // The resident part, for one chunk or the whole signal: `in` (with its halo) filtered into d_out.
  template <class T>
  static auto tunedChunkKernel(const cuda::TunedLaunch<T>& kernel) {
    return [kernel](const cuda::HaloedSpan<T>& in, T* d_out, cuda::StreamView stream) {
      cuda::TunedLaunch<T> launch = kernel;
      launch.in = in;
      launch.d_out = d_out;
      cuda::launchTunedFilter(launch, stream);
    };
  }

  std::size_t budgetBytes(const RunOptions& run) const {
    if (run.deviceMemoryBudgetBytes > 0) return run.deviceMemoryBudgetBytes;
    if (options_.memoryBudgetBytes > 0) return options_.memoryBudgetBytes;
    std::size_t freeBytes = 0, totalBytes = 0;
    SIGLAB_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes));
    return freeBytes / 10 * 9;
  }

  // One execution: the chunked pipeline (or, with overlapTransfers off, the seed's whole-signal
  // copies), every phase from this execution.
  template <class T>
  FilterPass filterOnce(std::span<const T> in, const FilterSpec& spec, std::span<T> out, const RunOptions& options,
                        const Progress& progress, SignalPart part, const cuda::OnDevice& on) {
    const int window = static_cast<int>(spec.window());
    const int radius = window / 2;
    const std::vector<T> taps = tapsAs<T>(spec);
    const T* d_taps = deviceTaps(taps, on.stream);
    const std::size_t budget = budgetBytes(options);
    const std::size_t residentBytes = (2 * part.size() + 2 * static_cast<std::size_t>(radius)) * sizeof(T);
    const bool resident = residentBytes <= budget;

    cuda::TunedLaunch<T> kernel;
    kernel.d_taps = d_taps;
    kernel.window = window;
    // A NaN or infinity would stay in the prefix sums past its window: the direct path then.
    kernel.prefixSum = usesPrefixSum<T>(spec) && allFiniteAround(in, part, static_cast<std::size_t>(radius), on.stream);
    kernel.uniformTap = taps.front();

    FilterPass pass;
    pass.splits.every = static_cast<std::size_t>(cuda::tunedTileOutputs<T>(kernel.prefixSum));
    // A caller whose signal and result are both on this device has no copies to overlap.
    const bool onDevice = cuda::isOnDevice(in.data(), on.device) && cuda::isOnDevice(out.data(), on.device);
    if ((onDevice || (resident && !options_.overlapTransfers)) && part.size() == in.size()) {
      pass.phases = seedStylePass(in, spec, out, kernel, on);
      pass.note = onDevice ? "signal and result on the device: one kernel in place" : "whole-signal copies, no overlap";
      return noted(std::move(pass), kernel);
    }
    ChunkPipeline<T>& pipeline = pipelineFor<T>(part.size(), radius, budget);
    const cuda::PipelinePass piped =
        pipeline.run(in, out, tunedChunkKernel(kernel), spec.mode, progress, part.begin, part.end);
    pass.phases = {piped.kernelMs, piped.transferMs, piped.totalMs};
    const std::vector<std::size_t> bounds = pipeline.chunkBounds(part.begin, part.end);
    pass.splits.at.assign(bounds.begin() + 1, bounds.end() - 1);
    const std::size_t chunks = bounds.size() - 1;
    pass.note = std::to_string(chunks) + " chunk(s) of " + std::to_string(pipeline.chunkSamples()) + " samples on " +
                std::to_string(pipeline.slots()) + " streams; kernel and transfer times are the chunks' sums" +
                (resident ? "" : ", signal over the " + mebibytes(budget) + " memory budget");
    return noted(std::move(pass), kernel);
  }

  // Whether every sample the part's windows can read is finite: the part with its halo, and the
  // signal's first and last `radius` samples (which the boundary rule may reflect or wrap in).
  // Read on the device when `in` lives there.
  template <class T>
  static bool allFiniteAround(std::span<const T> in, SignalPart part, std::size_t radius, cuda::StreamView stream) {
    const bool onDevice = cuda::memoryKindOf(in.data()) == cuda::MemoryKind::Device;
    auto finite = [&](std::size_t from, std::size_t to) {
      if (onDevice) return cuda::allFiniteOnDevice(in.data() + from, to - from, stream);
      return std::all_of(in.begin() + static_cast<std::ptrdiff_t>(from), in.begin() + static_cast<std::ptrdiff_t>(to),
                         [](T v) { return std::isfinite(v); });
    };
    const std::size_t n = in.size();
    return finite(part.begin > radius ? part.begin - radius : 0, std::min(n, part.end + radius)) &&
           finite(0, std::min(n, radius)) && finite(n - std::min(n, radius), n);
  }

  template <class T>
  static bool usesPrefixSum(const FilterSpec& spec) {
    return std::is_same_v<T, double> && spec.isUniform() && spec.window() >= cuda::kPrefixSumMinWindow;
  }

  template <class T>
  static FilterPass noted(FilterPass pass, const cuda::TunedLaunch<T>& kernel) {
    if (kernel.prefixSum) {
      pass.note += std::string(pass.note.empty() ? "" : "; ") +
                   "prefix-sum path (uniform window >= " + std::to_string(cuda::kPrefixSumMinWindow) +
                   "): within the stated error bound, not bit-identical";
    }
    return pass;
  }

  // As the seed: copy the whole signal in, filter, copy the result out, each phase timed.
  template <class T>
  static PhaseTimes seedStylePass(std::span<const T> in, const FilterSpec& spec, std::span<T> out,
                                  const cuda::TunedLaunch<T>& kernel, const cuda::OnDevice& on) {
    return cuda::stagedChunkRun(in, out, static_cast<int>(spec.radius()), spec.mode, on, tunedChunkKernel(kernel));
  }

  // The pipeline for this element type, rebuilt only when the chunk shape changes.
  template <class T>
  ChunkPipeline<T>& pipelineFor(std::size_t samples, int radius, std::size_t budget) {
    const int slots = std::max(1, options_.streams);
    const std::size_t chunk = ChunkPipeline<T>::chunkFor(samples, radius, slots, options_.chunkSamples, budget);
    auto& held = std::get<std::unique_ptr<ChunkPipeline<T>>>(pipelines_);
    if (!held || held->chunkSamples() != chunk || held->radius() != radius ||
        held->slots() != static_cast<std::size_t>(slots)) {
      held.reset();  // free the old buffers before taking new ones
      held = std::make_unique<ChunkPipeline<T>>(chunk, radius, slots, cuda::ResultsBack::Yes, cuda::Ramps::Yes,
                                                cuda::CopyOrder::AnyFromPinned);
    }
    return *held;
  }

  // The taps on the device, copied again only when they change: an apply copies nothing but the signal.
  template <class T>
  const T* deviceTaps(const std::vector<T>& taps, cuda::StreamView stream) {
    auto& held = std::get<TapsOnDevice<T>>(taps_);
    if (held.taps != taps) {
      held.taps.clear();  // stale until the copy below succeeds
      held.buffer = DeviceBuffer<T>(taps.size(), stream);
      held.buffer.copyFrom(taps.data(), taps.size());
      stream.synchronize();  // the pipeline's streams read them
      held.taps = taps;
    }
    return held.buffer.data();
  }
  template <class T>
  struct TapsOnDevice {
    std::vector<T> taps;
    DeviceBuffer<T> buffer;
  };

  CudaOptions options_;
  std::tuple<std::unique_ptr<ChunkPipeline<double>>, std::unique_ptr<ChunkPipeline<float>>> pipelines_;
  std::tuple<TapsOnDevice<double>, TapsOnDevice<float>> taps_;
};

// gpu-tuned as a part engine: the part's chunks go through the pipeline straight from the caller's signal.
class TunedPartEngine final : public PartEngine {
 public:
  explicit TunedPartEngine(std::unique_ptr<TunedFilterBackend> engine)
      : PartEngine(std::move(engine)), tuned_(static_cast<TunedFilterBackend&>(this->engine())) {}
  FilterPass filterPart(std::span<const double> in, const FilterSpec& spec, std::span<double> out, SignalPart part,
                        const RunOptions& options, const Progress& progress) override {
    return tuned_.guardedRun<double>(in, spec, out, options, progress, part);
  }
  FilterPass filterPart(std::span<const float> in, const FilterSpec& spec, std::span<float> out, SignalPart part,
                        const RunOptions& options, const Progress& progress) override {
    return tuned_.guardedRun<float>(in, spec, out, options, progress, part);
  }

 private:
  TunedFilterBackend& tuned_;
};

}  // namespace

std::unique_ptr<FilterBackend> makeTunedBackend(const CudaOptions& options, std::string unavailable, int device) {
  return std::make_unique<TunedFilterBackend>(options, std::move(unavailable), device);
}

std::unique_ptr<PartEngine> makeTunedPartEngine(const CudaOptions& options, std::string unavailable, int device) {
  return std::make_unique<TunedPartEngine>(std::make_unique<TunedFilterBackend>(options, std::move(unavailable), device));
}

}  // namespace siglab

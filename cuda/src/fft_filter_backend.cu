// gpu-fft: FFT overlap-save with cuFFT. One kernel gathers each block's M samples (its outputs and
// their halos, through the boundary rule), a batched D2Z plan transforms a batch of blocks, one
// kernel multiplies by conj(F taps) / M, a batched Z2D plan transforms back, and one kernel
// copies each block's first L = M - W + 1 values to the output. The same blocks and bound as
// cpu-fft (core/src/fft_convolution.cpp).
#include <cufft.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_scope.hpp"
#include "device_split.hpp"
#include "fft_plan_cache.hpp"
#include "gpu_engine.hpp"
#include "run_results.hpp"
#include "siglab/boundary.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_fft_backend.hpp"
#include "siglab/cuda_stages.hpp"
#include "siglab/fft_convolution.hpp"
#include "stage_engine.hpp"
#include "stage_pass.hpp"

namespace siglab {
namespace {

constexpr std::size_t kBatchBytes = std::size_t{64} << 20;  // of gathered blocks: about 64 MiB a batch
constexpr std::size_t kCorrelateBatchBytes = std::size_t{512} << 20;  // correlate's blocks and their spectra

// Block b of the batch (global block firstBlock + b): sample s is signal position
// (firstBlock + b) * L - radius + s through the boundary rule, for s < M; zero where the rule
// skips it or past the block's last output's halo (the tail of the last block).
__global__ void gatherBlocks(const double* d_in, std::int64_t n, BoundaryMode mode, std::int64_t firstBlock,
                             std::int64_t outputsPerBlock, std::int64_t radius, std::int64_t m, double* d_blocks) {
  const std::int64_t b = blockIdx.y;
  const std::int64_t first = (firstBlock + b) * outputsPerBlock;
  const std::int64_t needed = (n - first < outputsPerBlock ? n - first : outputsPerBlock) + 2 * radius;
  for (std::int64_t s = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; s < m;
       s += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    double value = 0.0;
    if (s < needed) {
      const std::int64_t index = boundaryIndex(first - radius + s, n, mode);
      if (index != kSkipSample) value = d_in[index];
    }
    d_blocks[b * m + s] = value;
  }
}

// d_spectra[b][k] *= d_taps[k] (already conj(F taps) / M), every block of the batch.
__global__ void multiplySpectra(cufftDoubleComplex* d_spectra, const cufftDoubleComplex* d_taps, std::int64_t bins,
                                std::int64_t total) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const cufftDoubleComplex a = d_spectra[i], t = d_taps[i % bins];
    d_spectra[i] = {a.x * t.x - a.y * t.y, a.x * t.y + a.y * t.x};
  }
}

// conj(z) * scale, for the taps' transform.
__global__ void conjugateAndScale(cufftDoubleComplex* d_values, std::int64_t count, double scale) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < count) d_values[i] = {d_values[i].x * scale, -d_values[i].y * scale};
}

// The first L values of each block of the batch are outputs (firstBlock + b) * L + i.
__global__ void scatterOutputs(const double* d_blocks, std::int64_t n, std::int64_t firstBlock,
                               std::int64_t outputsPerBlock, std::int64_t m, double* d_out) {
  const std::int64_t b = blockIdx.y;
  const std::int64_t first = (firstBlock + b) * outputsPerBlock;
  const std::int64_t count = n - first < outputsPerBlock ? n - first : outputsPerBlock;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    d_out[first + i] = d_blocks[b * m + i];
  }
}

// z * scale, for the reversed template's transform.
__global__ void scaleValues(cufftDoubleComplex* d_values, std::int64_t count, double scale) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < count) d_values[i] = {d_values[i].x * scale, d_values[i].y * scale};
}

// correlate's blocks: block b of the batch holds x[first - (w - 1) + s] (zero outside x) for s < M,
// first = output0 + (firstBlock + b) * L, so that its values w - 1 .. M - 1 after the circular
// convolution with the reversed template are the full correlation's outputs first .. first + L - 1.
__global__ void gatherCorrelateBlocks(const double* d_x, std::int64_t n, std::int64_t output0, std::int64_t firstBlock,
                                      std::int64_t outputsPerBlock, std::int64_t w, std::int64_t m, double* d_blocks) {
  const std::int64_t b = blockIdx.y;
  const std::int64_t start = output0 + (firstBlock + b) * outputsPerBlock - (w - 1);
  for (std::int64_t s = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; s < m;
       s += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t index = start + s;
    d_blocks[b * m + s] = index >= 0 && index < n ? d_x[index] : 0.0;
  }
}

// Values w - 1 .. of each block of the batch are outputs (firstBlock + b) * L + i of `count`.
__global__ void scatterCorrelateOutputs(const double* d_blocks, std::int64_t count, std::int64_t firstBlock,
                                        std::int64_t outputsPerBlock, std::int64_t w, std::int64_t m, double* d_out) {
  const std::int64_t b = blockIdx.y;
  const std::int64_t first = (firstBlock + b) * outputsPerBlock;
  const std::int64_t here = count - first < outputsPerBlock ? count - first : outputsPerBlock;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < here;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    d_out[first + i] = d_blocks[b * m + w - 1 + i];
  }
}

unsigned gridFor(std::int64_t count, int threads) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((count + threads - 1) / threads, 1, 65535));
}

// gpu-fft: its resident part reads the whole signal (each block gathers its halo through the
// boundary rule on the device), so it runs once on the whole signal (stagedRun).
class FftFilterBackend final : public FilterBackend, public cuda::GpuEngine {
 public:
  FftFilterBackend(std::string unavailable, int device) : GpuEngine(std::move(unavailable), device) {}
  std::string_view name() const override { return "gpu-fft"; }
  std::string_view description() const override {
    return "GPU, cuFFT overlap-save in batches of blocks; any taps; not bit-identical";
  }
  bool usesGpu() const override { return true; }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override {
    if (!unavailableReason().empty()) return unavailableReason();
    if (type != SampleType::f64) return "gpu-fft has no float32 path";
    return whyNotCorrelation(spec, "gpu-fft");
  }
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override {
    return fftEngineTolerance(spec, maxAbsInput);
  }
  // Spectrogram and stft frames: spectrogramCuda's batched cuFFT, within spectrogramAgreementBound.
  std::string whyNotSpectrogram() const override { return unavailableReason(); }
  // correlate's FFT method: overlap-save of the reversed template, cpu-fft's block length.
  std::string whyNotFftCorrelate() const override { return unavailableReason(); }
  FilterPass fftCorrelate(std::span<const double> x, std::span<const double> reversed, std::uint64_t offset,
                          std::span<double> out, const Progress& progress) override {
    progress.throwIfCancelled();
    if (!unavailableReason().empty()) throw EngineUnavailable(unavailableReason());
    if (out.empty()) return {};
    if (reversed.empty()) throw std::invalid_argument("correlate: an empty template");
    // On the stage engine of the device: its scratch areas are kept between runs (no cudaMalloc and
    // cudaFree, which wait for the device, a call).
    const cuda::StageEngineLease engine = cuda::leaseStageEngine(device());
    return engine->run("out of GPU memory for correlate's FFT blocks", [&](const cuda::OnDevice& on) {
      return correlateOnce(*engine.engine, x, reversed, offset, out, on);
    });
  }
  // The Hilbert transform and the envelope: hilbertCuda, the whole transform on the device.
  std::string whyNotHilbert() const override { return unavailableReason(); }
  FilterPass hilbert(std::span<const double> x, std::span<double> out, bool magnitude, const Progress& progress) override {
    progress.throwIfCancelled();
    if (!unavailableReason().empty()) throw EngineUnavailable(unavailableReason());
    return passOf(hilbertCuda(x, out, magnitude, device()));
  }
  FilterPass spectrogram(std::span<const double> x, const SpectrogramLayout& layout, std::uint64_t frames,
                         std::span<double> out, const Progress& progress) override {
    progress.throwIfCancelled();
    if (!unavailableReason().empty()) throw EngineUnavailable(unavailableReason());
    return passOf(spectrogramCuda(x, layout, frames, out, device()));
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("gpu-fft has no float32 path");
  }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                    const RunOptions& /*options*/, const Progress& progress) override {
    validate(spec);
    if (in.size() != out.size()) throw std::invalid_argument("input and output sizes differ");
    if (!unavailableReason().empty()) throw EngineUnavailable(unavailableReason());
    // In stretches of a millisecond or so, looking at Cancel between them.
    constexpr std::size_t kStretch = std::size_t{1} << 20;
    for (std::size_t begin = 0; begin < in.size(); begin += kStretch) {
      progress.throwIfCancelled();
      const std::span<const double> stretch = in.subspan(begin, std::min(kStretch, in.size() - begin));
      if (!std::all_of(stretch.begin(), stretch.end(), [](double v) { return std::isfinite(v); })) {
        throw EngineUnavailable("gpu-fft needs finite samples (an FFT spreads NaN over its block)");
      }
    }
    progress.throwIfCancelled();
    FilterPass pass;
    if (in.empty()) return pass;
    return run("out of GPU memory", [&](const cuda::OnDevice& on) { return filterOnce(in, spec, out, on); });
  }

 private:
  // Outputs [offset, offset + out.size()) of the full convolution of x with `reversed` (w values):
  // blocks of M = fftBlockLength(w) (no longer than the outputs and their halo need) give L = M - w + 1
  // outputs each, in batches of about kBatchBytes, through the plan cache's batched plans.
  static FilterPass correlateOnce(cuda::StageEngine& engine, std::span<const double> x, std::span<const double> reversed,
                                  std::uint64_t offset, std::span<double> out, const cuda::OnDevice& on) {
    const auto n = static_cast<std::int64_t>(x.size()), w = static_cast<std::int64_t>(reversed.size());
    const auto count = static_cast<std::int64_t>(out.size());
    const auto m = static_cast<std::int64_t>(std::min(fftBlockLength(reversed.size()),
                                                      std::bit_ceil(static_cast<std::size_t>(count + w - 1))));
    if (m > (std::int64_t{1} << 30)) throw std::invalid_argument("correlate on the GPU: a template of 2^28 values or more");
    const std::int64_t bins = m / 2 + 1, outputsPerBlock = m - w + 1;
    const std::int64_t blocks = (count + outputsPerBlock - 1) / outputsPerBlock;
    // Batches of about kCorrelateBatchBytes, all of one size (the plans transform a whole batch).
    const std::int64_t most = std::clamp<std::int64_t>(static_cast<std::int64_t>(kCorrelateBatchBytes) / (m * 24), 1, blocks);
    const std::int64_t batches = (blocks + most - 1) / most, batch = (blocks + batches - 1) / batches;
    const cuda::StreamView view = on.stream;
    const cudaStream_t s = view.get();
    double* d_blocks = engine.scratch<double>(0, static_cast<std::size_t>(batch * m), view);
    auto* d_spectra = engine.scratch<cufftDoubleComplex>(1, static_cast<std::size_t>(batch * bins), view);
    auto* d_taps = engine.scratch<cufftDoubleComplex>(2, static_cast<std::size_t>(bins), view);
    {  // F(reversed) / M, once (a convolution: no conjugate), the template padded in the first block's place
      SIGLAB_CUDA_TRY(cudaMemsetAsync(d_blocks, 0, static_cast<std::size_t>(m) * sizeof(double), s));
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(d_blocks, reversed.data(), reversed.size_bytes(), cudaMemcpyDefault, s));
      const cuda::FftPlan single({static_cast<int>(m), 1, CUFFT_D2Z}, view);
      SIGLAB_CUFFT_TRY(cufftExecD2Z(single.get(), d_blocks, d_taps));
      scaleValues<<<gridFor(bins, 256), 256, 0, s>>>(d_taps, bins, 1.0 / static_cast<double>(m));
      SIGLAB_CUDA_CHECK_LAUNCH();
    }
    const cuda::FftPlan forward({static_cast<int>(m), static_cast<int>(batch), CUFFT_D2Z}, view);
    const cuda::FftPlan inverse({static_cast<int>(m), static_cast<int>(batch), CUFFT_Z2D}, view);
    const auto output0 = static_cast<std::int64_t>(offset);
    FilterPass pass;
    pass.phases = cuda::stagedRun(x, out, on, [&](const double* d_x, double* d_out, cuda::StreamView) {
      for (std::int64_t firstBlock = 0; firstBlock < blocks; firstBlock += batch) {
        const std::int64_t here = std::min(batch, blocks - firstBlock);
        const dim3 grid(gridFor(m, 256), static_cast<unsigned>(here));
        gatherCorrelateBlocks<<<grid, 256, 0, s>>>(d_x, n, output0, firstBlock, outputsPerBlock, w, m, d_blocks);
        SIGLAB_CUDA_CHECK_LAUNCH();
        SIGLAB_CUFFT_TRY(cufftExecD2Z(forward.get(), d_blocks, d_spectra));
        multiplySpectra<<<gridFor(batch * bins, 256), 256, 0, s>>>(d_spectra, d_taps, bins, batch * bins);
        SIGLAB_CUDA_CHECK_LAUNCH();
        SIGLAB_CUFFT_TRY(cufftExecZ2D(inverse.get(), d_spectra, d_blocks));
        scatterCorrelateOutputs<<<grid, 256, 0, s>>>(d_blocks, count, firstBlock, outputsPerBlock, w, m, d_out);
        SIGLAB_CUDA_CHECK_LAUNCH();
      }
    });
    pass.splits.every = static_cast<std::size_t>(outputsPerBlock);
    return pass;
  }

  FilterPass filterOnce(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                        const cuda::OnDevice& on) {
    const auto n = static_cast<std::int64_t>(in.size());
    const auto w = static_cast<std::int64_t>(spec.window()), radius = static_cast<std::int64_t>(spec.radius());
    const auto m = static_cast<std::int64_t>(fftBlockLength(spec.window()));
    const std::int64_t bins = m / 2 + 1, outputsPerBlock = m - w + 1;
    const std::int64_t blocks = (n + outputsPerBlock - 1) / outputsPerBlock;
    const std::int64_t batch = std::clamp<std::int64_t>(static_cast<std::int64_t>(kBatchBytes) / (m * 8), 1, blocks);

    const cuda::StreamView view = on.stream;
    const cudaStream_t s = view.get();
    cuda::DeviceBuffer<double> d_blocks(static_cast<std::size_t>(batch * m), view);
    cuda::DeviceBuffer<cufftDoubleComplex> d_spectra(static_cast<std::size_t>(batch * bins), view),
        d_taps(static_cast<std::size_t>(bins), view);
    {  // conj(F taps) / M, once
      std::vector<double> padded(static_cast<std::size_t>(m), 0.0);
      std::copy(spec.taps.begin(), spec.taps.end(), padded.begin());
      cuda::DeviceBuffer<double> d_padded(padded.size(), view);
      d_padded.copyFrom(padded.data(), padded.size());
      const cuda::FftPlan single({static_cast<int>(m), 1, CUFFT_D2Z}, view);
      SIGLAB_CUFFT_TRY(cufftExecD2Z(single.get(), d_padded.data(), d_taps.data()));
      conjugateAndScale<<<gridFor(bins, 256), 256, 0, s>>>(d_taps.data(), bins, 1.0 / static_cast<double>(m));
      SIGLAB_CUDA_CHECK_LAUNCH();
      view.synchronize();  // `padded` and d_padded go out of scope
    }
    const cuda::FftPlan forward({static_cast<int>(m), static_cast<int>(batch), CUFFT_D2Z}, view);
    const cuda::FftPlan inverse({static_cast<int>(m), static_cast<int>(batch), CUFFT_Z2D}, view);

    FilterPass pass;
    pass.phases = cuda::stagedRun(in, out, on, [&](const double* d_in, double* d_out, cuda::StreamView) {
      for (std::int64_t firstBlock = 0; firstBlock < blocks; firstBlock += batch) {
        // A shorter last batch: the plans still transform `batch` blocks; the stale ones are not scattered.
        const std::int64_t count = std::min(batch, blocks - firstBlock);
        const dim3 grid(gridFor(m, 256), static_cast<unsigned>(count));
        gatherBlocks<<<grid, 256, 0, s>>>(d_in, n, spec.mode, firstBlock, outputsPerBlock, radius, m, d_blocks.data());
        SIGLAB_CUDA_CHECK_LAUNCH();
        SIGLAB_CUFFT_TRY(cufftExecD2Z(forward.get(), d_blocks.data(), d_spectra.data()));
        multiplySpectra<<<gridFor(batch * bins, 256), 256, 0, s>>>(d_spectra.data(), d_taps.data(), bins, batch * bins);
        SIGLAB_CUDA_CHECK_LAUNCH();
        SIGLAB_CUFFT_TRY(cufftExecZ2D(inverse.get(), d_spectra.data(), d_blocks.data()));
        scatterOutputs<<<grid, 256, 0, s>>>(d_blocks.data(), n, firstBlock, outputsPerBlock, m, d_out);
        SIGLAB_CUDA_CHECK_LAUNCH();
      }
    });
    pass.splits.every = static_cast<std::size_t>(outputsPerBlock);
    return pass;
  }
};

}  // namespace

std::unique_ptr<FilterBackend> makeCudaFftBackend(const std::vector<int>& devices) {
  const std::vector<DeviceInfo> probed = probeDevices();
  return cuda::engineOnDevices(devices, [&](int device) -> std::unique_ptr<FilterBackend> {
    return std::make_unique<FftFilterBackend>(cuda::deviceProblem(probed, device), device);
  });
}

}  // namespace siglab

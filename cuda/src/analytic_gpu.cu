// hilbertCuda (cuda_stages.hpp): scipy.signal.hilbert's imaginary part of the whole signal on the
// GPU, as three passes over the device copy: one cuFFT D2Z of n points, a kernel that turns X_k
// into -i X_k (0 at DC and at an even n's Nyquist: the real part of the analytic signal), one
// cuFFT Z2D back; a last kernel scales by 1 / n and, for the envelope, takes |x + i H(x)|.
#include <cufft.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "fft_plan_cache.hpp"
#include "gpu_engine.hpp"
#include "siglab/cuda_stages.hpp"
#include "stage_engine.hpp"

namespace siglab {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocksFor(std::int64_t count) {
  return static_cast<unsigned>(std::min<std::int64_t>((count + kThreads - 1) / kThreads, 1 << 20));
}

// -i X_k for 0 < k < n / 2 (and k = (n - 1) / 2 for odd n), 0 at DC and at an even n's Nyquist.
__global__ void rotateSpectrum(cufftDoubleComplex* d_spectrum, std::int64_t bins, std::int64_t n) {
  for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; k < bins;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const cufftDoubleComplex v = d_spectrum[k];
    const bool kept = k > 0 && !(n % 2 == 0 && k == n / 2);
    d_spectrum[k] = kept ? cufftDoubleComplex{v.y, -v.x} : cufftDoubleComplex{0.0, 0.0};
  }
}

// im / n, or |x + i im / n| (as the CPU's envelope: sqrt of the squares unless they over- or underflow).
__global__ void finishTransform(const double* d_x, double* d_im, std::int64_t n, double scale, bool magnitude) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const double im = d_im[i] * scale;
    if (!magnitude) {
      d_im[i] = im;
      continue;
    }
    const double re = d_x[i];
    const double squares = re * re + im * im;
    d_im[i] = squares > 1e-300 && squares < 1e300 ? sqrt(squares) : hypot(re, im);
  }
}

// A streamed run's overlapped blocks come one after another, each a few MB: its device copies live
// in the engine's scratch areas (no cudaMalloc and cudaFree, which wait for the device, a block) and
// its host copies go through the process's reused pinned pieces. Longer signals are staged whole.
constexpr std::int64_t kBlockInScratch = std::int64_t{1} << 22;

template <class Transform>
PhaseTimes blockRun(cuda::StageEngine& engine, std::span<const double> x, std::span<double> out, const cuda::OnDevice& on,
                    const Transform& transform) {
  double* d_x = engine.scratch<double>(1, x.size(), on.stream);
  double* d_out = engine.scratch<double>(2, x.size(), on.stream);
  cuda::PageableStaging staging(on.stream);
  cuda::Event start, copiedIn, computed, copiedOut;
  start.record(on.stream);
  staging.toDevice(d_x, x.data(), x.size_bytes());
  copiedIn.record(on.stream);
  transform(d_x, d_out, on.stream);
  computed.record(on.stream);
  staging.toHost(out.data(), d_out, out.size_bytes());
  copiedOut.record(on.stream);
  copiedOut.synchronize();
  return PhaseTimes{computed.millisSince(copiedIn), copiedIn.millisSince(start) + copiedOut.millisSince(computed),
                    copiedOut.millisSince(start)};
}

}  // namespace

GpuFilterResult hilbertCuda(std::span<const double> x, std::span<double> out, bool magnitude, int device) {
  if (out.size() != x.size()) throw std::invalid_argument("hilbert: the output's size is not the input's");
  if (x.size() > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("hilbert on the GPU takes up to 2^31 - 1 samples (one cuFFT transform)");
  }
  const auto n = static_cast<std::int64_t>(x.size());
  const std::int64_t bins = n / 2 + 1;
  return cuda::filterResultOf([&] {
    const cuda::StageEngineLease engine = cuda::leaseStageEngine(device);
    const std::string outOfMemory = "out of GPU memory: the whole-signal transform needs " +
                                    std::to_string((2 * n + 2 * bins) * 8 >> 20) + " MiB";
    return engine->run(outOfMemory, [&](const cuda::OnDevice& on) {
      GpuFilterResult result;
      if (n == 0) return result;
      auto* d_spectrum = engine->scratch<cufftDoubleComplex>(0, static_cast<std::size_t>(bins), on.stream);
      const auto transform = [&](const double* d_x, double* d_out, cuda::StreamView stream) {
        if (n == 1) {  // no frequency but DC: H(x) = 0
          SIGLAB_CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(double), stream.get()));
        } else {
          const cuda::FftPlan forward({static_cast<int>(n), 1, CUFFT_D2Z}, stream);
          const cuda::FftPlan back({static_cast<int>(n), 1, CUFFT_Z2D}, stream);
          SIGLAB_CUFFT_TRY(cufftExecD2Z(forward.get(), const_cast<double*>(d_x), d_spectrum));
          rotateSpectrum<<<blocksFor(bins), kThreads, 0, stream.get()>>>(d_spectrum, bins, n);
          SIGLAB_CUDA_CHECK_LAUNCH();
          SIGLAB_CUFFT_TRY(cufftExecZ2D(back.get(), d_spectrum, d_out));
        }
        finishTransform<<<blocksFor(n), kThreads, 0, stream.get()>>>(d_x, d_out, n, 1.0 / static_cast<double>(n), magnitude);
        SIGLAB_CUDA_CHECK_LAUNCH();
      };
      const PhaseTimes phases = n <= kBlockInScratch && !cuda::isOnDevice(x.data(), on.device) &&
                                        !cuda::isOnDevice(out.data(), on.device)
                                    ? blockRun(*engine.engine, x, out, on, transform)
                                    : cuda::stagedRun<double>(x, out, on, transform);
      result.kernelMs = phases.kernelMs;
      result.totalMs = phases.totalMs;
      return result;
    });
  });
}

}  // namespace siglab

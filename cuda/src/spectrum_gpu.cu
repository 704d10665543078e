// Welch's spectrum with cuFFT: the signal goes to the device a chunk of whole segments at a time;
// one block per segment removes the mean and applies the window, one batched D2Z plan transforms
// the chunk, and one thread per frequency adds the chunk's |X_k|^2 to a running sum on the device.
#include <cufft.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_spectrum.hpp"

namespace siglab {
namespace {

constexpr int kFrameThreads = 256;
constexpr std::size_t kDefaultChunkBytes = std::size_t{64} << 20;  // of frames: about 64 MiB a chunk

// A failed cuFFT call, named like a CUDA error.
class CufftError : public std::runtime_error {
 public:
  CufftError(cufftResult code, const char* call)
      : std::runtime_error("cuFFT error " + std::to_string(static_cast<int>(code)) + " in " + call), code_(code) {}
  cufftResult code() const { return code_; }

 private:
  cufftResult code_;
};

void checkCufft(cufftResult code, const char* call) {
  if (code != CUFFT_SUCCESS) throw CufftError(code, call);
}
#define SIGLAB_CUFFT_TRY(call) checkCufft((call), #call)

// A batched 1-D double-precision real-to-complex plan: `batch` transforms of n points, inputs n
// apart, outputs n / 2 + 1 apart. Destroyed with its owner.
class BatchedPlan {
 public:
  BatchedPlan(int n, int batch) {
    int length = n;
    int bins = n / 2 + 1;
    SIGLAB_CUFFT_TRY(cufftPlanMany(&plan_, 1, &length, &length, 1, n, &bins, 1, bins, CUFFT_D2Z, batch));
  }
  BatchedPlan(const BatchedPlan&) = delete;
  BatchedPlan& operator=(const BatchedPlan&) = delete;
  ~BatchedPlan() { cufftDestroy(plan_); }
  cufftHandle get() const { return plan_; }

 private:
  cufftHandle plan_ = 0;
};

// Frame s of the chunk: (x[s * step + j] - mean) * window[j] for j = 0..n-1, one block a segment.
// The mean is a fixed-order block reduction (each thread a strided partial sum, then a tree).
__global__ void makeFrames(const double* d_signal, std::size_t step, int n, const double* d_window, bool detrend,
                           double* d_frames) {
  __shared__ double s_sum[kFrameThreads];
  const double* segment = d_signal + static_cast<std::size_t>(blockIdx.x) * step;
  double* frame = d_frames + static_cast<std::size_t>(blockIdx.x) * n;
  double mean = 0.0;
  if (detrend) {
    double partial = 0.0;
    for (int j = threadIdx.x; j < n; j += blockDim.x) partial += segment[j];
    s_sum[threadIdx.x] = partial;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) s_sum[threadIdx.x] += s_sum[threadIdx.x + half];
      __syncthreads();
    }
    mean = s_sum[0] / n;
  }
  for (int j = threadIdx.x; j < n; j += blockDim.x) frame[j] = (segment[j] - mean) * d_window[j];
}

// d_sums[k] += |X_k|^2 over the chunk's `segments` transforms, one thread a frequency.
__global__ void addPowers(const cufftDoubleComplex* d_spectra, int bins, int segments, double* d_sums) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= bins) return;
  double sum = d_sums[k];
  for (int s = 0; s < segments; ++s) {
    const cufftDoubleComplex v = d_spectra[static_cast<std::size_t>(s) * bins + k];
    sum += v.x * v.x + v.y * v.y;
  }
  d_sums[k] = sum;
}

Spectrum welchOnDevice(std::span<const double> x, const WelchOptions& options, std::size_t chunkSegments) {
  const std::size_t n = options.segment, bins = frequencyCount(options);
  const std::size_t step = n - options.overlapOrDefault(), segments = segmentCount(options, x.size());
  std::size_t perChunk = chunkSegments ? chunkSegments : std::max<std::size_t>(1, kDefaultChunkBytes / (n * sizeof(double)));
  perChunk = std::min(perChunk, segments);

  const std::vector<double> window = spectrumWindow(options.window, n);
  cuda::DeviceBuffer<double> d_window(n), d_signal((perChunk - 1) * step + n), d_frames(perChunk * n), d_sums(bins);
  cuda::DeviceBuffer<cufftDoubleComplex> d_spectra(perChunk * bins);
  SIGLAB_CUDA_TRY(cudaMemcpy(d_window.data(), window.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  SIGLAB_CUDA_TRY(cudaMemset(d_sums.data(), 0, bins * sizeof(double)));
  const BatchedPlan plan(static_cast<int>(n), static_cast<int>(perChunk));

  for (std::size_t first = 0; first < segments; first += perChunk) {
    const std::size_t count = std::min(perChunk, segments - first);
    const std::size_t samples = (count - 1) * step + n;
    SIGLAB_CUDA_TRY(cudaMemcpy(d_signal.data(), x.data() + first * step, samples * sizeof(double), cudaMemcpyHostToDevice));
    makeFrames<<<static_cast<unsigned>(count), kFrameThreads>>>(d_signal.data(), step, static_cast<int>(n), d_window.data(),
                                                                options.detrend == Detrend::constant, d_frames.data());
    SIGLAB_CUDA_CHECK_LAUNCH();
    // The plan transforms perChunk frames; in a shorter last chunk the extra ones are stale and
    // addPowers reads only the first `count`.
    SIGLAB_CUFFT_TRY(cufftExecD2Z(plan.get(), d_frames.data(), d_spectra.data()));
    addPowers<<<static_cast<unsigned>((bins + 255) / 256), 256>>>(d_spectra.data(), static_cast<int>(bins),
                                                                  static_cast<int>(count), d_sums.data());
    SIGLAB_CUDA_CHECK_LAUNCH();
  }
  std::vector<double> sums(bins);
  SIGLAB_CUDA_TRY(cudaMemcpy(sums.data(), d_sums.data(), bins * sizeof(double), cudaMemcpyDeviceToHost));
  finishPower(sums, options, segments);
  return Spectrum{spectrumFrequencies(options), std::move(sums)};
}

}  // namespace

std::string gpuSpectrumUnavailableReason() {
  const DeviceInfo device = probeDevices().front();
  return device.available ? std::string() : device.reason;
}

GpuSpectrumRun welchGpu(std::span<const double> x, const WelchOptions& options, std::size_t chunkSegments) {
  validate(options, x.size());
  if (std::string reason = gpuSpectrumUnavailableReason(); !reason.empty()) return {false, reason, {}};
  if (options.segment < 2 || options.segment > (std::size_t{1} << 30)) {
    return {false, "the GPU spectrum takes segments of 2 to 2^30 samples", {}};
  }
  try {
    return {true, {}, welchOnDevice(x, options, chunkSegments)};
  } catch (const cuda::CudaError& e) {
    if (e.code() == cudaErrorMemoryAllocation) return {false, "the GPU has too little free memory for this spectrum", {}};
    return {false, e.what(), {}};
  } catch (const CufftError& e) {
    if (e.code() == CUFFT_ALLOC_FAILED) return {false, "the GPU has too little free memory for this spectrum's FFT plan", {}};
    return {false, e.what(), {}};
  }
}

}  // namespace siglab

// sosfiltfiltCuda (cuda_filters.hpp): the Butterworth block scan on the GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/sos_scan_steps.hpp"

namespace siglab {
namespace {

/* SosChunks: one thread per chunk of `chunk` samples (x[0], x[stride], ... from the chunk's start),
 * run through the cascade from starts[b] (its state in local memory); writes the chunk's outputs
 * when y is given and its end state when `ends` is. The recurrence is serial inside a chunk, so the
 * parallelism is the number of chunks: 10M samples give about 10,000 threads. */
__global__ void sosChunks(const double* d_coef, int sections, const double* d_x, double* d_y, std::int64_t n,
                          std::int64_t stride, int chunk, std::int64_t chunks, const double* d_starts,
                          double* d_ends) {
  const std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= chunks) return;
  const int d = 2 * sections;
  double z[kMaxScanStates];
  for (int i = 0; i < d; ++i) z[i] = d_starts[b * d + i];
  const std::int64_t begin = b * chunk;
  const std::int64_t count = n - begin < chunk ? n - begin : chunk;
  sosChunk(d_coef, sections, z, d_x + begin * stride, d_y ? d_y + begin * stride : nullptr, stride, count);
  if (d_ends) {
    for (int i = 0; i < d; ++i) d_ends[b * d + i] = z[i];
  }
}

double maxAbsOf(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

struct ScanBuffers {
  cuda::DeviceBuffer<double> coef, starts, ends;
};

// One direction over d_y in place (`first` is the first sample in filtering order).
void scanOnDevice(const Sections& sections, const std::vector<double>& power, ScanBuffers& buffers, double* first,
                  std::int64_t n, std::int64_t stride, const std::vector<double>& initial) {
  const int count = static_cast<int>(sections.size()), d = 2 * count;
  const std::int64_t chunks = (n + kSosScanChunk - 1) / kSosScanChunk;
  const unsigned threads = 128, blocks = static_cast<unsigned>((chunks + threads - 1) / threads);
  std::vector<double> starts(static_cast<std::size_t>(chunks * d), 0.0), ends(starts.size());
  std::copy(initial.begin(), initial.end(), starts.begin());
  SIGLAB_CUDA_TRY(cudaMemcpy(buffers.starts.data(), starts.data(), starts.size() * sizeof(double), cudaMemcpyHostToDevice));
  sosChunks<<<blocks, threads>>>(buffers.coef.data(), count, first, nullptr, n, stride, kSosScanChunk, chunks,
                                 buffers.starts.data(), buffers.ends.data());
  SIGLAB_CUDA_CHECK_LAUNCH();
  SIGLAB_CUDA_TRY(cudaMemcpy(ends.data(), buffers.ends.data(), ends.size() * sizeof(double), cudaMemcpyDeviceToHost));
  sosCarryChunkStarts(power, d, ends, initial, starts);
  SIGLAB_CUDA_TRY(cudaMemcpy(buffers.starts.data(), starts.data(), starts.size() * sizeof(double), cudaMemcpyHostToDevice));
  sosChunks<<<blocks, threads>>>(buffers.coef.data(), count, first, first, n, stride, kSosScanChunk, chunks,
                                 buffers.starts.data(), nullptr);
  SIGLAB_CUDA_CHECK_LAUNCH();
  SIGLAB_CUDA_TRY(cudaDeviceSynchronize());
}

}  // namespace

GpuFilterResult sosfiltfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out) {
  checkStable(sections);
  if (in.size() != out.size()) throw std::invalid_argument("sosfiltfilt: input and output sizes differ");
  if (sections.empty() || static_cast<int>(2 * sections.size()) > kMaxScanStates) {
    throw std::invalid_argument("the GPU scan takes 1 to " + std::to_string(kMaxScanStates / 2) + " sections");
  }
  const std::size_t n = in.size(), edge = sosfiltfiltPadLength(sections);
  if (n <= edge) {
    throw std::invalid_argument("zero-phase filtering needs more than " + std::to_string(edge) +
                                " samples (3 x (2 x sections + 1)); the signal has " + std::to_string(n));
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    return {GpuStatus::Unavailable, "no usable CUDA GPU was found"};
  }
  const auto start = std::chrono::steady_clock::now();
  // The odd extension, as sosfiltfilt builds it.
  const auto total = static_cast<std::int64_t>(n + 2 * edge);
  std::vector<double> y(static_cast<std::size_t>(total));
  for (std::size_t j = 0; j < edge; ++j) {
    y[j] = 2 * in[0] - in[edge - j];
    y[edge + n + j] = 2 * in[n - 1] - in[n - 2 - j];
  }
  std::copy(in.begin(), in.end(), y.begin() + static_cast<std::ptrdiff_t>(edge));
  const SosState zi = sosfiltZi(sections);
  const SosGains gains = sosGains(sections);
  const std::vector<double> power = sosTransitionPower(sections, kSosScanChunk);
  const double maxAbs = maxAbsOf(y);
  try {
    SIGLAB_CUDA_TRY(cudaSetDevice(0));
    const std::vector<double> coef = flatCoefficients(sections);
    const std::size_t chunkStates = static_cast<std::size_t>((total + kSosScanChunk - 1) / kSosScanChunk) * zi.size();
    ScanBuffers buffers{cuda::DeviceBuffer<double>(coef.size()), cuda::DeviceBuffer<double>(chunkStates),
                        cuda::DeviceBuffer<double>(chunkStates)};
    cuda::DeviceBuffer<double> d_y(y.size());
    SIGLAB_CUDA_TRY(cudaMemcpy(buffers.coef.data(), coef.data(), coef.size() * sizeof(double), cudaMemcpyHostToDevice));
    SIGLAB_CUDA_TRY(cudaMemcpy(d_y.data(), y.data(), y.size() * sizeof(double), cudaMemcpyHostToDevice));
    const auto kernels = std::chrono::steady_clock::now();
    std::vector<double> initial(zi.size());
    for (std::size_t k = 0; k < zi.size(); ++k) initial[k] = zi[k] * y.front();
    scanOnDevice(sections, power, buffers, d_y.data(), total, 1, initial);
    const double forwardInitial = maxAbsOf(initial);
    double last = 0;
    SIGLAB_CUDA_TRY(cudaMemcpy(&last, d_y.data() + total - 1, sizeof(double), cudaMemcpyDeviceToHost));
    for (std::size_t k = 0; k < zi.size(); ++k) initial[k] = zi[k] * last;
    scanOnDevice(sections, power, buffers, d_y.data() + total - 1, total, -1, initial);
    GpuFilterResult result;
    result.kernelMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - kernels).count();
    SIGLAB_CUDA_TRY(cudaMemcpy(out.data(), d_y.data() + edge, n * sizeof(double), cudaMemcpyDeviceToHost));
    result.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // The forward output is at most gain x input plus the initial state's own response.
    const double forwardMax = gains.inputToOutput * maxAbs + gains.stateToOutput * forwardInitial;
    result.errorBound = sosScanErrorBound(sections, gains, maxAbs, forwardInitial) * gains.inputToOutput +
                        sosScanErrorBound(sections, gains, forwardMax, maxAbsOf(initial));
    // Responses longer than sosGains follows: no bound can be stated.
    if (!gains.decayed) result.errorBound = std::numeric_limits<double>::infinity();
    return result;
  } catch (const cuda::CudaError& e) {
    if (e.code() == cudaErrorMemoryAllocation) {
      return {GpuStatus::OutOfMemory, "out of GPU memory: the extended signal needs " +
                                          std::to_string(y.size() * sizeof(double) >> 20) + " MiB (" + e.what() + ")"};
    }
    return {GpuStatus::Failed, e.what()};
  } catch (const std::exception& e) {
    return {GpuStatus::Failed, e.what()};
  }
}

}  // namespace siglab

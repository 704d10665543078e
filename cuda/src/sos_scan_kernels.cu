// sosfiltfiltCuda (cuda_filters.hpp): the Butterworth block scan on the GPU. Everything after the
// copy in stays on the device: the extension's interior is the input itself, the carry across
// chunks runs in warps, and the host only reads back the result and one maximum.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_scope.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/sos_scan_steps.hpp"

namespace siglab {
namespace {

constexpr int kWarp = 32;
constexpr int kChunksPerGroup = 64;

/* SosChunks: one thread per chunk of `chunk` samples (x[0], x[stride], ... from the chunk's start),
 * run through the cascade (its state in local memory). Without `carry` (step 1): from zero state
 * (chunk 0 from zi times *scale, its true start), writing end states. With it (step 3): from its
 * true start, writing outputs in place. The recurrence is serial inside a chunk, so the
 * parallelism is the number of chunks: 10M samples give about 10,000 threads. */
struct CarryView {
  const double* local;   // per chunk: its start if its group had started from zero
  const double* groups;  // per group: its true start
  const double* powers;  // P^j, j = 0 .. kChunksPerGroup - 1, row-major
};

__global__ void sosChunks(const double* d_coef, int sections, double* d_x, std::int64_t n, std::int64_t stride,
                          int chunk, std::int64_t chunks, const double* d_zi, const double* d_scale, CarryView carry,
                          double* d_ends) {
  const std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= chunks) return;
  const int d = 2 * sections;
  double z[kMaxScanStates];
  if (b == 0) {
    for (int i = 0; i < d; ++i) z[i] = d_zi[i] * *d_scale;
  } else if (d_ends) {
    for (int i = 0; i < d; ++i) z[i] = 0.0;
  } else {  // T[b] = L[b] + P^j S[g]
    const std::int64_t g = b / kChunksPerGroup;
    const double* power = carry.powers + (b % kChunksPerGroup) * d * d;
    const double* groupStart = carry.groups + g * d;
    for (int i = 0; i < d; ++i) {
      double t = carry.local[b * d + i];
      for (int k = 0; k < d; ++k) t = fma(power[i * d + k], groupStart[k], t);
      z[i] = t;
    }
  }
  const std::int64_t begin = b * chunk;
  const std::int64_t count = n - begin < chunk ? n - begin : chunk;
  sosChunk(d_coef, sections, z, d_x + begin * stride, d_ends ? nullptr : d_x + begin * stride, stride, count);
  if (d_ends) {
    for (int i = 0; i < d; ++i) d_ends[b * d + i] = z[i];
  }
}

/* SosCarry: one warp per block runs X[0] = 0, X[t+1] = e[t] + Q X[t] over `steps` inputs of its
 * own slice (block g: e + g * stride * d, `steps` = min(stride, count - g * stride)), writing X[t]
 * for t < steps to out and X[steps] to last[g] when given. Q (row-major) is kept transposed in
 * shared memory so the lanes read consecutive words; lane l owns rows l and l + 32; X's entries are
 * shared by shuffles; the next input is loaded while this step computes. */
__global__ void sosCarry(const double* d_q, int d, const double* d_e, std::int64_t count, std::int64_t stride,
                         double* d_out, double* d_last) {
  __shared__ double transposed[kMaxScanStates * kMaxScanStates];
  const int lane = threadIdx.x;
  for (int e = lane; e < d * d; e += kWarp) transposed[(e % d) * d + e / d] = d_q[e];
  __syncwarp();
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * stride;
  const std::int64_t steps = count - first < stride ? count - first : stride;
  const double* e = d_e + first * d;
  double* out = d_out + first * d;
  const bool ownsA = lane < d, ownsB = lane + kWarp < d;
  double a = 0.0, b = 0.0;
  double nextA = ownsA ? e[lane] : 0.0, nextB = ownsB ? e[lane + kWarp] : 0.0;
  for (std::int64_t t = 0; t < steps; ++t) {
    if (ownsA) out[t * d + lane] = a;
    if (ownsB) out[t * d + lane + kWarp] = b;
    const double inA = nextA, inB = nextB;
    if (t + 1 < steps) {
      nextA = ownsA ? e[(t + 1) * d + lane] : 0.0;
      nextB = ownsB ? e[(t + 1) * d + lane + kWarp] : 0.0;
    }
    double sumA[4] = {0, 0, 0, 0}, sumB[4] = {0, 0, 0, 0};
    for (int k0 = 0; k0 < d; k0 += 4) {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int k = k0 + j;
        const double x = __shfl_sync(0xffffffffu, k < kWarp ? a : b, k % kWarp);
        if (k < d) {
          if (ownsA) sumA[j] = fma(transposed[k * d + lane], x, sumA[j]);
          if (ownsB) sumB[j] = fma(transposed[k * d + lane + kWarp], x, sumB[j]);
        }
      }
    }
    a = inA + ((sumA[0] + sumA[1]) + (sumA[2] + sumA[3]));
    b = inB + ((sumB[0] + sumB[1]) + (sumB[2] + sumB[3]));
  }
  if (d_last) {
    if (ownsA) d_last[static_cast<std::int64_t>(blockIdx.x) * d + lane] = a;
    if (ownsB) d_last[static_cast<std::int64_t>(blockIdx.x) * d + lane + kWarp] = b;
  }
}

/* MaxAbs: max |x| over n samples into *d_max (as bits: non-negative doubles order as integers). */
__global__ void maxAbs(const double* d_x, std::int64_t n, unsigned long long* d_max) {
  double m = 0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    m = fmax(m, fabs(d_x[i]));
  }
  for (int offset = kWarp / 2; offset > 0; offset /= 2) m = fmax(m, __shfl_down_sync(0xffffffffu, m, offset));
  if (threadIdx.x % kWarp == 0) atomicMax(d_max, static_cast<unsigned long long>(__double_as_longlong(m)));
}

struct ScanDevice {
  cuda::DeviceBuffer<double> coef, power, groupPower, powers, zi, ends, local, groupEnds, groupStarts;
};

// One direction over d_y in place (`first` is the first sample in filtering order); the start
// state is zi times *d_scale. The carry is hierarchical: chunks' starts within each group of
// kChunksPerGroup as if the group started from zero (a warp per group), the groups' true starts
// (one warp, with P^kChunksPerGroup), and each chunk's true start added in the output kernel.
void scanOnDevice(int sections, ScanDevice& device, double* first, std::int64_t n, std::int64_t stride,
                  const double* d_scale) {
  const int d = 2 * sections;
  const std::int64_t chunks = (n + kSosScanChunk - 1) / kSosScanChunk;
  const std::int64_t groups = (chunks + kChunksPerGroup - 1) / kChunksPerGroup;
  const unsigned threads = 128, blocks = static_cast<unsigned>((chunks + threads - 1) / threads);
  const CarryView carry{device.local.data(), device.groupStarts.data(), device.powers.data()};
  sosChunks<<<blocks, threads>>>(device.coef.data(), sections, first, n, stride, kSosScanChunk, chunks, device.zi.data(),
                                 d_scale, carry, device.ends.data());
  SIGLAB_CUDA_CHECK_LAUNCH();
  sosCarry<<<static_cast<unsigned>(groups), kWarp>>>(device.power.data(), d, device.ends.data(), chunks, kChunksPerGroup,
                                                     device.local.data(), device.groupEnds.data());
  SIGLAB_CUDA_CHECK_LAUNCH();
  sosCarry<<<1, kWarp>>>(device.groupPower.data(), d, device.groupEnds.data(), groups, groups,
                         device.groupStarts.data(), nullptr);
  SIGLAB_CUDA_CHECK_LAUNCH();
  sosChunks<<<blocks, threads>>>(device.coef.data(), sections, first, n, stride, kSosScanChunk, chunks, device.zi.data(),
                                 d_scale, carry, nullptr);
  SIGLAB_CUDA_CHECK_LAUNCH();
}

std::vector<double> multiply(const std::vector<double>& a, const std::vector<double>& b, std::size_t d) {
  std::vector<double> c(d * d, 0.0);
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t k = 0; k < d; ++k) {
      for (std::size_t j = 0; j < d; ++j) c[i * d + j] += a[i * d + k] * b[k * d + j];
    }
  }
  return c;
}

double infinityNorm(const std::vector<double>& m, std::size_t d) {
  double norm = 0;
  for (std::size_t i = 0; i < d; ++i) {
    double row = 0;
    for (std::size_t k = 0; k < d; ++k) row += std::abs(m[i * d + k]);
    norm = std::max(norm, row);
  }
  return norm;
}

// The rounding of the GPU's carry. One carry step adds at most (states + 1) eps (|end_i| +
// sum_k |P_ik| |T_k|) to a state, both bounded by the pass's state bounds Z; the three carry stages
// (within groups, across groups, their sum) each pass earlier errors on through powers of P, at
// most `amplification` = sum of ||P^j|| over the powers they apply. A start's error reaches the
// output with that state's l1 gain.
double carryErrorBound(const SosGains& gains, const std::vector<double>& power, double amplification,
                       double maxAbsInput) {
  const std::vector<double> state = sosMagnitudes(gains, maxAbsInput, 0.0).state;
  const std::size_t d = state.size();
  double bound = 0;
  for (std::size_t i = 0; i < d; ++i) {
    double carried = state[i];
    for (std::size_t k = 0; k < d; ++k) carried += std::abs(power[i * d + k]) * state[k];
    bound += static_cast<double>(d + 1) * std::numeric_limits<double>::epsilon() * carried * gains.outputFromState[i];
  }
  return 3 * amplification * bound;
}

}  // namespace

GpuFilterResult sosfiltfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                                int device) {
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
  // The odd extension, as sosfiltfilt builds it: its two edges here, its interior the input itself.
  const auto total = static_cast<std::int64_t>(n + 2 * edge);
  std::vector<double> head(edge), tail(edge);
  for (std::size_t j = 0; j < edge; ++j) {
    head[j] = 2 * in[0] - in[edge - j];
    tail[j] = 2 * in[n - 1] - in[n - 2 - j];
  }
  const SosState zi = sosfiltZi(sections);
  const SosGains gains = sosGains(sections);
  const std::vector<double> power = sosTransitionPower(sections, kSosScanChunk);
  const std::size_t d = zi.size();
  // P^j for j < kChunksPerGroup (the output kernel's), P^kChunksPerGroup (the groups' carry), and
  // how much the carry can amplify its own rounding: the sum of the norms of the powers it applies.
  std::vector<double> powers, current(d * d, 0.0);
  for (std::size_t i = 0; i < d; ++i) current[i * d + i] = 1.0;
  double amplification = 0;
  for (int j = 0; j < kChunksPerGroup; ++j) {
    powers.insert(powers.end(), current.begin(), current.end());
    amplification += infinityNorm(current, d);
    current = multiply(current, power, d);
  }
  const std::vector<double> groupPower = current;
  {
    std::vector<double> step = groupPower;
    const auto groups = (total / kSosScanChunk + kChunksPerGroup) / kChunksPerGroup;
    for (std::int64_t g = 1; g <= groups; ++g) {
      const double norm = infinityNorm(step, d);
      amplification += norm;
      if (norm < 1e-300) break;
      step = multiply(step, groupPower, d);
    }
  }
  const std::vector<double> coef = flatCoefficients(sections);
  const int count = static_cast<int>(sections.size());
  try {
    const cuda::DeviceScope scope(device);
    const std::size_t chunks = static_cast<std::size_t>((total + kSosScanChunk - 1) / kSosScanChunk);
    const std::size_t groups = (chunks + kChunksPerGroup - 1) / kChunksPerGroup;
    ScanDevice device{cuda::DeviceBuffer<double>(coef.size()),        cuda::DeviceBuffer<double>(power.size()),
                      cuda::DeviceBuffer<double>(power.size()),       cuda::DeviceBuffer<double>(powers.size()),
                      cuda::DeviceBuffer<double>(zi.size()),          cuda::DeviceBuffer<double>(chunks * zi.size()),
                      cuda::DeviceBuffer<double>(chunks * zi.size()), cuda::DeviceBuffer<double>(groups * zi.size()),
                      cuda::DeviceBuffer<double>(groups * zi.size())};
    SIGLAB_CUDA_TRY(cudaMemcpy(device.groupPower.data(), groupPower.data(), groupPower.size() * sizeof(double),
                               cudaMemcpyHostToDevice));
    SIGLAB_CUDA_TRY(cudaMemcpy(device.powers.data(), powers.data(), powers.size() * sizeof(double), cudaMemcpyHostToDevice));
    cuda::DeviceBuffer<double> d_y(static_cast<std::size_t>(total));
    cuda::DeviceBuffer<unsigned long long> d_max(1);
    SIGLAB_CUDA_TRY(cudaMemcpy(device.coef.data(), coef.data(), coef.size() * sizeof(double), cudaMemcpyHostToDevice));
    SIGLAB_CUDA_TRY(cudaMemcpy(device.power.data(), power.data(), power.size() * sizeof(double), cudaMemcpyHostToDevice));
    SIGLAB_CUDA_TRY(cudaMemcpy(device.zi.data(), zi.data(), zi.size() * sizeof(double), cudaMemcpyHostToDevice));
    SIGLAB_CUDA_TRY(cudaMemcpy(d_y.data(), head.data(), edge * sizeof(double), cudaMemcpyHostToDevice));
    SIGLAB_CUDA_TRY(cudaMemcpy(d_y.data() + edge, in.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    SIGLAB_CUDA_TRY(cudaMemcpy(d_y.data() + edge + n, tail.data(), edge * sizeof(double), cudaMemcpyHostToDevice));
    const auto kernels = std::chrono::steady_clock::now();
    SIGLAB_CUDA_TRY(cudaMemset(d_max.data(), 0, sizeof(unsigned long long)));
    maxAbs<<<1024, 256>>>(d_y.data(), total, d_max.data());
    SIGLAB_CUDA_CHECK_LAUNCH();
    scanOnDevice(count, device, d_y.data(), total, 1, d_y.data());
    scanOnDevice(count, device, d_y.data() + total - 1, total, -1, d_y.data() + total - 1);
    SIGLAB_CUDA_TRY(cudaDeviceSynchronize());
    GpuFilterResult result;
    result.kernelMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - kernels).count();
    SIGLAB_CUDA_TRY(cudaMemcpy(out.data(), d_y.data() + edge, n * sizeof(double), cudaMemcpyDeviceToHost));
    unsigned long long maxBits = 0;
    SIGLAB_CUDA_TRY(cudaMemcpy(&maxBits, d_max.data(), sizeof maxBits, cudaMemcpyDeviceToHost));
    result.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    double maxIn = 0;
    static_assert(sizeof maxIn == sizeof maxBits);
    std::memcpy(&maxIn, &maxBits, sizeof maxIn);
    // Both passes start steady (zi times their first sample); the backward one's input is the
    // forward output, at most inputToOutput times the forward input.
    const double forwardMax = gains.inputToOutput * maxIn;
    result.errorBound =
        (sosScanErrorBound(sections, gains, maxIn, 0.0) + carryErrorBound(gains, power, amplification, maxIn)) *
            gains.inputToOutput +
        sosScanErrorBound(sections, gains, forwardMax, 0.0) + carryErrorBound(gains, power, amplification, forwardMax);
    // Responses longer than sosGains follows: no bound can be stated.
    if (!gains.decayed) result.errorBound = std::numeric_limits<double>::infinity();
    return result;
  } catch (const cuda::CudaError& e) {
    if (e.code() == cudaErrorMemoryAllocation) {
      return {GpuStatus::OutOfMemory, "out of GPU memory: the extended signal needs " +
                                          std::to_string(static_cast<std::size_t>(total) * sizeof(double) >> 20) +
                                          " MiB (" + e.what() + ")"};
    }
    return {GpuStatus::Failed, e.what()};
  } catch (const std::exception& e) {
    return {GpuStatus::Failed, e.what()};
  }
}

}  // namespace siglab

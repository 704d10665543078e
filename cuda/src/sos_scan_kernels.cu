// sosfiltfiltCuda and sosfiltCuda (cuda_filters.hpp): the block scan of any stable sections on the
// GPU. Everything after the copy in stays on the device: the extension's interior is the input
// itself, the carry across chunks runs in warps, and the host only reads back the result and one
// maximum. The causal run is the zero-phase run's forward pass over the signal alone, from rest.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "chunk_pipeline.cuh"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "gpu_engine.hpp"
#include "launch_in_parts.hpp"
#include "on_each_part.hpp"
#include "pageable_staging.hpp"
#include "pinned_host.cuh"
#include "siglab/cuda_filters.hpp"
#include "siglab/split_filter.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/sos_scan_steps.hpp"
#include "sos_chunk_kernel.cuh"

namespace siglab {
namespace {

using sos_scan::CarryView;
using sos_scan::kChunksPerGroup;
using sos_scan::kWarp;

/* SosCarry: one warp per block runs X[0] = 0 (or d_start's state when given), X[t+1] = e[t] + Q X[t] over `steps` inputs of its
 * own slice (block g: e + g * stride * d, `steps` = min(stride, count - g * stride)), writing X[t]
 * for t < steps to out and X[steps] to last[g] when given. Q (row-major) is kept transposed in
 * shared memory so the lanes read consecutive words; lane l owns rows l and l + 32; X's entries are
 * shared by shuffles; the next input is loaded while this step computes. */
__global__ void sosCarry(const double* d_q, int d, const double* d_e, std::int64_t count, std::int64_t stride,
                         double* d_out, double* d_last, const double* d_start) {
  __shared__ double transposed[kMaxScanStates * kMaxScanStates];
  const int lane = threadIdx.x;
  for (int e = lane; e < d * d; e += kWarp) transposed[(e % d) * d + e / d] = d_q[e];
  __syncwarp();
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * stride;
  const std::int64_t steps = count - first < stride ? count - first : stride;
  const double* e = d_e + first * d;
  double* out = d_out + first * d;
  const bool ownsA = lane < d, ownsB = lane + kWarp < d;
  double a = d_start && ownsA ? d_start[lane] : 0.0, b = d_start && ownsB ? d_start[lane + kWarp] : 0.0;
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

// A split scan's cuts fall on whole groups of chunks, counted from the start for the forward pass
// and from the end for the backward one, so every part runs exactly the chunks and groups one
// device would; only the carry across groups needs every part's group ends.
constexpr std::int64_t kGroupSamples = std::int64_t{kSosScanChunk} * kChunksPerGroup;

// One part of the odd extension: it filters [forwardBegin, forwardEnd) forwards and
// [backwardBegin, backwardEnd) backwards, and holds [backwardBegin, forwardEnd) on its device. The
// backward range starts up to a group earlier: those forward outputs come from the part before.
struct ScanRange {
  std::int64_t forwardBegin, forwardEnd, backwardBegin, backwardEnd;
  std::int64_t held() const { return forwardEnd - backwardBegin; }
};

std::vector<ScanRange> planScanRanges(std::int64_t total, std::size_t parts) {
  const std::vector<SignalPart> cuts = splitIntoParts(static_cast<std::size_t>(total), parts, kGroupSamples);
  const std::int64_t rest = total % kGroupSamples;
  const std::int64_t shift = rest == 0 ? 0 : kGroupSamples - rest;  // to a multiple of groups from the end
  std::vector<ScanRange> ranges;
  for (std::size_t p = 0; p < cuts.size(); ++p) {
    const auto begin = static_cast<std::int64_t>(cuts[p].begin), end = static_cast<std::int64_t>(cuts[p].end);
    ranges.push_back({begin, end, p == 0 ? 0 : begin - shift, p + 1 == cuts.size() ? total : end - shift});
  }
  return ranges;
}

// Everything one part keeps on its device, made for its engine's stream.
struct ScanPart {
  ScanPart(const cuda::OnDevice& on, const ScanRange& range_, std::size_t d, std::size_t coefficients,
           std::size_t powerCount, std::int64_t groups)
      : device(on.device), range(range_), stream(on.stream), shape(Shape{d, coefficients, powerCount, groups}) {
    const auto chunksIn = [](std::int64_t samples) {
      return static_cast<std::size_t>((samples + kSosScanChunk - 1) / kSosScanChunk);
    };
    const std::size_t chunks = std::max(chunksIn(range.forwardEnd - range.forwardBegin),
                                        chunksIn(range.backwardEnd - range.backwardBegin));
    const std::size_t localGroups = (chunks + kChunksPerGroup - 1) / kChunksPerGroup;
    coef = cuda::DeviceBuffer<double>(coefficients, stream);
    power = cuda::DeviceBuffer<double>(d * d, stream);
    groupPower = cuda::DeviceBuffer<double>(d * d, stream);
    powers = cuda::DeviceBuffer<double>(powerCount, stream);
    zi = cuda::DeviceBuffer<double>(d, stream);
    ends = cuda::DeviceBuffer<double>(chunks * d, stream);
    local = cuda::DeviceBuffer<double>(chunks * d, stream);
    groupEnds = cuda::DeviceBuffer<double>(localGroups * d, stream);
    allGroupEnds = cuda::DeviceBuffer<double>(static_cast<std::size_t>(groups) * d, stream);
    groupStarts = cuda::DeviceBuffer<double>(static_cast<std::size_t>(groups) * d, stream);
    y = cuda::DeviceBuffer<double>(static_cast<std::size_t>(range.held()), stream);
    max = cuda::DeviceBuffer<unsigned long long>(1, stream);
  }
  // Whether this part's buffers serve another run as they are.
  bool fits(const ScanRange& other, std::size_t d, std::size_t coefficients, std::size_t powerCount,
            std::int64_t groups) const {
    return range.forwardBegin == other.forwardBegin && range.forwardEnd == other.forwardEnd &&
           range.backwardBegin == other.backwardBegin && range.backwardEnd == other.backwardEnd &&
           shape.d == d && shape.coefficients == coefficients && shape.powerCount == powerCount && shape.groups == groups;
  }
  int device;
  ScanRange range;
  cuda::StreamView stream;  // its engine's (sosfiltfiltCuda); the buffers below are made for it
  struct Shape {
    std::size_t d, coefficients, powerCount;
    std::int64_t groups;
  };
  Shape shape;
  cuda::DeviceBuffer<double> coef, power, groupPower, powers, zi, ends, local, groupEnds, allGroupEnds, groupStarts, y;
  cuda::DeviceBuffer<unsigned long long> max;
  double* at(std::int64_t position) const { return y.data() + (position - range.backwardBegin); }
};

// One direction over a part's samples in place, in two steps around the exchange of group ends.
// `first` is the part's first sample in filtering order, `n` its samples, `firstGroup` the global
// index of its first group, `startsSignal` whether its first chunk is the pass's first (which
// starts from zi times *d_scale).
struct ScanPass {
  double* first;
  std::int64_t n, stride, firstGroup;
  bool startsSignal;
  const double* d_scale;
  std::int64_t chunks() const { return (n + kSosScanChunk - 1) / kSosScanChunk; }
  std::int64_t groups() const { return (chunks() + kChunksPerGroup - 1) / kChunksPerGroup; }
};

// Chunks one launch of the chunk kernel runs: 64M samples, about a millisecond at the memory's rate.
constexpr std::int64_t kChunksPerLaunch = std::int64_t{1} << 16;

// The chunk kernel (sos_chunk_kernel.cuh) over the pass's chunks, in launches of kChunksPerLaunch
// (launch_in_parts.hpp): each chunk runs as it would in one launch; Cancel is seen and progress
// reported between launches.
void runChunks(int sections, ScanPart& part, const ScanPass& pass, const CarryView& carry, double* d_ends,
               cuda::WorkShare& work) {
  cuda::runInParts(part.stream, 0, pass.chunks(), kChunksPerLaunch, work, kSosScanChunk,
                   [&](std::int64_t begin, std::int64_t end) {
                     sos_scan::runChunkTiles({part.coef.data(), sections, pass.first, pass.n, pass.stride, begin, end,
                                              pass.startsSignal, part.zi.data(), pass.d_scale, carry, d_ends},
                                             part.stream.get());
                   });
}

// Step 1 and 2: the chunks' end states from zero and the groups' ends as if each started from zero;
// the group ends go to hostGroupEnds at the part's first group.
void scanEnds(int sections, ScanPart& part, const ScanPass& pass, double* hostGroupEnds, cuda::WorkShare& work) {
  const int d = 2 * sections;
  const cudaStream_t stream = part.stream.get();
  const auto chunks = pass.chunks();
  const CarryView carry{part.local.data(), part.groupStarts.data(), part.powers.data()};
  runChunks(sections, part, pass, carry, part.ends.data(), work);
  sosCarry<<<static_cast<unsigned>(pass.groups()), kWarp, 0, stream>>>(part.power.data(), d, part.ends.data(), chunks,
                                                                        kChunksPerGroup, part.local.data(),
                                                                        part.groupEnds.data(), nullptr);
  SIGLAB_CUDA_CHECK_LAUNCH();
  SIGLAB_CUDA_TRY(cudaMemcpyAsync(hostGroupEnds + pass.firstGroup * d, part.groupEnds.data(),
                                  static_cast<std::size_t>(pass.groups() * d) * sizeof(double), cudaMemcpyDeviceToHost,
                                  stream));
  SIGLAB_CUDA_TRY(cudaStreamSynchronize(stream));
}

// Step 3 and 4: every group's true start from every part's group ends (one warp, in group order,
// as on one device), then the part's chunks again from their true starts, writing outputs.
void scanOutputs(int sections, ScanPart& part, const ScanPass& pass, const std::vector<double>& hostGroupEnds,
                 cuda::WorkShare& work) {
  const int d = 2 * sections;
  const cudaStream_t stream = part.stream.get();
  const auto groups = static_cast<std::int64_t>(hostGroupEnds.size()) / d;
  SIGLAB_CUDA_TRY(cudaMemcpyAsync(part.allGroupEnds.data(), hostGroupEnds.data(), hostGroupEnds.size() * sizeof(double),
                                  cudaMemcpyHostToDevice, stream));
  sosCarry<<<1, kWarp, 0, stream>>>(part.groupPower.data(), d, part.allGroupEnds.data(), groups, groups,
                                    part.groupStarts.data(), nullptr, nullptr);
  SIGLAB_CUDA_CHECK_LAUNCH();
  const CarryView carry{part.local.data(), part.groupStarts.data() + pass.firstGroup * d, part.powers.data()};
  runChunks(sections, part, pass, carry, nullptr, work);
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

// What a run takes from its sections alone: P = A^kSosScanChunk and its powers P^j for j <
// kChunksPerGroup (the output kernel's), P^kChunksPerGroup (the groups' carry), and how much the
// carry can amplify its own rounding, the sum of the norms of the powers it applies over `groups`
// groups. Kept for the next run of the same sections: sosGains runs the cascade's impulse responses
// until they decay, which took longer than the scan's kernels on 10M samples.
struct ScanPlan {
  std::vector<double> coef;
  std::int64_t groups = 0;
  SosState zi;
  SosGains gains;
  std::vector<double> power, powers, groupPower;
  double amplification = 0;
};

ScanPlan makeScanPlan(const Sections& sections, std::int64_t groups) {
  ScanPlan plan;
  plan.coef = flatCoefficients(sections);
  plan.groups = groups;
  plan.zi = sosfiltZi(sections);
  plan.gains = sosGains(sections);
  plan.power = sosTransitionPower(sections, kSosScanChunk);
  const std::size_t d = plan.zi.size();
  std::vector<double> current(d * d, 0.0);
  for (std::size_t i = 0; i < d; ++i) current[i * d + i] = 1.0;
  for (int j = 0; j < kChunksPerGroup; ++j) {
    plan.powers.insert(plan.powers.end(), current.begin(), current.end());
    plan.amplification += infinityNorm(current, d);
    current = multiply(current, plan.power, d);
  }
  plan.groupPower = current;
  std::vector<double> step = plan.groupPower;
  for (std::int64_t g = 1; g <= groups; ++g) {
    const double norm = infinityNorm(step, d);
    plan.amplification += norm;
    if (norm < 1e-300) break;
    step = multiply(step, plan.groupPower, d);
  }
  return plan;
}

// The causal scan on one device streamed through the engine base's ChunkPipeline (issue 30): a few
// large chunks of whole groups (all but the last), each on its slot's stream, so that one chunk's
// kernels overlap the next chunk's copy in and the one before's copy out, and chunks' kernels overlap
// each other (each alone is bound by its recurrence's latency, far from filling the GPU). Only the
// carry across groups is chained from chunk to chunk: a chunk's steps 1 and 2 run from zero as the
// whole-signal scan's do; its step-3 carry starts from the chunk before's end state (the chain, one
// small kernel a chunk, ordered by events) and leaves its own end state for the next; its step 4
// writes its outputs. Every step does what the whole-signal scan does on the same groups, in the
// same order: the result has the resident scan's bits.
constexpr int kStreamedSlots = 8;
#ifdef SIGLAB_SCAN_CHUNKS_PER_SIGNAL  // scripts/gpu-scan-ab.sh's variants try others
constexpr std::size_t kStreamedChunksPerSignal = SIGLAB_SCAN_CHUNKS_PER_SIGNAL;
#else
constexpr std::size_t kStreamedChunksPerSignal = 8;
#endif

// About an eighth of the signal a chunk, in whole groups: 4 to 32 groups (256 Ki to 2 Mi samples).
// Few chunks cost little fill and drain (one chunk's kernels and copy out); a chunk's kernels take
// about as long for a small chunk as for a large one (docs/perf/gpu-h100-scan-session19.txt); at 10M,
// 4 and 16 chunks a signal were slower than 8 (docs/perf/gpu-h100-scan-session20.txt).
std::size_t streamedChunkSamples(std::size_t n) {
  const std::size_t groups = (n + kGroupSamples - 1) / kGroupSamples;
  return std::clamp<std::size_t>((groups + kStreamedChunksPerSignal - 1) / kStreamedChunksPerSignal, 4, 32) *
         kGroupSamples;
}

// A slot's own buffers: its chunk's carries, and the event that ends its link of the chain.
struct StreamedSlot {
  StreamedSlot(std::size_t chunks, std::size_t groups, std::size_t d, cuda::StreamView made)
      : ends(chunks * d, made), local(chunks * d, made), groupEnds(groups * d, made), groupStarts(groups * d, made) {}
  cuda::DeviceBuffer<double> ends, local, groupEnds, groupStarts;
  cuda::Event chained;  // its chunk's end state written
};

struct StreamedScan {
  StreamedScan(std::size_t d_, std::size_t coefficients, std::size_t powerCount, std::size_t chunkSamples)
      : d(d_), coef(coefficients, compute.view()), power(d * d, compute.view()), groupPower(d * d, compute.view()),
        powers(powerCount, compute.view()), states(2 * d, compute.view()), max(1, compute.view()),
        pipeline(chunkSamples, 0, kStreamedSlots, cuda::ResultsBack::Yes, cuda::Ramps::No) {
    const std::size_t chunks = chunkSamples / kSosScanChunk, groups = chunks / kChunksPerGroup;
    for (int s = 0; s < kStreamedSlots; ++s) slots.push_back(std::make_unique<StreamedSlot>(chunks, groups, d, compute.view()));
  }
  bool fits(std::size_t d_, std::size_t coefficients, std::size_t powerCount, std::size_t chunkSamples) const {
    return d == d_ && coef.size() == coefficients && powers.size() == powerCount &&
           pipeline.chunkSamples() == chunkSamples;
  }
  std::size_t d;
  cuda::Stream compute;  // first: the buffers are made for it (and the setup's copies run on it)
  cuda::DeviceBuffer<double> coef, power, groupPower, powers;
  cuda::DeviceBuffer<double> states;  // two end states: chunk k leaves its own in states[k % 2]
  cuda::DeviceBuffer<unsigned long long> max;
  std::vector<std::unique_ptr<StreamedSlot>> slots;
  std::vector<double> uploaded;  // the sections whose coefficients and powers the buffers above hold
  std::size_t scannedChunks = 0;  // in this pass; the pipeline gives chunk k to slot k % slots
  cuda::ChunkPipeline<double> pipeline;
};

// The streamed scan's chunk kernel (haloed_span.hpp): the chunk's input copied to its output and
// scanned there in place, all on the slot's stream but the chain's wait for the chunk before.
struct StreamedScanKernel {
  StreamedScan* scan;
  int sections;
  void operator()(const cuda::HaloedSpan<double>& in, double* d_out, cuda::StreamView slot) const {
    StreamedScan& ws = *scan;
    const int d = static_cast<int>(ws.d);
    const cudaStream_t stream = slot.get();
    const std::size_t k = ws.scannedChunks++;
    StreamedSlot& own = *ws.slots[k % ws.slots.size()];
    maxAbs<<<256, 256, 0, stream>>>(in.d_body, in.n, ws.max.data());
    SIGLAB_CUDA_CHECK_LAUNCH();
    SIGLAB_CUDA_TRY(cudaMemcpyAsync(d_out, in.d_body, static_cast<std::size_t>(in.n) * sizeof(double),
                                    cudaMemcpyDeviceToDevice, stream));
    const std::int64_t chunks = (in.n + kSosScanChunk - 1) / kSosScanChunk;
    const std::int64_t groups = (chunks + kChunksPerGroup - 1) / kChunksPerGroup;
    const CarryView carry{own.local.data(), own.groupStarts.data(), ws.powers.data()};
    // Steps 1 and 2 from zero: nothing here waits for the chunk before.
    sos_scan::runChunkTiles({ws.coef.data(), sections, d_out, in.n, 1, 0, chunks, false, nullptr, nullptr, carry,
                             own.ends.data()},
                            stream);
    sosCarry<<<static_cast<unsigned>(groups), kWarp, 0, stream>>>(ws.power.data(), d, own.ends.data(), chunks,
                                                                  kChunksPerGroup, own.local.data(),
                                                                  own.groupEnds.data(), nullptr);
    SIGLAB_CUDA_CHECK_LAUNCH();
    // The chain: the groups' true starts from the chunk before's end state, and this chunk's end.
    const double* start = nullptr;
    if (k > 0) {
      SIGLAB_CUDA_TRY(cudaStreamWaitEvent(stream, ws.slots[(k - 1) % ws.slots.size()]->chained.get()));
      start = ws.states.data() + ((k - 1) % 2) * ws.d;
    }
    sosCarry<<<1, kWarp, 0, stream>>>(ws.groupPower.data(), d, own.groupEnds.data(), groups, groups,
                                      own.groupStarts.data(), ws.states.data() + (k % 2) * ws.d, start);
    SIGLAB_CUDA_CHECK_LAUNCH();
    own.chained.record(slot);
    sos_scan::runChunkTiles({ws.coef.data(), sections, d_out, in.n, 1, 0, chunks, false, nullptr, nullptr, carry,
                             nullptr},
                            stream);
  }
};

// The scan's engines (one a part: its device and stream, failures mapped once, gpu_engine.hpp) and
// their parts' buffers, kept between runs on the same devices: allocating a signal's worth of device
// memory and streams on every call cost more than the copies. One run at a time; never destroyed
// (CUDA may be gone at exit).
struct ScanCache {
  std::mutex mutex;
  std::vector<int> devices;
  std::vector<std::unique_ptr<cuda::GpuEngine>> engines;
  std::vector<std::unique_ptr<ScanPart>> parts;  // made by the first step of a run on the part's engine
  std::optional<ScanPlan> plan;                   // the last run's
  std::unique_ptr<StreamedScan> streamed;         // the causal scan's on one device, on engines[0]'s

  const ScanPlan& planFor(const Sections& sections, std::int64_t groups) {
    if (!plan || plan->groups != groups || plan->coef != flatCoefficients(sections)) plan = makeScanPlan(sections, groups);
    return *plan;
  }

  // Engines for one part on each of `wanted`, reusing those held when the devices are the same.
  void keepFor(const std::vector<int>& wanted) {
    if (wanted == devices) return;
    drop();
    engines.clear();
    for (int device : wanted) engines.push_back(std::make_unique<cuda::GpuEngine>(std::string(), device));
    parts.resize(wanted.size());
    devices = wanted;
  }
  // Frees every part's buffers (each on its own device); the engines stay.
  void drop() {
    for (auto& part : parts) part.reset();
    if (streamed) {
      const cuda::DeviceScope scope(devices.front(), std::nothrow);
      streamed.reset();
    }
  }
  // After a run: a part holding more than kKeptBytes of signal is freed, so a long signal's scan does
  // not keep the device's memory from the engines that run next (its own run takes far longer than
  // the allocation it saves).
  void trim() {
    constexpr std::size_t kKeptBytes = std::size_t{512} << 20;
    for (auto& part : parts) {
      if (part && part->y.bytes() > kKeptBytes) part.reset();
    }
  }
};
ScanCache& scanCache() {
  static auto* const cache = new ScanCache;
  return *cache;
}

// The causal scan over `in` on the cache's one engine through StreamedScan; the error bound as the
// whole-signal scan states it for its forward pass.
GpuFilterResult streamedCausalScan(ScanCache& cache, const Sections& sections, const ScanPlan& plan,
                                   std::span<const double> in, std::span<double> out, const Progress& progress) {
  const std::size_t d = plan.zi.size();
  GpuFilterResult result;
  unsigned long long maxBits = 0;
  const std::string outOfMemory = "out of GPU memory: the causal scan's " + std::to_string(kStreamedSlots) +
                                  " chunks in flight do not fit";
  cache.engines[0]->run(outOfMemory, [&](const cuda::OnDevice&) {
    const std::size_t chunkSamples = streamedChunkSamples(in.size());
    if (!cache.streamed || !cache.streamed->fits(d, plan.coef.size(), plan.powers.size(), chunkSamples)) {
      cache.streamed.reset();  // free the old buffers before taking new ones
      cache.streamed = std::make_unique<StreamedScan>(d, plan.coef.size(), plan.powers.size(), chunkSamples);
    }
    StreamedScan& ws = *cache.streamed;
    const cudaStream_t compute = ws.compute.view().get();
    const auto toDevice = [&](cuda::DeviceBuffer<double>& to, const std::vector<double>& from) {
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(to.data(), from.data(), from.size() * sizeof(double), cudaMemcpyHostToDevice, compute));
    };
    if (ws.uploaded != plan.coef) {  // the powers follow from the sections alone
      toDevice(ws.coef, plan.coef);
      toDevice(ws.power, plan.power);
      toDevice(ws.groupPower, plan.groupPower);
      toDevice(ws.powers, plan.powers);
      ws.uploaded = plan.coef;
    }
    SIGLAB_CUDA_TRY(cudaMemsetAsync(ws.max.data(), 0, sizeof(unsigned long long), compute));
    ws.compute.view().synchronize();
    ws.scannedChunks = 0;
    const cuda::PipelinePass pass =
        ws.pipeline.run(in, out, StreamedScanKernel{&ws, static_cast<int>(sections.size())}, BoundaryMode::Zero, progress);
    SIGLAB_CUDA_TRY(cudaMemcpyAsync(&maxBits, ws.max.data(), sizeof maxBits, cudaMemcpyDeviceToHost, compute));
    ws.compute.view().synchronize();
    result.kernelMs = pass.kernelMs;
    result.totalMs = pass.totalMs;
  });
  double maxIn = 0;
  std::memcpy(&maxIn, &maxBits, sizeof maxIn);
  result.errorBound = sosScanErrorBound(sections, plan.gains, maxIn, 0.0) +
                      carryErrorBound(plan.gains, plan.power, plan.amplification, maxIn);
  if (!plan.gains.decayed) result.errorBound = std::numeric_limits<double>::infinity();
  return result;
}

// sosfiltfilt (zeroPhase) or sosfilt from rest over `in`, which may lie in host or device memory.
GpuFilterResult sosScanCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                            const std::vector<int>& devices, const Progress& progress, bool zeroPhase) {
  checkStable(sections);
  if (in.size() != out.size()) {
    throw std::invalid_argument(std::string(zeroPhase ? "sosfiltfilt" : "sosfilt") + ": input and output sizes differ");
  }
  if (sections.empty() || static_cast<int>(2 * sections.size()) > kMaxScanStates) {
    throw std::invalid_argument("the GPU scan takes 1 to " + std::to_string(kMaxScanStates / 2) + " sections");
  }
  const std::size_t n = in.size(), edge = zeroPhase ? sosfiltfiltPadLength(sections) : 0;
  if (zeroPhase && n <= edge) {
    throw std::invalid_argument("zero-phase filtering needs more than " + std::to_string(edge) +
                                " samples (3 x (2 x sections + 1)); the signal has " + std::to_string(n));
  }
  int deviceCount = 0;
  if (cudaGetDeviceCount(&deviceCount) != cudaSuccess || deviceCount == 0) {
    cudaGetLastError();
    return {GpuStatus::Unavailable, "no usable CUDA GPU was found"};
  }
  const std::vector<int> listed = devices.empty() ? std::vector<int>{0} : devices;
  for (int device : listed) {
    if (device < 0 || device >= deviceCount) {
      return {GpuStatus::Unavailable, "there is no GPU " + std::to_string(device) + ": this machine has " +
                                          std::to_string(deviceCount) + " (0 to " + std::to_string(deviceCount - 1) + ")"};
    }
  }
  progress.throwIfCancelled();
  if (n == 0) return {};
  const auto start = std::chrono::steady_clock::now();
  const auto total = static_cast<std::int64_t>(n + 2 * edge);
  ScanCache& cache = scanCache();
  const std::lock_guard lock(cache.mutex);
  const ScanPlan& plan = cache.planFor(sections, (total / kSosScanChunk + kChunksPerGroup) / kChunksPerGroup);
  const SosState& zi = plan.zi;
  const SosGains& gains = plan.gains;
  const std::vector<double>& power = plan.power;
  const std::vector<double>& powers = plan.powers;
  const std::vector<double>& groupPower = plan.groupPower;
  const std::vector<double>& coef = plan.coef;
  const double amplification = plan.amplification;
  const std::size_t d = zi.size();
  const int count = static_cast<int>(sections.size());
  const std::int64_t chunks = (total + kSosScanChunk - 1) / kSosScanChunk;
  const std::int64_t groups = (chunks + kChunksPerGroup - 1) / kChunksPerGroup;
  const std::vector<ScanRange> ranges = planScanRanges(total, listed.size());
  const std::size_t partCount = ranges.size();
  cache.keepFor(std::vector<int>(listed.begin(), listed.begin() + static_cast<std::ptrdiff_t>(partCount)));
  if (!zeroPhase && partCount == 1 && cuda::memoryKindOf(in.data()) != cuda::MemoryKind::Device) {  // streamed
    try {
      return streamedCausalScan(cache, sections, plan, in, out, progress);
    } catch (const Cancelled&) {
      cache.drop();
      throw;
    } catch (const cuda::GpuRunError& e) {
      cache.drop();
      return {e.failure() == cuda::GpuFailure::OutOfMemory ? GpuStatus::OutOfMemory : GpuStatus::Failed, e.what()};
    } catch (const std::exception& e) {
      cache.drop();
      return {GpuStatus::Failed, e.what()};
    }
  }
  std::vector<std::unique_ptr<ScanPart>>& parts = cache.parts;
  const std::vector<std::unique_ptr<cuda::GpuEngine>>& engines = cache.engines;
  auto freeParts = [&] { cache.drop(); };  // after a failure or a cancel: nothing half-done is kept
  const std::string outOfMemory = "out of GPU memory: the extended signal needs " +
                                  std::to_string(static_cast<std::size_t>(total) * sizeof(double) >> 20) + " MiB";
  // The odd extension, as sosfiltfilt builds it: its two edges here, from the input's first and
  // last edge + 1 samples (read from wherever the input lies), its interior the input itself.
  std::vector<double> head(edge), tail(edge);
  if (zeroPhase) {
    std::vector<double> first(edge + 1), last(edge + 1);
    engines[0]->run(outOfMemory, [&](const cuda::OnDevice& on) {
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(first.data(), in.data(), first.size() * sizeof(double), cudaMemcpyDefault,
                                      on.stream.get()));
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(last.data(), in.data() + (n - last.size()), last.size() * sizeof(double),
                                      cudaMemcpyDefault, on.stream.get()));
      on.stream.synchronize();
    });
    for (std::size_t j = 0; j < edge; ++j) {
      head[j] = 2 * first[0] - first[edge - j];
      tail[j] = 2 * last[edge] - last[edge - 1 - j];
    }
  }
  // step(p, on) on every part at once, each on its own engine.
  const auto onEachEngine = [&](const auto& step) {
    cuda::onEachPart(partCount, [&](std::size_t p) {
      engines[p]->run(outOfMemory, [&](const cuda::OnDevice& on) { step(p, on); });
    });
  };
  // Progress in samples: copied in, through each of the four chunk passes, copied out.
  std::uint64_t units = n;
  for (const ScanRange& r : ranges) {
    const auto chunksOf = [](std::int64_t samples) { return (samples + kSosScanChunk - 1) / kSosScanChunk; };
    units += static_cast<std::uint64_t>(r.forwardEnd - r.forwardBegin +
                                        2 * kSosScanChunk *
                                            (chunksOf(r.forwardEnd - r.forwardBegin) +
                                             (zeroPhase ? chunksOf(r.backwardEnd - r.backwardBegin) : 0)));
  }
  cuda::WorkShare work(progress, units);
  // The extension's samples [begin, end) to `to` on the part's stream, in parts (launch_in_parts.hpp).
  // Pageable input and output go through pinned pieces staged by host threads (pageable_staging.hpp).
  const bool pageableIn = cuda::memoryKindOf(in.data()) == cuda::MemoryKind::Pageable;
  const bool pageableOut = cuda::memoryKindOf(out.data()) == cuda::MemoryKind::Pageable;
  auto copyExtension = [&](ScanPart& part, std::int64_t begin, std::int64_t end) {
    cuda::PageableStaging staging(part.stream);
    cuda::runInParts(part.stream, begin, end, cuda::kCopyPartSamples, work, 1, [&](std::int64_t b0, std::int64_t e0) {
      const auto piece = [&](const double* source, std::int64_t from, std::int64_t to, bool staged) {
        const std::int64_t b = std::max(b0, from), e = std::min(e0, to);
        if (b >= e) return;
        const std::size_t bytes = static_cast<std::size_t>(e - b) * sizeof(double);
        if (staged) return staging.toDevice(part.at(b), source + (b - from), bytes);
        SIGLAB_CUDA_TRY(cudaMemcpyAsync(part.at(b), source + (b - from), bytes, cudaMemcpyDefault, part.stream.get()));
      };
      const auto interiorBegin = static_cast<std::int64_t>(edge), interiorEnd = static_cast<std::int64_t>(edge + n);
      piece(head.data(), 0, interiorBegin, false);  // a few samples: the driver's own staging is enough
      piece(in.data(), interiorBegin, interiorEnd, pageableIn);
      piece(tail.data(), interiorEnd, total, false);
    });
  };
  // Forward, part p runs its range from its start; backward, from its range's end down.
  auto forward = [&](std::size_t p) {
    const ScanPart& part = *parts[p];
    const ScanRange& r = part.range;
    const bool startsSignal = zeroPhase && p == 0;  // only that part reads the scale: the extension's first sample
    return ScanPass{part.at(r.forwardBegin), r.forwardEnd - r.forwardBegin, 1, r.forwardBegin / kGroupSamples,
                    startsSignal, startsSignal ? part.at(0) : part.y.data()};
  };
  auto backward = [&](std::size_t p) {
    const ScanPart& part = *parts[p];
    const ScanRange& r = part.range;
    const bool startsSignal = p + 1 == partCount;  // it holds the forward pass's last output, the scale
    return ScanPass{part.at(r.backwardEnd - 1), r.backwardEnd - r.backwardBegin, -1,
                    (total - r.backwardEnd) / kGroupSamples, startsSignal, startsSignal ? part.at(total - 1) : part.y.data()};
  };
  std::vector<double> groupEnds(static_cast<std::size_t>(groups) * d);
  std::vector<unsigned long long> maxBits(partCount, 0);
  // The forward outputs a part's backward range takes from the part before it (none on one device).
  std::vector<std::vector<double>> borrowed(partCount);
  try {
    double kernelsMs = 0;
    onEachEngine([&](std::size_t p, const cuda::OnDevice& on) {
      if (!parts[p] || !parts[p]->fits(ranges[p], d, coef.size(), powers.size(), groups)) {
        parts[p].reset();  // free the old buffers before taking new ones
        parts[p] = std::make_unique<ScanPart>(on, ranges[p], d, coef.size(), powers.size(), groups);
      }
      ScanPart& part = *parts[p];
      const cudaStream_t stream = part.stream.get();
      const auto toDevice = [&](cuda::DeviceBuffer<double>& to, const std::vector<double>& from) {
        SIGLAB_CUDA_TRY(cudaMemcpyAsync(to.data(), from.data(), from.size() * sizeof(double), cudaMemcpyHostToDevice, stream));
      };
      toDevice(part.coef, coef);
      toDevice(part.power, power);
      toDevice(part.groupPower, groupPower);
      toDevice(part.powers, powers);
      toDevice(part.zi, zi);
      copyExtension(part, part.range.forwardBegin, part.range.forwardEnd);
      SIGLAB_CUDA_TRY(cudaStreamSynchronize(stream));
    });
    const auto kernels = std::chrono::steady_clock::now();
    onEachEngine([&](std::size_t p, const cuda::OnDevice&) {
      ScanPart& part = *parts[p];
      const ScanRange& r = part.range;
      SIGLAB_CUDA_TRY(cudaMemsetAsync(part.max.data(), 0, sizeof(unsigned long long), part.stream.get()));
      maxAbs<<<1024, 256, 0, part.stream.get()>>>(part.at(r.forwardBegin), r.forwardEnd - r.forwardBegin, part.max.data());
      SIGLAB_CUDA_CHECK_LAUNCH();
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(&maxBits[p], part.max.data(), sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                      part.stream.get()));
      scanEnds(count, part, forward(p), groupEnds.data(), work);
    });
    onEachEngine([&](std::size_t p, const cuda::OnDevice&) {
      ScanPart& part = *parts[p];
      scanOutputs(count, part, forward(p), groupEnds, work);
      if (zeroPhase && p + 1 < partCount) {  // the next part's backward range begins inside this one's forward range
        const ScanRange& next = parts[p + 1]->range;
        borrowed[p + 1].resize(static_cast<std::size_t>(next.forwardBegin - next.backwardBegin));
        SIGLAB_CUDA_TRY(cudaMemcpyAsync(borrowed[p + 1].data(), part.at(next.backwardBegin),
                                        borrowed[p + 1].size() * sizeof(double), cudaMemcpyDeviceToHost,
                                        part.stream.get()));
      }
      SIGLAB_CUDA_TRY(cudaStreamSynchronize(part.stream.get()));
    });
    if (zeroPhase) {
      onEachEngine([&](std::size_t p, const cuda::OnDevice&) {
        ScanPart& part = *parts[p];
        if (!borrowed[p].empty()) {
          SIGLAB_CUDA_TRY(cudaMemcpyAsync(part.at(part.range.backwardBegin), borrowed[p].data(),
                                          borrowed[p].size() * sizeof(double), cudaMemcpyHostToDevice,
                                          part.stream.get()));
        }
        scanEnds(count, part, backward(p), groupEnds.data(), work);
      });
      onEachEngine([&](std::size_t p, const cuda::OnDevice&) {
        ScanPart& part = *parts[p];
        scanOutputs(count, part, backward(p), groupEnds, work);
        SIGLAB_CUDA_TRY(cudaStreamSynchronize(part.stream.get()));
      });
    }
    kernelsMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - kernels).count();
    onEachEngine([&](std::size_t p, const cuda::OnDevice&) {
      ScanPart& part = *parts[p];
      // The last pass's outputs: the backward range's, or the forward one's for a causal run.
      const ScanRange& r = part.range;
      const auto interiorBegin = static_cast<std::int64_t>(edge), interiorEnd = static_cast<std::int64_t>(edge + n);
      const std::int64_t b = std::max(zeroPhase ? r.backwardBegin : r.forwardBegin, interiorBegin);
      const std::int64_t e = std::min(zeroPhase ? r.backwardEnd : r.forwardEnd, interiorEnd);
      cuda::PageableStaging staging(part.stream);
      cuda::runInParts(part.stream, b, e, cuda::kCopyPartSamples, work, 1, [&](std::int64_t b0, std::int64_t e0) {
        double* to = out.data() + (b0 - static_cast<std::int64_t>(edge));
        const std::size_t bytes = static_cast<std::size_t>(e0 - b0) * sizeof(double);
        if (pageableOut) return staging.toHost(to, part.at(b0), bytes);
        SIGLAB_CUDA_TRY(cudaMemcpyAsync(to, part.at(b0), bytes, cudaMemcpyDefault, part.stream.get()));
      });
      SIGLAB_CUDA_TRY(cudaStreamSynchronize(part.stream.get()));
    });
    cache.trim();
    GpuFilterResult result;  // the parts stay for the next run (scanCache)
    result.kernelMs = kernelsMs;
    result.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    double maxIn = 0;
    static_assert(sizeof maxIn == sizeof maxBits[0]);
    const unsigned long long largest = *std::max_element(maxBits.begin(), maxBits.end());
    std::memcpy(&maxIn, &largest, sizeof maxIn);
    // Both passes start steady (zi times their first sample); the backward one's input is the
    // forward output, at most inputToOutput times the forward input.
    const double forwardMax = gains.inputToOutput * maxIn;
    const double forwardError =
        sosScanErrorBound(sections, gains, maxIn, 0.0) + carryErrorBound(gains, power, amplification, maxIn);
    result.errorBound = zeroPhase ? forwardError * gains.inputToOutput + sosScanErrorBound(sections, gains, forwardMax, 0.0) +
                                        carryErrorBound(gains, power, amplification, forwardMax)
                                  : forwardError;
    // Responses longer than sosGains follows: no bound can be stated.
    if (!gains.decayed) result.errorBound = std::numeric_limits<double>::infinity();
    return result;
  } catch (const Cancelled&) {
    freeParts();
    throw;
  } catch (const cuda::GpuRunError& e) {
    freeParts();
    return {e.failure() == cuda::GpuFailure::OutOfMemory ? GpuStatus::OutOfMemory : GpuStatus::Failed, e.what()};
  } catch (const std::exception& e) {
    freeParts();
    return {GpuStatus::Failed, e.what()};
  }
}

}  // namespace

GpuFilterResult sosfiltfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                                int device, const Progress& progress) {
  return sosScanCuda(sections, in, out, std::vector<int>{device}, progress, true);
}

GpuFilterResult sosfiltfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                                const std::vector<int>& devices, const Progress& progress) {
  return sosScanCuda(sections, in, out, devices, progress, true);
}

GpuFilterResult sosfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                            const std::vector<int>& devices, const Progress& progress) {
  return sosScanCuda(sections, in, out, devices, progress, false);
}

}  // namespace siglab

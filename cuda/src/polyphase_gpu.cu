// polyphaseCuda (cuda_stages.hpp): upfirdn, resample_poly and decimate's FIR on the GPU, one
// thread an output, each output's dot product Polyphase::outputAt's: the same phase taps, the same
// four running sums in the same order, no multiply-add contraction (--fmad=false), so every output
// has cpu-serial's bits.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_engine.hpp"
#include "siglab/cuda_stages.hpp"
#include "stage_engine.hpp"

namespace siglab {
namespace {

constexpr unsigned kOutputThreads = 256;

struct PhaseTable {
  const double* taps;           // every phase's taps, phase after phase (Polyphase::phaseTaps order)
  const std::int64_t* starts;   // phase p's taps begin at taps + starts[p] and end at starts[p + 1]
  std::int64_t up, down, offset;
};

/* PolyphaseOutputs: output firstOutput + t for t < count; x holds inputs from `base`. The dot
 * product is Polyphase::dot's, term for term: four sums over quads, the rest into the first. */
__global__ void polyphaseOutputs(PhaseTable table, const double* __restrict__ d_x, std::int64_t base, std::int64_t n,
                                 std::int64_t firstOutput, std::int64_t count, double* __restrict__ d_out) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const std::int64_t s = (firstOutput + t) * table.down + table.offset;
  const std::int64_t phase = s % table.up, top = s / table.up;
  const std::int64_t tapsBegin = table.starts[phase], length = table.starts[phase + 1] - tapsBegin;
  const std::int64_t bottom = top - length + 1;
  const std::int64_t from = bottom > 0 ? bottom : 0, to = top < n - 1 ? top : n - 1;
  double result = 0.0;
  if (from <= to) {
    const double* __restrict__ h = table.taps + tapsBegin + (from - bottom);
    const double* __restrict__ v = d_x + (from - base);
    const std::int64_t terms = to - from + 1;
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    std::int64_t r = 0;
    for (; r + 4 <= terms; r += 4) {
      a0 += h[r] * v[r];
      a1 += h[r + 1] * v[r + 1];
      a2 += h[r + 2] * v[r + 2];
      a3 += h[r + 3] * v[r + 3];
    }
    for (; r < terms; ++r) a0 += h[r] * v[r];
    result = (a0 + a1) + (a2 + a3);
  }
  d_out[t] = result;
}

}  // namespace

GpuFilterResult polyphaseCuda(const Polyphase& fir, std::span<const double> x, std::int64_t base, std::int64_t n,
                              std::int64_t firstOutput, std::span<double> out, int device) {
  const auto count = static_cast<std::int64_t>(out.size());
  if (base < 0 || firstOutput < 0 || base + static_cast<std::int64_t>(x.size()) > n) {
    throw std::invalid_argument("polyphase: the inputs held lie outside the signal");
  }
  // The inputs these outputs read, all held (outputs past the signal's reach read none).
  if (count > 0) {
    const std::int64_t first = fir.firstInput(firstOutput), last = fir.lastInput(firstOutput + count - 1, n);
    if (first <= last && (first < base || last >= base + static_cast<std::int64_t>(x.size()))) {
      throw std::invalid_argument("polyphase: outputs " + std::to_string(firstOutput) + " to " +
                                  std::to_string(firstOutput + count - 1) + " read inputs " + std::to_string(first) +
                                  " to " + std::to_string(last) + ", not all held");
    }
  }
  std::vector<double> taps;
  std::vector<std::int64_t> starts{0};
  for (std::int64_t p = 0; p < fir.up(); ++p) {
    const std::span<const double> phase = fir.phaseTaps(p);
    taps.insert(taps.end(), phase.begin(), phase.end());
    starts.push_back(static_cast<std::int64_t>(taps.size()));
  }
  if (taps.empty()) taps.push_back(0.0);
  return cuda::filterResultOf([&] {
    const cuda::StageEngineLease engine = cuda::leaseStageEngine(device);
    return engine->run("out of GPU memory: the rate change's input and output", [&](const cuda::OnDevice& on) {
      GpuFilterResult result;
      if (count == 0) return result;
      auto* d_taps = engine->scratch<double>(0, taps.size(), on.stream);
      auto* d_starts = engine->scratch<std::int64_t>(1, starts.size(), on.stream);
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(d_taps, taps.data(), taps.size() * sizeof(double), cudaMemcpyDefault, on.stream.get()));
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(d_starts, starts.data(), starts.size() * sizeof(std::int64_t), cudaMemcpyDefault,
                                      on.stream.get()));
      const PhaseTable table{d_taps, d_starts, fir.up(), fir.down(), fir.offset()};
      // One staged signal for input and output of different lengths: the input in, the output out.
      const cuda::StagedSignal<double> input(x, std::span<double>(), on);
      const cuda::StagedSignal<double> output(std::span<const double>(), out, on);
      cuda::Event start, copiedIn, computed, copiedOut;
      start.record(on.stream);
      input.copyIn();
      copiedIn.record(on.stream);
      polyphaseOutputs<<<static_cast<unsigned>((count + kOutputThreads - 1) / kOutputThreads), kOutputThreads, 0,
                         on.stream.get()>>>(table, input.d_in(), base, n, firstOutput, count, output.d_out());
      SIGLAB_CUDA_CHECK_LAUNCH();
      computed.record(on.stream);
      output.copyOut();
      copiedOut.record(on.stream);
      copiedOut.synchronize();
      result.kernelMs = computed.millisSince(copiedIn);
      result.totalMs = copiedOut.millisSince(start);
      return result;
    });
  });
}

}  // namespace siglab

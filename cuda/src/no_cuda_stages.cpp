// Built instead of the stage engines when no CUDA compiler was found: each checks its arguments
// as the GPU build does, then says why it cannot run.
#include <stdexcept>

#include "siglab/cuda_stages.hpp"

namespace siglab {
namespace {

GpuFilterResult noCuda() {
  return {GpuStatus::Unavailable, "this build of SigLab has no CUDA support (nvcc was not found when it was built)"};
}

}  // namespace

GpuFilterResult spectrogramCuda(std::span<const double> x, const SpectrogramLayout& layout, std::uint64_t frames,
                                std::span<double> out, int) {
  if (out.size() != frames * layout.planes * layout.frequencies) {
    throw std::invalid_argument("spectrogram: the output is not frames x planes x frequencies");
  }
  if (frames > 0 && x.size() < (frames - 1) * layout.step + layout.nperseg) {
    throw std::invalid_argument("spectrogram: the samples end before the last frame");
  }
  return noCuda();
}

GpuFilterResult polyphaseCuda(const Polyphase&, std::span<const double> x, std::int64_t base, std::int64_t n,
                              std::int64_t firstOutput, std::span<double>, int) {
  if (base < 0 || firstOutput < 0 || base + static_cast<std::int64_t>(x.size()) > n) {
    throw std::invalid_argument("polyphase: the inputs held lie outside the signal");
  }
  return noCuda();
}

GpuFilterResult findPeaksCuda(std::span<const double>, const PeakOptions& options, std::vector<PeakRow>& peaks, int) {
  if (!gpuFindsPeaks(options)) {
    throw std::invalid_argument(
        "find-peaks on the GPU takes height, threshold and distance; prominence and width run on the CPU");
  }
  peaks.clear();
  return noCuda();
}

GpuFilterResult hilbertCuda(std::span<const double> x, std::span<double> out, bool, int) {
  if (out.size() != x.size()) throw std::invalid_argument("hilbert: the output's size is not the input's");
  return noCuda();
}

}  // namespace siglab

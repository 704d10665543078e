// Built instead of the filter kernels when no CUDA compiler was found: each says why it cannot run.
#include <stdexcept>

#include "siglab/cuda_filters.hpp"
#include "siglab/median_filter.hpp"

namespace siglab {
namespace {

template <typename T>
GpuFilterResult noCuda(std::span<const T> in, std::size_t window, std::span<T> out) {
  validateMedianWindow(window);
  if (in.size() != out.size()) throw std::invalid_argument("median filter: input and output sizes differ");
  return {GpuStatus::Unavailable, "this build of SigLab has no CUDA support (nvcc was not found when it was built)"};
}

}  // namespace

GpuFilterResult sosfiltfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out, int,
                                const Progress&) {
  checkStable(sections);
  if (in.size() != out.size()) throw std::invalid_argument("sosfiltfilt: input and output sizes differ");
  return {GpuStatus::Unavailable, "this build of SigLab has no CUDA support (nvcc was not found when it was built)"};
}

GpuFilterResult sosfiltfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                                const std::vector<int>&, const Progress&) {
  return sosfiltfiltCuda(sections, in, out, 0);
}

GpuFilterResult sosfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                            const std::vector<int>&, const Progress&) {
  checkStable(sections);
  if (in.size() != out.size()) throw std::invalid_argument("sosfilt: input and output sizes differ");
  return {GpuStatus::Unavailable, "this build of SigLab has no CUDA support (nvcc was not found when it was built)"};
}

GpuFilterResult medianFilterCuda(std::span<const double> in, std::size_t window, BoundaryMode, std::span<double> out, int,
                                 const Progress&) {
  return noCuda(in, window, out);
}
GpuFilterResult medianFilterCuda(std::span<const float> in, std::size_t window, BoundaryMode, std::span<float> out, int,
                                 const Progress&) {
  return noCuda(in, window, out);
}
GpuFilterResult medianFilterCudaPart(std::span<const double> in, SignalPart, std::size_t window, BoundaryMode,
                                     std::span<double> out, int, const Progress&) {
  return noCuda(in, window, out);
}
GpuFilterResult medianFilterCudaPart(std::span<const float> in, SignalPart, std::size_t window, BoundaryMode,
                                     std::span<float> out, int, const Progress&) {
  return noCuda(in, window, out);
}

}  // namespace siglab

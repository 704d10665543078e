// gpu-median and gpu-sos-scan: cuda_filters.hpp's algorithms as engines. Plain C++ (the kernels
// sit behind cuda_filters.hpp), so the same file serves the build without CUDA, where each says why.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_kind_backends.hpp"
#include "siglab/filter_kinds.hpp"

namespace siglab {
namespace {

// A GPU result as the engine's pass, or the reason it did not run as the exception engines throw.
FilterPass passOf(const GpuFilterResult& result) {
  if (result.status == GpuStatus::Unavailable) throw EngineUnavailable(result.reason);
  if (result.status != GpuStatus::Ok) throw std::runtime_error(result.reason);
  FilterPass pass;
  pass.phases = PhaseTimes{result.kernelMs, std::max(0.0, result.totalMs - result.kernelMs), result.totalMs};
  return pass;
}

class GpuKindBackend : public FilterBackend {
 public:
  explicit GpuKindBackend(const DeviceInfo& device)
      : unavailable_(device.available ? "" : device.reason), device_(device.index < 0 ? 0 : device.index) {}
  bool usesGpu() const override { return true; }

 protected:
  std::string unavailable_;
  int device_;
};

class GpuMedianBackend final : public GpuKindBackend {
 public:
  using GpuKindBackend::GpuKindBackend;
  std::string_view name() const override { return "gpu-median"; }
  std::string_view description() const override {
    return "GPU median: register selection (W <= 9) or a sorted shared-memory tile; bit-identical";
  }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override {
    if (!unavailable_.empty()) return unavailable_;
    if (std::string why = whyNotSampleType(type); !why.empty()) return why;
    if (spec.kind != FilterKind::Median) return "gpu-median computes medians only, not a " + std::string(toString(spec.kind));
    if (spec.medianWindow > kGpuMedianMaxWindow) {
      return "gpu-median takes windows up to " + std::to_string(kGpuMedianMaxWindow) + " (its shared-memory tile)";
    }
    return {};
  }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions&,
                    const Progress& progress) override {
    progress.throwIfCancelled();
    return passOf(medianFilterCuda(in, spec.medianWindow, spec.mode, out, device_));
  }
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out, const RunOptions&,
                    const Progress& progress) override {
    progress.throwIfCancelled();
    return passOf(medianFilterCuda(in, spec.medianWindow, spec.mode, out, device_));
  }
};

class GpuSosScanBackend final : public GpuKindBackend {
 public:
  using GpuKindBackend::GpuKindBackend;
  std::string_view name() const override { return "gpu-sos-scan"; }
  std::string_view description() const override {
    return "GPU zero-phase sections: a block scan over chunks of 1024 samples; within its stated bound";
  }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override {
    if (!unavailable_.empty()) return unavailable_;
    if (std::string why = whyNotSampleType(type); !why.empty()) return why;
    if (spec.kind != FilterKind::Sos) return "gpu-sos-scan computes sections only, not a " + std::string(toString(spec.kind));
    if (!spec.sos.zeroPhase) return "gpu-sos-scan runs zero-phase filtering only (--zero-phase)";
    return {};
  }
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override {
    return sosKindTolerance(spec, maxAbsInput, false);
  }
  double toleranceFloat32(const FilterSpec& spec, double maxAbsInput) const override {
    return sosKindTolerance(spec, maxAbsInput, true);
  }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions&,
                    const Progress& progress) override {
    progress.throwIfCancelled();
    return passOf(sosfiltfiltCuda(spec.sos.sections, in, out, device_));
  }
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out, const RunOptions&,
                    const Progress& progress) override {
    progress.throwIfCancelled();
    const std::vector<double> wide(in.begin(), in.end());
    std::vector<double> result(wide.size());
    FilterPass pass = passOf(sosfiltfiltCuda(spec.sos.sections, wide, result, device_));
    std::transform(result.begin(), result.end(), out.begin(), [](double v) { return static_cast<float>(v); });
    return pass;
  }
};

}  // namespace

std::unique_ptr<FilterBackend> makeGpuMedianBackend(const DeviceInfo& device) {
  return std::make_unique<GpuMedianBackend>(device);
}

std::unique_ptr<FilterBackend> makeGpuSosScanBackend(const DeviceInfo& device) {
  return std::make_unique<GpuSosScanBackend>(device);
}

}  // namespace siglab

// gpu-median and gpu-sos-scan: cuda_filters.hpp's algorithms as engines. Plain C++ (the kernels
// sit behind cuda_filters.hpp), so the same file serves the build without CUDA, where each says why.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "device_split.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_kind_backends.hpp"
#include "siglab/device_list.hpp"
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

// `unavailable`: why the devices cannot run it (empty when they can).
class GpuKindBackend : public FilterBackend {
 public:
  GpuKindBackend(std::string unavailable, std::vector<int> devices)
      : unavailable_(std::move(unavailable)), devices_(devices.empty() ? std::vector<int>{0} : std::move(devices)) {}
  bool usesGpu() const override { return true; }

 protected:
  std::string unavailable_;
  std::vector<int> devices_;
};

// Why the listed devices cannot run GPU work, from one probe; empty when they can.
std::string devicesProblem(const std::vector<int>& devices, const DeviceInfo& firstDevice) {
  const std::vector<DeviceInfo> probed = cuda::probedFor(devices, firstDevice);
  for (int device : devices.empty() ? std::vector<int>{0} : devices) {
    if (std::string why = cuda::deviceProblem(probed, device); !why.empty()) return why;
  }
  return {};
}

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
    if (spec.kind != FilterKind::Median) return "gpu-median computes medians only, not a " + std::string(kindName(spec));
    if (spec.medianWindow > kGpuMedianMaxWindow) {
      return "gpu-median takes windows up to " + std::to_string(kGpuMedianMaxWindow) + " (its shared-memory tile)";
    }
    return {};
  }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions&,
                    const Progress& progress) override {
    progress.throwIfCancelled();
    return passOf(medianFilterCuda(in, spec.medianWindow, spec.mode, out, devices_.front(), progress));
  }
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out, const RunOptions&,
                    const Progress& progress) override {
    progress.throwIfCancelled();
    return passOf(medianFilterCuda(in, spec.medianWindow, spec.mode, out, devices_.front(), progress));
  }
};

// gpu-median as a device's part of a split: the part and its halo go from the caller's signal
// straight to the device (the default part engine would gather them into ordinary memory first).
class GpuMedianPartEngine final : public PartEngine {
 public:
  GpuMedianPartEngine(std::unique_ptr<FilterBackend> engine, int device) : PartEngine(std::move(engine)), device_(device) {}
  FilterPass filterPart(std::span<const double> in, const FilterSpec& spec, std::span<double> out, SignalPart part,
                        const RunOptions& options, const Progress& progress) override {
    return run(in, spec, out, part, options, progress);
  }
  FilterPass filterPart(std::span<const float> in, const FilterSpec& spec, std::span<float> out, SignalPart part,
                        const RunOptions& options, const Progress& progress) override {
    return run(in, spec, out, part, options, progress);
  }

 private:
  template <class T>
  FilterPass run(std::span<const T> in, const FilterSpec& spec, std::span<T> out, SignalPart part, const RunOptions&,
                 const Progress& progress) {
    if (std::string why = engine().whyNot(spec, std::is_same_v<T, float> ? SampleType::f32 : SampleType::f64);
        !why.empty()) {
      throw EngineUnavailable(why);
    }
    progress.throwIfCancelled();
    return passOf(medianFilterCudaPart(in, part, spec.medianWindow, spec.mode, out, device_, progress));
  }
  int device_;
};

class GpuSosScanBackend final : public GpuKindBackend {
 public:
  std::string_view name() const override { return "gpu-sos-scan"; }
  GpuSosScanBackend(std::string unavailable, std::vector<int> devices)
      : GpuKindBackend(std::move(unavailable), std::move(devices)),
        description_("GPU sections, causal or zero-phase: a block scan over chunks of 1024 samples; within its stated bound") {
    if (devices_.size() > 1) {
      description_ += "; split over " + formatDevicePlacement(devices_) +
                      ", zero phase the same bits as one GPU (causal: within the stated bound)";
    }
  }
  std::string_view description() const override { return description_; }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override {
    if (!unavailable_.empty()) return unavailable_;
    if (std::string why = whyNotSampleType(type); !why.empty()) return why;
    if (spec.kind != FilterKind::Sos) return "gpu-sos-scan computes sections only, not a " + std::string(kindName(spec));
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
    return passOf(scan(spec.sos, in, out, progress));
  }
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out, const RunOptions&,
                    const Progress& progress) override {
    progress.throwIfCancelled();
    const std::vector<double> wide(in.begin(), in.end());
    std::vector<double> result(wide.size());
    FilterPass pass = passOf(scan(spec.sos, wide, result, progress));
    std::transform(result.begin(), result.end(), out.begin(), [](double v) { return static_cast<float>(v); });
    return pass;
  }

 private:
  GpuFilterResult scan(const SosParameters& sos, std::span<const double> in, std::span<double> out,
                       const Progress& progress) const {
    return sos.zeroPhase ? sosfiltfiltCuda(sos.sections, in, out, devices_, progress)
                         : sosfiltCuda(sos.sections, in, out, devices_, progress);
  }

  std::string description_;
};

}  // namespace

std::unique_ptr<FilterBackend> makeGpuMedianBackend(const DeviceInfo& device) {
  return std::make_unique<GpuMedianBackend>(device.available ? "" : device.reason,
                                            std::vector<int>{device.index < 0 ? 0 : device.index});
}

std::unique_ptr<FilterBackend> makeGpuSosScanBackend(const DeviceInfo& device) {
  return std::make_unique<GpuSosScanBackend>(device.available ? "" : device.reason,
                                             std::vector<int>{device.index < 0 ? 0 : device.index});
}

std::unique_ptr<FilterBackend> makeGpuMedianBackend(const CudaOptions& options, const DeviceInfo& firstDevice) {
  const std::vector<DeviceInfo> probed = cuda::probedFor(options.devices, firstDevice);
  const auto engine = [&](int device) -> std::unique_ptr<FilterBackend> {
    return std::make_unique<GpuMedianBackend>(cuda::deviceProblem(probed, device), std::vector<int>{device});
  };
  return cuda::engineOnDevices(options.devices, engine, [&](int device) -> std::unique_ptr<PartEngine> {
    return std::make_unique<GpuMedianPartEngine>(engine(device), device);
  });
}

std::unique_ptr<FilterBackend> makeGpuSosScanBackend(const CudaOptions& options, const DeviceInfo& firstDevice) {
  return std::make_unique<GpuSosScanBackend>(devicesProblem(options.devices, firstDevice), options.devices);
}

}  // namespace siglab

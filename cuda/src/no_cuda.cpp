// Built instead of the CUDA sources when no CUDA compiler was found: the GPU backends are still
// listed, each saying why it cannot run.
#include <span>
#include <type_traits>

#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_lab.hpp"
#include "siglab/cuda_fft_backend.hpp"
#include "siglab/cuda_reduce.hpp"
#include "siglab/cuda_spectrum.hpp"

namespace siglab {
namespace {

constexpr const char* kReason = "this build of SigLab has no CUDA support (nvcc was not found when it was built)";

class NoCudaBackend final : public FilterBackend {
 public:
  NoCudaBackend(std::string_view name, std::string_view description) : name_(name), description_(description) {}
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return description_; }
  bool usesGpu() const override { return true; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return kReason; }
  // The stage hooks of the engines that have them (gpu-tuned: rate changes and peaks; gpu-fft: frames).
  std::string whyNotPolyphase() const override { return name_ == "gpu-tuned" ? kReason : FilterBackend::whyNotPolyphase(); }
  std::string whyNotFindPeaks(const PeakOptions& o) const override {
    return name_ == "gpu-tuned" ? kReason : FilterBackend::whyNotFindPeaks(o);
  }
  std::string whyNotHilbert() const override { return name_ == "gpu-fft" ? kReason : FilterBackend::whyNotHilbert(); }
  std::string whyNotSpectrogram() const override { return name_ == "gpu-fft" ? kReason : FilterBackend::whyNotSpectrogram(); }
  FilterPass filter(std::span<const double>, const FilterSpec&, std::span<double>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable(kReason);
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable(kReason);
  }

 private:
  std::string_view name_;
  std::string_view description_;
};

}  // namespace

bool builtWithCuda() { return false; }

void* allocatePinnedHost(std::size_t) { return nullptr; }

namespace {
template <class In>
ReductionLadder noLadder(std::span<const In> values) {
  ReductionLadder ladder;
  ladder.problem = kReason;
  ladder.integer = !std::is_same_v<In, double>;
  ladder.count = values.size();
  ladder.bytes = values.size() * sizeof(In);
  return ladder;
}
}  // namespace

ReductionLadder runReductionLadder(std::span<const double> values, int) { return noLadder(values); }
ReductionLadder runReductionLadder(std::span<const std::int32_t> values, int) { return noLadder(values); }
DeviceSum sumOnDevices(std::span<const double>, const std::vector<int>& devices, int) { return {kReason, devices, 0, 0, {}, {}}; }
DeviceSum sumOnDevices(std::span<const std::int32_t>, const std::vector<int>& devices, int) {
  return {kReason, devices, 0, 0, {}, {}};
}
void freePinnedHost(void*) {}
bool registerPinnedHost(void*, std::size_t) { return false; }
void releaseKeptDeviceMemory() {}
void unregisterPinnedHost(void*) {}

GpuRungs runReversalOnGpu(std::span<const std::int32_t>, const MeasureOptions&) { return GpuRungs{kReason, {}}; }
GpuRungs runMatmulOnGpu(std::span<const float>, std::span<const float>, const MatmulShape&, const MeasureOptions&) {
  return GpuRungs{kReason, {}};
}

std::vector<DeviceInfo> probeDevices() {
  DeviceInfo none;
  none.reason = kReason;
  return {none};
}

std::unique_ptr<FilterBackend> makeTunedCudaBackend(const CudaOptions&) {
  return std::make_unique<NoCudaBackend>("gpu-tuned", "GPU, tuned kernel with overlapped transfers");
}

BackendList makeCudaBackends(const CudaOptions& options, const DeviceInfo&) { return makeCudaBackends(options); }

BackendList makeCudaBackends(const CudaOptions& options) {
  BackendList backends;
  backends.push_back(std::make_unique<NoCudaBackend>("gpu-global", "GPU, taps and samples in global memory"));
  backends.push_back(std::make_unique<NoCudaBackend>("gpu-constant", "GPU, taps in __constant__ memory"));
  backends.push_back(std::make_unique<NoCudaBackend>("gpu-shared", "GPU, constant taps + shared-memory tile"));
  backends.push_back(makeTunedCudaBackend(options));
  return backends;
}

}  // namespace siglab

namespace siglab {

std::unique_ptr<FilterBackend> makeCudaFftBackend(const std::vector<int>&) {
  return std::make_unique<NoCudaBackend>("gpu-fft", "GPU, cuFFT overlap-save in batches of blocks");
}

// The spectrum's stub.
std::string gpuSpectrumUnavailableReason() { return kReason; }

GpuSpectrumRun welchGpu(std::span<const double> x, const WelchOptions& options, std::size_t, const std::vector<int>&,
                        const Progress&) {
  validate(options, x.size());
  return GpuSpectrumRun{false, kReason, {}};
}

}  // namespace siglab

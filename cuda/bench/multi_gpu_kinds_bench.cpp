// GPU Welch, gpu-median and gpu-sos-scan on every listed GPU against one GPU, in one run: host to
// host from pinned memory (each engine copies the signal in and its result out on every call),
// the split's time as a fraction of device 0's, and whether the bits are the same.
// usage: siglab-multi-gpu-kinds-bench [--samples N] [--repeats R] [--devices all|0,1]
// On a one-GPU machine the default is a forced split (0,0): the logic runs, the ratios only show
// the split's cost (one GPU cannot be faster than itself).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <algorithm>
#include <string>
#include <vector>

#include "siglab/butterworth.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_kind_backends.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/device_list.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/measure.hpp"
#include "random_fill.hpp"

namespace siglab {
namespace {

using bench::fillRandom;

bool sameBits(std::span<const double> a, std::span<const double> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

// One engine's row: `once(devices, out)` runs it (throwing on failure) and returns its phases.
using Once = std::function<PhaseTimes(const std::vector<int>& devices, std::span<double> out)>;

bool row(const char* what, const Once& once, const std::vector<int>& devices, std::size_t outputs, double gb,
         const MeasureOptions& measureOptions) {
  std::vector<double> one(outputs, std::numeric_limits<double>::quiet_NaN());
  std::vector<double> split(outputs, std::numeric_limits<double>::quiet_NaN());
  const TimingStats oneTime = measure([&] { return once({0}, one); }, measureOptions).total;
  const TimingStats splitTime = measure([&] { return once(devices, split); }, measureOptions).total;
  const bool bits = sameBits(one, split);
  std::printf("  %-34s device 0 %9.2f ms (%6.1f GB/s)   devices %s %9.2f ms (%6.1f GB/s)   %.3fx the time   "
              "same bits: %s\n",
              what, oneTime.medianMs, gb / (oneTime.medianMs / 1e3), formatDeviceList(devices).c_str(),
              splitTime.medianMs, gb / (splitTime.medianMs / 1e3), splitTime.medianMs / oneTime.medianMs,
              bits ? "yes" : "NO");
  return bits;
}

int run(int argc, char** argv) {
  std::size_t samples = std::size_t{1} << 27;
  int repeats = 5;
  std::string deviceText;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--samples") samples = std::strtoull(argv[i + 1], nullptr, 10);
    else if (option == "--repeats") repeats = std::atoi(argv[i + 1]);
    else if (option == "--devices") deviceText = argv[i + 1];
    else {
      std::fprintf(stderr, "siglab-multi-gpu-kinds-bench: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  const std::vector<DeviceInfo> probed = probeDevices();
  if (!probed.front().available) {
    std::printf("no GPU: %s\n", probed.front().reason.c_str());
    return 0;
  }
  const int count = static_cast<int>(probed.size());
  const std::vector<int> devices = deviceText.empty() ? (count > 1 ? parseDeviceList("all", count) : std::vector<int>{0, 0})
                                                      : parseDeviceList(deviceText, count);
  std::printf("%zu float64 samples (%.2f GiB) from pinned memory, host to host; devices %s vs device 0; %d timed "
              "runs after a warm-up\n",
              samples, static_cast<double>(samples) * 8 / (1 << 30), formatDeviceList(devices).c_str(), repeats);
  PinnedHostVector<double> in(samples);
  std::printf("pinned host buffer: %s\n", in.pinned() ? "yes" : "NO");
  fillRandom(in.span(), 0x5EED);
  const std::span<const double> x(in.data(), samples);
  const MeasureOptions measureOptions{1, repeats};
  const double gb = 2.0 * static_cast<double>(samples) * sizeof(double) / 1e9;  // read and written
  bool bits = true;

  const FilterSpec median = makeMedianFilter(101, BoundaryMode::Reflect);
  CudaOptions oneDevice, everyDevice;
  oneDevice.devices = {0};
  everyDevice.devices = devices;
  const auto medianOne = makeGpuMedianBackend(oneDevice, probed.front());
  const auto medianSplit = makeGpuMedianBackend(everyDevice, probed.front());
  bits &= row("gpu-median W 101 reflect", [&](const std::vector<int>& on, std::span<double> out) {
    FilterBackend& engine = on.size() == 1 ? *medianOne : *medianSplit;
    return engine.filter(x, median, out, RunOptions{}).phases;
  }, devices, samples, gb, measureOptions);

  const Sections sections = butterworthSections({8, 0.1});
  bits &= row("gpu-sos-scan order 8 zero phase", [&](const std::vector<int>& on, std::span<double> out) {
    const GpuFilterResult result = sosfiltfiltCuda(sections, x, out, on);
    if (result.status != GpuStatus::Ok) throw std::runtime_error(result.reason);
    return PhaseTimes{result.kernelMs, result.totalMs - result.kernelMs, result.totalMs};
  }, devices, samples, gb, measureOptions);

  WelchOptions welch;
  welch.segment = 4096;
  bits &= row("Welch segment 4096 hann (cuFFT)", [&](const std::vector<int>& on, std::span<double> out) {
    GpuSpectrumRun result;
    const PhaseTimes time = timeOnHost([&] { result = welchGpu(x, welch, 0, on); });
    if (!result.ok) throw std::runtime_error(result.message);
    std::copy(result.spectrum.power.begin(), result.spectrum.power.end(), out.begin());
    return time;
  }, devices, frequencyCount(welch), gb / 2, measureOptions);  // Welch reads the signal only

  std::printf("same bits everywhere: %s\n", bits ? "yes" : "NO");
  return bits ? 0 : 1;
}

}  // namespace
}  // namespace siglab

int main(int argc, char** argv) {
  try {
    return siglab::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "siglab-multi-gpu-kinds-bench: %s\n", e.what());
    return 1;
  }
}

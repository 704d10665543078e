// GPU Welch, gpu-median and gpu-sos-scan on every listed GPU against one GPU, in one run: host to
// host from pinned memory (each engine copies the signal in and its result out on every call, the
// result into pinned memory too), the split's time as a fraction of device 0's, whether the bits
// are the same, and each kind's bandwidth as a share of what the copies alone move on the same
// devices in the same run (issue 30's target: at least 80%).
// usage: siglab-multi-gpu-kinds-bench [--samples N] [--repeats R] [--devices all|0,1]
// On a one-GPU machine the default is a forced split (0,0): the logic runs, the ratios only show
// the split's cost (one GPU cannot be faster than itself).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "../src/cuda_check.hpp"
#include "../src/device_buffer.hpp"
#include "../src/device_scope.hpp"

#include "siglab/butterworth.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_kind_backends.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/device_list.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/measure.hpp"
#include "siglab/split_filter.hpp"
#include "random_fill.hpp"

namespace siglab {
namespace {

using bench::fillRandom;

bool sameBits(std::span<const double> a, std::span<const double> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

// The copies a host-to-host pass must make and nothing else: each device's share of the signal up
// and a result as large down, every device and both directions at once (as siglab-multi-gpu-bench).
struct CopyPart {
  CopyPart(int device_, SignalPart part_) : device(device_), part(part_), d_in(part_.size(), up.view()),
                                            d_out(part_.size(), down.view()) {}
  int device;
  SignalPart part;
  cuda::Stream up, down;  // first: the buffers are made for them
  cuda::DeviceBuffer<double> d_in, d_out;
};

TimingStats copiesAlone(std::span<const double> in, std::span<double> out, const std::vector<int>& devices,
                        const MeasureOptions& measureOptions) {
  std::vector<std::unique_ptr<CopyPart>> parts;
  const std::vector<SignalPart> split = splitIntoParts(in.size(), devices.size(), 4096);
  for (std::size_t p = 0; p < split.size(); ++p) {
    const cuda::DeviceScope scope(devices[p]);
    parts.push_back(std::make_unique<CopyPart>(devices[p], split[p]));
  }
  const TimingStats t = measure(
      [&] {
        return timeOnHost([&] {
          for (auto& part : parts) {
            const cuda::DeviceScope scope(part->device);
            part->d_in.copyFrom(in.data() + part->part.begin, part->part.size());
            part->d_out.copyTo(out.data() + part->part.begin, part->part.size());
          }
          for (auto& part : parts) {
            const cuda::DeviceScope scope(part->device);
            part->up.synchronize();
            part->down.synchronize();
          }
        });
      },
      measureOptions).total;
  for (auto& part : parts) {
    const cuda::DeviceScope scope(part->device);
    part.reset();
  }
  return t;
}

// One engine's row: `once(devices, out)` runs it (throwing on failure) and returns its phases.
using Once = std::function<PhaseTimes(const std::vector<int>& devices, std::span<double> out)>;

// Returns whether the bits are the same; `shareOfCopies` gets the split's GB/s over the copies' GB/s.
bool row(const char* what, const Once& once, const std::vector<int>& devices, std::size_t outputs, double gb,
         const MeasureOptions& measureOptions, double copiesGBs, double& shareOfCopies) {
  PinnedHostVector<double> one(outputs), split(outputs);
  std::fill(one.data(), one.data() + outputs, std::numeric_limits<double>::quiet_NaN());
  std::fill(split.data(), split.data() + outputs, std::numeric_limits<double>::quiet_NaN());
  const TimingStats oneTime = measure([&] { return once({0}, one.span()); }, measureOptions).total;
  const TimingStats splitTime = measure([&] { return once(devices, split.span()); }, measureOptions).total;
  const bool bits = sameBits(one.span(), split.span());
  const double splitGBs = gb / (splitTime.medianMs / 1e3);
  shareOfCopies = splitGBs / copiesGBs;
  std::printf("  %-34s device 0 %9.2f ms (%6.1f GB/s)   devices %s %9.2f ms (%6.1f GB/s, %5.1f%% of the copies)   "
              "%.3fx the time   same bits: %s\n",
              what, oneTime.medianMs, gb / (oneTime.medianMs / 1e3), formatDeviceList(devices).c_str(),
              splitTime.medianMs, splitGBs, 100.0 * shareOfCopies, splitTime.medianMs / oneTime.medianMs,
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
  double copiesGBs = 0;
  {
    PinnedHostVector<double> copied(samples);
    const TimingStats copies = copiesAlone(x, copied.span(), devices, measureOptions);
    copiesGBs = gb / (copies.medianMs / 1e3);
    std::printf("the copies alone on devices %s (each its share up and down, all at once): %.2f ms (min %.2f, max "
                "%.2f) = %.1f GB/s\n",
                formatDeviceList(devices).c_str(), copies.medianMs, copies.minMs, copies.maxMs, copiesGBs);
  }
  std::vector<std::pair<std::string, double>> shares;
  double share = 0;

  const FilterSpec median = makeMedianFilter(101, BoundaryMode::Reflect);
  CudaOptions oneDevice, everyDevice;
  oneDevice.devices = {0};
  everyDevice.devices = devices;
  const auto medianOne = makeGpuMedianBackend(oneDevice, probed.front());
  const auto medianSplit = makeGpuMedianBackend(everyDevice, probed.front());
  bits &= row("gpu-median W 101 reflect", [&](const std::vector<int>& on, std::span<double> out) {
    FilterBackend& engine = on.size() == 1 ? *medianOne : *medianSplit;
    return engine.filter(x, median, out, RunOptions{}).phases;
  }, devices, samples, gb, measureOptions, copiesGBs, share);
  shares.emplace_back("gpu-median W=101", share);

  const Sections sections = butterworthSections({8, 0.1});
  bits &= row("gpu-sos-scan order 8 zero phase", [&](const std::vector<int>& on, std::span<double> out) {
    const GpuFilterResult result = sosfiltfiltCuda(sections, x, out, on);
    if (result.status != GpuStatus::Ok) throw std::runtime_error(result.reason);
    return PhaseTimes{result.kernelMs, result.totalMs - result.kernelMs, result.totalMs};
  }, devices, samples, gb, measureOptions, copiesGBs, share);
  shares.emplace_back("gpu-sos-scan order 8", share);

  WelchOptions welch;
  welch.segment = 4096;
  bits &= row("Welch segment 4096 hann (cuFFT)", [&](const std::vector<int>& on, std::span<double> out) {
    GpuSpectrumRun result;
    const PhaseTimes time = timeOnHost([&] { result = welchGpu(x, welch, 0, on); });
    if (!result.ok) throw std::runtime_error(result.message);
    std::copy(result.spectrum.power.begin(), result.spectrum.power.end(), out.begin());
    return time;
  }, devices, frequencyCount(welch), gb / 2, measureOptions, copiesGBs, share);  // Welch reads the signal only
  shares.emplace_back("Welch", share);

  std::printf("same bits everywhere: %s\n", bits ? "yes" : "NO");
  std::printf("targets (split over devices %s, share of the copies' bandwidth in this run)\n",
              formatDeviceList(devices).c_str());
  for (const auto& [what, measured] : shares) {
    std::printf("  %-24s %6.3f >= 0.80  %s\n", what.c_str(), measured, measured >= 0.8 ? "met" : "MISSED");
  }
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

// siglab-welch-median-bench: issue 30's end-to-end targets for GPU Welch and gpu-median (W = 101),
// 10M float64 host to host, each as a ratio to one pinned 80 MB copy measured in the same run
// (host clock around the call and its wait, as the engines are timed): from page-locked memory
// (target at most 1.3x), from ordinary memory, and with the signal already on the device.
// usage: siglab-welch-median-bench [--samples N] [--repeats R] [--welch-chunk-segments S] [--only welch|median]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../src/cuda_check.hpp"
#include "../src/device_buffer.hpp"
#include "../src/stream.hpp"
#include "random_fill.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/measure.hpp"
#include "siglab/median_filter.hpp"
#include "siglab/spectrum.hpp"

namespace siglab {
namespace {

constexpr std::size_t kWindow = 101;
constexpr double kTarget = 1.3;

struct Options {
  std::size_t samples = 10'000'000;
  int repeats = 20;
  std::size_t welchChunkSegments = 0;  // 0: the engine's own choice
  bool welch = true, median = true;
};
Options benchOptions;

struct Target {
  std::string what;
  double measured, threshold;
};
std::vector<Target> targets;

void line(const char* what, const TimingStats& t, double copyMs) {
  std::printf("  %-44s median %8.4f ms (min %8.4f, max %8.4f) = %6.3fx one pinned copy\n", what, t.medianMs, t.minMs,
              t.maxMs, t.medianMs / copyMs);
}

// The copies alone: one direction, then both at once (the floor of a pass that sends a result back).
struct Copies {
  double inMs = 0, bothMs = 0;
};
Copies measureCopies(std::span<double> pinnedIn, std::span<double> pinnedOut, const MeasureOptions& measureOptions) {
  const cuda::Stream up, down;
  cuda::DeviceBuffer<double> d_in(pinnedIn.size(), up.view()), d_out(pinnedIn.size(), down.view());
  const TimingStats in = measure(
                             [&] {
                               return timeOnHost([&] {
                                 d_in.copyFrom(pinnedIn.data(), pinnedIn.size());
                                 up.synchronize();
                               });
                             },
                             measureOptions)
                             .total;
  const TimingStats both = measure(
                               [&] {
                                 return timeOnHost([&] {
                                   d_in.copyFrom(pinnedIn.data(), pinnedIn.size());
                                   d_out.copyTo(pinnedOut.data(), pinnedOut.size());
                                   up.synchronize();
                                   down.synchronize();
                                 });
                               },
                               measureOptions)
                               .total;
  std::printf("the copies (host clock, queued and waited for)\n");
  line("host to device, pinned (one pinned copy)", in, in.medianMs);
  line("both directions at once, pinned", both, in.medianMs);
  return {in.medianMs, both.medianMs};
}

void welchPart(std::span<const double> pinnedIn, std::span<const double> pageableIn, std::span<const double> deviceIn,
               const Copies& copies, const MeasureOptions& measureOptions) {
  WelchOptions options;
  options.segment = 4096;
  std::printf("\nWelch PSD, segment 4096, half overlap, Hann: %zu segments (nothing comes back but the spectrum)\n",
              segmentCount(options, pinnedIn.size()));
  for (const auto& [name, in] : {std::pair{"from pinned memory", pinnedIn}, std::pair{"from pageable memory", pageableIn},
                                 std::pair{"already on the device", deviceIn}}) {
    GpuSpectrumRun run;
    const auto once = [&] { return timeOnHost([&] { run = welchGpu(in, options, benchOptions.welchChunkSegments); }); };
    const TimingStats t = measure(once, measureOptions).total;
    if (!run.ok) {
      std::printf("  %s: not run: %s\n", name, run.message.c_str());
      return;
    }
    line(name, t, copies.inMs);
    if (std::string(name) == "from pinned memory") {
      targets.push_back({"Welch e2e 10M f64 pinned / one pinned copy", t.medianMs / copies.inMs, kTarget});
    }
  }
  const Spectrum cpu = welch(pinnedIn, options);
  const GpuSpectrumRun gpu = welchGpu(pinnedIn, options);
  double worst = 0.0;
  for (std::size_t k = 0; k < cpu.power.size(); ++k) worst = std::max(worst, std::fabs(gpu.spectrum.power[k] - cpu.power[k]));
  const double bound = spectrumAgreementBound(options, 1.0, pinnedIn.size());
  std::printf("  gpu vs cpu (FFTW): max |diff| %.3g, bound %.3g\n", worst, bound);
  targets.push_back({"Welch within its stated bound (max error / bound)", worst / bound, 1.0});
}

void medianPart(std::span<const double> pinnedIn, std::span<double> pinnedOut, std::span<const double> pageableIn,
                std::span<double> pageableOut, std::span<const double> deviceIn, std::span<double> deviceOut,
                const Copies& copies, const MeasureOptions& measureOptions) {
  std::printf("\ngpu-median W = %zu, reflect, result copied back\n", kWindow);
  std::vector<double> reference(pinnedIn.size());
  medianFilterParallel(pinnedIn, kWindow, BoundaryMode::Reflect, reference);
  struct Case {
    const char* name;
    std::span<const double> in;
    std::span<double> out;
  };
  for (const Case& c : {Case{"from and to pinned memory", pinnedIn, pinnedOut},
                        Case{"from and to pageable memory", pageableIn, pageableOut},
                        Case{"already on the device", deviceIn, deviceOut}}) {
    GpuFilterResult run;
    const TimingStats t = measure(
                              [&] {
                                return timeOnHost([&] { run = medianFilterCuda(c.in, kWindow, BoundaryMode::Reflect, c.out); });
                              },
                              measureOptions)
                              .total;
    if (run.status != GpuStatus::Ok) {
      std::printf("  %s: not run: %s\n", c.name, run.reason.c_str());
      return;
    }
    line(c.name, t, copies.inMs);
    if (c.out.data() == pinnedOut.data()) {
      targets.push_back({"gpu-median W=101 e2e 10M f64 pinned / one pinned copy", t.medianMs / copies.inMs, kTarget});
      std::printf("  %-44s %s\n", "pinned result = cpu-parallel, bit for bit:",
                  std::memcmp(pinnedOut.data(), reference.data(), reference.size() * sizeof(double)) == 0 ? "yes" : "NO");
    }
  }
}

int run(const Options& o) {
  const DeviceInfo device = probeDevices().front();
  if (!device.available) {
    std::printf("no GPU: %s\n", device.reason.c_str());
    return 1;
  }
  std::printf("device: %s, %d SMs; %zu float64 samples (%.0f MB), median of %d after a warm-up\n", device.name.c_str(),
              device.multiprocessors, o.samples, static_cast<double>(o.samples) * 8 / 1e6, o.repeats);
  const MeasureOptions measureOptions{1, o.repeats};
  const cuda::Stream stream;
  cuda::PinnedBuffer<double> pinnedIn(o.samples, stream.view()), pinnedOut(o.samples, stream.view());
  bench::fillRandom(std::span<double>(pinnedIn.data(), o.samples), 30);
  std::vector<double> pageableIn(pinnedIn.data(), pinnedIn.data() + o.samples), pageableOut(o.samples);
  cuda::DeviceBuffer<double> deviceIn(o.samples, stream.view()), deviceOut(o.samples, stream.view());
  deviceIn.copyFrom(pinnedIn.data(), o.samples);
  stream.synchronize();
  const std::span<const double> pinned(pinnedIn.data(), o.samples), onDevice(deviceIn.data(), o.samples);

  const Copies copies = measureCopies(std::span<double>(pinnedIn.data(), o.samples),
                                      std::span<double>(pinnedOut.data(), o.samples), measureOptions);
  if (o.welch) welchPart(pinned, pageableIn, onDevice, copies, measureOptions);
  if (o.median) medianPart(pinned, std::span<double>(pinnedOut.data(), o.samples), pageableIn, pageableOut, onDevice,
             std::span<double>(deviceOut.data(), o.samples), copies, measureOptions);

  std::printf("\ntargets (measured in this run against threshold)\n");
  int missed = 0;
  for (const Target& t : targets) {
    const bool met = t.measured <= t.threshold;
    std::printf("  %-56s %7.3f <= %5.2f  %s\n", t.what.c_str(), t.measured, t.threshold, met ? "met" : "MISSED");
    missed += !met;
  }
  std::printf("%d of %zu targets met\n", static_cast<int>(targets.size()) - missed, targets.size());
  return 0;
}

}  // namespace
}  // namespace siglab

int main(int argc, char** argv) {
  siglab::Options& options = siglab::benchOptions;
  for (int i = 1; i < argc; i += 2) {
    const std::string name = argv[i], value = i + 1 < argc ? argv[i + 1] : "";
    if (name == "--samples" && !value.empty()) options.samples = std::strtoull(value.c_str(), nullptr, 10);
    else if (name == "--repeats" && !value.empty()) options.repeats = std::atoi(value.c_str());
    else if (name == "--welch-chunk-segments" && !value.empty()) options.welchChunkSegments = std::strtoull(value.c_str(), nullptr, 10);
    else if (name == "--only" && (value == "welch" || value == "median")) {
      options.welch = value == "welch";
      options.median = value == "median";
    } else {
      std::fprintf(stderr,
                   "siglab-welch-median-bench: %s %s: unknown option or bad value\nusage: siglab-welch-median-bench "
                   "[--samples N] [--repeats R] [--welch-chunk-segments S] [--only welch|median]\n",
                   name.c_str(), value.c_str());
      return 2;
    }
  }
  if (options.samples < 4096 || options.repeats < 1) {
    std::fprintf(stderr, "siglab-welch-median-bench: --samples takes at least 4096, --repeats at least 1\n");
    return 2;
  }
  try {
    return siglab::run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "siglab-welch-median-bench: %s\n", e.what());
    return 2;
  }
}

// The GPU block scan (gpu-sos-scan: sosfiltfiltCuda, sosfiltCuda) on the order-8 band-pass against
// the copies that bound it, all in one run (issue 30): its kernels and carries on a signal already on
// the device against the device-to-device copy of the signal, and host to host from pinned memory
// against one pinned copy (the target) and against the zero-phase floor, one whole copy in and then
// one whole copy out (every output of sosfiltfilt needs the last input). Each result is checked
// against the CPU's sosfiltfilt / sosfilt within the bound the run states.
// usage: siglab-sos-scan-bench [--samples N] [--repeats R] [--label TEXT]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../src/cuda_check.hpp"
#include "../src/device_buffer.hpp"
#include "../src/stream.hpp"

#include "siglab/butterworth.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/measure.hpp"
#include "siglab/sos_filter.hpp"
#include "random_fill.hpp"

namespace siglab {
namespace {

struct Target {
  std::string what;
  double measured, threshold;
  bool atLeast;
  bool met() const { return atLeast ? measured >= threshold : measured <= threshold; }
};

// `copy` queued on `stream` and waited for, by the host clock (as the engines' own times are).
std::size_t bytesOf(std::size_t samples) { return samples * sizeof(double); }

template <class Copy>
TimingStats timeCopy(const cuda::Stream& stream, const MeasureOptions& options, const Copy& copy) {
  return measure([&] { return timeOnHost([&] { copy(); stream.synchronize(); }); }, options).total;
}

void printStats(const char* what, const TimingStats& t) {
  std::printf("  %-52s median %8.4f ms (min %.4f, max %.4f)\n", what, t.medianMs, t.minMs, t.maxMs);
}

struct ScanTimes {
  TimingStats total, kernels;
  double worstOverBound = 0;  // max |gpu - cpu| / the run's stated bound
  std::vector<double> result;
};

// The scan `repeats` times over in -> out (host or device memory), and its result against `reference`.
ScanTimes timeScan(bool zeroPhase, const Sections& sections, std::span<const double> in, std::span<double> out,
                   const std::vector<double>& reference, const MeasureOptions& options, const cuda::Stream& stream) {
  double bound = 0;
  const PhaseStats stats = measure(
      [&] {
        const GpuFilterResult r = zeroPhase ? sosfiltfiltCuda(sections, in, out, std::vector<int>{0})
                                            : sosfiltCuda(sections, in, out, std::vector<int>{0});
        if (r.status != GpuStatus::Ok) throw std::runtime_error(r.reason);
        bound = r.errorBound;
        return PhaseTimes{r.kernelMs, r.totalMs - r.kernelMs, r.totalMs};
      },
      options);
  std::vector<double> result(out.size());
  SIGLAB_CUDA_TRY(cudaMemcpyAsync(result.data(), out.data(), out.size_bytes(), cudaMemcpyDefault, stream.get()));
  stream.synchronize();
  double worst = 0;
  for (std::size_t i = 0; i < result.size(); ++i) worst = std::max(worst, std::abs(result[i] - reference[i]));
  return {stats.total, stats.kernel, worst / bound, std::move(result)};
}

int run(int argc, char** argv) {
  std::size_t n = 10'000'000;
  MeasureOptions options{2, 10};
  std::string label;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--samples") {
      n = std::stoull(argv[i + 1]);
    } else if (option == "--repeats") {
      options.repeats = std::stoi(argv[i + 1]);
    } else if (option == "--label") {
      label = argv[i + 1];
    } else {
      throw std::invalid_argument("unknown option " + option + " (--samples N, --repeats R, --label TEXT)");
    }
  }
  const Sections sections = butterworthSections({8, 0.1, 0.3, BandType::Bandpass});
  std::printf("gpu-sos-scan%s%s: %zu float64 samples, order 8 band-pass (%zu sections); median of %d after %d "
              "warm-ups\n", label.empty() ? "" : ", ", label.c_str(), n, sections.size(), options.repeats,
              options.warmups);
  PinnedHostVector<double> in(n), out(n);
  bench::fillRandom(std::span<double>(in.data(), n), 30);
  const std::span<const double> x(in.data(), n);
  std::vector<double> zeroPhaseReference(n), causalReference(n);
  sosfiltfilt(sections, x, zeroPhaseReference);
  SosState fromRest;
  sosfilt(sections, x, causalReference, fromRest);

  const cuda::Stream stream;
  cuda::DeviceBuffer<double> d_in(n, stream.view()), d_out(n, stream.view());
  d_in.copyFrom(in.data(), n);
  stream.synchronize();
  const auto bytes = static_cast<double>(n * sizeof(double));
  std::printf("the copies, same run (host clock, queued and waited for)\n");
  const TimingStats d2d = timeCopy(stream, options, [&] { d_out.copyFrom(d_in.data(), n); });
  const TimingStats h2d = timeCopy(stream, options, [&] { d_in.copyFrom(in.data(), n); });
  const TimingStats d2h = timeCopy(stream, options, [&] { d_out.copyTo(out.data(), n); });
  const TimingStats inThenOut = timeCopy(stream, options, [&] {
    d_in.copyFrom(in.data(), n);
    d_in.copyTo(out.data(), n);
  });
  const cuda::Stream other;
  const TimingStats bothWays = timeCopy(stream, options, [&] {
    SIGLAB_CUDA_TRY(cudaMemcpyAsync(d_in.data(), in.data(), bytesOf(n), cudaMemcpyHostToDevice, stream.get()));
    SIGLAB_CUDA_TRY(cudaMemcpyAsync(out.data(), d_out.data(), bytesOf(n), cudaMemcpyDeviceToHost, other.get()));
    other.synchronize();
  });
  printStats("device to device", d2d);
  printStats("host to device, pinned", h2d);
  printStats("device to host, pinned", d2h);
  printStats("in then out, pinned (the zero-phase floor)", inThenOut);
  printStats("in and out at once, pinned (the causal floor)", bothWays);
  std::printf("  (%.1f GB/s read + written on the device; %.1f GB/s in)\n", 2.0 * bytes / 1e6 / d2d.medianMs,
              bytes / 1e6 / h2d.medianMs);

  d_in.copyFrom(in.data(), n);
  stream.synchronize();
  const std::span<const double> resident(d_in.data(), n);
  const std::span<double> residentOut(d_out.data(), n);
  const std::span<double> pinnedOut(out.data(), n);
  std::vector<Target> targets;
  std::printf("the scan (kernels and carries: the engine's own time between the copy in and the copy out)\n");
  for (const bool zeroPhase : {true, false}) {
    const char* kind = zeroPhase ? "zero phase (sosfiltfilt)" : "causal (sosfilt)";
    const std::vector<double>& reference = zeroPhase ? zeroPhaseReference : causalReference;
    const ScanTimes onDevice = timeScan(zeroPhase, sections, resident, residentOut, reference, options, stream);
    const ScanTimes fromHost = timeScan(zeroPhase, sections, x, pinnedOut, reference, options, stream);
    std::printf("  %s, resident:   total %8.4f ms = %6.2fx the d2d copy; kernels and carries %8.4f ms = %6.2fx\n",
                kind, onDevice.total.medianMs, onDevice.total.medianMs / d2d.medianMs, onDevice.kernels.medianMs,
                onDevice.kernels.medianMs / d2d.medianMs);
    std::printf("  %s, from pinned: total %8.4f ms = %6.3fx one pinned copy, %6.3fx in then out; kernels and "
                "carries %8.4f ms\n",
                kind, fromHost.total.medianMs, fromHost.total.medianMs / h2d.medianMs,
                fromHost.total.medianMs / inThenOut.medianMs, fromHost.kernels.medianMs);
    std::printf("  %s: max |gpu - cpu| / stated bound: resident %.3g, from pinned %.3g\n", kind,
                onDevice.worstOverBound, fromHost.worstOverBound);
    const bool sameBits = std::memcmp(onDevice.result.data(), fromHost.result.data(), n * sizeof(double)) == 0;
    std::printf("  %s: from pinned = resident, bit for bit: %s\n", kind, sameBits ? "yes" : "no");
    if (!zeroPhase) {
      std::printf("  %s, from pinned: %6.3fx in and out at once (its floor)\n", kind,
                  fromHost.total.medianMs / bothWays.medianMs);
    }
    const std::string name = zeroPhase ? "zero-phase" : "causal";
    targets.push_back({name + " e2e 10M f64 pinned / one pinned copy", fromHost.total.medianMs / h2d.medianMs, 1.3,
                       false});
    if (zeroPhase) {  // how near the floor (an aim of this benchmark's, not an issue target)
      targets.push_back({name + " e2e / in then out (its floor)", fromHost.total.medianMs / inThenOut.medianMs, 1.15,
                         false});
    }
    if (!zeroPhase) targets.push_back({name + " from pinned = resident bits (1 = yes)", sameBits ? 1.0 : 0.0, 1.0, true});
    targets.push_back({name + " within its stated bound (max error / bound)",
                       std::max(onDevice.worstOverBound, fromHost.worstOverBound), 1.0, false});
  }
  std::printf("targets (measured in this run against threshold)\n");
  int missed = 0;
  for (const Target& t : targets) {
    std::printf("  %-52s %8.3f %s %5.2f  %s\n", t.what.c_str(), t.measured, t.atLeast ? ">=" : "<=", t.threshold,
                t.met() ? "met" : "MISSED");
    missed += !t.met();
  }
  std::printf("%d of %zu targets met\n", static_cast<int>(targets.size()) - missed, targets.size());
  return 0;
}

}  // namespace
}  // namespace siglab

int main(int argc, char** argv) {
  try {
    return siglab::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "siglab-sos-scan-bench: %s\n", e.what());
    return 2;
  }
}

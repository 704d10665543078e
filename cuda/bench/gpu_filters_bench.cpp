// The GPU filter algorithms against the CPU engines on the same host, same run (issue 15 targets):
// median W=101 on 10M float64, GPU against medianFilterParallel (target >= 50x), and Butterworth
// order 8 band-pass zero phase, GPU scan against the serial sosfiltfilt (target >= 20x, within its
// stated bound), from ordinary and from page-locked buffers (as the loader gives a GPU engine).
// Warm-up and medians through measure(). Then the same through the engines (gpu-median,
// gpu-sos-scan against cpu-parallel and cpu-serial), as compare runs them.
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "siglab/butterworth.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_kind_backends.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/generate.hpp"
#include "siglab/measure.hpp"
#include "siglab/median_filter.hpp"
#include "siglab/sos_filter.hpp"

using namespace siglab;

namespace {

TimingStats timeIt(const std::function<void()>& work, int repeats) {
  return measure([&] { return timeOnHost(work); }, MeasureOptions{1, repeats}).total;
}

double maxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

// n doubles of page-locked memory (nullptr when the driver refuses), freed by the deleter.
struct PinnedFree {
  void operator()(double* p) const { cudaFreeHost(p); }
};
using PinnedDoubles = std::unique_ptr<double[], PinnedFree>;
PinnedDoubles pinnedDoubles(std::size_t n) {
  void* p = nullptr;
  return PinnedDoubles(cudaMallocHost(&p, n * sizeof(double)) == cudaSuccess ? static_cast<double*>(p) : nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t samples = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  const int repeats = 5;
  const std::vector<double> x = generateSignal({samples, 42, 2000.0, 1.0, 0.25});
  std::vector<double> cpu(samples), gpu(samples);
  std::printf("samples: %zu float64, CPU threads: %d, repeats: %d (medians after a warm-up)\n\n", samples,
              omp_get_max_threads(), repeats);

  GpuFilterResult median;
  const TimingStats medianCpu = timeIt([&] { medianFilterParallel(x, 101, BoundaryMode::Reflect, cpu); }, repeats);
  const TimingStats medianGpu = timeIt([&] { median = medianFilterCuda(std::span<const double>(x), 101, BoundaryMode::Reflect, std::span<double>(gpu)); }, repeats);
  if (median.status != GpuStatus::Ok) {
    std::printf("GPU median did not run: %s\n", median.reason.c_str());
    return 1;
  }
  std::printf("median W=101 reflect:\n  CPU parallel %.2f ms\n  GPU %.2f ms end to end (kernel %.3f ms)\n",
              medianCpu.medianMs, medianGpu.medianMs, median.kernelMs);
  std::printf("  ratio CPU parallel / GPU end to end: %.1fx, kernel only: %.1fx (target >= 50x); bit-identical: %s\n\n",
              medianCpu.medianMs / medianGpu.medianMs, medianCpu.medianMs / median.kernelMs,
              maxDifference(cpu, gpu) == 0 && std::equal(cpu.begin(), cpu.end(), gpu.begin()) ? "yes" : "NO");

  const Sections bandpass = butterworthSections({8, 0.1, 0.3, BandType::Bandpass});
  GpuFilterResult scan;
  const TimingStats serial = timeIt([&] { sosfiltfilt(bandpass, x, cpu); }, repeats);
  const TimingStats parallel = timeIt([&] { sosfiltfiltParallel(bandpass, x, gpu); }, repeats);
  const double parallelError = maxDifference(cpu, gpu);
  const TimingStats onGpu = timeIt([&] { scan = sosfiltfiltCuda(bandpass, x, gpu); }, repeats);
  if (scan.status != GpuStatus::Ok) {
    std::printf("GPU scan did not run: %s\n", scan.reason.c_str());
    return 1;
  }
  const double gpuError = maxDifference(cpu, gpu);
  std::printf("butterworth order 8 band-pass [0.1, 0.3], zero phase:\n  serial %.1f ms\n  CPU block scan %.1f ms "
              "(max diff %.3g)\n  GPU scan %.2f ms end to end from ordinary memory (kernels and carries %.2f ms)\n",
              serial.medianMs, parallel.medianMs, parallelError, onGpu.medianMs, scan.kernelMs);
  std::printf("  ratio serial / GPU end to end: %.1fx; max diff %.3g, stated bound %.3g: %s\n",
              serial.medianMs / onGpu.medianMs, gpuError, scan.errorBound, gpuError <= scan.errorBound ? "within" : "EXCEEDED");

  // The same through the engines the CLI and GUI run (compare --median 101 / --butter 8,0.1,0.3 --zero-phase).
  const DeviceInfo device = probeDevices().front();
  const auto gpuMedian = makeGpuMedianBackend(device), gpuScan = makeGpuSosScanBackend(device);
  CpuParallelBackend cpuParallel;
  CpuSerialBackend cpuSerial;
  const auto engineTime = [&](FilterBackend& engine, const FilterSpec& spec, std::vector<double>& y) {
    return measure([&] { return engine.filter(std::span<const double>(x), spec, std::span<double>(y), {}).phases; },
                   MeasureOptions{1, repeats});
  };
  const FilterSpec medianSpec = makeMedianFilter(101, BoundaryMode::Reflect);
  const PhaseStats viaCpu = engineTime(cpuParallel, medianSpec, cpu), viaGpu = engineTime(*gpuMedian, medianSpec, gpu);
  std::printf("\nengines, median W=101 reflect: cpu-parallel %.2f ms, gpu-median %.2f ms end to end (kernel %.3f ms)\n"
              "  ratio cpu-parallel / gpu-median end to end: %.1fx, kernel only: %.1fx (target >= 50x); bit-identical: %s\n",
              viaCpu.total.medianMs, viaGpu.total.medianMs, viaGpu.kernel.medianMs, viaCpu.total.medianMs / viaGpu.total.medianMs,
              viaCpu.total.medianMs / viaGpu.kernel.medianMs, cpu == gpu ? "yes" : "NO");
  const FilterSpec sosSpec = makeButterworthFilter({8, 0.1, 0.3, BandType::Bandpass}, true);
  const PhaseStats viaSerial = engineTime(cpuSerial, sosSpec, cpu), viaScan = engineTime(*gpuScan, sosSpec, gpu);
  double largest = 0;
  for (double v : x) largest = std::max(largest, std::abs(v));
  const double engineError = maxDifference(cpu, gpu), tolerance = gpuScan->tolerance(sosSpec, largest);
  std::printf("engines, butterworth order 8 band-pass zero phase: cpu-serial %.1f ms, gpu-sos-scan %.2f ms end to end\n"
              "  ratio cpu-serial / gpu-sos-scan end to end: %.1fx (target >= 20x); max diff %.3g, engine tolerance %.3g: %s\n",
              viaSerial.total.medianMs, viaScan.total.medianMs, viaSerial.total.medianMs / viaScan.total.medianMs,
              engineError, tolerance, engineError <= tolerance ? "within" : "EXCEEDED");
  const PinnedDoubles pinnedIn = pinnedDoubles(samples), pinnedOut = pinnedDoubles(samples);
  if (!pinnedIn || !pinnedOut) {
    std::printf("  page-locked buffers refused: no pinned figure\n");
    return 0;
  }
  std::copy(x.begin(), x.end(), pinnedIn.get());
  const std::span<const double> in(pinnedIn.get(), samples);
  const std::span<double> out(pinnedOut.get(), samples);
  std::fill(out.begin(), out.end(), std::nan(""));
  const TimingStats pinned = timeIt([&] { scan = sosfiltfiltCuda(bandpass, in, out); }, repeats);
  GpuFilterResult pinnedMedian;
  std::vector<double> medianExpected(samples);
  medianFilterParallel(x, 101, BoundaryMode::Reflect, medianExpected);
  const double pinnedError = maxDifference(cpu, std::vector<double>(out.begin(), out.end()));
  std::printf("  GPU scan %.2f ms end to end from page-locked memory (kernels and carries %.2f ms)\n", pinned.medianMs,
              scan.kernelMs);
  std::printf("  ratio serial / GPU end to end, page-locked: %.1fx (target >= 20x); max diff %.3g, stated bound %.3g: %s\n",
              serial.medianMs / pinned.medianMs, pinnedError, scan.errorBound,
              pinnedError <= scan.errorBound ? "within" : "EXCEEDED");
  std::fill(out.begin(), out.end(), std::nan(""));
  const TimingStats medianPinned = timeIt(
      [&] { pinnedMedian = medianFilterCuda(in, 101, BoundaryMode::Reflect, out); }, repeats);
  std::printf("\nmedian W=101 reflect from page-locked memory: GPU %.2f ms end to end (kernel %.3f ms), %.1fx CPU "
              "parallel; bit-identical: %s\n",
              medianPinned.medianMs, pinnedMedian.kernelMs, medianCpu.medianMs / medianPinned.medianMs,
              std::equal(out.begin(), out.end(), medianExpected.begin()) ? "yes" : "NO");
  return 0;
}

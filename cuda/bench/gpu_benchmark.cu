// siglab-gpu-bench: every GPU target of issue 5 as a ratio measured in this run against its
// threshold. The ceilings (device-to-device copy, one pinned 80 MB copy) are measured here too.
// Inputs are random (never zeros) and larger than L2; every figure is the median of >= 10 timed
// runs after a warm-up, with min and max.
#include <cuda_runtime.h>

#include <algorithm>
#include <filesystem>
#include <chrono>
#include <cstdio>
#include <random>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "../src/cuda_check.hpp"
#include "../src/device_buffer.hpp"
#include "../src/device_scope.hpp"
#include "../src/host_copy.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/compare.hpp"
#include "siglab/comparison.hpp"
#include "siglab/measure.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_reduce.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/median_filter.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/measure.hpp"

namespace siglab {
namespace {

constexpr int kRepeat = 10;

struct Target {
  std::string what;
  double measured;
  double threshold;
  bool atLeast;  // measured >= threshold passes; else measured <= threshold
  bool met() const { return atLeast ? measured >= threshold : measured <= threshold; }
};
std::vector<Target> targets;

std::vector<double> randomSignal(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> values(n);
  for (double& v : values) v = dist(rng);
  return values;
}

// The copies `copy` queues on `stream`, timed by events.
template <class Copy>
TimingStats timeCopies(cuda::StreamView stream, const Copy& copy) {
  cuda::EventTimer timer(stream);
  return measure(
             [&] {
               const PhaseTimes t = timer(copy);
               return PhaseTimes{0.0, t.totalMs, t.totalMs};
             },
             {1, 2 * kRepeat})
      .total;
}

// An engine measured as the CLI and the GUI measure it: one warm-up, then kRepeat executions.
template <class In, class Out>
FilterRun measured(FilterBackend& engine, const In& in, const FilterSpec& spec, Out& out, const RunOptions& options) {
  using T = std::remove_const_t<std::remove_reference_t<decltype(*std::data(in))>>;
  FilterRun run;
  if (std::string why = engine.whyNot(spec, std::is_same_v<T, float> ? SampleType::f32 : SampleType::f64);
      !why.empty()) {
    return FilterRun{RunStatus::Unavailable, why, {}, {}, {}};
  }
  try {
    const std::span<const T> input(std::data(in), std::size(in));
    const std::span<T> output(std::data(out), std::size(out));
    const PhaseStats stats = measure(
        [&] {
          FilterPass pass = engine.filter(input, spec, output, options);
          run.message = pass.note;
          return pass.phases;
        },
        {1, kRepeat});
    run.kernel = stats.kernel;
    run.transfer = stats.transfer;
    run.total = stats.total;
  } catch (const std::exception& e) {
    return FilterRun{RunStatus::Failed, e.what(), {}, {}, {}};
  }
  return run;
}

// Device-to-device cudaMemcpy of n doubles; GB/s counts bytes read plus bytes written.
double deviceCopyGBs(const std::vector<double>& host) {
  const cuda::Stream stream;
  cuda::DeviceBuffer<double> a(host.size(), stream.view()), b(host.size(), stream.view());
  a.copyFrom(host.data(), host.size());
  const TimingStats t = timeCopies(stream.view(), [&] { b.copyFrom(a.data(), a.size()); });
  const double gbs = 2.0 * static_cast<double>(a.bytes()) / 1e9 / (t.medianMs / 1e3);
  std::printf("  d2d cudaMemcpy %zu doubles: median %.4f ms (min %.4f, max %.4f) = %.0f GB/s read+written\n",
              host.size(), t.medianMs, t.minMs, t.maxMs, gbs);
  return gbs;
}

TimingStats hostCopy(std::size_t bytes, bool pinned, cudaMemcpyKind kind) {
  const cuda::Stream stream;
  cuda::DeviceBuffer<unsigned char> device(bytes, stream.view());
  cuda::PinnedBuffer<unsigned char> pinnedHost(pinned ? bytes : 0, stream.view());
  std::vector<unsigned char> pageable(pinned ? 0 : bytes);
  unsigned char* host = pinned ? pinnedHost.data() : pageable.data();
  for (std::size_t i = 0; i < bytes; ++i) host[i] = static_cast<unsigned char>(i * 2654435761u >> 13);
  return timeCopies(stream.view(), [&] {
    if (kind == cudaMemcpyHostToDevice) {
      device.copyFrom(host, bytes);
    } else {
      device.copyTo(host, bytes);
    }
  });
}

// 80 MB in each direction at once on two streams: what full-duplex transfers can reach, by host clock.
TimingStats bidirectionalCopy(std::size_t bytes) {
  const cuda::Stream up, down;
  cuda::DeviceBuffer<unsigned char> d_a(bytes, up.view()), d_b(bytes, down.view());
  cuda::PinnedBuffer<unsigned char> h_a(bytes, up.view()), h_b(bytes, down.view());
  for (std::size_t i = 0; i < bytes; ++i) h_a.data()[i] = static_cast<unsigned char>(i * 2654435761u >> 13);
  d_b.copyFrom(h_a.data(), bytes);
  down.synchronize();
  return measure(
             [&] {
               return timeOnHost([&] {
                 SIGLAB_CUDA_TRY(cudaMemcpyAsync(d_a.data(), h_a.data(), bytes, cudaMemcpyHostToDevice, up.get()));
                 SIGLAB_CUDA_TRY(cudaMemcpyAsync(h_b.data(), d_b.data(), bytes, cudaMemcpyDeviceToHost, down.get()));
                 SIGLAB_CUDA_TRY(cudaStreamSynchronize(up.get()));
                 SIGLAB_CUDA_TRY(cudaStreamSynchronize(down.get()));
               });
             },
             {1, 2 * kRepeat})
      .total;
}

// One row: times, GB/s (bytes read + written by the kernel) and its share of the device copy,
// speedups against cpu-serial and cpu-parallel, kernel only and end to end.
void printRun(const char* name, const FilterRun& run, std::size_t n, double copyGBs, const FilterRun& serial,
              const FilterRun& parallel, bool identical) {
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(double);
  const double gbs = bytes / 1e9 / (run.kernel.medianMs / 1e3);
  std::printf("  %-13s %9.4f %9.4f %9.4f %10.4f %10.4f %8.0f %6.1f%% %9.1fx %9.1fx %9.1fx %9.1fx  %s\n", name,
              run.kernel.medianMs, run.kernel.minMs, run.kernel.maxMs, run.transfer.medianMs, run.total.medianMs, gbs,
              100.0 * gbs / copyGBs, serial.kernel.medianMs / run.kernel.medianMs,
              serial.total.medianMs / run.total.medianMs, parallel.kernel.medianMs / run.kernel.medianMs,
              parallel.total.medianMs / run.total.medianMs, identical ? "yes" : "NO");
}

// Every backend on n random float64 samples with the seed's W = 5 mean filter.
double compareBackends(std::size_t n, double copyGBs) {
  const std::vector<double> in = randomSignal(n, 20260 + n);
  const FilterSpec spec = makeMeanFilter(5);
  const RunOptions options{512};
  std::vector<double> reference(n);
  CpuSerialBackend serialBackend;
  const FilterRun serial = measured(serialBackend, in, spec, reference, options);
  std::vector<double> out(n, std::nan(""));
  const FilterRun parallel = measured(*std::make_unique<CpuParallelBackend>(), in, spec, out, options);
  const bool parallelIdentical = compareResults(reference, out).bitIdentical();
  std::printf("\n%zu float64 samples, W = 5, zero boundary; median of %d after a warm-up; this host's CPU beside the GPU\n",
              n, kRepeat);
  std::printf("  %-13s %9s %9s %9s %10s %10s %8s %7s %10s %10s %10s %10s  %s\n", "backend", "kernel ms", "min", "max",
              "transfer", "e2e ms", "GB/s", "of copy", "vs serial", "e2e vs s.", "vs par.", "e2e vs p.",
              "bit-identical");
  printRun("cpu-serial", serial, n, copyGBs, serial, parallel, true);
  printRun("cpu-parallel", parallel, n, copyGBs, serial, parallel, parallelIdentical);
  double tunedFraction = 0;
  // Whole-signal copies here (the seed's way): gpu-tuned's kernel time is then its one kernel over
  // the resident signal, the figure the copy ratio is about. Its chunked pipeline, where kernels
  // share the GPU with copies in flight, is measured end to end below.
  CudaOptions wholeSignal;
  wholeSignal.overlapTransfers = false;
  for (auto& backend : makeCudaBackends(wholeSignal)) {
    std::fill(out.begin(), out.end(), std::nan(""));
    const FilterRun run = measured(*backend, in, spec, out, options);
    if (run.status != RunStatus::Ok) {
      std::printf("  %-13s not run: %s\n", std::string(backend->name()).c_str(), run.message.c_str());
      continue;
    }
    const bool identical = compareResults(reference, out).bitIdentical();
    printRun(std::string(backend->name()).c_str(), run, n, copyGBs, serial, parallel, identical);
    targets.push_back({std::string(backend->name()) + " bit-identical to cpu-serial at n=" + std::to_string(n),
                       identical ? 1.0 : 0.0, 1.0, true});
    if (backend->name() == "gpu-tuned") {
      tunedFraction = 2.0 * static_cast<double>(n) * sizeof(double) / 1e9 / (run.kernel.medianMs / 1e3) / copyGBs;
      std::printf("  gpu-tuned: %s\n", run.message.c_str());
    }
  }
  return tunedFraction;
}

// Host-to-host filtering of 10M float64 through gpu-tuned's pipeline against one 80 MB pinned copy.
void endToEnd(double pinnedCopyMs, double duplexMs) {
  const std::size_t n = 10'000'000;
  const std::vector<double> source = randomSignal(n, 77);
  PinnedHostVector<double> in(n), out(n);
  std::copy(source.begin(), source.end(), in.data());
  auto tuned = makeTunedCudaBackend();
  const FilterSpec spec = makeMeanFilter(5);
  std::vector<double> reference(n);
  filterSerial(source, spec, reference);

  std::span<double> pinnedOut = out.span();
  const FilterRun pinned = measured(*tuned, in.span(), spec, pinnedOut, RunOptions{256});
  const bool pinnedOk = pinned.status == RunStatus::Ok &&
                        compareResults(reference, std::span<const double>(out.data(), n)).bitIdentical();
  std::vector<double> pageableOut(n);
  const FilterRun pageable = measured(*tuned, source, spec, pageableOut, RunOptions{256});
  const bool pageableOk = pageable.status == RunStatus::Ok && compareResults(reference, pageableOut).bitIdentical();
  std::printf("\nend to end, 10M float64 host to host through gpu-tuned (%s)\n", pinned.message.c_str());
  std::printf("  one 80 MB pinned host-to-device copy: %.4f ms; 80 MB each way at once: %.4f ms (%.2fx)\n",
              pinnedCopyMs, duplexMs, duplexMs / pinnedCopyMs);
  std::printf("  pinned caller buffers:   median %.4f ms (min %.4f, max %.4f) = %.2fx the copy, bit-identical %s\n",
              pinned.total.medianMs, pinned.total.minMs, pinned.total.maxMs, pinned.total.medianMs / pinnedCopyMs,
              pinnedOk ? "yes" : "NO");
  std::printf("  pageable caller buffers: median %.4f ms (min %.4f, max %.4f) = %.2fx the copy, bit-identical %s\n",
              pageable.total.medianMs, pageable.total.minMs, pageable.total.maxMs,
              pageable.total.medianMs / pinnedCopyMs, pageableOk ? "yes" : "NO");
  // The host's own share of the pageable path: 80 MB staged into pinned memory by parallelCopy, and
  // both directions at once on two host threads, as the pipeline stages them (its floor).
  {
    std::vector<double> back(n);
    const auto stageMs = [&](int threads, bool bothWays) {
      return measure(
                 [&] {
                   return timeOnHost([&] {
                     std::thread out;
                     if (bothWays) out = std::thread([&] { cuda::parallelCopy(back.data(), in.data(), n * sizeof(double), threads); });
                     cuda::parallelCopy(in.data(), source.data(), n * sizeof(double), threads);
                     if (out.joinable()) out.join();
                   });
                 },
                 {1, kRepeat})
          .total.medianMs;
    };
    std::printf("  host staging of 80 MB pageable -> pinned: 8 threads %.4f ms, 16 threads %.4f ms; in and out at once "
                "(8 threads each) %.4f ms = %.2fx the copy\n",
                stageMs(8, false), stageMs(16, false), stageMs(8, true), stageMs(8, true) / pinnedCopyMs);
    std::copy(source.begin(), source.end(), in.data());
  }
  std::printf("  pinned caller buffers, other chunk sizes and stream counts (median ms):\n    %-8s", "streams");
  for (std::size_t chunk : {std::size_t{1} << 17, std::size_t{1} << 18, std::size_t{1} << 19, std::size_t{1} << 20}) {
    std::printf(" %9zuk", chunk >> 10);
  }
  std::printf("\n");
  for (int streams : {2, 3, 4, 8}) {
    std::printf("    %-8d", streams);
    for (std::size_t chunk : {std::size_t{1} << 17, std::size_t{1} << 18, std::size_t{1} << 19, std::size_t{1} << 20}) {
      CudaOptions options;
      options.streams = streams;
      options.chunkSamples = chunk;
      const FilterRun r = measured(*makeTunedCudaBackend(options), in.span(), spec, pinnedOut, RunOptions{256});
      std::printf(" %10.4f", r.status == RunStatus::Ok ? r.total.medianMs : -1.0);
    }
    std::printf("\n");
  }
  // Issue 11's device target: the signal as the CLI and the GUI have it, loaded by readSignal from a
  // file into page-locked memory (ReadOptions::hostMemory = pinnedHostMemory(), as they do for a GPU
  // engine), the result in the same memory (as applyFilter makes it), then gpu-tuned end to end.
  const std::string file = (std::filesystem::temp_directory_path() / "siglab-gpu-bench-10M.npy").string();
  writeSignal(file, source);
  ReadOptions pinnedRead;
  pinnedRead.hostMemory = pinnedHostMemory();
  Signal loaded;
  const TimingStats loadPageable = measure([&] { return timeOnHost([&] { loaded = readSignal(file); }); }, {1, 5}).total;
  const TimingStats loadPinned =
      measure([&] { return timeOnHost([&] { loaded = readSignal(file, pinnedRead); }); }, {1, 5}).total;
  std::filesystem::remove(file);
  SampleVector loadedOut(n, pinnedHostMemory());
  const FilterRun fromLoader = measured(*tuned, loaded.samples, spec, loadedOut, RunOptions{256});
  const bool loaderOk = fromLoader.status == RunStatus::Ok && compareResults(reference, loadedOut).bitIdentical();
  std::printf("  readSignal of the 10M .npy: median %.2f ms into ordinary memory, %.2f ms into page-locked memory\n",
              loadPageable.medianMs, loadPinned.medianMs);
  std::printf("  readSignal-loaded 10M:   median %.4f ms (min %.4f, max %.4f) = %.2fx the copy, bit-identical %s\n",
              fromLoader.total.medianMs, fromLoader.total.minMs, fromLoader.total.maxMs,
              fromLoader.total.medianMs / pinnedCopyMs, loaderOk ? "yes" : "NO");
  targets.push_back({"gpu-tuned e2e on a readSignal-loaded 10M signal / one 80 MB pinned copy",
                     fromLoader.total.medianMs / pinnedCopyMs, 1.35, false});
  targets.push_back({"gpu-tuned e2e 10M f64 (pinned caller memory) / one 80 MB pinned copy",
                     pinned.total.medianMs / pinnedCopyMs, 1.15, false});
  targets.push_back({"gpu-tuned e2e 10M f64 (pageable caller memory) / one 80 MB pinned copy",
                     pageable.total.medianMs / pinnedCopyMs, 1.6, false});
  targets.push_back({"e2e results bit-identical", pinnedOk && pageableOk && loaderOk ? 1.0 : 0.0, 1.0, true});
}

// gpu-tuned's kernel alone on a signal already on the device (input and result in device memory, as
// the device-to-device copy it is compared with): the engine runs one kernel in place, no copies.
double residentTunedKernel(const std::vector<double>& host, double copyGBs) {
  const std::size_t n = host.size();
  const FilterSpec spec = makeMeanFilter(5);
  std::vector<double> reference(n), back(n);
  filterSerial(host, spec, reference);
  const cuda::Stream stream;
  cuda::DeviceBuffer<double> d_in(n, stream.view()), d_out(n, stream.view());
  d_in.copyFrom(host.data(), n);
  stream.synchronize();
  auto tuned = makeTunedCudaBackend();
  const std::span<const double> in(d_in.data(), n);
  const std::span<double> out(d_out.data(), n);
  FilterPass last;
  const PhaseStats stats = measure(
      [&] {
        last = tuned->filter(in, spec, out, RunOptions{256});
        return last.phases;
      },
      {5, 5 * kRepeat});
  d_out.copyTo(back.data(), n);
  stream.synchronize();
  const bool identical = compareResults(reference, back).bitIdentical();
  const double gbs = 2.0 * static_cast<double>(n) * sizeof(double) / 1e9 / (stats.kernel.medianMs / 1e3);
  std::printf("  gpu-tuned W = 5, %zu float64 resident: kernel median %.4f ms (min %.4f, max %.4f) = %.0f GB/s, "
              "%.1f%% of the d2d copy; %s; bit-identical %s\n",
              n, stats.kernel.medianMs, stats.kernel.minMs, stats.kernel.maxMs, gbs, 100.0 * gbs / copyGBs,
              last.note.c_str(), identical ? "yes" : "NO");
  targets.push_back({"gpu-tuned resident bit-identical to cpu-serial at n=" + std::to_string(n), identical ? 1.0 : 0.0,
                     1.0, true});
  return gbs / copyGBs;
}

// gpu-median (W = 101), gpu-sos-scan and GPU Welch, 10M float64 host to host from pinned memory
// (result in pinned memory too), against one 80 MB pinned copy; each checked against its reference.
void kindsEndToEnd(double pinnedCopyMs) {
  const std::size_t n = 10'000'000;
  const std::vector<double> source = randomSignal(n, 78);
  PinnedHostVector<double> in(n), out(n);
  std::copy(source.begin(), source.end(), in.data());
  const std::span<const double> x(in.data(), n);
  std::printf("\nend to end, 10M float64 host to host from pinned memory, the filter kinds (median of %d after a "
              "warm-up)\n", kRepeat);
  const auto report = [&](const std::string& what, const TimingStats& t, const std::string& check) {
    std::printf("  %-36s median %8.4f ms (min %.4f, max %.4f) = %.2fx the copy; %s\n", what.c_str(), t.medianMs,
                t.minMs, t.maxMs, t.medianMs / pinnedCopyMs, check.c_str());
    targets.push_back({what + " e2e 10M f64 pinned / one 80 MB pinned copy", t.medianMs / pinnedCopyMs, 1.3, false});
  };
  {
    std::vector<double> reference(n);
    medianFilterParallel(source, 101, BoundaryMode::Reflect, reference);
    double kernelMs = 0;
    const TimingStats t = measure(
        [&] {
          const GpuFilterResult r = medianFilterCuda(x, 101, BoundaryMode::Reflect, out.span(), 0);
          if (r.status != GpuStatus::Ok) throw std::runtime_error(r.reason);
          kernelMs = r.kernelMs;
          return PhaseTimes{r.kernelMs, r.totalMs - r.kernelMs, r.totalMs};
        },
        {1, kRepeat}).total;
    const bool identical = compareResults(reference, std::span<const double>(out.data(), n)).bitIdentical();
    report("gpu-median W=101 reflect", t,
           "chunk kernels " + std::to_string(kernelMs) + " ms in all; bit-identical " + (identical ? "yes" : "NO"));
    targets.push_back({"gpu-median pipelined bit-identical to the CPU median", identical ? 1.0 : 0.0, 1.0, true});
  }
  {
    const Sections sections = butterworthSections({8, 0.1, 0.3, BandType::Bandpass});
    double kernelMs = 0, bound = 0;
    const TimingStats t = measure(
        [&] {
          const GpuFilterResult r = sosfiltfiltCuda(sections, x, out.span(), 0);
          if (r.status != GpuStatus::Ok) throw std::runtime_error(r.reason);
          kernelMs = r.kernelMs;
          bound = r.errorBound;
          return PhaseTimes{r.kernelMs, r.totalMs - r.kernelMs, r.totalMs};
        },
        {1, kRepeat}).total;
    report("gpu-sos-scan order 8 band-pass", t,
           "kernels and carries " + std::to_string(kernelMs) +
               " ms (every output needs the last input: at least one copy in plus one out)");
  }
  {
    WelchOptions welch;
    welch.segment = 4096;
    GpuSpectrumRun result;
    const TimingStats t = measure(
        [&] {
          const PhaseTimes time = timeOnHost([&] { result = welchGpu(x, welch, 0, {0}); });
          if (!result.ok) throw std::runtime_error(result.message);
          return time;
        },
        {1, kRepeat}).total;
    report("GPU Welch segment 4096 hann", t, "reads the signal only");
  }
}

// A wide uniform window: gpu-tuned's O(N) prefix-sum path against the direct gpu-global kernel.
void prefixSumPath(const std::vector<double>& in) {
  const FilterSpec spec = makeMeanFilter(257);
  std::vector<double> reference(in.size()), out(in.size());
  filterSerial(in, spec, reference);
  std::printf("\nuniform W = 257 on %zu float64 samples (median of %d)\n", in.size(), kRepeat);
  for (auto& backend : makeCudaBackends()) {
    if (backend->name() != "gpu-global" && backend->name() != "gpu-tuned") continue;
    std::fill(out.begin(), out.end(), std::nan(""));
    const FilterRun run = measured(*backend, in, spec, out, RunOptions{256});
    if (run.status != RunStatus::Ok) {
      std::printf("  %s not run: %s\n", std::string(backend->name()).c_str(), run.message.c_str());
      continue;
    }
    const Agreement agreement = compareResults(reference, out);
    const double bound = backend->tolerance(spec, maxAbs(in));
    std::printf("  %-11s kernel %.4f ms (min %.4f, max %.4f), max |diff| %.3g, stated bound %.3g%s\n",
                std::string(backend->name()).c_str(), run.kernel.medianMs, run.kernel.minMs, run.kernel.maxMs,
                agreement.maxAbsDiff, bound, agreement.bitIdentical() ? ", bit-identical" : "");
    if (backend->name() == "gpu-tuned") {
      targets.push_back({"prefix-sum path: max |diff| / stated bound, W=257", agreement.maxAbsDiff / bound, 1.0, false});
    }
  }
}

void reductions(const std::vector<double>& signal) {
  std::vector<std::int32_t> ints(std::size_t{1} << 28);
  std::mt19937 rng(1);
  for (auto& v : ints) v = static_cast<std::int32_t>(rng() & 0xFF);
  std::printf("\nreductions (final rung against cub::DeviceReduce::Sum, same run; full ladder: siglab-cli reduce)\n");
  auto report = [](const ReductionLadder& ladder, const std::string& what) {
    if (!ladder.problem.empty()) {
      std::printf("  %s: not run: %s\n", what.c_str(), ladder.problem.c_str());
      return;
    }
    Ladder rungs;
    rungs.rungs = reductionRungs(ladder);
    computeLadderMetrics(rungs);
    const LadderRung& last = rungs.rungs[rungs.rungs.size() - 3];  // before cub-device-reduce and sum-of-squares
    const LadderRung& cub = *yardstickOf(rungs);
    std::printf("  %-32s %s %.4f ms %.0f GB/s, cub %.4f ms %.0f GB/s, ratio %.3f\n", what.c_str(), last.name.c_str(),
                last.time.medianMs, last.rate, cub.time.medianMs, cub.rate, last.ofYardstick);
    targets.push_back({what + ": " + last.name + " / cub throughput", last.ofYardstick, 0.97, true});
    if (ladder.integer) {
      bool exact = ladder.sumOfSquares.exact;
      for (const auto& s : ladder.steps) exact = exact && s.exact;
      targets.push_back({what + ": every integer sum exact", exact ? 1.0 : 0.0, 1.0, true});
    }
  };
  report(runReductionLadder(ints, 2 * kRepeat), "2^28 random ints");
  report(runReductionLadder(signal, 2 * kRepeat), "10M float64 signal");
}

int run() {
  const std::vector<DeviceInfo> devices = probeDevices();
  if (!devices.front().available) {
    std::printf("no GPU: %s\n", devices.front().reason.c_str());
    return 1;
  }
  const DeviceInfo& d = devices.front();
  std::printf("device: %s, %d SMs, %.1f GiB, L2 %.0f MiB, driver %d, runtime %d\n", d.name.c_str(), d.multiprocessors,
              static_cast<double>(d.totalMemoryBytes) / (1ull << 30), static_cast<double>(d.l2CacheBytes) / (1 << 20),
              d.driverVersion, d.runtimeVersion);
  const cuda::DeviceScope scope(d.index);  // the device the probe described

  std::printf("\nceilings measured in this run\n");
  const std::vector<double> signal10M = randomSignal(10'000'000, 1);
  const double copy10M = deviceCopyGBs(signal10M);
  std::vector<double> signal2p27 = randomSignal(std::size_t{1} << 27, 2);
  const double copy2p27 = deviceCopyGBs(signal2p27);
  signal2p27 = {};
  const std::size_t copyBytes = 80'000'000;
  const TimingStats h2dPinned = hostCopy(copyBytes, true, cudaMemcpyHostToDevice);
  const TimingStats d2hPinned = hostCopy(copyBytes, true, cudaMemcpyDeviceToHost);
  const TimingStats h2dPageable = hostCopy(copyBytes, false, cudaMemcpyHostToDevice);
  const TimingStats duplex = bidirectionalCopy(copyBytes);
  for (auto [name, t] : {std::pair{"h2d pinned", h2dPinned}, {"d2h pinned", d2hPinned}, {"h2d pageable", h2dPageable}}) {
    std::printf("  %-12s 80 MB: median %.4f ms (min %.4f, max %.4f) = %.1f GB/s\n", name, t.medianMs, t.minMs, t.maxMs,
                copyBytes / 1e9 / (t.medianMs / 1e3));
  }
  std::printf("  h2d + d2h at once, 80 MB each (host clock): median %.4f ms (min %.4f, max %.4f) = %.1f GB/s together\n",
              duplex.medianMs, duplex.minMs, duplex.maxMs, 2 * copyBytes / 1e9 / (duplex.medianMs / 1e3));

  const double tuned10M = compareBackends(10'000'000, copy10M);
  const double tuned2p27 = compareBackends(std::size_t{1} << 27, copy2p27);
  std::printf("\nthe kernel alone on resident signals (median of %d after 5 warm-ups)\n", 5 * kRepeat);
  const double resident10M = residentTunedKernel(signal10M, copy10M);
  const double resident2p27 = residentTunedKernel(randomSignal(std::size_t{1} << 27, 2), copy2p27);
  targets.push_back({"gpu-tuned kernel / d2d copy bandwidth, 2^27 f64 W=5, resident", resident2p27, 0.95, true});
  targets.push_back({"gpu-tuned kernel / d2d copy bandwidth, 10M f64 W=5, resident", resident10M, 0.95, true});
  std::printf("  (inside a whole-signal pass, after its copy in: 10M %.1f%%, 2^27 %.1f%% of the copy)\n",
              100.0 * tuned10M, 100.0 * tuned2p27);
  endToEnd(h2dPinned.medianMs, duplex.medianMs);
  kindsEndToEnd(h2dPinned.medianMs);
  prefixSumPath(signal10M);
  reductions(signal10M);

  std::printf("\ntargets (measured in this run against threshold)\n");
  int missed = 0;
  for (const Target& t : targets) {
    std::printf("  %-66s %8.3f %s %5.2f  %s\n", t.what.c_str(), t.measured, t.atLeast ? ">=" : "<=", t.threshold,
                t.met() ? "met" : "MISSED");
    missed += !t.met();
  }
  std::printf("%d of %zu targets met\n", static_cast<int>(targets.size()) - missed, targets.size());
  return 0;
}

}  // namespace
}  // namespace siglab

int main() {
  try {
    return siglab::run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "siglab-gpu-bench: %s\n", e.what());
    return 2;
  }
}

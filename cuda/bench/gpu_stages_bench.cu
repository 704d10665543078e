// siglab-gpu-stages-bench: issue 27's stage engines on float64 data already on the GPU, for
// scripts/bench-gpu-stages.py, which runs CuPy's cupyx.scipy.signal beside it on the same samples
// and prints the ratios. Reads the samples from a raw float64 file (the script's), copies them to
// the device once, then times each engine call (host clock around the synchronous call: what a
// caller waits, as the script times CuPy), the median and minimum of --repeat after two warm-ups.
// SAMPLES.f64.template, where it exists, is correlate's template; SAMPLES.f64.long-template, the
// long one of correlate's FFT method (gpu-fft's overlap-save).
// Prints one "RESULT name median_ms min_ms bytes checksum" line per engine (bytes: the least an
// engine must move, its input read once and its output written once) and the device-to-device
// copy's rate as "COPY median_ms bytes".
//
//   siglab-gpu-stages-bench SAMPLES.f64 [--repeat N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "../src/device_buffer.hpp"
#include "../src/event_timer.hpp"
#include "../src/stream.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/cuda_fft_backend.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_stages.hpp"
#include "siglab/rate_designs.hpp"

namespace siglab {
namespace {

// The correlate template: SAMPLES.f64.template's float64 values where that file exists (the
// script's 64 values of numpy.random.default_rng(2).standard_normal), else no correlate.
std::vector<double> kTemplate, kLongTemplate;

void readTemplate(const std::string& path, std::vector<double>& values) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return;
  values.resize(static_cast<std::size_t>(file.tellg()) / sizeof(double));
  file.seekg(0);
  file.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(double)));
}

struct Timing {
  double median, min;
};

Timing timeIt(int repeat, const std::function<void()>& run) {
  run();
  run();
  std::vector<double> ms;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

void require(const GpuFilterResult& result, const char* what) {
  if (result.status != GpuStatus::Ok) {
    std::fprintf(stderr, "%s did not run: %s\n", what, result.reason.c_str());
    std::exit(1);
  }
}

double sumOf(const cuda::DeviceBuffer<double>& d, std::size_t count, const cuda::Stream& stream) {
  std::vector<double> host(count);
  d.copyTo(host.data(), count);
  stream.synchronize();
  double sum = 0;
  for (const double v : host) sum += v;
  return sum;
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: siglab-gpu-stages-bench SAMPLES.f64 [--repeat N]\n");
    return 2;
  }
  const int repeat = argc >= 4 && std::string(argv[2]) == "--repeat" ? std::atoi(argv[3]) : 20;
  std::ifstream file(argv[1], std::ios::binary | std::ios::ate);
  if (!file) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  const std::size_t n = static_cast<std::size_t>(file.tellg()) / sizeof(double);
  std::vector<double> host(n);
  file.seekg(0);
  file.read(reinterpret_cast<char*>(host.data()), static_cast<std::streamsize>(n * sizeof(double)));
  readTemplate(std::string(argv[1]) + ".template", kTemplate);
  readTemplate(std::string(argv[1]) + ".long-template", kLongTemplate);

  const cuda::Stream stream;
  cuda::DeviceBuffer<double> d_x(n, stream.view()), d_out(2 * n + 1, stream.view());
  d_x.copyFrom(host.data(), n);
  stream.synchronize();
  const std::span<const double> x(d_x.data(), n);
  const auto out = [&](std::size_t count) { return std::span<double>(d_out.data(), count); };
  // The timing first, then the checksum of what its last run left (two statements: an argument
  // list's order of evaluation is unspecified).
  const auto report = [&](const char* name, const std::function<void()>& call, double bytes,
                          const std::function<double()>& checksum) {
    const Timing t = timeIt(repeat, call);
    std::printf("RESULT %s %.4f %.4f %.0f %.9g\n", name, t.median, t.min, bytes, checksum());
    std::fflush(stdout);
  };

  {  // the device's copy rate, the memory-bound engines' ceiling
    cuda::EventTimer timer(stream.view());
    std::vector<double> ms;
    for (int r = 0; r < repeat + 2; ++r) {
      timer.start();
      d_out.copyFrom(d_x.data(), n);
      ms.push_back(timer.stopMs());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("COPY %.4f %.0f\n", ms[ms.size() / 2], 2.0 * n * sizeof(double));
  }

  SpectrogramOptions spectrogram;
  spectrogram.nperseg = 1024;  // scipy.signal.spectrogram(x, nperseg=1024)
  const SpectrogramLayout layout = spectrogramLayout(spectrogram, n, std::nullopt);
  const std::size_t cells = layout.frames * layout.frequencies;
  report("spectrogram", [&] { require(spectrogramCuda(x, layout, layout.frames, out(cells)), "spectrogram"); },
         8.0 * (n + cells), [&] { return sumOf(d_out, cells, stream); });

  // resample_poly(x, 3, 2) and decimate(x, 4, ftype='fir'), designed as their stages design them.
  std::vector<double> resampleTaps = firwinLowpass(61, 1.0 / 3.0, {});
  for (double& t : resampleTaps) t *= 3.0;
  const Polyphase resample(resampleTaps, 3, 2, 30);
  const Polyphase decimate(firwinLowpass(81, 0.25, {FirWindow::Shape::Hamming}), 1, 4, 40);
  const auto nn = static_cast<std::int64_t>(n);
  for (const auto& [name, fir, outputs] : {std::tuple{"resample_poly", &resample, (3 * n + 1) / 2},
                                           std::tuple{"decimate", &decimate, (n + 3) / 4}}) {
    report(name, [&] { require(polyphaseCuda(*fir, x, 0, nn, 0, out(outputs)), name); }, 8.0 * (n + outputs),
           [&] { return sumOf(d_out, outputs, stream); });
  }

  PeakOptions height;
  height.height = 3.0;
  std::vector<PeakRow> peaks;
  report("find_peaks", [&] { require(findPeaksCuda(x, height, peaks), "find_peaks"); }, 8.0 * n,
         [&] { return static_cast<double>(peaks.size()); });

  // hilbert: SigLab's imaginary part (the real part is x itself), CuPy's complex analytic signal;
  // envelope: |hilbert(x)| on both sides.
  report("hilbert", [&] { require(hilbertCuda(x, out(n), false), "hilbert"); }, 16.0 * n,
         [&] { return sumOf(d_out, n, stream); });
  report("envelope", [&] { require(hilbertCuda(x, out(n), true), "envelope"); }, 16.0 * n,
         [&] { return sumOf(d_out, n, stream); });
  // correlate(x, t, mode='valid') with a 64-value template (seed 2's normal values in the script):
  // the direct sums of the correlate stage (a Polyphase of up = down = 1, cpu-serial's bits).
  if (!kTemplate.empty()) {
    std::vector<double> reversed(kTemplate.begin(), kTemplate.end());
    std::reverse(reversed.begin(), reversed.end());
    const std::int64_t m = static_cast<std::int64_t>(reversed.size());
    const Polyphase correlate(reversed, 1, 1, m - 1);
    const std::int64_t outputs = nn - m + 1;
    report("correlate", [&] { require(polyphaseCuda(correlate, x, 0, nn, 0, out(outputs)), "correlate"); },
           8.0 * (n + outputs), [&] { return sumOf(d_out, outputs, stream); });
  }

  // correlate(x, t, mode='valid', method='fft') with a long template: gpu-fft's overlap-save of the
  // reversed template (the template copied from the host each call, as the stage does).
  if (!kLongTemplate.empty()) {
    std::vector<double> reversed(kLongTemplate.rbegin(), kLongTemplate.rend());
    const std::unique_ptr<FilterBackend> fft = makeCudaFftBackend();
    const std::size_t m = reversed.size(), outputs = n - m + 1;
    report("correlate_fft", [&] { fft->fftCorrelate(x, reversed, m - 1, out(outputs), {}); }, 8.0 * (n + outputs),
           [&] { return sumOf(d_out, outputs, stream); });
    // main's GPU path for it: the direct sums on gpu-tuned (3 runs: it takes far longer).
    const Polyphase direct(reversed, 1, 1, static_cast<std::int64_t>(m) - 1);
    const Timing t = timeIt(3, [&] {
      require(polyphaseCuda(direct, x, 0, static_cast<std::int64_t>(n), 0, out(outputs)), "correlate direct");
    });
    std::printf("RESULT correlate_direct_long %.4f %.4f %.0f %.9g\n", t.median, t.min, 8.0 * (n + outputs),
                sumOf(d_out, outputs, stream));
  }

  const Sections sections = butterworthSections({8, 0.1, 0.3, BandType::Bandpass});
  report("sosfilt", [&] { require(sosfiltCuda(sections, x, out(n)), "sosfilt"); }, 16.0 * n,
         [&] { return sumOf(d_out, n, stream); });
  report("sosfiltfilt", [&] { require(sosfiltfiltCuda(sections, x, out(n)), "sosfiltfilt"); }, 16.0 * n,
         [&] { return sumOf(d_out, n, stream); });
  return 0;
}

}  // namespace
}  // namespace siglab

int main(int argc, char** argv) { return siglab::run(argc, argv); }

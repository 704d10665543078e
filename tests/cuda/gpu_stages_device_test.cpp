// Issue 27's stage engines with their data already on the GPU (the benchmark's case): input and
// output in device memory are used in place and give the values the host run gives. Built only
// with CUDA (it allocates device memory itself).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "../../cuda/src/device_buffer.hpp"
#include "../../cuda/src/stream.hpp"
#include "gpu_test_support.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_stages.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// `x` on the device, `outputs` values there for the result, and the result read back.
struct OnTheDevice {
  OnTheDevice(const std::vector<double>& x, std::size_t outputs) : in(x.size(), stream.view()), out(outputs, stream.view()) {
    in.copyFrom(x.data(), x.size());
    stream.synchronize();
  }
  std::span<const double> input() const { return {in.data(), in.size()}; }
  std::span<double> output() const { return {out.data(), out.size()}; }
  std::vector<double> result() const {
    std::vector<double> host(out.size());
    out.copyTo(host.data(), host.size());
    stream.synchronize();
    return host;
  }
  cuda::Stream stream;
  cuda::DeviceBuffer<double> in, out;
};

TEST(GpuStagesOnDevice, ReadAndWriteDeviceMemoryInPlace) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 50021;
  const std::vector<double> x = test::randomSignal(n, rng);

  const SpectrogramLayout layout = spectrogramLayout({}, n, std::nullopt);
  std::vector<double> hostFrames(layout.frames * layout.frequencies);
  ASSERT_EQ(spectrogramCuda(x, layout, layout.frames, hostFrames).status, GpuStatus::Ok);
  const OnTheDevice frames(x, hostFrames.size());
  ASSERT_EQ(spectrogramCuda(frames.input(), layout, layout.frames, frames.output()).status, GpuStatus::Ok);
  EXPECT_EQ(frames.result(), hostFrames);

  const Polyphase fir({0.1, 0.2, 0.4, 0.2, 0.1}, 3, 2, 2);
  std::vector<double> hostRate(upfirdnLength(n, 5, 3, 2));
  ASSERT_EQ(polyphaseCuda(fir, x, 0, n, 0, hostRate).status, GpuStatus::Ok);
  const OnTheDevice rate(x, hostRate.size());
  ASSERT_EQ(polyphaseCuda(fir, rate.input(), 0, n, 0, rate.output()).status, GpuStatus::Ok);
  EXPECT_EQ(rate.result(), hostRate);

  PeakOptions options;
  options.height = 30.0;
  std::vector<PeakRow> hostPeaks, devicePeaks;
  ASSERT_EQ(findPeaksCuda(x, options, hostPeaks).status, GpuStatus::Ok);
  const OnTheDevice peaks(x, 0);
  ASSERT_EQ(findPeaksCuda(peaks.input(), options, devicePeaks).status, GpuStatus::Ok);
  ASSERT_EQ(devicePeaks.size(), hostPeaks.size());
  for (std::size_t k = 0; k < hostPeaks.size(); ++k) EXPECT_EQ(devicePeaks[k].index, hostPeaks[k].index);

  const Sections sections = butterworthSections({8, 0.1, 0.3, BandType::Bandpass});
  for (const bool zeroPhase : {false, true}) {
    std::vector<double> hostScan(n);
    const auto scan = [&](std::span<const double> in, std::span<double> out) {
      return zeroPhase ? sosfiltfiltCuda(sections, in, out) : sosfiltCuda(sections, in, out);
    };
    ASSERT_EQ(scan(x, hostScan).status, GpuStatus::Ok);
    const OnTheDevice sos(x, n);
    ASSERT_EQ(scan(sos.input(), sos.output()).status, GpuStatus::Ok) << "zero phase " << zeroPhase;
    EXPECT_EQ(sos.result(), hostScan) << "zero phase " << zeroPhase;
  }
}

}  // namespace
}  // namespace siglab

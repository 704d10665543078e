// The causal gpu-sos-scan from host memory, streamed chunk by chunk through the copies (issue 30),
// against the same scan on a signal already on the device: only the carry across groups is chained
// from chunk to chunk, every step runs as the whole-signal scan runs it, so the bits are the same.
// Built only with CUDA (it allocates device memory itself).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "../../cuda/src/device_buffer.hpp"
#include "../../cuda/src/stream.hpp"
#include "gpu_test_support.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_filters.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// sosfiltCuda over `x` already on the device, read back.
std::vector<double> causalResident(const Sections& sections, const std::vector<double>& x) {
  const cuda::Stream stream;
  cuda::DeviceBuffer<double> in(x.size(), stream.view()), out(x.size(), stream.view());
  in.copyFrom(x.data(), x.size());
  stream.synchronize();
  const GpuFilterResult result =
      sosfiltCuda(sections, std::span<const double>(in.data(), x.size()), std::span<double>(out.data(), x.size()));
  EXPECT_EQ(result.status, GpuStatus::Ok) << result.reason;
  std::vector<double> host(x.size());
  out.copyTo(host.data(), host.size());
  stream.synchronize();
  return host;
}

// Sizes: one sample; six chunks of 4 groups with a ragged last one (the two end states alternate);
// and ten chunks of 32 groups on the 8 slots (a slot's buffers and event reused).
TEST(GpuSosScanStreamed, CausalFromHostGivesTheResidentScansBits) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const Sections sections = butterworthSections({8, 0.1, 0.3, BandType::Bandpass});
  constexpr std::size_t kGroup = 65536;
  for (std::size_t n : {std::size_t{1}, 5 * 4 * kGroup + 777, 300 * kGroup + 3}) {
    const std::vector<double> x = test::randomSignal(n, rng);
    const std::vector<double> expected = causalResident(sections, x);
    PinnedHostVector<double> pinnedIn(n), pinnedOut(n);
    std::copy(x.begin(), x.end(), pinnedIn.data());
    std::vector<double> pageableOut(n);
    for (const bool pinned : {true, false}) {
      if (!pinned && n > 100 * kGroup) continue;  // the staging is the same for any size
      const std::span<const double> in = pinned ? std::span<const double>(pinnedIn.data(), n) : std::span<const double>(x);
      const std::span<double> out = pinned ? std::span<double>(pinnedOut.data(), n) : std::span<double>(pageableOut);
      std::fill(out.begin(), out.end(), std::nan(""));
      const GpuFilterResult result = sosfiltCuda(sections, in, out);
      ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
      std::size_t differing = 0;
      for (std::size_t i = 0; i < n; ++i) differing += std::memcmp(&out[i], &expected[i], sizeof(double)) != 0;
      EXPECT_EQ(differing, 0u) << (pinned ? "pinned" : "pageable") << ", n " << n << " (seed " << seed << ")";
    }
  }
}

}  // namespace
}  // namespace siglab

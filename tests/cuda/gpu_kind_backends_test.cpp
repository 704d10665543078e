// gpu-median and gpu-sos-scan as engines: they say why where they cannot run, and on a GPU they
// agree with cpu-serial through runComparison (median bit for bit, sections within the stated
// tolerance) on awkward sizes, every mode and both sample types.
#include <gtest/gtest.h>

#include <random>

#include "gpu_test_support.hpp"
#include "siglab/comparison.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_kind_backends.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/iir_design.hpp"
#include "siglab/sos_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(GpuKindBackends, SayWhichKindsTheyRunAndWhyNot) {
  const auto median = makeGpuMedianBackend(test::firstDevice());
  const auto scan = makeGpuSosScanBackend(test::firstDevice());
  EXPECT_TRUE(median->usesGpu());
  EXPECT_TRUE(scan->usesGpu());
  const FilterSpec medianSpec = makeMedianFilter(5, BoundaryMode::Zero);
  const FilterSpec zeroPhase = makeButterworthFilter({4, 0.2}, true);
  const FilterSpec causal = makeButterworthFilter({4, 0.2}, false);
  if (!test::firstDevice().available) {
    EXPECT_EQ(median->whyNot(medianSpec, SampleType::f64), test::firstDevice().reason);
    EXPECT_EQ(scan->whyNot(zeroPhase, SampleType::f64), test::firstDevice().reason);
    return;
  }
  EXPECT_EQ(median->whyNot(medianSpec, SampleType::f32), "");
  EXPECT_NE(median->whyNot(makeMeanFilter(5), SampleType::f64).find("medians only"), std::string::npos);
  EXPECT_NE(median->whyNot(makeMedianFilter(kGpuMedianMaxWindow + 2, BoundaryMode::Zero), SampleType::f64)
                .find(std::to_string(kGpuMedianMaxWindow)),
            std::string::npos);
  EXPECT_EQ(scan->whyNot(zeroPhase, SampleType::f64), "");
  EXPECT_EQ(scan->whyNot(causal, SampleType::f64), "");  // sosfilt, lfilter: the forward scan alone
  EXPECT_NE(scan->whyNot(medianSpec, SampleType::f64).find("sections only"), std::string::npos);
}

template <typename T>
void expectAgreement() {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(makeGpuMedianBackend(test::firstDevice()));
  engines.push_back(makeGpuSosScanBackend(test::firstDevice()));
  std::vector<FilterSpec> specs;
  for (BoundaryMode mode : {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror, BoundaryMode::Nearest,
                            BoundaryMode::Wrap}) {
    specs.push_back(makeMedianFilter(7, mode));
    specs.push_back(makeMedianFilter(101, mode));
  }
  specs.push_back(makeButterworthFilter({8, 0.1, 0.3, BandType::Bandpass}, true));
  specs.push_back(makeButterworthFilter({3, 0.05}, true));
  // Causal sections (sosfilt, lfilter), and sections no Butterworth design gives (any stable SOS).
  specs.push_back(makeButterworthFilter({8, 0.1, 0.3, BandType::Bandpass}, false));
  specs.push_back(makeSectionsFilter(cheby1Sections({6, 0.2, 0.0, BandType::Lowpass}, 1.0), false, "cheby1"));
  specs.push_back(makeSectionsFilter(cheby1Sections({4, 0.3, 0.0, BandType::Highpass}, 0.5), true, "cheby1"));
  for (const FilterSpec& spec : specs) {
    for (std::size_t n : {1u, 2u, 100u, 4097u, 300001u}) {
      if (spec.kind == FilterKind::Sos && n <= sosfiltfiltPadLength(spec.sos.sections)) continue;
      const std::vector<double> wide = test::randomSignal(n, rng);
      const std::vector<T> x(wide.begin(), wide.end());
      const Comparison c = runComparison(engines, std::span<const T>(x), spec, CompareOptions{{}, {0, 1}});
      const BackendResult* gpu = c.find(spec.kind == FilterKind::Median ? "gpu-median" : "gpu-sos-scan");
      ASSERT_NE(gpu, nullptr);
      ASSERT_EQ(gpu->run.status, RunStatus::Ok) << gpu->run.message;
      EXPECT_TRUE(gpu->agrees) << describeFilter(spec) << ", n = " << n << ": max |diff| " << gpu->agreement.maxAbsDiff
                               << ", tolerance " << gpu->tolerance;
    }
  }
}

TEST(GpuKindBackends, AgreeWithTheReferenceFloat64) { expectAgreement<double>(); }
TEST(GpuKindBackends, AgreeWithTheReferenceFloat32) { expectAgreement<float>(); }

}  // namespace
}  // namespace siglab

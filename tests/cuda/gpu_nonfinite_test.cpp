// NaN and infinities through every GPU engine: the serial formula's result, or a stated refusal.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "gpu_test_support.hpp"
#include "siglab/compare.hpp"
#include "siglab/cpu_serial.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(GpuNonFinite, PropagatesAsTheSerialFormula) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (auto& backend : makeCudaBackends()) {
    for (std::size_t n : {std::size_t{5}, std::size_t{4099}, std::size_t{100003}}) {
      std::vector<double> in = test::randomSignal(n, rng);
      for (double v : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity()}) {
        in[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)] = v;
      }
      for (BoundaryMode mode : {BoundaryMode::Zero, BoundaryMode::Reflect}) {
        for (std::size_t w : {std::size_t{3}, std::size_t{9}, std::size_t{129}}) {
          const FilterSpec spec = makeMeanFilter(w, mode);
          std::vector<double> expected(n), out(n, std::numeric_limits<double>::quiet_NaN());
          filterSerial(in, spec, expected);
          SCOPED_TRACE(std::string(backend->name()) + ", n " + std::to_string(n) + ", w " + std::to_string(w));
          if (!backend->whyNot(spec, SampleType::f64).empty()) continue;  // checked below by skipping without a GPU
          RunOptions options;
          options.blockSize = 256;
          try {
            backend->filter(std::span<const double>(in), spec, std::span<double>(out), options);
          } catch (const EngineUnavailable& e) {
            EXPECT_FALSE(std::string(e.what()).empty());
            continue;
          }
          if (backend->tolerance(spec, maxAbs(in)) == 0.0) {
            const Agreement agreement = compareResults(expected, out);
            EXPECT_TRUE(agreement.bitIdentical()) << agreement.mismatches << " mismatches, the first at "
                                                  << agreement.firstMismatch << ": " << out[agreement.firstMismatch]
                                                  << " instead of " << expected[agreement.firstMismatch];
            continue;
          }
          for (std::size_t i = 0; i < n; ++i) {  // a summing engine: the same non-finite outputs
            ASSERT_EQ(std::isnan(out[i]), std::isnan(expected[i])) << "output " << i << ": " << out[i];
            if (std::isinf(expected[i])) {
              ASSERT_EQ(out[i], expected[i]) << "output " << i;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace siglab

#include "siglab/sos_verify.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/job.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

FilterSpec lowpass(bool zeroPhase) { return makeButterworthFilter({4, 0.05, 0, BandType::Lowpass, 0}, zeroPhase); }

std::vector<double> reference(std::span<const double> x, const FilterSpec& spec) {
  std::vector<double> y(x.size());
  filterKindReference(x, spec, std::span<double>(y));
  return y;
}

TEST(SosVerify, StretchesFindAWrongOutputWhereverTheyLookAndPassTheRightResult) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(2000000, rng);
  for (const bool zeroPhase : {true, false}) {
    const FilterSpec spec = lowpass(zeroPhase);
    std::vector<double> y = reference(x, spec);
    const WorkSplits cuts{{700000, 1400000}, 0};
    const std::vector<OutputStretch> stretches = sosVerificationStretches(x.size(), spec, cuts, 4096, 7);
    ASSERT_GE(stretches.size(), 6u);  // the ends, the cuts, random ones
    EXPECT_TRUE(std::any_of(stretches.begin(), stretches.end(),
                            [](const OutputStretch& s) { return s.begin < 700000 && 700000 < s.end; }));
    EXPECT_EQ(stretches.front().begin, 0u);
    EXPECT_EQ(stretches[1].end, x.size());  // the ends first
    const Verification good = verifySosStretches(std::span<const double>(x), spec, std::span<const double>(y), stretches, 0.0);
    EXPECT_TRUE(good.passed()) << good.maxAbsDiff << " > " << good.tolerance;
    EXPECT_LT(good.checked, x.size() / 10);  // stretches, not a full pass
    for (const OutputStretch& s : stretches) {
      const std::size_t wrong = s.begin + (s.end - s.begin) / 3;
      const double kept = y[wrong];
      y[wrong] += 1e-2 * (std::fabs(kept) + 1.0);
      const Verification bad =
          verifySosStretches(std::span<const double>(x), spec, std::span<const double>(y), stretches, 0.0);
      EXPECT_FALSE(bad.passed()) << "output " << wrong << (zeroPhase ? " (zero phase)" : "");
      EXPECT_EQ(bad.firstMismatch, wrong);
      y[wrong] = kept;
    }
  }
}

TEST(SosVerify, TheFullPassIsTheReferenceBitForBit) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(20000, rng);
  const FilterSpec spec = lowpass(true);
  std::vector<double> y = reference(x, spec);
  const OutputStretch whole[] = {{0, x.size()}};
  const Verification v = verifySosStretches(std::span<const double>(x), spec, std::span<const double>(y), whole, 0.0);
  EXPECT_TRUE(v.passed());
  EXPECT_EQ(v.checked, x.size());
  EXPECT_EQ(v.tolerance, 0.0);
  y[12345] = std::nextafter(y[12345], 1e300);  // one ulp is a difference when the pass is the reference
  EXPECT_EQ(verifySosStretches(std::span<const double>(x), spec, std::span<const double>(y), whole, 0.0).firstMismatch,
            12345u);
}

// The stretches are independent serial passes: a round of them runs on every core, and rounds go
// on while the budget lasts (the ends and the cuts always). With 4 threads and no time at all, two
// whole rounds are checked (8 stretches); one stretch at a time checked only the 6 that always are.
TEST(SosVerify, StretchesRunARoundOnEveryCore) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(400000, rng);
  const FilterSpec spec = lowpass(false);
  const std::vector<double> y = reference(x, spec);
  const std::vector<OutputStretch> stretches = sosVerificationStretches(x.size(), spec, {{100000, 200000}, 0}, 1 << 20, 7);
  ASSERT_GE(stretches.size(), 10u);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(4);
  const Verification v = verifySosStretches(std::span<const double>(x), spec, std::span<const double>(y), stretches,
                                            [](double) { return 0.0; }, 0.0);
  omp_set_num_threads(threads);
  EXPECT_TRUE(v.passed()) << v.maxAbsDiff << " > " << v.tolerance;
  EXPECT_EQ(v.checked, 8 * kSosStretchOutputs);
}

// Through applyJob: the default check takes stretches and finds a corrupted result; verifyAll checks all.
class OneWrongSection final : public FilterBackend {
 public:
  std::string_view name() const override { return "one-wrong"; }
  std::string_view description() const override { return "test"; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return {}; }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions&,
                    const Progress&) override {
    filterKindReference(in, spec, out);
    if (wrong < out.size()) out[wrong] += 1.0;
    return {};
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("no float32 path");
  }
  std::size_t wrong = SIZE_MAX;
};

TEST(SosVerify, ApplyChecksStretchesByDefaultAndEveryOutputOnRequest) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(200000, rng);
  BackendList engines;
  auto engine = std::make_unique<OneWrongSection>();
  OneWrongSection* corrupting = engine.get();
  engines.push_back(std::move(engine));
  Job job;
  job.spec = lowpass(true);
  job.engines = "one-wrong";
  const AppliedJob stretched = applyJob(engines, x, job);
  EXPECT_TRUE(stretched.result.verification.passed());
  EXPECT_LT(stretched.result.verification.checked, x.size());
  corrupting->wrong = x.size() - 10;  // in the last stretch
  EXPECT_FALSE(applyJob(engines, x, job).result.verification.passed());
  corrupting->wrong = 150001;  // between stretches (at random, but never this one): only the full check sees it
  const std::vector<OutputStretch> stretches = sosVerificationStretches(x.size(), job.spec, {}, job.verifyRandom, 0x5167AB);
  for (const OutputStretch& s : stretches) ASSERT_FALSE(s.begin <= 150001 && 150001 < s.end) << s.begin;
  EXPECT_TRUE(applyJob(engines, x, job).result.verification.passed());
  job.verifyAll = true;
  const AppliedJob all = applyJob(engines, x, job);
  EXPECT_EQ(all.result.verification.checked, x.size());
  EXPECT_EQ(all.result.verification.firstMismatch, 150001u);
}

std::size_t virtualBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;
  }
  return 0;
}

// The full check over 4M samples (32 MiB a copy) runs within 16 MiB more address space: it keeps a
// state every 4096 samples and one piece, never a signal-sized reference.
TEST(SosVerify, TheFullCheckNeedsNoSignalSizedMemory) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer reserves address space an address-space limit would refuse";
#else
  const std::size_t n = std::size_t{1} << 22;
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = std::sin(0.001 * static_cast<double>(i)) + static_cast<double>((i * 7919) % 13) * 0.01;
  const FilterSpec spec = lowpass(true);
  const std::vector<double> y = reference(x, spec);
  std::fflush(nullptr);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const rlim_t limit = virtualBytes() + (16u << 20);
    const rlimit cap{limit, limit};
    ::setrlimit(RLIMIT_AS, &cap);
    try {
      const OutputStretch whole[] = {{0, n}};
      const Verification v = verifySosStretches(std::span<const double>(x), spec, std::span<const double>(y), whole, 0.0);
      ::_exit(v.passed() && v.checked == n ? 0 : 2);
    } catch (...) {
      ::_exit(1);
    }
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: ran out of its 16 MiB; 2: the check failed";
#endif
}

}  // namespace
}  // namespace siglab

#include "siglab/comparison.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "siglab/cpu_serial.hpp"
#include "siglab/report.hpp"

namespace siglab {
namespace {

// A backend that computes the reference and then spoils one element, or fails, as told.
class FakeBackend final : public FilterBackend {
 public:
  enum class Behaviour { Exact, OffByOne, LeavesAHole, Throws, Unavailable };
  FakeBackend(std::string name, Behaviour behaviour) : name_(std::move(name)), behaviour_(behaviour) {}
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return "fake"; }
  bool usesGpu() const override { return name_ == "gpu-like"; }
  std::string whyNot(const FilterSpec&, SampleType) const override {
    return behaviour_ == Behaviour::Unavailable ? "no such hardware" : "";
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("no float32 path");
  }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions&,
                    const Progress&) override {
    if (behaviour_ == Behaviour::Throws) throw std::runtime_error("device lost");
    if (behaviour_ == Behaviour::LeavesAHole) {
      std::vector<double> full(in.size());
      filterSerial(in, spec, full);
      std::copy(full.begin(), full.end() - 1, out.begin());  // the last element is never written
    } else {
      filterSerial(in, spec, out);
    }
    if (behaviour_ == Behaviour::OffByOne) out[2] += 1.0;
    ++executions;
    FilterPass pass;
    pass.phases = {2.0, 2.0, 4.0};
    return pass;
  }

 private:
  std::string name_;
  Behaviour behaviour_;

 public:
  int executions = 0;
};

TEST(Comparison, VerifiesEveryBackendAgainstTheReference) {
  BackendList backends;
  backends.push_back(std::make_unique<CpuSerialBackend>());
  backends.push_back(std::make_unique<FakeBackend>("exact", FakeBackend::Behaviour::Exact));
  auto* exact = static_cast<FakeBackend*>(backends.back().get());
  backends.push_back(std::make_unique<FakeBackend>("off", FakeBackend::Behaviour::OffByOne));
  backends.push_back(std::make_unique<FakeBackend>("hole", FakeBackend::Behaviour::LeavesAHole));
  backends.push_back(std::make_unique<FakeBackend>("throws", FakeBackend::Behaviour::Throws));
  backends.push_back(std::make_unique<FakeBackend>("absent", FakeBackend::Behaviour::Unavailable));
  const std::vector<double> in = {1, 2, 3, 4, 5, 6, 7};
  std::size_t lastDone = 0;
  const Comparison c = runComparison(backends, in, makeMeanFilter(3), CompareOptions{{}, {1, 2}},
                                     [&](std::size_t done, std::size_t count) {
                                       EXPECT_EQ(count, 6u);
                                       lastDone = done;
                                     });
  EXPECT_EQ(lastDone, 6u);
  EXPECT_EQ(exact->executions, 3);  // one warm-up and two timed executions, through measure()
  EXPECT_EQ(c.find("exact")->run.kernel.samples, 2);
  EXPECT_EQ(c.find("exact")->run.transfer.medianMs, 2.0);  // phases from the engine's own execution
  ASSERT_EQ(c.results.size(), 6u);
  EXPECT_EQ(c.results[0].name, "cpu-serial");
  EXPECT_TRUE(c.find("exact")->agrees);
  EXPECT_TRUE(c.find("exact")->agreement.bitIdentical());
  EXPECT_FALSE(c.find("off")->agrees);
  EXPECT_EQ(c.find("off")->agreement.maxAbsDiff, 1.0);
  EXPECT_FALSE(c.find("hole")->agrees);  // the poisoned output shows the unwritten element
  EXPECT_TRUE(std::isinf(c.find("hole")->agreement.maxAbsDiff));
  EXPECT_EQ(c.find("throws")->run.status, RunStatus::Failed);
  EXPECT_EQ(c.find("throws")->run.message, "device lost");
  EXPECT_EQ(c.find("absent")->run.status, RunStatus::Unavailable);
  EXPECT_EQ(c.find("absent")->run.message, "no such hardware");
  EXPECT_FALSE(c.allAgree());
  EXPECT_DOUBLE_EQ(c.kernelSpeedup(*c.find("exact")), c.results[0].run.kernel.medianMs / 2.0);

  const nlohmann::json report = comparisonToJson(c, "in.txt");
  EXPECT_EQ(report["samples"], 7);
  EXPECT_EQ(report["all_agree"], false);
  EXPECT_EQ(report["backends"].size(), 6u);
  EXPECT_EQ(report["backends"][1]["bit_identical"], true);
  EXPECT_EQ(report["backends"][5]["status"], "unavailable");
  EXPECT_FALSE(report["backends"][1].contains("speedup_kernel_vs_cpu_parallel"));  // no cpu-parallel ran
}

TEST(Comparison, SpeedupsAgainstAnyBaselineThatRan) {
  BackendList backends;
  backends.push_back(std::make_unique<FakeBackend>("cpu-parallel", FakeBackend::Behaviour::Exact));
  backends.push_back(std::make_unique<FakeBackend>("other", FakeBackend::Behaviour::Exact));
  backends.push_back(std::make_unique<FakeBackend>("absent", FakeBackend::Behaviour::Unavailable));
  const std::vector<double> in = {1, 2, 3, 4, 5};
  Comparison c = runComparison(backends, in, makeMeanFilter(3), CompareOptions{{}, {1, 1}});
  // The fakes take 2 ms kernel and 4 ms total; make cpu-parallel three times slower.
  for (BackendResult& r : c.results) {
    if (r.name == "cpu-parallel") r.run.kernel = summarize({6.0}), r.run.total = summarize({12.0});
  }
  EXPECT_DOUBLE_EQ(c.kernelSpeedup(*c.find("other"), "cpu-parallel"), 3.0);
  EXPECT_DOUBLE_EQ(c.endToEndSpeedup(*c.find("other"), "cpu-parallel"), 3.0);
  EXPECT_EQ(c.kernelSpeedup(*c.find("other"), "no-such-backend"), 0.0);
  EXPECT_EQ(c.kernelSpeedup(*c.find("absent"), "cpu-parallel"), 0.0);
  const nlohmann::json report = comparisonToJson(c, "in.txt");
  EXPECT_DOUBLE_EQ(report["backends"][2]["speedup_kernel_vs_cpu_parallel"].get<double>(), 3.0);
}

}  // namespace
}  // namespace siglab

// The stage engine rule (stage_engine_rule.hpp): auto's CPU-or-GPU choice for rate changes,
// spectrogram / stft and find-peaks, with its reason, tested without a GPU (the rule takes the
// list's answer as input); and a GPU engine's spectrogram and find-peaks hooks as engines of those
// stages (named, listed, chosen by auto), here a stand-in engine that computes them on the CPU.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "siglab/analytic_signal.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/errors.hpp"
#include "siglab/find_peaks.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/spectrogram.hpp"
#include "siglab/stage_engine_rule.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(StageEngineRule, PicksTheGpuForLongSignalsWhereOneRunsTheStageAndSaysWhy) {
  for (const GpuStageWork work : {GpuStageWork::RateChange, GpuStageWork::Spectrogram, GpuStageWork::FindPeaks}) {
    StageEngineQuestion q;
    q.work = work;
    q.samples = kGpuStageMinSamples;
    q.gpuWhyNot = "gpu-x: no usable CUDA GPU was found";
    StageEngineAnswer a = chooseStageEngine(q);  // no GPU engine runs it: the CPU, with the GPU's reason
    EXPECT_EQ(a.engine, "cpu-parallel");
    EXPECT_TRUE(has(a.why, "no usable CUDA GPU was found")) << a.why;
    q.gpuEngine = "gpu-x";
    a = chooseStageEngine(q);
    EXPECT_EQ(a.engine, "gpu-x") << a.why;
    EXPECT_TRUE(has(a.why, "auto: gpu-x")) << a.why;
    q.samples = kGpuStageMinSamples - 1;  // shorter than the GPU's copies are worth
    a = chooseStageEngine(q);
    EXPECT_EQ(a.engine, "cpu-parallel");
    EXPECT_TRUE(has(a.why, std::to_string(kGpuStageMinSamples - 1) + " samples")) << a.why;
    q.samples = kGpuStageMinSamples * 10;
    q.streamed = true;  // only find-peaks' GPU engine needs the whole signal
    a = chooseStageEngine(q);
    EXPECT_EQ(a.engine, work == GpuStageWork::FindPeaks ? "cpu-parallel" : "gpu-x") << a.why;
  }
}

// A GPU engine (usesGpu) whose stage hooks compute on the CPU, counting its runs; `why` refuses.
class StandInGpu final : public FilterBackend {
 public:
  explicit StandInGpu(std::string why = {}) : why_(std::move(why)) {}
  std::string_view name() const override { return "stand-in-gpu"; }
  std::string_view description() const override { return "the stage hooks on the CPU, for the test"; }
  bool usesGpu() const override { return true; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return "stage hooks only"; }
  FilterPass filter(std::span<const double>, const FilterSpec&, std::span<double>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("stage hooks only");
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("stage hooks only");
  }
  std::string whyNotPolyphase() const override { return why_; }
  FilterPass polyphase(const Polyphase& fir, std::span<const double> in, std::span<double> out,
                       const Progress& progress) override {
    ++runs;
    fir.run(in, out, false, progress);
    return {};
  }
  std::string whyNotSpectrogram() const override { return why_; }
  FilterPass spectrogram(std::span<const double> x, const SpectrogramLayout& layout, std::uint64_t frames,
                         std::span<double> out, const Progress&) override {
    ++runs;
    FrameTransform transform(layout);
    const std::size_t values = layout.planes * layout.frequencies;
    for (std::uint64_t f = 0; f < frames; ++f) transform.run(x.data() + f * layout.step, out.data() + f * values);
    return {};
  }
  std::string whyNotHilbert() const override { return why_; }
  FilterPass hilbert(std::span<const double> x, std::span<double> out, bool magnitude, const Progress&) override {
    ++runs;
    hilbertTransform(x, out);
    if (magnitude) {
      for (std::size_t i = 0; i < x.size(); ++i) out[i] = std::sqrt(x[i] * x[i] + out[i] * out[i]);
    }
    return {};
  }
  std::string whyNotFindPeaks(const PeakOptions& o) const override {
    return o.measuresProminence() ? "prominence runs on the CPU" : why_;
  }
  FilterPass findPeaks(std::span<const double> x, const PeakOptions& o, std::vector<PeakRow>& rows,
                       const Progress&) override {
    ++runs;
    PeakFinder finder(o, x.size());
    finder.feed(x);
    finder.finish();
    rows = finder.take();
    return {};
  }
  int runs = 0;

 private:
  std::string why_;
};

BackendList enginesWith(std::string why = {}) {
  BackendList list;
  list.push_back(std::make_unique<CpuSerialBackend>());
  list.push_back(std::make_unique<CpuParallelBackend>());
  list.push_back(std::make_unique<StandInGpu>(std::move(why)));
  return list;
}

int runsOf(const BackendList& engines) { return static_cast<StandInGpu&>(*engines.back()).runs; }

std::vector<double> noise(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> x(n);
  for (double& v : x) v = normal(rng);
  return x;
}

PipelineReport runInMemory(const std::string& chain, const std::vector<std::vector<double>>& x, const std::string& out,
                           const BackendList& engines, const std::string& engine) {
  ChannelSource source;
  source.channels.assign(x.begin(), x.end());
  PipelineOptions options;
  options.engines = {engine};
  options.streaming = Streaming::never;  // a rate change streams on the CPU's own stream
  return runPipeline(parseChain(chain), source, FileSink{out, {}}, engines, options);
}

TEST(StageEngineRule, TheGpuEngineListsAndRunsSpectrogramStftFindPeaksAndHilbertByName) {
  const test::TempDir dir;
  const std::vector<std::vector<double>> x{noise(5003, 1), noise(5003, 2)};  // two channels, no block's multiple
  for (const char* chain : {"spectrogram nperseg=100", "stft nperseg=64", "find-peaks height=1 distance=3", "hilbert"}) {
    SCOPED_TRACE(chain);
    const BackendList engines = enginesWith();
    const auto stage = bindStage(parseChain(chain).stages.at(0), 1, {x[0].size(), std::nullopt});
    const std::vector<std::string> names = stage->engineNames(engines);
    EXPECT_NE(std::find(names.begin(), names.end(), "stand-in-gpu"), names.end());
    const std::string ext = has(chain, "peaks") ? ".csv" : ".npy";
    const PipelineReport gpu = runInMemory(chain, x, dir.file("gpu" + ext), engines, "stand-in-gpu");
    const PipelineReport cpu = runInMemory(chain, x, dir.file("cpu" + ext), engines, "cpu-serial");
    ASSERT_TRUE(gpu.written && cpu.written);
    EXPECT_GE(runsOf(engines), 2);  // once a channel at least (stft: its padded end again)
    EXPECT_EQ(gpu.channels[0].stages.back().engine, "stand-in-gpu");
    EXPECT_TRUE(gpu.channels[0].stages.back().usesGpu);
    EXPECT_EQ(test::readFile(dir.file("gpu" + ext)), test::readFile(dir.file("cpu" + ext)));
  }
}

TEST(StageEngineRule, AGpuSpectrogramStreamsAndGpuFindPeaksRunsInMemorySayingWhy) {
  const test::TempDir dir;
  const std::string in = dir.file("in.npy");
  writeSignal(in, noise(9011, 3));
  PipelineOptions options;
  options.streaming = Streaming::always;
  options.blockSamples = 2777;
  options.engines = {"stand-in-gpu"};
  const BackendList engines = enginesWith();
  const PipelineReport frames =
      runPipeline(parseChain("spectrogram nperseg=256"), FileSource{in, {}}, FileSink{dir.file("s.npy"), {}}, engines, options);
  EXPECT_TRUE(frames.plan.stream) << frames.plan.why;
  EXPECT_GT(runsOf(engines), 1);  // batch by batch
  options.engines = {"cpu-parallel"};
  runPipeline(parseChain("spectrogram nperseg=256"), FileSource{in, {}}, FileSink{dir.file("c.npy"), {}}, engines, options);
  EXPECT_EQ(test::readFile(dir.file("s.npy")), test::readFile(dir.file("c.npy")));
  options.engines = {"stand-in-gpu"};
  const PipelineReport peaks =
      runPipeline(parseChain("find-peaks height=2"), FileSource{in, {}}, FileSink{dir.file("p.csv"), {}}, engines, options);
  EXPECT_FALSE(peaks.plan.stream);
  EXPECT_TRUE(has(peaks.plan.why, "takes the whole signal at once")) << peaks.plan.why;
  // Auto streams it on the CPU instead, and says why.
  options.engines = {"auto"};
  const PipelineReport autoPeaks =
      runPipeline(parseChain("find-peaks height=2"), FileSource{in, {}}, FileSink{dir.file("q.csv"), {}}, engines, options);
  EXPECT_TRUE(autoPeaks.plan.stream);
  EXPECT_EQ(autoPeaks.channels[0].stages.back().engine, "cpu-parallel");
  EXPECT_EQ(test::readFile(dir.file("p.csv")), test::readFile(dir.file("q.csv")));
}

TEST(StageEngineRule, AGpuEngineThatCannotRunTheStageIsRefusedByNameBeforeAnyOutput) {
  const test::TempDir dir;
  const std::vector<std::vector<double>> x{noise(1000, 4)};
  const BackendList engines = enginesWith("no usable CUDA GPU was found");
  const auto stage = bindStage(parseChain("spectrogram").stages.at(0), 1, {x[0].size(), std::nullopt});
  const std::vector<std::string> names = stage->engineNames(engines);
  EXPECT_EQ(std::find(names.begin(), names.end(), "stand-in-gpu"), names.end());
  for (const char* chain : {"spectrogram", "find-peaks height=1"}) {
    try {
      runInMemory(chain, x, dir.file(has(chain, "peaks") ? "o.csv" : "o.npy"), engines, "stand-in-gpu");
      ADD_FAILURE() << chain << ": not refused";
    } catch (const StageError& e) {
      EXPECT_TRUE(has(e.what(), "cannot run on stand-in-gpu: no usable CUDA GPU was found")) << e.what();
    }
  }
  try {
    runInMemory("find-peaks prominence=1", x, dir.file("p.csv"), enginesWith(), "stand-in-gpu");
    ADD_FAILURE() << "prominence not refused";
  } catch (const StageError& e) {
    EXPECT_TRUE(has(e.what(), "prominence runs on the CPU")) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("o.npy")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("o.csv")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("p.csv")));
}

// Auto: the GPU engine from kGpuStageMinSamples on, for every stage that has one (in memory).
void expectAutoPicksTheGpuFromItsLength(const char* chain) {
  SCOPED_TRACE(chain);
  const test::TempDir dir;
  static const std::vector<std::vector<double>> longer{noise(kGpuStageMinSamples, 5)};
  const std::vector<std::vector<double>> shorter{noise(4000, 6)};
  const std::string out = dir.file(has(chain, "peaks") ? "o.csv" : "o.npy");
  const BackendList engines = enginesWith();
  const PipelineReport big = runInMemory(chain, longer, out, engines, "auto");
  EXPECT_EQ(big.channels[0].stages.back().engine, "stand-in-gpu") << big.channels[0].stages.back().why;
  EXPECT_TRUE(has(big.channels[0].stages.back().why, "auto: stand-in-gpu")) << big.channels[0].stages.back().why;
  const PipelineReport small = runInMemory(chain, shorter, out, engines, "auto");
  EXPECT_EQ(small.channels[0].stages.back().engine, "cpu-parallel");
  EXPECT_EQ(runsOf(engines), 1);
}

TEST(StageEngineRule, AutoPicksTheGpuEngineForLongSignalsInSpectrogramAndFindPeaks) {
  expectAutoPicksTheGpuFromItsLength("spectrogram nperseg=1024");
  expectAutoPicksTheGpuFromItsLength("find-peaks height=3");
}

TEST(StageEngineRule, AutoPicksTheGpuEngineForLongSignalsInRateChangesAndEnvelope) {
  expectAutoPicksTheGpuFromItsLength("resample-poly 3,2");
  expectAutoPicksTheGpuFromItsLength("envelope");
}

// Streamed, an envelope named on a GPU engine transforms each overlapped block there (it stayed in
// memory before): the CPU's streamed blocks, the same bits with the stand-in's CPU transform.
TEST(StageEngineRule, AGpuEnvelopeStreamsItsOverlappedBlocksOnTheGpuEngine) {
  const test::TempDir dir;
  const std::string in = dir.file("in.npy");
  writeSignal(in, noise((std::size_t{1} << 19) + 77777, 4));  // three blocks of 2^18 outputs
  PipelineOptions options;
  options.streaming = Streaming::always;
  options.engines = {"stand-in-gpu"};
  const BackendList engines = enginesWith();
  const PipelineReport gpu =
      runPipeline(parseChain("envelope"), FileSource{in, {}}, FileSink{dir.file("g.npy"), {}}, engines, options);
  EXPECT_TRUE(gpu.plan.stream) << gpu.plan.why;
  ASSERT_TRUE(gpu.written);
  EXPECT_EQ(gpu.channels[0].stages.back().engine, "stand-in-gpu");
  EXPECT_TRUE(has(gpu.channels[0].stages.back().why, "overlapped block")) << gpu.channels[0].stages.back().why;
  EXPECT_EQ(runsOf(engines), 3);  // block by block
  options.engines = {"cpu-serial"};
  const PipelineReport cpu =
      runPipeline(parseChain("envelope"), FileSource{in, {}}, FileSink{dir.file("c.npy"), {}}, engines, options);
  EXPECT_TRUE(cpu.plan.stream) << cpu.plan.why;
  EXPECT_EQ(test::readFile(dir.file("g.npy")), test::readFile(dir.file("c.npy")));
}

}  // namespace
}  // namespace siglab

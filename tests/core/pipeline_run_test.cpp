// The one pipeline run (pipeline_run.hpp): a chain in memory is its stages run one after another,
// bit for bit; streamed it is the same bits for every block size; stages that cannot run are
// refused before any output; a failed check writes nothing; auto falls back when streamed too.
#include "siglab/pipeline_run.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory_resource>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/filter_stage.hpp"
#include "siglab/spec_for_signal.hpp"
#include "siglab/taps.hpp"
#include "engine_test_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// A kind that binds to one fixed filter, fitted to the signal as the CLI fits it: the runner is
// tested apart from the kinds' parameters.
class SpecKind final : public StageKind {
 public:
  explicit SpecKind(FilterSpec spec) : spec_(std::move(spec)) {}
  std::string_view name() const override { return toString(spec_.kind); }
  std::string_view summary() const override { return "a fixed filter"; }
  std::string_view valueSyntax() const override { return ""; }
  std::string_view exampleValue() const override { return ""; }
  std::vector<ParameterInfo> parameters() const override { return {}; }
  StageParameters parseValue(std::string_view) const override { return {}; }
  std::string formatValue(const StageParameters&) const override { return {}; }
  void check(const StageParameters&) const override {}
  std::unique_ptr<BoundStage> bind(const StageParameters&, const StageContext& context) const override {
    FilterSpec spec = spec_;
    spec.accumulator = context.accumulator;
    std::string note;
    if (context.samples) {
      try {
        note = fitSpecToSignal(spec, static_cast<std::size_t>(*context.samples), std::string(name()));
      } catch (const std::invalid_argument& e) {
        throw StageError(e.what());
      }
    }
    return makeFilterStage(std::move(spec), note);
  }

 private:
  FilterSpec spec_;
};

// Engines as cpu-parallel and cpu-serial are, one of which breaks: `wrongOutput` changes one
// output (verification must catch it), `failing` throws as a GPU out of memory does.
class BrokenEngine final : public FilterBackend {
 public:
  BrokenEngine(std::string name, bool failing) : name_(std::move(name)), failing_(failing) {}
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return "broken on purpose"; }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override { return serial_.whyNot(spec, type); }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions& o,
                    const Progress& p) override {
    return run(in, spec, out, o, p);
  }
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out, const RunOptions& o,
                    const Progress& p) override {
    return run(in, spec, out, o, p);
  }

 private:
  template <typename T>
  FilterPass run(std::span<const T> in, const FilterSpec& spec, std::span<T> out, const RunOptions& o, const Progress& p) {
    if (failing_) throw std::runtime_error("out of memory on purpose");
    FilterPass pass = serial_.filter(in, spec, out, o, p);
    if (!out.empty()) out[out.size() / 2] += 1;
    return pass;
  }
  std::string name_;
  bool failing_;
  CpuSerialBackend serial_;
};

using test::cpuEngines;

// The chain of mean, median, Gaussian and Savitzky-Golay (mirror edges) in `mode`.
struct Chain {
  std::vector<std::unique_ptr<SpecKind>> kinds;
  Pipeline pipeline;
  void add(FilterSpec spec) {
    kinds.push_back(std::make_unique<SpecKind>(std::move(spec)));
    pipeline.stages.push_back(Stage{kinds.back().get(), {}});
  }
};
Chain exactChain(BoundaryMode mode) {
  Chain chain;
  chain.add(makeMeanFilter(5, mode));
  chain.add(makeMedianFilter(7, mode));
  chain.add(makeGaussianFilter(1.5, mode));
  chain.add(makeSavgolFilter(9, 3, 0, false, mode));
  return chain;
}

std::vector<double> signalOf(std::size_t n, std::uint64_t seed = 7) {
  std::mt19937_64 rng(seed);
  return test::randomSignal(n, rng);
}

bool sameBits(std::span<const double> a, std::span<const double> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

PipelineReport runOnMemory(const Pipeline& pipeline, const std::vector<std::vector<double>>& channels,
                           const BackendList& engines, PipelineOptions options) {
  ChannelSource source;
  for (const auto& c : channels) source.channels.emplace_back(c);
  return runPipeline(pipeline, source, MemorySink{}, engines, options);
}

TEST(PipelineRun, ChainInMemoryIsItsStagesOneAfterAnother) {
  const BackendList engines = cpuEngines();
  const std::vector<double> x = signalOf(3000);
  const Chain chain = exactChain(BoundaryMode::Reflect);
  PipelineOptions options;
  options.streaming = Streaming::never;
  const PipelineReport report = runOnMemory(chain.pipeline, {x}, engines, options);
  ASSERT_TRUE(report.passed());
  ASSERT_EQ(report.channels.size(), 1u);
  ASSERT_EQ(report.channels[0].stages.size(), 4u);

  std::vector<double> expected = x;
  for (const Stage& stage : chain.pipeline.stages) {
    const auto bound = stage.kind->bind({}, StageContext{expected.size(), std::nullopt, Accumulator::SampleType});
    const AppliedJob step = bound->apply(engines, expected, StageRunOptions{});
    expected.assign(step.result.output.begin(), step.result.output.end());
  }
  ASSERT_EQ(report.output.size(), 1u);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), report.output[0].begin(), report.output[0].end()));
  EXPECT_EQ(report.channels[0].stages[1].kind, "median");
  EXPECT_EQ(report.channels[0].stages[1].engine, "cpu-parallel");
  EXPECT_TRUE(report.channels[0].stages[1].verified);
}

TEST(PipelineRun, ChannelsRunTheChainEachAndReportEach) {
  const BackendList engines = cpuEngines();
  const std::vector<double> a = signalOf(500, 1), b = signalOf(500, 2);
  const Chain chain = exactChain(BoundaryMode::Zero);
  PipelineOptions options;
  options.streaming = Streaming::never;
  ChannelSource pair;
  pair.channels = {a, b};
  std::vector<std::pair<std::size_t, std::string>> done;  // what the observer heard, in order
  PipelineObserver observer;
  observer.onStageDone = [&](std::size_t channel, std::size_t stage, const StageReport& report) {
    done.emplace_back(channel, std::to_string(stage) + " " + report.kind);
  };
  const PipelineReport both = runPipeline(chain.pipeline, pair, MemorySink{}, engines, options, observer);
  ASSERT_EQ(done.size(), 8u);
  EXPECT_EQ(done[5], (std::pair<std::size_t, std::string>{1, "1 median"}));
  const PipelineReport second = runOnMemory(chain.pipeline, {b}, engines, options);
  ASSERT_EQ(both.channels.size(), 2u);
  ASSERT_EQ(both.output.size(), 2u);
  EXPECT_EQ(both.channels[1].stages.size(), 4u);
  EXPECT_TRUE(std::equal(both.output[1].begin(), both.output[1].end(), second.output[0].begin(), second.output[0].end()));
  // A file holds both (an N x 2 .npy); the seed's text format holds one: refused before any work.
  const test::TempDir dir;
  ChannelSource source;
  source.channels = {a, b};
  ASSERT_TRUE(runPipeline(chain.pipeline, source, FileSink{dir.file("two.npy"), {}}, engines, options).written);
  EXPECT_EQ(readChannels(dir.file("two.npy")).channels[1].toVector(), second.output[0].toVector());
  EXPECT_THROW(runPipeline(chain.pipeline, source, FileSink{dir.file("two.txt"), {}}, engines, options), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("two.txt")));
}

// Block sizes 1, a stage's history (the median's 3), 7 and one past the signal, in every boundary
// mode (wrap in the first stage only: a later one stays in memory).
TEST(PipelineRun, StreamedIsTheInMemoryBitsForEveryBlockSize) {
  const BackendList engines = cpuEngines();
  const std::vector<double> x = signalOf(300);
  for (const BoundaryMode mode : {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror,
                                  BoundaryMode::Nearest}) {
    const Chain chain = exactChain(mode);
    PipelineOptions options;
    options.streaming = Streaming::never;
    const PipelineReport memory = runOnMemory(chain.pipeline, {x}, engines, options);
    for (const std::size_t block : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{1000}}) {
      SCOPED_TRACE(std::string(toString(mode)) + ", blocks of " + std::to_string(block));
      options.streaming = Streaming::always;
      options.blockSamples = block;
      const PipelineReport streamed = runOnMemory(chain.pipeline, {x}, engines, options);
      ASSERT_TRUE(streamed.plan.stream) << streamed.plan.why;
      ASSERT_TRUE(streamed.passed());
      EXPECT_TRUE(std::equal(memory.output[0].begin(), memory.output[0].end(), streamed.output[0].begin(),
                             streamed.output[0].end()));
      EXPECT_GT(streamed.channels[0].stages[3].verification.checked, 0u);
    }
  }
}

// What a first stage reads ahead: the signal's tail for wrap, its first and last W samples for
// Savitzky-Golay's interp edges; alone or followed by other stages, in float64 and float32.
TEST(PipelineRun, AFirstStageStreamsWrapAndInterpEdges) {
  const BackendList engines = cpuEngines();
  const std::vector<double> x = signalOf(300);
  for (const FilterSpec& first : {makeMeanFilter(5, BoundaryMode::Wrap), makeSavgolFilter(11, 3, 0, true, BoundaryMode::Mirror)}) {
    Chain alone, followed;
    alone.add(first);
    followed.add(first);
    followed.add(makeMedianFilter(3, BoundaryMode::Reflect));
    for (const Chain* chain : {&alone, &followed}) {
      for (const SampleType type : {SampleType::f64, SampleType::f32}) {
        PipelineOptions options;
        options.sampleType = type;
        options.streaming = Streaming::never;
        const PipelineReport memory = runOnMemory(chain->pipeline, {x}, engines, options);
        for (const std::size_t block : {std::size_t{1}, std::size_t{10}, std::size_t{7}, std::size_t{1000}}) {
          SCOPED_TRACE(describeFilter(first) + ", " + std::to_string(chain->pipeline.stages.size()) + " stages, blocks of " +
                       std::to_string(block));
          options.streaming = Streaming::always;
          options.blockSamples = block;
          const PipelineReport streamed = runOnMemory(chain->pipeline, {x}, engines, options);
          ASSERT_TRUE(streamed.plan.stream) << streamed.plan.why;
          ASSERT_TRUE(streamed.passed());
          EXPECT_TRUE(std::equal(memory.output[0].begin(), memory.output[0].end(), streamed.output[0].begin(),
                                 streamed.output[0].end()));
        }
      }
    }
  }
}

TEST(PipelineRun, WhatCannotStreamSaysWhyAndRunsInMemory) {
  const BackendList engines = cpuEngines();
  const std::vector<double> x = signalOf(200);
  PipelineOptions options;
  options.streaming = Streaming::always;
  Chain wrapLater;
  wrapLater.add(makeMeanFilter(3));
  wrapLater.add(makeMedianFilter(3, BoundaryMode::Wrap));
  PipelineReport report = runOnMemory(wrapLater.pipeline, {x}, engines, options);
  EXPECT_FALSE(report.plan.stream);
  EXPECT_NE(report.plan.why.find("stage 2 (median) wraps around"), std::string::npos) << report.plan.why;
  Chain interpLater;
  interpLater.add(makeMeanFilter(3));
  interpLater.add(makeSavgolFilter(5, 2, 0, true, BoundaryMode::Mirror));
  report = runOnMemory(interpLater.pipeline, {x}, engines, options);
  EXPECT_FALSE(report.plan.stream);
  EXPECT_NE(report.plan.why.find("interp edges"), std::string::npos) << report.plan.why;
  Chain sections;
  ButterworthSpec design;
  design.order = 2;
  design.cutoff = 0.2;
  sections.add(makeButterworthFilter(design, false));
  options.engines = {"cpu-parallel"};  // sections stream on cpu-serial only (sections_stream_test.cpp)
  report = runOnMemory(sections.pipeline, {x}, engines, options);
  EXPECT_FALSE(report.plan.stream);
  EXPECT_NE(report.plan.why.find("sections stream only on cpu-serial"), std::string::npos) << report.plan.why;
  EXPECT_EQ(report.output.at(0).size(), x.size());
}

TEST(PipelineRun, AStageTooLongForTheSignalIsRefusedBeforeAnyOutput) {
  const BackendList engines = cpuEngines();
  const test::TempDir dir;
  const std::vector<double> x = signalOf(10);
  Chain chain;
  chain.add(makeMeanFilter(3));
  chain.add(makeSavgolFilter(11, 2, 0, true, BoundaryMode::Mirror));  // interp edges need 11 samples
  ChannelSource source;
  source.channels.emplace_back(x);
  try {
    runPipeline(chain.pipeline, source, FileSink{dir.file("out.txt"), {}}, engines);
    FAIL() << "a Savitzky-Golay of 11 on 10 samples ran";
  } catch (const StageError& e) {
    EXPECT_NE(std::string(e.what()).find("stage 2 (savgol)"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.txt")));
}

TEST(PipelineRun, AFailedCheckWritesNothingInMemoryOrStreamed) {
  BackendList engines = cpuEngines();
  engines.push_back(std::make_unique<BrokenEngine>("wrong", false));
  const test::TempDir dir;
  const std::vector<double> x = signalOf(400);
  const Chain chain = exactChain(BoundaryMode::Zero);
  ChannelSource source;
  source.channels.emplace_back(x);
  PipelineOptions options;
  options.engines = {"auto", "wrong"};
  options.verifyRandom = std::size_t{1} << 22;  // every output, in every block
  for (const Streaming streaming : {Streaming::never, Streaming::always}) {
    options.streaming = streaming;
    options.blockSamples = 64;
    const PipelineReport report = runPipeline(chain.pipeline, source, FileSink{dir.file("out.npy"), {}}, engines, options);
    EXPECT_FALSE(report.passed());
    ASSERT_NE(report.firstFailure(), nullptr);
    EXPECT_EQ(report.firstFailure()->engine, "wrong");
    EXPECT_FALSE(report.written);
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.npy")));
  }
}

// cpu-parallel failing here: auto takes cpu-serial, in memory and streamed alike, and says so.
TEST(PipelineRun, AutoFallsBackStreamedAsInMemory) {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<BrokenEngine>("cpu-parallel", true));
  const std::vector<double> x = signalOf(300);
  const Chain chain = exactChain(BoundaryMode::Reflect);
  for (const Streaming streaming : {Streaming::never, Streaming::always}) {
    PipelineOptions options;
    options.streaming = streaming;
    options.blockSamples = 50;
    const PipelineReport report = runOnMemory(chain.pipeline, {x}, engines, options);
    ASSERT_TRUE(report.passed());
    for (const StageReport& stage : report.channels[0].stages) {
      EXPECT_EQ(stage.engine, "cpu-serial");
      ASSERT_EQ(stage.fellBack.size(), 1u);
      EXPECT_NE(stage.fellBack[0].find("cpu-parallel: out of memory on purpose"), std::string::npos);
    }
  }
}

// The default memory resource for one test: counts the blocks of at least `large` bytes alive at
// once (a signal's worth), so a test sees every result and intermediate buffer core makes.
class LargeBlockCounter final : public std::pmr::memory_resource {
 public:
  explicit LargeBlockCounter(std::size_t large) : large_(large), previous_(std::pmr::set_default_resource(this)) {}
  ~LargeBlockCounter() override { std::pmr::set_default_resource(previous_); }
  std::size_t made() const { return made_; }
  std::size_t peak() const { return peak_; }

 private:
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    if (bytes >= large_) {
      ++made_;
      peak_ = std::max(peak_, ++alive_);
    }
    return previous_->allocate(bytes, align);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
    if (bytes >= large_) --alive_;
    previous_->deallocate(p, bytes, align);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  std::size_t large_;
  std::pmr::memory_resource* previous_;
  std::size_t made_ = 0, alive_ = 0, peak_ = 0;
};

// MemorySink::into: the last stage writes the caller's spans themselves (no result made and
// copied), the bits of a new result, in memory and streamed; a chain's stages in between take two
// buffers at most, in turn.
TEST(PipelineRun, AResultIntoTheCallersSpansIsWrittenThereWithoutACopy) {
  const BackendList engines = cpuEngines();
  const std::vector<double> a = signalOf(3000, 1), b = signalOf(3000, 2);
  const Chain chain = exactChain(BoundaryMode::Reflect);
  Chain one;
  one.add(makeMeanFilter(5, BoundaryMode::Zero));
  ChannelSource source;
  source.channels = {a, b};
  for (const Streaming streaming : {Streaming::never, Streaming::always}) {
    for (const Pipeline* pipeline : {&chain.pipeline, static_cast<const Pipeline*>(&one.pipeline)}) {
      SCOPED_TRACE(std::to_string(pipeline->stages.size()) + " stages, " +
                   (streaming == Streaming::always ? "streamed" : "in memory"));
      PipelineOptions options;
      options.streaming = streaming;
      options.blockSamples = 256;
      const PipelineReport fresh = runPipeline(*pipeline, source, MemorySink{}, engines, options);
      ASSERT_EQ(fresh.output.size(), 2u);
      std::vector<double> outA(a.size(), std::nan("")), outB(b.size(), std::nan(""));
      const double* const where[] = {outA.data(), outB.data()};
      PipelineReport into;
      std::size_t made = 0, peak = 0;
      {
        const LargeBlockCounter counter(a.size() * sizeof(double));
        into = runPipeline(*pipeline, source, MemorySink{{outA, outB}}, engines, options);
        made = counter.made();
        peak = counter.peak();
      }
      ASSERT_TRUE(into.passed());
      EXPECT_TRUE(into.output.empty());
      EXPECT_EQ(outA.data(), where[0]);
      EXPECT_EQ(outB.data(), where[1]);
      EXPECT_TRUE(sameBits(fresh.output[0], outA));
      EXPECT_TRUE(sameBits(fresh.output[1], outB));
      if (streaming == Streaming::never) {
        EXPECT_LE(peak, 2u);                                    // ping-pong
        if (pipeline->stages.size() == 1) EXPECT_EQ(made, 0u);  // the engine wrote the span itself
      }
    }
  }
}

// A result span that does not fit is refused before any work, the spans untouched.
TEST(PipelineRun, ResultSpansThatDoNotFitAreRefusedBeforeAnyWork) {
  const BackendList engines = cpuEngines();
  std::vector<double> x = signalOf(600);
  const Chain chain = exactChain(BoundaryMode::Zero);
  ChannelSource source;
  source.channels.emplace_back(std::span<const double>(x).first(500));
  std::vector<double> out(500, std::nan("")), shorter(499, std::nan(""));
  bool started = false;
  PipelineObserver observer;
  observer.onPlan = [&](const StreamingPlan&) { started = true; };
  observer.progressFor = [&](const std::string&) {
    started = true;
    return Progress{};
  };
  const auto refusal = [&](MemorySink sink, const PipelineSource& from = PipelineSource{}) {
    try {
      runPipeline(chain.pipeline, std::holds_alternative<FileSource>(from) ? from : PipelineSource{source}, sink,
                  engines, {}, observer);
    } catch (const StageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(refusal(MemorySink{{out, out}}).find("2 result arrays for the 1 channels"), std::string::npos);
  EXPECT_NE(refusal(MemorySink{{shorter}}).find("holds 499 samples, the result 500"), std::string::npos);
  EXPECT_NE(refusal(MemorySink{{std::span<double>(x).subspan(100, 500)}}).find("overlaps the samples of"), std::string::npos);
  EXPECT_NE(refusal(MemorySink{{out}}, FileSource{"in.npy", {}}).find("needs its channels in memory"), std::string::npos);
  EXPECT_FALSE(started);
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](double v) { return std::isnan(v); }));
}

}  // namespace
}  // namespace siglab

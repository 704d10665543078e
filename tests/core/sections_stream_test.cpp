// Sections (Butterworth) streamed in a chain (sections_stream.hpp): block by block with their state
// carried, zero phase through a spool file, the same bits as cpu-serial in memory for every block
// size and length, float64 and float32; and in a chain with a median, one pass over a file.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <random>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/stage_registry.hpp"
#include "engine_test_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::cpuEngines;

std::vector<double> signalOf(std::size_t n) {
  std::mt19937_64 rng(11);
  return test::randomSignal(n, rng);
}

PipelineReport runOn(const Pipeline& pipeline, const std::vector<double>& x, const BackendList& engines,
                     const PipelineOptions& options) {
  ChannelSource source;
  source.channels.emplace_back(x);
  return runPipeline(pipeline, source, MemorySink{}, engines, options);
}

bool sameBits(const SampleVector& a, const SampleVector& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The reference: cpu-serial in memory.
PipelineReport inMemory(const Pipeline& pipeline, const std::vector<double>& x, const BackendList& engines,
                        SampleType type) {
  PipelineOptions options;
  options.streaming = Streaming::never;
  options.sampleType = type;
  options.engines.assign(pipeline.stages.size(), "cpu-serial");
  return runOn(pipeline, x, engines, options);
}

// Padlen for 4 sections (order 4 band-pass, order 8 low-pass would be 8): 3 x (2 x 4 + 1) = 27.
TEST(SectionsStream, StreamedSectionsAreTheInMemoryBitsForEveryBlockAndLength) {
  const BackendList engines = cpuEngines();
  for (const char* chain : {"butter 4,0.2", "butter 4,0.2 zero-phase", "butter 4,0.1,0.3,bandpass",
                            "butter 4,0.1,0.3,bandpass zero-phase"}) {
    const Pipeline pipeline = parseChain(chain);
    const auto bound = bindStage(pipeline.stages[0], 1, StageContext{1000, std::nullopt, Accumulator::SampleType});
    const std::size_t padlen = sosfiltfiltPadLength(bound->filterSpec()->sos.sections);
    for (const std::size_t n : {padlen + 1, padlen + 2, std::size_t{1000}, std::size_t{100003}}) {
      const std::vector<double> x = signalOf(n);
      for (const SampleType type : {SampleType::f64, SampleType::f32}) {
        const PipelineReport memory = inMemory(pipeline, x, engines, type);
        for (const std::size_t block : {std::size_t{1}, std::size_t{7}, padlen, std::size_t{1} << 16}) {
          if (n > 1000 && block == 1) continue;  // a syscall a sample: covered by the shorter signals
          SCOPED_TRACE(std::string(chain) + ", " + std::to_string(n) + " samples, blocks of " + std::to_string(block) +
                       (type == SampleType::f32 ? ", float32" : ""));
          PipelineOptions options;
          options.streaming = Streaming::always;
          options.sampleType = type;
          options.blockSamples = block;
          const PipelineReport streamed = runOn(pipeline, x, engines, options);
          ASSERT_TRUE(streamed.plan.stream) << streamed.plan.why;
          EXPECT_TRUE(sameBits(memory.output.at(0), streamed.output.at(0)));
          EXPECT_EQ(streamed.channels[0].stages[0].engine, "cpu-serial");
        }
      }
    }
  }
}

TEST(SectionsStream, ZeroPhaseRefusesASignalNoLongerThanPadlenStreamedAsInMemory) {
  const BackendList engines = cpuEngines();
  const Pipeline pipeline = parseChain("butter 4,0.1,0.3,bandpass zero-phase");
  const std::vector<double> x = signalOf(27);  // padlen of 4 sections
  PipelineOptions options;
  for (const Streaming streaming : {Streaming::never, Streaming::always}) {
    options.streaming = streaming;
    EXPECT_THROW(runOn(pipeline, x, engines, options), StageError);
  }
}

// The chain over a raw file: one pass, the median reading the sections' stream.
TEST(SectionsStream, ButterZeroPhaseThenMedianStreamsOverAFileAsInMemory) {
  const BackendList engines = cpuEngines();
  const test::TempDir dir;
  const std::vector<double> x = signalOf(20011);
  WriteOptions raw;
  raw.format = FileFormat::raw;
  raw.rawType = SampleType::f32;
  writeSignal(dir.file("in.f32"), x, raw);
  const Pipeline pipeline = parseChain("butter 4,0.1,0.3,bandpass zero-phase; median 5");
  FileSource source{dir.file("in.f32"), {}};
  source.read.rawType = SampleType::f32;
  PipelineOptions options;
  options.engines = {"cpu-serial", "cpu-serial"};
  options.streaming = Streaming::never;
  const PipelineReport memory = runPipeline(pipeline, source, MemorySink{}, engines, options);
  options.engines.clear();
  options.streaming = Streaming::always;
  options.blockSamples = 4096;
  WriteOptions out;
  out.format = FileFormat::raw;
  const PipelineReport streamed = runPipeline(pipeline, source, FileSink{dir.file("out.f64"), out}, engines, options);
  ASSERT_TRUE(streamed.plan.stream) << streamed.plan.why;
  EXPECT_NE(streamed.plan.why.find("stage 1 (butter) streams serially"), std::string::npos) << streamed.plan.why;
  ASSERT_TRUE(streamed.written);
  EXPECT_TRUE(streamed.channels[0].stages[1].verified);  // the median, checked per block as ever
  EXPECT_FALSE(streamed.channels[0].stages[0].verified);  // the reference itself: nothing to recheck
  ReadOptions back;
  back.rawType = SampleType::f64;
  const Signal result = readSignal(dir.file("out.f64"), back);
  EXPECT_TRUE(sameBits(memory.output.at(0), result.samples));
}

// A cancel during the forward pass (the first progress the zero-phase stage reports) stops the run
// at its next block, and no output file appears.
TEST(SectionsStream, ZeroPhaseStopsAtACancelDuringItsPassesAndWritesNothing) {
  const BackendList engines = cpuEngines();
  const test::TempDir dir;
  const std::vector<double> x = signalOf(5000);
  ChannelSource source;
  source.channels.emplace_back(x);
  std::atomic<bool> cancel{false};
  std::size_t reports = 0;
  PipelineObserver observer;
  observer.cancel = &cancel;
  observer.progressFor = [&](const std::string&) {
    return Progress{[&](double) { ++reports, cancel = true; }, &cancel};
  };
  PipelineOptions options;
  options.streaming = Streaming::always;
  options.blockSamples = 100;
  EXPECT_THROW(runPipeline(parseChain("butter 4,0.2 zero-phase"), source, FileSink{dir.file("out.npy"), {}}, engines,
                           options, observer),
               Cancelled);
  EXPECT_EQ(reports, 1u);
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.npy")));
}

// Streamed, sections run only on cpu-serial: a stage naming another engine stays in memory.
TEST(SectionsStream, SectionsNamingAnotherEngineStayInMemory) {
  const BackendList engines = cpuEngines();
  const std::vector<double> x = signalOf(500);
  PipelineOptions options;
  options.streaming = Streaming::always;
  options.engines = {"cpu-parallel"};
  const PipelineReport report = runOn(parseChain("butter 2,0.2"), x, engines, options);
  EXPECT_FALSE(report.plan.stream);
  EXPECT_NE(report.plan.why.find("sections stream only on cpu-serial"), std::string::npos) << report.plan.why;
}

}  // namespace
}  // namespace siglab

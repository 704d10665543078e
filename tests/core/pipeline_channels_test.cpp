// runPipeline on files of several channels (issue 25 item 1): every channel in one run, in memory
// and streamed in one pass for every block size, each channel the bits of its one-channel run
// (ReadOptions::oneChannel); channels in memory streamed into one file; an output that cannot hold
// the channels refused before any work.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/pipeline_run.hpp"
#include "engine_test_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::cpuEngines;

std::vector<std::vector<double>> randomChannels(std::size_t channels, std::size_t frames) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise;
  std::vector<std::vector<double>> planar(channels, std::vector<double>(frames));
  for (auto& channel : planar) {
    for (double& v : channel) v = noise(rng);
  }
  return planar;
}

std::vector<std::span<const double>> spansOf(const std::vector<std::vector<double>>& planar) {
  return {planar.begin(), planar.end()};
}

PipelineOptions streamed(Streaming streaming, std::size_t block) {
  PipelineOptions options;
  options.streaming = streaming;
  options.blockSamples = block;
  return options;
}

TEST(PipelineChannels, EveryChannelOfAFileIsItsOneChannelRun) {
  const test::TempDir dir;
  const std::string in = dir.file("in.npy");
  writeChannels(in, spansOf(randomChannels(2, 150)));
  const Pipeline chain = parseChain("mean 5 mode wrap; median 3");
  const BackendList engines = cpuEngines();
  std::vector<std::vector<double>> expected;
  for (std::size_t c = 1; c <= 2; ++c) {
    FileSource one{in, {}};
    one.read.oneChannel = true;
    one.read.channel = c;
    const PipelineReport report = runPipeline(chain, one, MemorySink{}, engines, streamed(Streaming::never, 1 << 19));
    ASSERT_EQ(report.output.size(), 1u);
    expected.push_back(report.output.front().toVector());
  }
  EXPECT_NE(expected[0], expected[1]);
  for (const auto& [streaming, block] : {std::pair{Streaming::never, 1 << 19}, std::pair{Streaming::always, 1},
                                         std::pair{Streaming::always, 7}}) {
    const PipelineReport report = runPipeline(chain, FileSource{in, {}}, MemorySink{}, engines, streamed(streaming, block));
    EXPECT_EQ(report.plan.stream, streaming == Streaming::always);
    ASSERT_EQ(report.channels.size(), 2u);
    EXPECT_EQ(report.channels[1].stages.size(), 2u);
    ASSERT_EQ(report.output.size(), 2u);
    for (std::size_t c = 0; c < 2; ++c) EXPECT_EQ(report.output[c].toVector(), expected[c]) << "block " << block;
    // Into a file: the channels kept, the same bits.
    const std::string out = dir.file("out-" + std::to_string(block) + ".npy");
    ASSERT_TRUE(runPipeline(chain, FileSource{in, {}}, FileSink{out, {}}, engines, streamed(streaming, block)).written);
    const Channels written = readChannels(out);
    ASSERT_EQ(written.channels.size(), 2u);
    for (std::size_t c = 0; c < 2; ++c) EXPECT_EQ(written.channels[c].toVector(), expected[c]) << "block " << block;
  }
}

TEST(PipelineChannels, ChannelsInMemoryStreamIntoOneFile) {
  const test::TempDir dir;
  const auto planar = randomChannels(3, 100);
  const Pipeline chain = parseChain("median 5; mean 3");
  const BackendList engines = cpuEngines();
  const ChannelSource source{spansOf(planar), 1000.0};
  ASSERT_TRUE(runPipeline(chain, source, FileSink{dir.file("memory.wav"), {}}, engines, streamed(Streaming::never, 64)).written);
  ASSERT_TRUE(runPipeline(chain, source, FileSink{dir.file("streamed.wav"), {}}, engines, streamed(Streaming::always, 7)).written);
  EXPECT_TRUE(test::readFile(dir.file("memory.wav")) == test::readFile(dir.file("streamed.wav")));
  EXPECT_EQ(readChannels(dir.file("streamed.wav")).channels.size(), 3u);
}

// Channels in memory into memory run in memory on their own (streaming would only copy them block
// by block, and cut a GPU engine's work into blocks); into a file they stream, as before.
TEST(PipelineChannels, ChannelsInMemoryIntoMemoryRunInMemory) {
  const test::TempDir dir;
  const auto planar = randomChannels(2, 500);
  const Pipeline chain = parseChain("median 5; mean 3");
  const BackendList engines = cpuEngines();
  const ChannelSource source{spansOf(planar), 1000.0};
  const PipelineReport whole = runPipeline(chain, source, MemorySink{}, engines, streamed(Streaming::automatic, 64));
  EXPECT_FALSE(whole.plan.stream) << whole.plan.why;
  std::vector<std::vector<double>> results(2, std::vector<double>(500));
  const PipelineReport into =
      runPipeline(chain, source, MemorySink{{results[0], results[1]}}, engines, streamed(Streaming::automatic, 64));
  EXPECT_FALSE(into.plan.stream) << into.plan.why;
  const PipelineReport blocks = runPipeline(chain, source, MemorySink{}, engines, streamed(Streaming::always, 64));
  EXPECT_TRUE(blocks.plan.stream);
  for (std::size_t c = 0; c < 2; ++c) {
    EXPECT_EQ(whole.output[c].toVector(), blocks.output[c].toVector());
    EXPECT_EQ(results[c], blocks.output[c].toVector());
  }
  EXPECT_TRUE(runPipeline(chain, source, FileSink{dir.file("out.npy"), {}}, engines, streamed(Streaming::automatic, 64))
                  .plan.stream);
}

// A streamed chain with Butterworth sections (stage `sections`, on cpu-serial; zero phase: spooled,
// so each channel reads its own pass) on a stereo WAV: each channel the bits of its one-channel run, into memory, into a file and
// (channels in memory) into the caller's arrays; the sections stage on cpu-serial, reported as such.
void expectStreamedChannelsAreTheirOwnRuns(const std::string& text, std::size_t sections) {
  SCOPED_TRACE(text);
  const test::TempDir dir;
  const std::string in = dir.file("in.wav");
  auto planar = randomChannels(2, 300);
  for (auto& channel : planar) {
    for (double& v : channel) v = static_cast<float>(v / 8);  // WAV holds float32 exactly
  }
  writeChannels(in, spansOf(planar), WriteOptions{FileFormat::wav});
  const Pipeline chain = parseChain(text);
  const BackendList engines = cpuEngines();
  std::vector<std::vector<double>> expected;
  for (std::size_t c = 1; c <= 2; ++c) {
    FileSource one{in, {}};
    one.read.oneChannel = true;
    one.read.channel = c;
    const PipelineReport report = runPipeline(chain, one, MemorySink{}, engines, streamed(Streaming::always, 64));
    ASSERT_TRUE(report.plan.stream);
    ASSERT_EQ(report.output.size(), 1u);
    expected.push_back(report.output.front().toVector());
  }
  EXPECT_NE(expected[0], expected[1]);
  for (const std::size_t block : {1, 7, 64}) {
    SCOPED_TRACE("blocks of " + std::to_string(block));
    const PipelineReport report = runPipeline(chain, FileSource{in, {}}, MemorySink{}, engines, streamed(Streaming::always, block));
    EXPECT_TRUE(report.plan.stream);
    ASSERT_EQ(report.channels.size(), 2u);
    ASSERT_EQ(report.output.size(), 2u);
    for (std::size_t c = 0; c < 2; ++c) {
      EXPECT_EQ(report.output[c].toVector(), expected[c]);
      EXPECT_EQ(report.channels[c].stages[sections].engine, "cpu-serial");
      EXPECT_FALSE(report.channels[c].stages[sections].verified);
      EXPECT_TRUE(report.channels[c].stages[1 - sections].verified);
    }
    const std::string out = dir.file("out-" + std::to_string(block) + ".npy");
    ASSERT_TRUE(runPipeline(chain, FileSource{in, {}}, FileSink{out, {}}, engines, streamed(Streaming::always, block)).written);
    const Channels written = readChannels(out);
    ASSERT_EQ(written.channels.size(), 2u);
    for (std::size_t c = 0; c < 2; ++c) EXPECT_EQ(written.channels[c].toVector(), expected[c]);
  }
  std::vector<std::vector<double>> results(2, std::vector<double>(300));
  const MemorySink into{{results[0], results[1]}};
  const PipelineReport report =
      runPipeline(chain, ChannelSource{spansOf(planar), readChannels(in).sampleRate}, into, engines, streamed(Streaming::always, 7));
  EXPECT_TRUE(report.plan.stream);
  EXPECT_TRUE(report.output.empty());
  EXPECT_EQ(results, expected);
}

TEST(PipelineChannels, StreamedSectionsChainIsEachChannelsOwnRun) {
  expectStreamedChannelsAreTheirOwnRuns("butter 2,0.2 zero-phase; median 3", 0);
  expectStreamedChannelsAreTheirOwnRuns("median 3; butter 2,0.2", 1);  // causal: the channels share one pass
}

TEST(PipelineChannels, AnOutputThatHoldsOneChannelIsRefusedBeforeAnyWork) {
  const test::TempDir dir;
  const std::string in = dir.file("in.npy");
  writeChannels(in, spansOf(randomChannels(2, 50)));
  bool planned = false;
  PipelineObserver observer;
  observer.onPlan = [&](const StreamingPlan&) { planned = true; };
  for (const Streaming streaming : {Streaming::never, Streaming::always}) {
    try {
      runPipeline(parseChain("median 3"), FileSource{in, {}}, FileSink{dir.file("out.txt"), {}}, cpuEngines(),
                  streamed(streaming, 16), observer);
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("out.txt: the text format holds one channel, not 2"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(planned);
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.txt")));
}

}  // namespace
}  // namespace siglab

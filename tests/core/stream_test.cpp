// Streaming reads, writes, filtering and statistics against the in-memory path, byte for byte,
// with windows and blocks small enough that every join is crossed many times.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sndfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <filesystem>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/statistics.hpp"
#include "siglab/stream_filter.hpp"
#include "siglab/stream_statistics.hpp"
#include "siglab/taps.hpp"
#include "memory_limit.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

void writeStereoWav(const std::string& path, const std::vector<double>& left, const std::vector<double>& right) {
  SF_INFO info{};
  info.samplerate = 22050;
  info.channels = 2;
  info.format = SF_FORMAT_WAV | SF_FORMAT_DOUBLE;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  ASSERT_NE(file, nullptr);
  std::vector<double> frames;
  for (std::size_t i = 0; i < left.size(); ++i) frames.insert(frames.end(), {left[i], right[i]});
  sf_writef_double(file, frames.data(), static_cast<sf_count_t>(left.size()));
  sf_close(file);
}

// Every sample of `path` read through a stream in reads of `readSize`.
std::vector<double> readAllStreamed(const std::string& path, const ReadOptions& options, std::size_t windowBytes,
                                    std::size_t readSize) {
  const auto stream = openSampleStream(path, options, windowBytes);
  std::vector<double> all, buffer(readSize);
  while (const std::size_t n = stream->read(buffer)) all.insert(all.end(), buffer.begin(), buffer.begin() + n);
  return all;
}

std::string errorOf(const std::function<void()>& work) {
  try {
    work();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

struct InputCase {
  std::string name;
  ReadOptions options;
};

// The same random signal in every input format the stream reads.
std::vector<InputCase> writeInputs(const test::TempDir& dir, const std::vector<double>& x) {
  std::vector<InputCase> cases;
  writeSignal(dir.file("in.txt"), x);
  cases.push_back({"in.txt", {}});
  std::string csv = "# a comment\r\ntime,value\r\n";
  for (std::size_t i = 0; i < x.size(); ++i) {
    char line[64];
    std::snprintf(line, sizeof line, "%zu,%.17g\r\n%s", i, x[i], i % 5 == 0 ? "\n" : "");
    csv += line;
  }
  test::writeFile(dir.file("in.csv"), csv);
  ReadOptions column;
  column.column = 2;
  column.skipHeader = true;
  cases.push_back({"in.csv", column});
  writeSignal(dir.file("in.npy"), x);
  cases.push_back({"in.npy", {}});
  std::string raw = "HEADER";
  for (double v : x) {
    const auto f = static_cast<float>(v);
    raw.append(reinterpret_cast<const char*>(&f), sizeof f);
  }
  test::writeFile(dir.file("in.f32"), raw);
  ReadOptions rawOptions;
  rawOptions.rawType = SampleType::f32;
  rawOptions.rawOffset = 6;
  cases.push_back({"in.f32", rawOptions});
  writeStereoWav(dir.file("in.wav"), std::vector<double>(x.size(), 0.25), x);
  ReadOptions right;
  right.channel = 2;
  cases.push_back({"in.wav", right});
  return cases;
}

TEST(SampleStream, ReadsWhatReadSignalReadsInEveryFormat) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  for (std::size_t n : {1u, 2u, 7u, 1000u, 4099u}) {
    const std::vector<double> x = test::randomSignal(n, rng);
    for (const InputCase& input : writeInputs(dir, x)) {
      const Signal whole = readSignal(dir.file(input.name), input.options);
      for (std::size_t window : {1u, 7u, 100u, 1u << 20}) {
        if (window < 100 && n > 7) continue;  // each window is a parallel parse: keep the count small
        for (std::size_t readSize : {1u, 3u, 1024u}) {
          SCOPED_TRACE(input.name + " n=" + std::to_string(n) + " window=" + std::to_string(window) +
                       " read=" + std::to_string(readSize));
          EXPECT_EQ(readAllStreamed(dir.file(input.name), input.options, window, readSize), whole.samples);
        }
      }
      const auto stream = openSampleStream(dir.file(input.name), input.options);
      EXPECT_EQ(stream->sampleRate(), whole.sampleRate) << input.name;
      if (stream->knownSize()) {
        EXPECT_EQ(*stream->knownSize(), n) << input.name;
      }
      for (std::size_t count : {0u, 1u, 5u, 5000u}) {
        const std::vector<double> tail = readSignalTail(dir.file(input.name), input.options, count);
        const std::size_t expected = std::min<std::size_t>(count, n);
        EXPECT_EQ(tail, std::vector<double>(whole.samples.end() - static_cast<std::ptrdiff_t>(expected), whole.samples.end()))
            << input.name << " tail " << count;
      }
    }
  }
}

TEST(SampleStream, ErrorsAreReadSignalsErrorsWithTheLineCountedFromTheFileStart) {
  test::TempDir dir;
  std::string text = "# header comment\n";
  for (int i = 0; i < 5000; ++i) text += std::to_string(i) + (i % 7 == 0 ? "\n\n" : "\n");
  text += "0.1x\n1\n";
  test::writeFile(dir.file("bad.txt"), text);
  const std::string expected = errorOf([&] { readSignal(dir.file("bad.txt")); });
  EXPECT_NE(expected.find("bad.txt:5717:1: expected a number, found \"0.1x\""), std::string::npos) << expected;
  for (std::size_t window : {1u, 64u, 4096u}) {
    EXPECT_EQ(errorOf([&] { readAllStreamed(dir.file("bad.txt"), {}, window, 100); }), expected);
  }
  std::vector<double> values(300, 1.0);
  values[257] = std::nan("");
  writeSignal(dir.file("nan.npy"), values);
  EXPECT_EQ(errorOf([&] { readAllStreamed(dir.file("nan.npy"), {}, 64, 10); }),
            errorOf([&] { readSignal(dir.file("nan.npy")); }));
  test::writeFile(dir.file("empty.txt"), "");
  test::writeFile(dir.file("blank.txt"), "\n\n# nothing\n");
  for (const char* name : {"empty.txt", "blank.txt"}) {
    EXPECT_EQ(errorOf([&] { readAllStreamed(dir.file(name), {}, 4, 10); }), errorOf([&] { readSignal(dir.file(name)); }));
  }
}

FilterSpec randomSpec(std::size_t window, BoundaryMode mode, std::mt19937_64& rng) {
  FilterSpec spec;
  spec.taps = test::randomSignal(window, rng, 1.0);
  spec.mode = mode;
  return spec;
}

// The stream's output file against writeSignal of the whole signal filtered in memory.
void expectStreamedEqualsInMemory(const test::TempDir& dir, const InputCase& input, const FilterSpec& spec,
                                  std::size_t block, const std::string& outName, const BlockFilter& filter) {
  const Signal whole = readSignal(dir.file(input.name), input.options);
  std::vector<double> expected(whole.samples.size());
  filter(whole.samples, spec, expected);
  WriteOptions write;
  write.durability = Durability::buffered;
  write.sampleRate = whole.sampleRate.value_or(48000.0);
  writeSignal(dir.file("expected-" + outName), expected, write);

  const auto stream = openSampleStream(dir.file(input.name), input.options, 2048);
  const auto sink = openSampleSink(dir.file(outName), write, stream->knownSize());
  StreamFilterOptions options;
  options.blockSamples = block;
  const StreamFilterResult result = streamFilter(*stream, dir.file(input.name), input.options, spec, filter, *sink, options);
  sink->commit();
  EXPECT_EQ(result.samples, whole.samples.size());
  EXPECT_TRUE(test::readFile(dir.file(outName)) == test::readFile(dir.file("expected-" + outName)))
      << input.name << " -> " << outName << " W=" << spec.window() << " mode=" << toString(spec.mode)
      << " block=" << block;
}

const BlockFilter kSerial = [](std::span<const double> in, const FilterSpec& spec, std::span<double> out) {
  filterSerial(in, spec, out);
};
const BlockFilter kParallel = [](std::span<const double> in, const FilterSpec& spec, std::span<double> out) {
  filterParallel(in, spec, out);
};

TEST(StreamFilter, ByteIdenticalToInMemoryForEveryModeBlockAndOutputFormat) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::vector<double> x = test::randomSignal(1001, rng);
  const std::vector<InputCase> inputs = writeInputs(dir, x);
  for (BoundaryMode mode : {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror, BoundaryMode::Nearest,
                            BoundaryMode::Wrap}) {
    for (std::size_t window : {1u, 5u, 9u}) {
      const FilterSpec spec = randomSpec(window, mode, rng);
      for (std::size_t block : {std::size_t{1}, window - 1 + (window == 1), window, std::size_t{7}, std::size_t{333},
                                std::size_t{5000}}) {
        expectStreamedEqualsInMemory(dir, inputs[0], spec, block, "out.txt", kSerial);
      }
      expectStreamedEqualsInMemory(dir, inputs[1], spec, 10, "out.npy", kParallel);
      expectStreamedEqualsInMemory(dir, inputs[2], spec, 10, "out.raw", kParallel);
      expectStreamedEqualsInMemory(dir, inputs[3], spec, 10, "out.txt", kParallel);
      expectStreamedEqualsInMemory(dir, inputs[4], spec, 10, "out.wav", kSerial);
    }
  }
}

TEST(StreamFilter, ShortSignalsAndWideWindowsGoThroughWhole) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  for (std::size_t n : {1u, 2u, 5u, 40u}) {
    const std::vector<InputCase> inputs = writeInputs(dir, test::randomSignal(n, rng));
    for (BoundaryMode mode : {BoundaryMode::Reflect, BoundaryMode::Mirror, BoundaryMode::Wrap}) {
      for (std::size_t window : {3u, 21u, 101u}) {
        expectStreamedEqualsInMemory(dir, inputs[0], randomSpec(window, mode, rng), 2, "short.txt", kSerial);
      }
    }
  }
}

TEST(StreamFilter, ABlockFarLongerThanTheSignalCostsTheSignalsSize) {
  // --stream-block 2^30 on 100 samples once allocated its 8 GiB first fill up front.
  test::TempDir dir;
  std::mt19937_64 rng(5);
  const std::vector<InputCase> inputs = writeInputs(dir, test::randomSignal(100, rng));
  for (const InputCase& input : {inputs[0], inputs[2]}) {  // text (size unknown) and .npy
    EXPECT_TRUE(test::succeedsWithin(test::kBoundedAddressSpace, [&] {
      const auto stream = openSampleStream(dir.file(input.name), input.options);
      const auto sink = openSampleSink(dir.file("out.txt"));
      StreamFilterOptions options;
      options.blockSamples = std::size_t{1} << 30;
      const StreamFilterResult result =
          streamFilter(*stream, dir.file(input.name), input.options, makeMeanFilter(5), kSerial, *sink, options);
      sink->commit();
      return result.samples == 100;
    })) << input.name;
  }
}

TEST(StreamFilter, AFailureDeepInTheInputLeavesNothingBehind) {
  test::TempDir dir;
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i % 97) + "\n";
  text += "oops\n";
  test::writeFile(dir.file("bad.txt"), text);
  test::writeFile(dir.file("out.txt"), "the old result\n");
  const FilterSpec spec = makeMeanFilter(5, BoundaryMode::Wrap);
  const std::string message = errorOf([&] {
    const auto stream = openSampleStream(dir.file("bad.txt"), {}, 1000);
    const auto sink = openSampleSink(dir.file("out.txt"));
    StreamFilterOptions options;
    options.blockSamples = 100;
    streamFilter(*stream, dir.file("bad.txt"), {}, spec, kParallel, *sink, options);
    sink->commit();
  });
  EXPECT_NE(message.find("bad.txt:20001:1: expected a number, found \"oops\""), std::string::npos) << message;
  EXPECT_EQ(test::readFile(dir.file("out.txt")), "the old result\n");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 2u);  // bad.txt and out.txt: no temporary
}

TEST(StreamFilter, CancellationStopsBetweenBlocks) {
  test::TempDir dir;
  std::mt19937_64 rng(3);
  writeSignal(dir.file("in.npy"), test::randomSignal(100000, rng));
  std::atomic<bool> cancel{false};
  Progress progress;
  progress.cancelFlag = &cancel;
  int blocks = 0;
  const BlockFilter counting = [&](std::span<const double> in, const FilterSpec& spec, std::span<double> out) {
    if (++blocks == 3) cancel = true;
    filterSerial(in, spec, out);
  };
  const auto stream = openSampleStream(dir.file("in.npy"));
  const auto sink = openSampleSink(dir.file("out.npy"), {}, stream->knownSize());
  StreamFilterOptions options;
  options.blockSamples = 1000;
  EXPECT_THROW(streamFilter(*stream, dir.file("in.npy"), {}, makeMeanFilter(3), counting, *sink, options, progress),
               Cancelled);
  EXPECT_EQ(blocks, 3);
}

// A write that fails on the writer thread (a full disk) stops the stream with its error, after
// the blocks before it were written in order.
TEST(StreamFilter, AWriteErrorOnTheWriterThreadIsRethrownInOrder) {
  test::TempDir dir;
  std::mt19937_64 rng(5);
  const std::vector<double> x = test::randomSignal(20000, rng);
  writeSignal(dir.file("in.npy"), x);
  struct FailingSink final : SampleSink {
    std::vector<double> written;
    int writes = 0;
    void write(std::span<const double> values) override {
      if (++writes == 7) throw InputError("out.raw", "write failed: No space left on device");
      written.insert(written.end(), values.begin(), values.end());
    }
    void commit() override {}
  } sink;
  const auto stream = openSampleStream(dir.file("in.npy"));
  StreamFilterOptions options;
  options.blockSamples = 100;
  const FilterSpec spec = makeMeanFilter(5);
  try {
    streamFilter(*stream, dir.file("in.npy"), {}, spec, kParallel, sink, options);
    ADD_FAILURE() << "the write error was lost";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
  }
  std::vector<double> expected(x.size());
  filterSerial(x, spec, expected);
  ASSERT_EQ(sink.written.size(), 600u);
  EXPECT_TRUE(std::equal(sink.written.begin(), sink.written.end(), expected.begin()));
}

TEST(StatisticsAccumulator, OneBlockIsStatisticsParallelAndBlocksStayWithinItsBounds) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  for (std::size_t n : {1u, 2047u, 100003u}) {
    std::vector<double> x = test::randomSignal(n, rng, 1e-3);
    for (double& v : x) v += 1e9;
    StatisticsAccumulator whole;
    whole.add(x);
    const Statistics p = statisticsParallel(x), w = whole.result();
    EXPECT_EQ(w.sum, p.sum);
    EXPECT_EQ(w.sumsq, p.sumsq);
    EXPECT_EQ(w.variance, p.variance);
    EXPECT_EQ(w.minIndex, p.minIndex);
    EXPECT_EQ(w.maxIndex, p.maxIndex);

    StatisticsAccumulator blocks;
    std::uniform_int_distribution<std::size_t> size(0, 5000);
    for (std::size_t at = 0; at < n;) {
      const std::size_t len = std::min(n - at, size(rng));
      blocks.add(std::span(x).subspan(at, len));
      at += len;
    }
    const Statistics b = blocks.result(), s = statisticsSerial(x);
    const double maxAbs = 1e9 + 1e-3, unit = 0x1p-53;
    EXPECT_EQ(b.count, s.count);
    EXPECT_LE(std::fabs(b.sum - s.sum), 2 * kStatisticsSumBound * unit * (2.0 * static_cast<double>(n) * maxAbs));
    EXPECT_LE(std::fabs(b.variance - s.variance), kStatisticsVarianceRelativeBound * s.variance + 1e-30);
    EXPECT_EQ(b.min, s.min);
    EXPECT_EQ(b.minIndex, s.minIndex);
    EXPECT_EQ(b.max, s.max);
    EXPECT_EQ(b.maxIndex, s.maxIndex);
  }
  EXPECT_TRUE(std::isnan(StatisticsAccumulator().result().mean));
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

TEST(StreamStatistics, RangesOfAStreamedFileMatchTheInMemoryStatistics) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::vector<double> x = test::randomSignal(10007, rng);
  writeSignal(dir.file("x.npy"), x);
  for (SampleRange range : {SampleRange{}, SampleRange{0, 1}, SampleRange{5000, 10007}, SampleRange{123, 4567},
                            SampleRange{10007, 10007}}) {
    const auto stream = openSampleStream(dir.file("x.npy"), {}, 4096);
    const Statistics s = streamStatistics(*stream, range, {}, 1000), p = statisticsSerial(x, range);
    EXPECT_EQ(s.count, p.count);
    if (p.count == 0) {
      EXPECT_TRUE(std::isnan(s.mean));
      continue;
    }
    EXPECT_NEAR(s.mean, p.mean, 1e-12);
    EXPECT_NEAR(s.variance, p.variance, 1e-10 * p.variance);
    EXPECT_EQ(s.min, p.min);
    EXPECT_EQ(s.minIndex, p.minIndex);
    EXPECT_EQ(s.max, p.max);
    EXPECT_EQ(s.maxIndex, p.maxIndex);
  }
  for (SampleRange bad : {SampleRange{0, 10008}, SampleRange{20000, SampleRange{}.end}}) {
    std::string streamed, inMemory;
    try {
      const auto stream = openSampleStream(dir.file("x.npy"));
      streamStatistics(*stream, bad);
    } catch (const std::out_of_range& e) {
      streamed = e.what();
    }
    try {
      statisticsSerial(x, bad);
    } catch (const std::out_of_range& e) {
      inMemory = e.what();
    }
    EXPECT_EQ(streamed, inMemory);
    EXPECT_FALSE(streamed.empty());
  }
}

// A range of a FIFO reads its start only, and the FIFO keeps a reader while its stream may be read
// on: its writer is not cut off (EPIPE) between the stream's reads further.
TEST(StreamStatistics, ARangeOfAFifoReadsItsStartAndKeepsItsWriterConnected) {
  test::TempDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The test writes: connected through a read-write end first (no wait), which it closes once the
  // lines are in the pipe.
  const int both = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  ASSERT_GE(both, 0);
  ASSERT_GE(writer, 0);
  ::fcntl(writer, F_SETPIPE_SZ, 1 << 20);
  std::string lines;
  for (int i = 0; i < 150000; ++i) lines += std::to_string(i % 10) + "\n";  // 300 KB: several reads further
  ASSERT_EQ(::write(writer, lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
  ::close(both);
  const SampleRange range{10, 100000};
  const auto previous = std::signal(SIGPIPE, SIG_IGN);  // a write with no reader fails instead of ending the test
  const Statistics streamed = streamStatistics(fifo, {}, range);
  const bool cutOff = ::write(writer, "1\n", 2) < 0 && errno == EPIPE;
  std::signal(SIGPIPE, previous);
  ::close(writer);
  EXPECT_FALSE(cutOff);
  test::writeFile(dir.file("same.txt"), lines);
  const Statistics file = streamStatistics(dir.file("same.txt"), {}, range);
  EXPECT_EQ(streamed.count, 99990u);
  EXPECT_EQ(streamed.count, file.count);
  EXPECT_EQ(streamed.sum, file.sum);
  EXPECT_EQ(streamed.variance, file.variance);
  EXPECT_EQ(streamed.maxIndex, file.maxIndex);
}

}  // namespace
}  // namespace siglab

#include "siglab/io/mapped_signal.hpp"

namespace siglab {
namespace {

std::size_t filesIn(const std::string& folder) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(folder)) ++n;
  return n;
}

TEST(MappedSignal, Float64FilesAreMappedAsTheyAreAndOthersThroughAContentKeyedCache) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::string cache = dir.file("cache");
  const std::vector<InputCase> inputs = writeInputs(dir, test::randomSignal(3001, rng));
  writeSignal(dir.file("in.f64"), readSignal(dir.file("in.npy")).samples, WriteOptions{FileFormat::raw});
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  const auto direct = MappedSignal::open(dir.file("in.f64"), raw, cache);
  EXPECT_FALSE(direct->fromCache());
  EXPECT_TRUE(std::ranges::equal(direct->samples(), readSignal(dir.file("in.f64"), raw).samples));
  EXPECT_FALSE(MappedSignal::open(dir.file("in.npy"), {}, cache)->fromCache());
  for (const InputCase& input : inputs) {
    if (input.name == "in.npy") continue;
    const Signal whole = readSignal(dir.file(input.name), input.options);
    const auto mapped = MappedSignal::open(dir.file(input.name), input.options, cache);
    const bool wav = input.name == "in.wav";  // converted as read from its mapping, no cache
    EXPECT_EQ(mapped->fromCache(), !wav) << input.name;
    EXPECT_EQ(mapped->converted(), wav) << input.name;
    const auto samplesOf = [&mapped] {
      std::vector<double> all(mapped->size(), std::numeric_limits<double>::quiet_NaN());
      mapped->read(0, all);
      return all;
    };
    EXPECT_TRUE(std::ranges::equal(samplesOf(), whole.samples)) << input.name;
    EXPECT_EQ(mapped->sampleRate(), whole.sampleRate) << input.name;
    mapped->release(0, mapped->size());
    EXPECT_TRUE(std::ranges::equal(samplesOf(), whole.samples)) << input.name << " after release";
    if (!wav) EXPECT_TRUE(cacheAsFloat64(dir.file(input.name), input.options, cache).reused) << input.name;
  }
  EXPECT_EQ(filesIn(cache), 3u);  // text, CSV, f32 raw
  // Another content (same size) or other read options make another cache.
  std::string text = test::readFile(dir.file("in.txt"));
  text[text.size() - 2] = text[text.size() - 2] == '1' ? '2' : '1';
  test::writeFile(dir.file("in.txt"), text);
  EXPECT_FALSE(cacheAsFloat64(dir.file("in.txt"), {}, cache).reused);
  ReadOptions allowNaN;
  allowNaN.allowNonFinite = true;
  EXPECT_FALSE(cacheAsFloat64(dir.file("in.txt"), allowNaN, cache).reused);
  EXPECT_EQ(filesIn(cache), 5u);
  // Over the size limit, the least recently used go first.
  const CachedSignal newest = cacheAsFloat64(dir.file("in.csv"), inputs[1].options, cache, {}, 1);
  EXPECT_TRUE(newest.reused);
  cacheAsFloat64(dir.file("in.txt"), {}, cache, {}, 3001 * sizeof(double));
  EXPECT_EQ(filesIn(cache), 1u);
}

TEST(MappedSignal, AMalformedFileLeavesNoCacheBehind) {
  test::TempDir dir;
  test::writeFile(dir.file("bad.txt"), "1\n2\nthree\n");
  const std::string message = errorOf([&] { MappedSignal::open(dir.file("bad.txt"), {}, dir.file("cache")); });
  EXPECT_NE(message.find("bad.txt:3:1: expected a number, found \"three\""), std::string::npos) << message;
  EXPECT_EQ(filesIn(dir.file("cache")), 0u);
}

}  // namespace
}  // namespace siglab

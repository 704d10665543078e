// The streamed apply against the in-memory apply, byte for byte, for every input and output format,
// boundary mode and CPU engine, with blocks small enough that every join is crossed many times.
#include "siglab/stream_apply.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>

#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

BackendList cpuEngines() {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  engines.push_back(std::make_unique<CpuRunningBackend>());
  engines.push_back(std::make_unique<CpuFftBackend>());
  return engines;
}

struct Input {
  std::string name;
  ReadOptions options;
};

// The same random signal as text, a CSV column, .npy, raw float64 behind a header, and WAV.
std::vector<Input> writeInputs(const test::TempDir& dir, const std::vector<double>& x) {
  writeSignal(dir.file("in.txt"), x);
  std::string csv = "t,value\n";
  for (std::size_t i = 0; i < x.size(); ++i) {
    char line[64];
    std::snprintf(line, sizeof line, "%zu,%.17g\n", i, x[i]);
    csv += line;
  }
  test::writeFile(dir.file("in.csv"), csv);
  ReadOptions column;
  column.column = 2;
  column.skipHeader = true;
  writeSignal(dir.file("in.npy"), x);
  std::string raw = "HDR";
  raw.append(reinterpret_cast<const char*>(x.data()), x.size() * sizeof(double));
  test::writeFile(dir.file("in.f64"), raw);
  ReadOptions rawOptions;
  rawOptions.rawType = SampleType::f64;
  rawOptions.rawOffset = 3;
  writeSignal(dir.file("in.wav"), x, WriteOptions{FileFormat::wav});
  return {{"in.txt", {}}, {"in.csv", column}, {"in.npy", {}}, {"in.f64", rawOptions}, {"in.wav", {}}};
}

Job jobFor(const test::TempDir& dir, const Input& input, const FilterSpec& spec, SampleType type) {
  Job job;
  job.input = dir.file(input.name);
  job.read = input.options;
  job.spec = spec;
  job.sampleType = type;
  job.verifyRandom = 50;
  return job;
}

WriteOptions writeFor(const std::optional<double>& rate) {
  WriteOptions write;
  write.durability = Durability::buffered;
  write.sampleRate = rate.value_or(write.sampleRate);
  return write;
}

// The file the in-memory apply writes, and the verification it made.
ApplyResult applyInMemory(FilterBackend& engine, const Job& job, const std::string& out) {
  const Signal signal = readSignal(job.input, job.read);
  ApplyResult r = applyFilter(engine, signal.samples, job);
  writeSignal(out, r.output, writeFor(signal.sampleRate));
  return r;
}

StreamApplyResult applyStreamed(FilterBackend& engine, const Job& job, const std::string& out, std::size_t block) {
  const auto in = openSampleStream(job.input, job.read, 1024);
  const auto sink = openSampleSink(out, writeFor(in->sampleRate()), in->knownSize());
  StreamFilterOptions options;
  options.blockSamples = block;
  StreamApplyResult r = streamApply(engine, *in, job, *sink, options);
  sink->commit();
  return r;
}

FilterSpec randomSpec(std::size_t window, BoundaryMode mode, std::mt19937_64& rng) {
  FilterSpec spec;
  spec.taps = test::randomSignal(window, rng, 1.0);
  spec.mode = mode;
  return spec;
}

constexpr BoundaryMode kModes[] = {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror,
                                   BoundaryMode::Nearest, BoundaryMode::Wrap};

TEST(StreamApply, ExactEnginesWriteTheInMemoryBytesForEveryModeBlockAndSampleType) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::vector<Input> inputs = writeInputs(dir, test::randomSignal(403, rng));
  const BackendList engines = cpuEngines();
  for (const auto& engine : engines) {
    if (engine->tolerance(makeMeanFilter(5), 1.0) != 0.0) continue;  // inexact: the next test
    for (BoundaryMode mode : kModes) {
      for (std::size_t window : {1u, 5u, 9u}) {
        const FilterSpec spec = randomSpec(window, mode, rng);
        for (SampleType type : {SampleType::f64, SampleType::f32}) {
          const Job job = jobFor(dir, inputs[0], spec, type);
          const ApplyResult whole = applyInMemory(*engine, job, dir.file("memory.txt"));
          for (std::size_t block : {std::size_t{1}, std::max<std::size_t>(window - 1, 1), window, std::size_t{7}, std::size_t{1000}}) {
            SCOPED_TRACE(std::string(engine->name()) + " " + std::string(toString(mode)) + " W=" + std::to_string(window) +
                         " block=" + std::to_string(block) + (type == SampleType::f32 ? " f32" : " f64"));
            const StreamApplyResult s = applyStreamed(*engine, job, dir.file("stream.txt"), block);
            EXPECT_EQ(s.samples, 403u);
            EXPECT_TRUE(s.result.verification.passed());
            EXPECT_GE(s.result.verification.checked, std::min<std::size_t>(403, 2 * window));
            EXPECT_TRUE(test::readFile(dir.file("stream.txt")) == test::readFile(dir.file("memory.txt")));
            if (block == 1000) {  // one block: the in-memory checks, exactly
              EXPECT_EQ(s.result.verification.checked, whole.verification.checked);
            }
          }
        }
      }
    }
  }
}

TEST(StreamApply, EveryInputFormatToEveryOutputFormatIsByteIdentical) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::vector<Input> inputs = writeInputs(dir, test::randomSignal(257, rng));
  CpuParallelBackend engine;
  for (const Input& input : inputs) {
    for (const char* out : {"out.txt", "out.npy", "out.raw", "out.wav"}) {
      for (BoundaryMode mode : {BoundaryMode::Wrap, BoundaryMode::Mirror}) {
        SCOPED_TRACE(input.name + " -> " + out + " " + std::string(toString(mode)));
        const Job job = jobFor(dir, input, randomSpec(7, mode, rng), SampleType::f64);
        applyInMemory(engine, job, dir.file(std::string("memory-") + out));
        applyStreamed(engine, job, dir.file(out), 10);
        EXPECT_TRUE(test::readFile(dir.file(out)) == test::readFile(dir.file(std::string("memory-") + out)));
      }
    }
  }
}

TEST(StreamApply, InexactEnginesStayWithinTheirToleranceOfTheReference) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::vector<double> x = test::randomSignal(2001, rng);
  const std::vector<Input> inputs = writeInputs(dir, x);
  const BackendList engines = cpuEngines();
  for (const auto& engine : engines) {
    for (BoundaryMode mode : kModes) {
      const FilterSpec spec = makeMeanFilter(17, mode);
      if (!engine->whyNot(spec, SampleType::f64).empty() || engine->tolerance(spec, 1.0) == 0.0) continue;
      std::vector<double> reference(x.size());
      filterSerial(x, spec, reference);
      const double tolerance = engine->tolerance(spec, 4.0);
      for (std::size_t block : {std::size_t{16}, std::size_t{333}}) {
        SCOPED_TRACE(std::string(engine->name()) + " " + std::string(toString(mode)) + " block=" + std::to_string(block));
        const StreamApplyResult s = applyStreamed(*engine, jobFor(dir, inputs[2], spec, SampleType::f64), dir.file("s.npy"), block);
        EXPECT_TRUE(s.result.verification.passed());
        const std::vector<double> got = readSignal(dir.file("s.npy")).samples.toVector();
        ASSERT_EQ(got.size(), x.size());
        for (std::size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(got[i], reference[i], tolerance) << "at " << i;
      }
    }
  }
}

// cpu-parallel with one output of one block wrong: per-block verification must see it.
class OneWrongOutput final : public FilterBackend {
 public:
  explicit OneWrongOutput(std::size_t call) : call_(call) {}
  std::string_view name() const override { return "one-wrong"; }
  std::string_view description() const override { return "test"; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return {}; }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions& o,
                    const Progress& p) override {
    FilterPass pass = exact_.filter(in, spec, out, o, p);
    if (++calls_ == call_) out[spec.radius()] += 1e-9;  // the first output the block keeps: right after the join
    return pass;
  }
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out, const RunOptions& o,
                    const Progress& p) override {
    return exact_.filter(in, spec, out, o, p);
  }

 private:
  CpuParallelBackend exact_;
  std::size_t call_;
  std::size_t calls_ = 0;
};

TEST(StreamApply, VerificationFindsAWrongOutputAtABlockJoinAndNamesItsSignalIndex) {
  std::mt19937_64 rng(5);
  test::TempDir dir;
  const std::vector<Input> inputs = writeInputs(dir, test::randomSignal(1000, rng));
  OneWrongOutput engine(3);
  Job job = jobFor(dir, inputs[2], makeMeanFilter(5, BoundaryMode::Reflect), SampleType::f64);
  job.verifyRandom = 0;
  const StreamApplyResult s = applyStreamed(engine, job, dir.file("out.npy"), 100);
  EXPECT_EQ(s.result.verification.mismatches, 1u);
  EXPECT_EQ(s.result.verification.firstMismatch, 200u);  // the third block starts at output 200
}

// cpu-serial that raises Cancel as the last (short) block's verification begins: a block's
// verification asks the engine for its tolerance first.
class CancelWhileLastBlockVerifies final : public FilterBackend {
 public:
  explicit CancelWhileLastBlockVerifies(std::atomic<bool>& cancel) : cancel_(cancel) {}
  std::string_view name() const override { return "cancel-in-verification"; }
  std::string_view description() const override { return "test"; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return {}; }
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override {
    if (lastBlock_ < largestBlock_) cancel_ = true;
    return exact_.tolerance(spec, maxAbsInput);
  }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions& o,
                    const Progress& p) override {
    lastBlock_ = in.size();
    largestBlock_ = std::max(largestBlock_, in.size());
    return exact_.filter(in, spec, out, o, p);
  }
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out, const RunOptions& o,
                    const Progress& p) override {
    return exact_.filter(in, spec, out, o, p);
  }

 private:
  CpuSerialBackend exact_;
  std::atomic<bool>& cancel_;
  std::size_t lastBlock_ = 0, largestBlock_ = 0;
};

// The stream looks at Cancel between blocks only; a block's verification (a wide window's joins
// take long) looks at it too, as the in-memory verification does: a cancel during the last
// block's verification was ignored, and the run finished.
TEST(StreamApply, ACancelDuringABlocksVerificationStopsIt) {
  std::mt19937_64 rng(4);
  test::TempDir dir;
  writeSignal(dir.file("in.npy"), test::randomSignal(1000, rng));  // blocks of 64: the last holds 40
  std::atomic<bool> cancel{false};
  CancelWhileLastBlockVerifies engine(cancel);
  Job job = jobFor(dir, {"in.npy", {}}, makeMeanFilter(5, BoundaryMode::Reflect), SampleType::f64);
  const auto in = openSampleStream(job.input, job.read, 1024);
  const auto sink = openSampleSink(dir.file("out.npy"), writeFor(in->sampleRate()), in->knownSize());
  StreamFilterOptions options;
  options.blockSamples = 64;
  Progress progress;
  progress.cancelFlag = &cancel;
  EXPECT_THROW(streamApply(engine, *in, job, *sink, options, progress), Cancelled);
  EXPECT_TRUE(cancel.load()) << "the last block was verified";
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.npy")));
}

TEST(StreamApply, ASampleFloat32CannotHoldIsNamedByItsIndexInTheSignal) {
  test::TempDir dir;
  std::vector<double> x(500, 1.0);
  x[321] = 1e300;
  writeSignal(dir.file("big.npy"), x);
  CpuSerialBackend engine;
  Job job = jobFor(dir, {"big.npy", {}}, makeMeanFilter(5), SampleType::f32);
  std::string message;
  try {
    applyStreamed(engine, job, dir.file("out.npy"), 64);
  } catch (const InputError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("sample 322 (1e+300) is outside the float32 range"), std::string::npos) << message;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.npy")));
}

TEST(StreamApply, AFileCutShortWhileStreamedNamesTheSample) {
  test::TempDir dir;
  std::mt19937_64 rng(9);
  writeSignal(dir.file("in.npy"), test::randomSignal(100000, rng));
  const auto in = openSampleStream(dir.file("in.npy"));
  std::vector<double> first(1000);
  ASSERT_EQ(in->read(first), 1000u);
  std::filesystem::resize_file(dir.file("in.npy"), 128 + 5000 * sizeof(double));
  std::vector<double> rest(10000);
  std::string message;
  try {
    in->read(rest);
  } catch (const InputError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("in.npy: the file changed while it was being read, at sample 1001"), std::string::npos)
      << message;
}

TEST(StreamApply, PeekedStreamKnowsTheSizeOfAShortSignalAndReplaysEverySample) {
  test::TempDir dir;
  std::mt19937_64 rng(2);
  for (std::size_t n : {1u, 6u, 7u, 50u}) {
    const std::vector<double> x = test::randomSignal(n, rng);
    writeSignal(dir.file("x.txt"), x);
    PeekedStream peeked(openSampleStream(dir.file("x.txt")), 7);
    EXPECT_EQ(peeked.knownSize(), n < 7 ? std::optional<std::uint64_t>(n) : std::nullopt) << n;
    std::vector<double> all, buffer(3);
    while (const std::size_t got = peeked.read(buffer)) all.insert(all.end(), buffer.begin(), buffer.begin() + got);
    EXPECT_EQ(all, x);
  }
}

TEST(StreamApply, PlanStreamsExactEnginesAndKeepsTheRestInMemoryWhereItFits) {
  StreamingCase small{1000, 100};
  EXPECT_TRUE(planStreaming(Streaming::automatic, "", SampleType::f64, small).stream);  // cpu-parallel: exact
  EXPECT_FALSE(planStreaming(Streaming::automatic, "cpu-running", SampleType::f64, small).stream);
  EXPECT_TRUE(planStreaming(Streaming::always, "cpu-running", SampleType::f64, small).stream);
  EXPECT_FALSE(planStreaming(Streaming::never, "", SampleType::f64, small).stream);
  StreamingCase huge = small;
  huge.samples = availableMemoryBytes();  // far more than memory holds at 24 bytes a sample
  EXPECT_TRUE(planStreaming(Streaming::automatic, "cpu-running", SampleType::f64, huge).stream);
  StreamingCase hugeText{availableMemoryBytes(), std::nullopt};  // text of unknown length: 2 bytes a sample at least
  EXPECT_TRUE(planStreaming(Streaming::automatic, "cpu-running", SampleType::f64, hugeText).stream);

  // The signal and its result already in memory (the desktop's apply, Python's arrays): in memory
  // however large, since both are held either way; streamed only when asked.
  StreamingCase inMemory = small;
  inMemory.endsInMemory = true;
  EXPECT_FALSE(planStreaming(Streaming::automatic, "", SampleType::f64, inMemory).stream);
  EXPECT_TRUE(planStreaming(Streaming::always, "", SampleType::f64, inMemory).stream);
  inMemory.samples = availableMemoryBytes();
  EXPECT_FALSE(planStreaming(Streaming::automatic, "", SampleType::f64, inMemory).stream);
  EXPECT_FALSE(planStreaming(Streaming::automatic, "", SampleType::f32, inMemory).stream);
}

}  // namespace
}  // namespace siglab

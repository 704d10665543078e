// An analysis stage run into a MemorySink hands its matrix or table to the report (what Python's
// siglab.signal returns) with the values the file would hold, and writes no file; a complex matrix
// as (re, im) pairs (NumPy's complex128) where the file holds re and im planes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory_resource>
#include <random>
#include <sstream>

#include "engine_test_support.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/errors.hpp"
#include "siglab/large_page_resource.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/spectrogram.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::cpuEngines;

std::vector<double> noise(std::size_t n) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::vector<double> x(n);
  for (double& v : x) v = normal(rng);
  return x;
}

PipelineReport run(const std::string& chain, const std::vector<double>& x, const PipelineSink& sink,
                   std::size_t channels = 1) {
  ChannelSource source;
  for (std::size_t c = 0; c < channels; ++c) source.channels.emplace_back(x.data() + c, x.size() - channels);
  source.sampleRate = 100.0;
  return runPipeline(parseChain(chain), source, sink, cpuEngines());
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(AnalysisMemorySink, MatrixHoldsTheFilesValuesAndNoFileIsWritten) {
  const test::TempDir dir;
  const std::vector<double> x = noise(10007);
  for (const std::string chain : {"spectrogram nperseg=256 noverlap=100", "spectrogram nperseg=100 mode=magnitude", "hilbert"}) {
    SCOPED_TRACE(chain);
    const PipelineReport file = run(chain, x, FileSink{dir.file("m.npy"), {}});
    ASSERT_TRUE(file.written);
    const std::string npy = contents(dir.file("m.npy"));
    std::filesystem::remove(dir.file("m.npy"));
    const PipelineReport memory = run(chain, x, MemorySink{});
    EXPECT_FALSE(memory.written);
    std::uint64_t count = 1;
    for (const std::uint64_t n : memory.analysis.shape) count *= n;
    ASSERT_GE(memory.analysis.shape.size(), 2u);
    ASSERT_EQ(memory.analysis.values.size(), count);
    ASSERT_GE(npy.size(), count * sizeof(double));
    EXPECT_EQ(0, std::memcmp(npy.data() + npy.size() - count * sizeof(double), memory.analysis.values.data(),
                             count * sizeof(double)));
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  }
}

// The .npy's values as the memory holds them when asked for pairs: planes (frames, 2 x channels, f)
// of re and im become (re, im) pairs of shape (frames, [channels,] f, 2).
std::vector<double> pairedValues(const double* planes, std::size_t count, std::size_t f) {
  std::vector<double> pairs(count);
  for (std::size_t row = 0; row < count; row += 2 * f) {
    for (std::size_t k = 0; k < f; ++k) {
      pairs[row + 2 * k] = planes[row + k];
      pairs[row + 2 * k + 1] = planes[row + f + k];
    }
  }
  return pairs;
}

TEST(AnalysisMemorySink, AComplexMatrixComesAsPairsOfTheFilesPlanes) {
  const test::TempDir dir;
  const std::vector<double> x = noise(10007);
  for (const std::size_t channels : {1, 2}) {
    for (const std::string chain : {"stft nperseg=127", "spectrogram nperseg=64 mode=complex", "stft nperseg=256 boundary=none"}) {
      SCOPED_TRACE(chain + ", channels " + std::to_string(channels));
      ASSERT_TRUE(run(chain, x, FileSink{dir.file("m.npy"), {}}, channels).written);
      const std::string npy = contents(dir.file("m.npy"));
      std::filesystem::remove(dir.file("m.npy"));
      const PipelineReport memory = run(chain, x, MemorySink{{}, true}, channels);
      const AnalysisResult& m = memory.analysis;
      ASSERT_EQ(m.shape.size(), channels == 1 ? 3u : 4u);
      EXPECT_EQ(m.shape.back(), 2u);
      if (channels > 1) EXPECT_EQ(m.shape[1], channels);
      std::uint64_t count = 1;
      for (const std::uint64_t n : m.shape) count *= n;
      ASSERT_EQ(m.values.size(), count);
      ASSERT_GE(npy.size(), count * sizeof(double));
      const auto* planes = reinterpret_cast<const double*>(npy.data() + npy.size() - count * sizeof(double));
      EXPECT_TRUE(m.values == pairedValues(planes, count, m.shape[m.shape.size() - 2]));
    }
  }
}

void checkTableHoldsTheCsvRows(const std::string& chain, const std::vector<double>& x);

// A few rows (filled on one core) and many (on every core), prominences and widths.
TEST(AnalysisMemorySink, TableHoldsTheCsvRows) {
  for (const auto& [chain, samples] : {std::pair<std::string, std::size_t>{"find-peaks prominence=1 wlen=41", 5003},
                                       {"find-peaks prominence=0.5 width=1", 200'003}}) {
    SCOPED_TRACE(chain);
    checkTableHoldsTheCsvRows(chain, noise(samples));
  }
}

void checkTableHoldsTheCsvRows(const std::string& chain, const std::vector<double>& x) {
  const test::TempDir dir;
  ASSERT_TRUE(run(chain, x, FileSink{dir.file("t.csv"), {}}).written);
  std::istringstream csv(contents(dir.file("t.csv")));
  std::string header;
  std::getline(csv, header);
  const PipelineReport memory = run(chain, x, MemorySink{});
  const AnalysisResult& table = memory.analysis;
  std::string names;
  for (const std::string& c : table.columns) names += (names.empty() ? "" : ",") + c;
  EXPECT_EQ(names, header);
  ASSERT_EQ(table.shape.size(), 2u);
  ASSERT_GT(table.shape[0], 10u);
  ASSERT_EQ(table.columnValues.size(), table.columns.size());  // one array a column, down the rows
  for (const SampleVector& column : table.columnValues) ASSERT_EQ(column.size(), table.shape[0]);
  std::size_t row = 0;
  for (std::string line; std::getline(csv, line); ++row) {
    std::istringstream fields(line);
    std::size_t k = 0;
    for (std::string field; std::getline(fields, field, ','); ++k) {
      ASSERT_LT(row, table.shape[0]);
      EXPECT_EQ(std::stod(field), table.columnValues[k][row]) << line;
    }
    EXPECT_EQ(k, table.columns.size());
  }
  EXPECT_EQ(row, table.shape[0]);
}

// A GPU engine (usesGpu) whose spectrogram hook writes a constant, remembering where it wrote.
class FramesInto final : public FilterBackend {
 public:
  std::string_view name() const override { return "frames-into"; }
  std::string_view description() const override { return "the spectrogram hook, for the test"; }
  bool usesGpu() const override { return true; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return "the spectrogram hook only"; }
  FilterPass filter(std::span<const double>, const FilterSpec&, std::span<double>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("the spectrogram hook only");
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("the spectrogram hook only");
  }
  std::string whyNotSpectrogram() const override { return {}; }
  FilterPass spectrogram(std::span<const double>, const SpectrogramLayout&, std::uint64_t, std::span<double> out,
                         const Progress&) override {
    runs.push_back(out.data());
    std::fill(out.begin(), out.end(), 2.0);
    return {};
  }
  std::vector<const double*> runs;
};

// In memory the whole matrix is there: a GPU engine computes every frame in one run, straight into
// the result (a file takes batches of 16 MiB; this matrix is 18 MiB).
TEST(AnalysisMemorySink, AGpuEngineWritesTheWholeMatrixStraightIntoTheResult) {
  BackendList engines = test::cpuEngines();
  engines.push_back(std::make_unique<FramesInto>());
  const auto& gpu = static_cast<const FramesInto&>(*engines.back());
  ChannelSource source;
  const std::vector<double> x(std::size_t{4} << 20, 1.0);
  source.channels.emplace_back(x);
  PipelineOptions options;
  options.engines = {"frames-into"};
  const PipelineReport report = runPipeline(parseChain("spectrogram nperseg=1024"), source, MemorySink{}, engines, options);
  const SampleVector& values = report.analysis.values;
  ASSERT_EQ(values.size(), report.analysis.shape.at(0) * 513);
  ASSERT_GT(values.size() * sizeof(double), std::size_t{16} << 20);
  ASSERT_EQ(gpu.runs.size(), 1u);
  EXPECT_EQ(gpu.runs.front(), values.data());
  EXPECT_TRUE(std::all_of(values.begin(), values.end(), [](double v) { return v == 2.0; }));
}

TEST(AnalysisMemorySink, ASignalsArrayIsRefusedForAMatrix) {
  const std::vector<double> x = noise(1000);
  std::vector<double> out(x.size());
  try {
    run("spectrogram", x, MemorySink{{std::span<double>(out)}});
    FAIL() << "no error";
  } catch (const StageError& e) {
    EXPECT_NE(std::string(e.what()).find("spectrogram makes a matrix or a table"), std::string::npos) << e.what();
  }
}

// A caller's array for a run in memory: the front-end's page-locked memory only when the last
// stage is named for an engine that copies to a GPU (and the front-end offers some).
TEST(AnalysisMemorySink, AResultIsMadeInPinnedMemoryOnlyForALastStageNamedForAGpuEngine) {
  BackendList engines = cpuEngines();
  engines.push_back(std::make_unique<test::GpuEngineStub>("gpu-stub"));
  const Pipeline chain = parseChain("median 5; gaussian 2");
  std::pmr::monotonic_buffer_resource pinned;  // stands for pinnedHostMemory()
  PipelineOptions options;
  options.pinnedMemory = &pinned;
  options.engines = {"cpu-parallel", "gpu-stub"};
  EXPECT_EQ(resultMemoryFor(chain, engines, options), &pinned);
  options.engines = {"gpu-stub", "cpu-parallel"};
  EXPECT_EQ(resultMemoryFor(chain, engines, options), resultMemory());
  options.engines = {"gpu-stub"};  // the last stage unnamed: auto
  EXPECT_EQ(resultMemoryFor(chain, engines, options), resultMemory());
  options.engines = {"cpu-parallel", "gpu-stub"};
  options.pinnedMemory = nullptr;  // none offered
  EXPECT_EQ(resultMemoryFor(chain, engines, options), resultMemory());
}

}  // namespace
}  // namespace siglab

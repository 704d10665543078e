// An analysis stage run into a MemorySink hands its matrix or table to the report (what Python's
// siglab.signal returns) with the values the file would hold, and writes no file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>

#include "engine_test_support.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/errors.hpp"
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

PipelineReport run(const std::string& chain, const std::vector<double>& x, const PipelineSink& sink) {
  ChannelSource source;
  source.channels.emplace_back(x);
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
  for (const std::string chain : {"spectrogram nperseg=256 noverlap=100", "stft nperseg=127", "hilbert"}) {
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

TEST(AnalysisMemorySink, TableHoldsTheCsvRows) {
  const test::TempDir dir;
  const std::vector<double> x = noise(5003);
  const std::string chain = "find-peaks prominence=1 wlen=41";
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
  std::size_t i = 0;
  for (std::string line; std::getline(csv, line);) {
    std::istringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) {
      ASSERT_LT(i, table.values.size());
      EXPECT_EQ(std::stod(field), table.values[i++]) << line;
    }
  }
  EXPECT_EQ(i, table.values.size());
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

}  // namespace
}  // namespace siglab

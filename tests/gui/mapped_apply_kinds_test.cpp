// Apply on a mapped file (streamed into a file by the core's pipeline run) gives what Apply in
// memory gives, for every stage kind in the registry: each kind's example with its flags on
// (Butterworth zero-phase, which the GUI's own streaming got wrong), over more than one block.
#include <QSettings>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <random>
#include <string>

#include "filter_panel.hpp"
#include "gui_test_support.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/stage_registry.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr std::size_t kSamples = (std::size_t{1} << 19) + 7011;  // past one streamed block

std::vector<std::string> kindNames() {
  std::vector<std::string> names;
  for (const StageKind* kind : stageKinds()) {
    if (!kind->endsChain()) names.emplace_back(kind->name());  // an analysis writes a matrix or a table, not a curve
  }
  return names;
}

// The kind's example, its flags on and its files written in `dir`: taps, or where the kind reads
// them otherwise, one section (sosfilt) or the coefficient 1 (lfilter's b and a).
Stage exampleStage(const StageKind& kind, const test::TempDir& dir) {
  StageParameters values = kind.parseValue(kind.exampleValue());
  for (const std::string contents : {"0.25\n0.5\n0.25\n", "0.25 0.5 0.25 1 -0.5 0.25\n", "1\n"}) {
    for (const ParameterInfo& info : kind.parameters()) {
      if (info.type == ParameterType::Flag) values[info.name] = true;
      if (info.type == ParameterType::Text) {
        test::writeFile(dir.file("file.txt"), contents);
        values[info.name] = dir.file("file.txt");
      }
    }
    try {
      kind.bind(completeParameters(kind, values), {});
      break;
    } catch (const std::exception&) {  // files of another form: the next contents
    }
  }
  return Stage{&kind, completeParameters(kind, values)};
}

class MappedApplyKinds : public ::testing::TestWithParam<std::string> {};

TEST_P(MappedApplyKinds, StreamedFromItsFileEqualsInMemory) {
  QSettings().clear();
  test::TempDir dir;
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  writeSignal(dir.file("in.npy"), test::randomSignal(kSamples, rng));
  const Stage stage = exampleStage(*findStageKind(GetParam()), dir);

  gui::MainWindow inMemory;
  inMemory.filterPanel()->setStage(stage);
  inMemory.openFile(QString::fromStdString(dir.file("in.npy")), {});
  ASSERT_TRUE(test::waitForTask(inMemory));
  ASSERT_EQ(inMemory.signal()->mapping(), nullptr);
  inMemory.applyFilter();
  ASSERT_TRUE(test::waitForTask(inMemory));
  ASSERT_TRUE(inMemory.filtered()) << inMemory.lastError().toStdString();

  gui::MainWindow mapped;
  mapped.setMappedAboveBytes(0);
  mapped.setCacheFolder(QString::fromStdString(dir.file("cache")));
  mapped.filterPanel()->setStage(stage);
  mapped.openFile(QString::fromStdString(dir.file("in.npy")), {});
  ASSERT_TRUE(test::waitForTask(mapped));
  ASSERT_NE(mapped.signal()->mapping(), nullptr);
  mapped.applyFilterTo(QString::fromStdString(dir.file("out.raw")));
  ASSERT_TRUE(test::waitForTask(mapped));
  ASSERT_TRUE(mapped.filtered()) << mapped.lastError().toStdString();
  ASSERT_NE(mapped.filtered()->mapping(), nullptr);

  // A stage that streams itself runs serially there (rate changes, zero phase); the bits must still agree.
  EXPECT_FALSE(mapped.applied()->engine.empty());
  const auto streamed = mapped.filtered()->samples();
  const auto expected = inMemory.filtered()->samples();
  ASSERT_EQ(streamed.size(), expected.size());
  std::size_t differ = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (streamed[i] != expected[i] && differ++ == 0) first = i;
  }
  EXPECT_EQ(differ, 0u) << chainText(Pipeline{{stage}}) << ": streamed outputs differ from in-memory Apply, first at "
                        << first;
  EXPECT_EQ(mapped.chain().stages.size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(EveryKind, MappedApplyKinds, ::testing::ValuesIn(kindNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;  // gtest takes letters, digits and _
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace siglab

// The chain: Apply adds the form's stage and runs it on the current result, so applying twice
// gives the two-stage pipeline's result; undo and redo (Ctrl+Z, Ctrl+Shift+Z) take the last step
// off and put it back; the curve's caption names the chain; sessions and pipeline files keep it,
// and an old session's one filter loads as a chain of one.
#include <QAction>
#include <QListWidget>
#include <QSettings>
#include <QUndoStack>

#include "filter_panel.hpp"
#include "stage_form.hpp"
#include "gui_test_support.hpp"
#include "signal_plot.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/pipeline_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

QAction* actionFor(const MainWindow& window, const QKeySequence& keys) {
  for (QAction* action : window.findChildren<QAction*>()) {
    if (action->shortcut() == keys) return action;
  }
  return nullptr;
}

// What the core's one run makes of `chain` on the sample, on cpu-serial.
std::vector<double> expectedOf(const std::string& chain) {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  const std::vector<double> input = readTextSignal(SIGLAB_SAMPLE_PATH);
  PipelineOptions options;
  options.engines.assign(8, "cpu-serial");
  PipelineReport report = runPipeline(parseChain(chain), ChannelSource{{input}}, MemorySink{}, engines, options);
  return {report.output.front().begin(), report.output.front().end()};
}

class ChainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    QSettings().setValue("filter/applyEngine", "cpu-serial");
  }
  static void open(MainWindow& window, const QString& path = SIGLAB_SAMPLE_PATH) {
    window.openFile(path);
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  }
  static void apply(MainWindow& window, const std::string& stage) {
    window.filterPanel()->setStage(parseChain(stage).stages.front());
    window.applyFilter();
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.filtered()) << window.lastError().toStdString();
  }
};

constexpr const char* kFirst = "median 5 mode reflect";
constexpr const char* kSecond = "butter 4,0.1,0.3 zero-phase";

TEST_F(ChainTest, ApplyingTwiceIsTheTwoStagePipelineAndUndoRedoStepThroughIt) {
  MainWindow window;
  open(window);
  apply(window, kFirst);
  const gui::SignalPtr first = window.filtered();
  apply(window, kSecond);
  const gui::SignalPtr second = window.filtered();
  const std::string both = std::string(kFirst) + "; " + kSecond;
  EXPECT_EQ(test::asVector(second->samples()), expectedOf(both)) << "the second stage ran on the first's result";
  EXPECT_EQ(test::asVector(first->samples()), expectedOf(kFirst));
  EXPECT_EQ(chainText(window.chain()), chainText(parseChain(both)));
  const QString caption = QString::fromStdString(chainText(window.chain()));
  EXPECT_EQ(window.signalPlot()->filteredCaption(), caption) << "the curve's caption names the chain";
  EXPECT_TRUE(window.plotTitle().contains(caption)) << window.plotTitle().toStdString();
  QListWidget* list = window.chainView()->list();
  ASSERT_EQ(list->count(), 2);
  EXPECT_TRUE(list->item(1)->text().contains("cpu-serial")) << list->item(1)->text().toStdString();
  EXPECT_TRUE(list->item(1)->text().contains(QString::fromStdString(window.chainSteps()[1].report->description)));

  QAction* undo = actionFor(window, QKeySequence(Qt::CTRL | Qt::Key_Z));
  QAction* redo = actionFor(window, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
  ASSERT_TRUE(undo && redo) << "Ctrl+Z and Ctrl+Shift+Z";
  undo->trigger();
  EXPECT_EQ(window.filtered(), first) << "undo shows the result before the last step";
  EXPECT_EQ(window.chain().stages.size(), 1u);
  EXPECT_EQ(list->count(), 1);
  EXPECT_EQ(window.signalPlot()->filteredCaption().toStdString(), chainText(parseChain(kFirst)));
  undo->trigger();
  EXPECT_FALSE(window.filtered()) << "no step: the signal alone";
  EXPECT_TRUE(window.chain().stages.empty());
  redo->trigger();
  redo->trigger();
  EXPECT_EQ(window.filtered(), second) << "redo puts the step back with its result, not run again";
  EXPECT_EQ(window.chain().stages.size(), 2u);

  // Apply after an undo runs on the result shown, and drops the step undone.
  undo->trigger();
  apply(window, "mean 3");
  EXPECT_EQ(test::asVector(window.filtered()->samples()), expectedOf(std::string(kFirst) + "; mean 3"));
  EXPECT_FALSE(window.undoStack()->canRedo());
}

TEST_F(ChainTest, ASessionAndAPipelineFileKeepTheChain) {
  test::TempDir dir;
  const std::string both = std::string(kFirst) + "; " + kSecond;
  {
    MainWindow window;
    open(window);
    apply(window, kFirst);
    apply(window, kSecond);
    window.saveSession(QString::fromStdString(dir.file("s.siglab")));
    ASSERT_TRUE(test::waitForTask(window));
    window.savePipeline(QString::fromStdString(dir.file("chain.json")));
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
  }
  EXPECT_EQ(chainText(loadPipeline(dir.file("chain.json"))), chainText(parseChain(both))) << "what --pipeline reads";

  MainWindow restored;
  restored.openFile(QString::fromStdString(dir.file("s.siglab")));
  ASSERT_TRUE(test::waitForTask(restored));
  ASSERT_TRUE(restored.filtered()) << restored.lastError().toStdString();
  EXPECT_EQ(chainText(restored.chain()), chainText(parseChain(both)));
  EXPECT_EQ(test::asVector(restored.filtered()->samples()), expectedOf(both)) << "the chain applied again";
  restored.undoStack()->undo();
  EXPECT_EQ(test::asVector(restored.filtered()->samples()), expectedOf(kFirst)) << "each step kept, undoable";

  MainWindow loaded;
  open(loaded);
  apply(loaded, "mean 3");
  loaded.loadPipeline(QString::fromStdString(dir.file("chain.json")));
  ASSERT_TRUE(test::waitForTask(loaded));
  EXPECT_EQ(chainText(loaded.chain()), chainText(parseChain(both))) << "the file's chain in place of this one";
  ASSERT_TRUE(loaded.filtered()) << loaded.lastError().toStdString();
  EXPECT_EQ(test::asVector(loaded.filtered()->samples()), expectedOf(both));
}

TEST_F(ChainTest, AnOldSessionsFilterLoadsAsAChainOfOne) {
  test::TempDir dir;
  test::writeFile(dir.file("old.siglab"), std::string(R"({"siglab_session": 1,
    "signal": {"path": ")") + SIGLAB_SAMPLE_PATH + R"(", "format": "automatic", "column": 1, "skip_header": false,
               "raw_offset": 0, "channel": 1, "allow_nonfinite": false, "raw_type": null},
    "filter": {"taps": "median", "window": 5, "sigma": 1.0, "custom_taps": [], "mode": "reflect", "repeat": 3,
               "savgol": {"order": 2, "deriv": 0},
               "butter": {"order": 4, "band": "lowpass", "cutoff": 0.2, "cutoff2": 0.4, "zero_phase": true}},
    "engines": ["cpu-serial"], "stacked": false})");
  MainWindow window;
  window.openFile(QString::fromStdString(dir.file("old.siglab")));
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.filtered()) << window.lastError().toStdString();
  EXPECT_EQ(chainText(window.chain()), chainText(parseChain(kFirst)));
  EXPECT_EQ(test::asVector(window.filtered()->samples()), expectedOf(kFirst));
  EXPECT_EQ(window.filterPanel()->repeat(), 3);
  QString error;
  ASSERT_TRUE(window.filterPanel()->stage(&error)) << error.toStdString();
  EXPECT_EQ(window.filterPanel()->stage(&error)->values, parseChain(kFirst).stages.front().values) << "the form shows it";
}

}  // namespace
}  // namespace siglab

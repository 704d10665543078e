#include <qcustomplot.h>

#include <QDragEnterEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>

#include <nlohmann/json.hpp>

#include "filter_panel.hpp"
#include "gpu_test_support.hpp"
#include "lab_view.hpp"
#include "ladder_view.hpp"
#include "gui_test_support.hpp"
#include "signal_plot.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/taps.hpp"
#include "test_support.hpp"
#include "timing_view.hpp"

namespace siglab {
namespace {

using gui::LadderView;
using gui::MainWindow;

class MainWindowTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }

  void openSample(MainWindow& window) {
    window.openFile(SIGLAB_SAMPLE_PATH);
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  }
  void apply(MainWindow& window) {
    window.applyFilter();
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.applied()) << window.lastError().toStdString();
  }
  void run(MainWindow& window) {
    window.runEngines();
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.comparison()) << window.lastError().toStdString();
  }
};

TEST_F(MainWindowTest, OpensTheSampleRunsTheCpuEnginesAndShowsPlotsAndTimings) {
  MainWindow window;
  window.resize(1400, 800);
  window.show();
  openSample(window);
  EXPECT_EQ(window.signal()->size(), 10000u);
  const std::size_t originalPoints = window.signalPlot()->pointsShown();
  EXPECT_GT(originalPoints, 100u);

  run(window);
  const Comparison& c = *window.comparison();
  ASSERT_FALSE(c.results.empty());
  EXPECT_EQ(c.results.front().name, "cpu-serial");
  EXPECT_TRUE(c.allAgree());
  EXPECT_EQ(window.filtered()->size(), 10000u);
  EXPECT_GT(window.signalPlot()->pointsShown(), originalPoints) << "the filtered signal is drawn too";

  QTableWidget* table = window.timingView()->table();
  ASSERT_EQ(table->rowCount(), static_cast<int>(c.results.size()));
  EXPECT_EQ(table->item(0, 0)->text(), "cpu-serial");
  EXPECT_EQ(table->item(0, 1)->text(), "ok");
  QCustomPlot* chart = window.timingView()->chart();
  ASSERT_EQ(chart->plottableCount(), 3);  // kernel, transfers, end to end
  EXPECT_GE(chart->plottable(0)->interface1D()->dataCount(), 1);
}

TEST_F(MainWindowTest, ExportsTheResultAndTheReportByteForByte) {
  test::TempDir dir;
  MainWindow window;
  openSample(window);
  run(window);

  window.exportResult(QString::fromStdString(dir.file("result.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
  // What the seed's loop gives on the sample, computed here independently of the GUI.
  const std::vector<double> input = readTextSignal(SIGLAB_SAMPLE_PATH);
  std::vector<double> expected(input.size());
  filterSerial(input, makeMeanFilter(kDefaultWindow), expected);
  std::string expectedText;
  appendSeedFormat(expected, expectedText);
  EXPECT_TRUE(test::readFile(dir.file("result.txt")) == expectedText);

  window.exportReport(QString::fromStdString(dir.file("report.json")));
  ASSERT_TRUE(test::waitForTask(window));
  const auto json = nlohmann::json::parse(test::readFile(dir.file("report.json")));
  EXPECT_EQ(json["samples"], 10000);
  EXPECT_EQ(json["backends"].size(), window.comparison()->results.size());
  EXPECT_EQ(json["backends"][0]["name"], "cpu-serial");

  window.exportReport(QString::fromStdString(dir.file("report.csv")));
  ASSERT_TRUE(test::waitForTask(window));
  const std::string csv = test::readFile(dir.file("report.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), static_cast<long>(window.comparison()->results.size()) + 1);
  EXPECT_NE(csv.find(",cpu-serial,ok,"), std::string::npos) << csv;

  const QString unwritable = QString::fromStdString(dir.file("no-such-folder/result.txt"));
  window.exportResult(unwritable);
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_TRUE(window.lastError().contains("no-such-folder")) << window.lastError().toStdString();
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "no-such-folder"));

  window.savePlot(QString::fromStdString(dir.file("plot.png")));
  window.savePlot(QString::fromStdString(dir.file("plot.pdf")));
  EXPECT_EQ(test::readFile(dir.file("plot.png")).substr(1, 3), "PNG");
  EXPECT_EQ(test::readFile(dir.file("plot.pdf")).substr(0, 5), "%PDF-");
}

// The GUI's exports pass the CLI's one output check: the loaded signal's file, by its name, a
// hard link or a symlink, is not replaced by the result.
TEST_F(MainWindowTest, AnExportNeverReplacesTheLoadedSignalsFile) {
  test::TempDir dir;
  const std::string in = dir.file("in.txt");
  std::filesystem::copy_file(SIGLAB_SAMPLE_PATH, in);
  std::filesystem::create_hard_link(in, dir.file("hard.txt"));
  std::filesystem::create_symlink(in, dir.file("soft.txt"));
  const std::string before = test::readFile(in);
  MainWindow window;
  window.openFile(QString::fromStdString(in));
  ASSERT_TRUE(test::waitForTask(window));
  apply(window);
  for (const std::string& output : {in, dir.file("hard.txt"), dir.file("soft.txt")}) {
    window.exportResult(QString::fromStdString(output));
    ASSERT_TRUE(test::waitForTask(window));
    EXPECT_TRUE(window.lastError().contains("is the input")) << window.lastError().toStdString();
    EXPECT_EQ(test::readFile(in), before) << output;
  }
}

TEST_F(MainWindowTest, AFailedLoadShowsTheReadersMessageAndKeepsTheOldSignal) {
  test::TempDir dir;
  test::writeFile(dir.file("bad.txt"), "1.0\n2.0\n0.1x\n");
  MainWindow window;
  openSample(window);
  run(window);
  const gui::SignalPtr before = window.signal();
  window.openFile(QString::fromStdString(dir.file("bad.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_EQ(window.signal(), before);
  EXPECT_TRUE(window.comparison()) << "the last run stays too";
  EXPECT_GT(window.timingView()->table()->rowCount(), 0);
  EXPECT_TRUE(window.lastError().contains("bad.txt:3:1")) << window.lastError().toStdString();
  EXPECT_TRUE(window.lastError().contains("0.1x")) << window.lastError().toStdString();
  EXPECT_EQ(window.signalPlot()->readoutAt(3).left(9), "sample 3:");

  openSample(window);  // a new signal: the old run no longer applies
  EXPECT_FALSE(window.comparison());
  EXPECT_EQ(window.timingView()->table()->rowCount(), 0);
}

TEST_F(MainWindowTest, CancelStopsALoadAndKeepsTheOldSignal) {
  test::TempDir dir;
  GenerateOptions options;
  options.count = 1'000'000;
  writeTextSignal(dir.file("big.txt"), generateSignal(options));
  MainWindow window;
  openSample(window);
  const gui::SignalPtr before = window.signal();
  window.openFile(QString::fromStdString(dir.file("big.txt")));
  ASSERT_TRUE(window.busy());
  window.cancelTask();
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_EQ(window.signal(), before);
  EXPECT_TRUE(window.lastError().isEmpty()) << "a cancel is not an error";

  window.openFile(QString::fromStdString(dir.file("big.txt")));  // and the same file loads when not cancelled
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_EQ(window.signal()->size(), 1'000'000u);
}

TEST_F(MainWindowTest, CancelStopsARunAndShowsNoPartialResult) {
  QSettings().setValue("filter/repeat", 1000);  // long enough to be cancelled before it ends
  MainWindow window;
  openSample(window);
  window.runEngines();
  ASSERT_TRUE(window.busy());
  window.cancelTask();
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(window.comparison());
  EXPECT_FALSE(window.filtered());
  EXPECT_TRUE(window.lastError().isEmpty());
}

TEST_F(MainWindowTest, LargeSignalsAreDrawnWithAFewPointsPerPixelColumnAndExactlyWhenZoomedIn) {
  test::TempDir dir;
  GenerateOptions options;
  options.count = 300'001;
  std::vector<double> values = generateSignal(options);
  values[123'457] = 50.0;  // a one-sample spike must stay visible when zoomed out
  writeTextSignal(dir.file("spike.txt"), values);
  MainWindow window;
  window.resize(1200, 700);
  window.show();
  window.openFile(QString::fromStdString(dir.file("spike.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  gui::SignalPlot* plot = window.signalPlot();
  QCPGraph* graph = plot->plot()->graph(0);
  const int columns = graph->keyAxis()->axisRect()->width();
  EXPECT_LE(graph->dataCount(), 2 * columns);
  EXPECT_GT(graph->dataCount(), columns);
  bool found = false;
  EXPECT_EQ(graph->getValueRange(found).upper, 50.0);

  plot->setVisibleRange(1000, 1100);
  EXPECT_EQ(graph->dataCount(), 103);  // the 101 samples and one neighbour each side
  EXPECT_EQ(graph->data()->at(1)->key, 1000.0);
  EXPECT_EQ(graph->data()->at(1)->value, window.signal()->samples()[1000]);

  plot->setStacked(true);
  ASSERT_EQ(plot->plot()->axisRectCount(), 2);
  plot->plot()->axisRect(1)->axis(QCPAxis::atBottom)->setRange(2000, 2500);
  EXPECT_EQ(plot->plot()->axisRect(0)->axis(QCPAxis::atBottom)->range(), QCPRange(2000, 2500)) << "x axes are linked";
}

TEST_F(MainWindowTest, TheReductionLadderRunsOnTheSignalOrSaysWhyNot) {
  MainWindow window;
  openSample(window);
  ASSERT_TRUE(window.labView()->request(LabExperiment::Reduction).onSignal);
  window.runLab(LabExperiment::Reduction);
  ASSERT_TRUE(test::waitForTask(window));
  LadderView* view = window.labView()->ladderView(LabExperiment::Reduction);
  const auto ladder = view->ladder();
  ASSERT_TRUE(ladder) << window.lastError().toStdString();
  EXPECT_NE(ladder->title.find("10,000 float64"), std::string::npos) << ladder->title;
  ASSERT_FALSE(ladder->rungs.empty());
  EXPECT_EQ(ladder->rungs.front().name, "cpu-serial-sum");  // the CPU rung runs everywhere
  EXPECT_EQ(view->table()->rowCount(), static_cast<int>(ladder->rungs.size()));
  EXPECT_EQ(view->table()->item(0, 0)->text(), "cpu-serial-sum");
  int ran = 0;
  for (const LadderRung& rung : ladder->rungs) ran += rung.ran();
  EXPECT_EQ(view->chart()->plottableCount(), ran);  // one bar per rung that ran: never an empty chart
  if (!test::firstDevice().available) {
    EXPECT_EQ(ladder->rungs.size(), 1u);
    EXPECT_TRUE(view->summary().contains("GPU rungs not run: ")) << view->summary().toStdString();
  } else {
    EXPECT_NE(findRung(*ladder, "cub-device-reduce"), nullptr);
  }
}

// Each ladder of the Lab tab through the same view: CPU rungs everywhere, GPU rungs where there is one.
TEST_F(MainWindowTest, TheReversalAndMatmulLaddersShowTheirRungsOrWhyNot) {
  MainWindow window;
  for (LabExperiment experiment : {LabExperiment::Reversal, LabExperiment::Matmul}) {
    auto spins = window.labView()->findChildren<QSpinBox*>();
    for (QSpinBox* spin : spins) {
      if (spin->prefix() == "2^" && spin->suffix().contains("int32")) spin->setValue(12);
      if (spin->prefix() == "M " || spin->prefix() == "N " || spin->prefix() == "K ") spin->setValue(37);
    }
    window.runLab(experiment);
    ASSERT_TRUE(test::waitForTask(window));
    LadderView* view = window.labView()->ladderView(experiment);
    const auto ladder = view->ladder();
    ASSERT_TRUE(ladder) << window.lastError().toStdString();
    EXPECT_TRUE(allCorrect(*ladder));
    const char* cpuRung = experiment == LabExperiment::Reversal ? "cpu-reverse-copy" : "cpu-blocked";
    ASSERT_NE(findRung(*ladder, cpuRung), nullptr);
    EXPECT_TRUE(findRung(*ladder, cpuRung)->ran());
    EXPECT_GT(view->chart()->plottableCount(), 0);
    EXPECT_EQ(view->table()->rowCount(), static_cast<int>(ladder->rungs.size()));
    if (!test::firstDevice().available) {
      EXPECT_TRUE(view->summary().contains("GPU rungs not run: ")) << view->summary().toStdString();
    } else {
      EXPECT_NE(yardstickOf(*ladder), nullptr);
    }
  }
}

TEST_F(MainWindowTest, ADroppedFileOpensAndJoinsTheRecentFiles) {
  MainWindow window;
  window.show();
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(SIGLAB_SAMPLE_PATH)});
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &drop);
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal());
  EXPECT_EQ(window.signal()->size(), 10000u);
  const QStringList recent = QSettings().value("recentFiles").toStringList();
  ASSERT_EQ(recent.size(), 1);
  EXPECT_EQ(recent.front(), QFileInfo(SIGLAB_SAMPLE_PATH).absoluteFilePath());
}

TEST_F(MainWindowTest, SettingsPersistAcrossWindows) {
  {
    QSettings settings;
    settings.setValue("filter/stage", "gaussian 1.5 mode reflect");
  }
  {
    MainWindow window;
    QString error;
    const auto spec = window.filterPanel()->spec(&error);
    ASSERT_TRUE(spec) << error.toStdString();
    EXPECT_EQ(spec->window(), 13u) << "the window follows sigma: 2 round(4 sigma) + 1";
    EXPECT_EQ(spec->taps, makeGaussianFilter(1.5).taps);
    EXPECT_EQ(spec->mode, BoundaryMode::Reflect);
    window.close();
  }
  EXPECT_FALSE(QSettings().value("window/geometry").toByteArray().isEmpty());
  EXPECT_EQ(QSettings().value("filter/stage").toString(), "gaussian 1.5 mode reflect");
}

TEST_F(MainWindowTest, AGaussianRunGivesTheSameResultAsTheCli) {
  {
    QSettings settings;
    settings.setValue("filter/stage", "gaussian 2.5 mode reflect");
  }
  test::TempDir dir;
  MainWindow window;
  openSample(window);
  run(window);
  const std::vector<double> input = readTextSignal(SIGLAB_SAMPLE_PATH);
  std::vector<double> expected(input.size());
  filterSerial(input, makeGaussianFilter(2.5, BoundaryMode::Reflect), expected);
  EXPECT_TRUE(test::asVector(window.filtered()->samples()) == expected);

  window.exportResult(QString::fromStdString(dir.file("gui.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  QProcess cli;
  cli.start(SIGLAB_CLI_PATH, {"filter", SIGLAB_SAMPLE_PATH, "-o", QString::fromStdString(dir.file("cli.txt")),
                              "--gaussian", "2.5", "--mode", "reflect", "--engine", "cpu-serial"});
  ASSERT_TRUE(cli.waitForFinished(60'000));
  ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
  EXPECT_TRUE(test::readFile(dir.file("gui.txt")) == test::readFile(dir.file("cli.txt")));
}

TEST_F(MainWindowTest, ApplyRunsOneEngineOnceShowsItAndExportsWhatTheCliWrites) {
  test::TempDir dir;
  MainWindow window;
  openSample(window);
  apply(window);
  EXPECT_FALSE(window.comparison()) << "apply is no benchmark";
  const StageReport& r = *window.applied();
  EXPECT_NE(r.engine, "cpu-serial") << "auto picks the fastest engine that can run the filter here";
  EXPECT_TRUE(r.verification.passed());
  EXPECT_GT(r.verification.checked, 0u);
  const std::vector<double> input = readTextSignal(SIGLAB_SAMPLE_PATH);
  std::vector<double> expected(input.size());
  filterSerial(input, makeMeanFilter(kDefaultWindow), expected);
  EXPECT_TRUE(test::asVector(window.filtered()->samples()) == expected);  // W = 5: an exact engine

  window.exportResult(QString::fromStdString(dir.file("gui.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  QProcess cli;
  cli.start(SIGLAB_CLI_PATH, {"filter", SIGLAB_SAMPLE_PATH, "-o", QString::fromStdString(dir.file("cli.txt"))});
  ASSERT_TRUE(cli.waitForFinished(60'000));
  ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
  EXPECT_TRUE(test::readFile(dir.file("gui.txt")) == test::readFile(dir.file("cli.txt")));
}

TEST_F(MainWindowTest, ApplyWithANamedEngineShowsThatEnginesResultAndItsOptions) {
  {
    QSettings settings;
    settings.setValue("filter/stage", "mean 51");
    settings.setValue("filter/applyEngine", "cpu-running");
    settings.setValue("filter/dtype", "f32");
    settings.setValue("filter/accumulate", "f64");
  }
  MainWindow window;
  openSample(window);
  apply(window);
  EXPECT_EQ(window.applied()->engine, "cpu-running");
  const std::vector<double> input = readTextSignal(SIGLAB_SAMPLE_PATH);
  const std::vector<float> narrow(input.begin(), input.end());
  std::vector<float> expected(narrow.size());
  FilterSpec spec = makeMeanFilter(51);
  spec.accumulator = Accumulator::Float64;
  filterRunning(narrow, spec, expected);
  EXPECT_TRUE(test::asVector(window.filtered()->samples()) == std::vector<double>(expected.begin(), expected.end()));
}

TEST_F(MainWindowTest, EnginesThatCannotRunTheFilterAreGreyedOutAndSkipped) {
  QSettings().setValue("filter/stage", "gaussian 1");
  MainWindow window;
  while (window.filterPanel()->availabilityPending()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  const std::vector<std::string> names = window.filterPanel()->checkedEngines();
  EXPECT_EQ(std::find(names.begin(), names.end(), "cpu-running"), names.end()) << "cpu-running needs uniform taps";
  EXPECT_NE(std::find(names.begin(), names.end(), "cpu-parallel"), names.end());
  openSample(window);
  run(window);
  EXPECT_FALSE(window.comparison()->find("cpu-running"));
}

}  // namespace
}  // namespace siglab

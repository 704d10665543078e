// Sessions, the discard prompt, empty states, stale results, shortcuts, plot export and printing
// (issue 16).
#include <qcustomplot.h>

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QPrinter>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>

#include "filter_panel.hpp"
#include "gui_dialog_support.hpp"
#include "gui_test_support.hpp"
#include "import_dialog.hpp"
#include "siglab/cuda_backends.hpp"
#include "session_adapter.hpp"
#include "siglab/pipeline.hpp"
#include "shortcuts_dialog.hpp"
#include "signal_plot.hpp"
#include "siglab/io/signal_io.hpp"
#include "spectrum_view.hpp"
#include "test_support.hpp"
#include "timing_view.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

class WindowTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
  static void open(MainWindow& window, const std::string& path) {
    window.openFile(QString::fromStdString(path));
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  }
  static void run(MainWindow& window) {
    window.runEngines();
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.filtered()) << window.lastError().toStdString();
  }
};

TEST_F(WindowTest, ASessionRestoresTheSignalReadOptionsFilterEnginesAndView) {
  test::TempDir dir;
  std::string csv = "# made by a logger\nt;a;b\n";
  std::vector<double> column3;
  for (int i = 0; i < 200; ++i) {
    csv += std::to_string(i) + ";" + std::to_string(i % 7) + ";" + std::to_string(10 * i) + "\n";
    column3.push_back(10.0 * i);
  }
  test::writeFile(dir.file("data.csv"), csv);
  std::optional<ViewRange> savedView;
  ReadOptions read;
  read.column = 3;
  read.skipHeader = true;
  const Stage gaussian = parseChain("gaussian 0.75 mode reflect").stages.front();
  {
    MainWindow window;
    window.resize(1200, 700);
    window.openFile(QString::fromStdString(dir.file("data.csv")), read);
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
    window.filterPanel()->setStage(gaussian);
    window.filterPanel()->setRepeat(4);
    gui::applyEngines(*window.filterPanel(), {"cpu-serial", "cpu-parallel"});
    window.signalPlot()->setVisibleRange(40, 120);
    savedView = window.currentSession().view;
    window.saveSession(QString::fromStdString(dir.file("s.siglab")));
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
  }
  MainWindow restored;
  restored.resize(1200, 700);
  restored.openFile(QString::fromStdString(dir.file("s.siglab")));  // as from the command line or Open
  EXPECT_EQ(restored.findChild<gui::ImportDialog*>(), nullptr) << "the session's read options need no dialog";
  ASSERT_TRUE(test::waitForTask(restored));
  ASSERT_TRUE(restored.signal()) << restored.lastError().toStdString();
  EXPECT_EQ(test::asVector(restored.signal()->samples()), column3);
  const Session s = restored.currentSession();
  EXPECT_EQ(s.signalPath, dir.file("data.csv"));
  EXPECT_EQ(s.read.column, 3u);
  EXPECT_TRUE(s.read.skipHeader);
  ASSERT_TRUE(s.stage);
  EXPECT_EQ(s.stage->kind, gaussian.kind);
  EXPECT_EQ(s.stage->values, gaussian.values);
  EXPECT_EQ(s.repeat, 4);
  EXPECT_TRUE(s.chain.stages.empty()) << "nothing was applied";
  EXPECT_EQ(restored.filterPanel()->checkedEngines(), (std::vector<std::string>{"cpu-serial", "cpu-parallel"}));
  ASSERT_TRUE(s.view && savedView);
  EXPECT_NEAR(savedView->first, 40, 1.0) << "the view that was saved";
  EXPECT_NEAR(savedView->last, 120, 1.0);
  EXPECT_DOUBLE_EQ(s.view->first, savedView->first);
  EXPECT_DOUBLE_EQ(s.view->last, savedView->last);
  QString error;
  ASSERT_TRUE(restored.filterPanel()->spec(&error));
  EXPECT_EQ(restored.filterPanel()->spec(&error)->window(), 7u) << "sigma 0.75: 2 round(3) + 1 taps";
}

TEST_F(WindowTest, ABadSessionIsAnErrorNamingTheKeyAndKeepsTheWindow) {
  test::TempDir dir;
  test::writeFile(dir.file("bad.siglab"), R"({"siglab_session": 1, "signal": {"path": "x.txt"}})");
  MainWindow window;
  window.openFile(QString::fromStdString(dir.file("bad.siglab")));
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(window.signal());
  EXPECT_TRUE(window.lastError().contains("bad.siglab")) << window.lastError().toStdString();
  EXPECT_TRUE(window.lastError().contains("\"signal.format\": missing")) << window.lastError().toStdString();
}

TEST_F(WindowTest, AnUnexportedResultIsNotDiscardedWithoutAsking) {
  test::TempDir dir;
  test::writeFile(dir.file("other.txt"), "1\n2\n3\n4\n5\n6\n");
  MainWindow window;
  window.show();
  open(window, SIGLAB_SAMPLE_PATH);
  run(window);
  ASSERT_TRUE(window.hasUnexportedResult());
  const gui::SignalPtr sample = window.signal();

  window.requestOpen(QString::fromStdString(dir.file("other.txt")));
  ASSERT_TRUE(test::answer(window, "discardPrompt", QMessageBox::Cancel)) << "no prompt before opening another file";
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_EQ(window.signal(), sample) << "Cancel keeps the signal and its result";
  EXPECT_TRUE(window.filtered());

  EXPECT_FALSE(window.close()) << "quitting must ask first";
  ASSERT_TRUE(test::answer(window, "discardPrompt", QMessageBox::Cancel));
  EXPECT_TRUE(window.isVisible());

  window.requestOpen(QString::fromStdString(dir.file("other.txt")));
  ASSERT_TRUE(test::answer(window, "discardPrompt", QMessageBox::Discard));
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_EQ(window.signal()->size(), 6u);
  EXPECT_FALSE(window.hasUnexportedResult());

  run(window);
  window.exportResult(QString::fromStdString(dir.file("result.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(window.hasUnexportedResult()) << "an exported result needs no prompt";
  window.requestOpen(SIGLAB_SAMPLE_PATH);
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_EQ(window.findChild<QMessageBox*>("discardPrompt"), nullptr);
  EXPECT_EQ(window.signal()->size(), 10000u);

  run(window);
  window.close();
  ASSERT_TRUE(test::answer(window, "discardPrompt", QMessageBox::Discard));
  EXPECT_FALSE(window.isVisible()) << "Discard lets the window close";
}

TEST_F(WindowTest, TheEmptyPlotSaysWhatToDoUntilASignalIsOpen) {
  MainWindow window;
  window.show();
  QLabel* hint = window.signalPlot()->emptyHint();
  ASSERT_TRUE(hint);
  EXPECT_TRUE(hint->isVisible());
  EXPECT_TRUE(hint->text().contains("Ctrl+O"));
  EXPECT_TRUE(hint->text().contains("drop a file"));
  open(window, SIGLAB_SAMPLE_PATH);
  EXPECT_FALSE(hint->isVisible());
}

TEST_F(WindowTest, OpeningAnotherFileClearsTheOldRunAndReadout) {
  test::TempDir dir;
  test::writeFile(dir.file("other.txt"), "1\n2\n3\n");
  MainWindow window;
  window.show();
  open(window, SIGLAB_SAMPLE_PATH);
  run(window);
  window.cursorReadout()->setText(window.signalPlot()->readoutAt(3));
  ASSERT_FALSE(window.cursorReadout()->text().isEmpty());
  ASSERT_GT(window.timingView()->table()->rowCount(), 0);
  QCustomPlot* chart = window.timingView()->chart();
  EXPECT_TRUE(chart->isVisible());
  ASSERT_FALSE(chart->xAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().isEmpty());
  open(window, dir.file("other.txt"));
  EXPECT_TRUE(window.cursorReadout()->text().isEmpty());
  EXPECT_EQ(window.timingView()->table()->rowCount(), 0);
  EXPECT_FALSE(window.comparison());
  EXPECT_EQ(chart->plottableCount(), 0);
  EXPECT_FALSE(chart->isVisible()) << "an empty chart is hidden until the next run";
  const auto names = chart->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
  EXPECT_TRUE(!names || names->ticks().isEmpty()) << "the old run's engine names stay on the chart";
  EXPECT_EQ(chart->yAxis->scaleType(), QCPAxis::stLinear);
  EXPECT_EQ(chart->yAxis->range(), QCPRange(0.0, 1.0)) << "the old run's time scale stays on the chart";
  EXPECT_FALSE(window.filtered());
  for (int i = 0; i < 500 && window.spectrumView()->computing(); ++i) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  }
  EXPECT_FALSE(window.spectrumView()->curves().filtered) << "the old filtered spectrum";
}

TEST_F(WindowTest, HelpListsEveryShortcutAndCtrlPPrints) {
  MainWindow window;
  QList<QAction*> actions;
  for (QMenu* menu : window.menuBar()->findChildren<QMenu*>()) actions += menu->actions();
  const QString table = gui::shortcutTable(actions);
  for (const char* key : {"Ctrl+O", "Ctrl+R", "Ctrl+S", "Ctrl+P", "Ctrl+0", "Ctrl+T", "Esc"}) {
    EXPECT_TRUE(table.contains(key)) << key << " missing from " << table.toStdString();
  }
  int printing = 0;
  for (QAction* action : actions) {
    if (action->shortcut() == QKeySequence(QKeySequence::Print)) {
      ++printing;
      EXPECT_TRUE(action->text().contains("rint")) << action->text().toStdString();
    }
  }
  EXPECT_EQ(printing, 1) << "Ctrl+P is Print, as everywhere else";
  bool listed = false;
  for (QAction* action : actions) listed = listed || action->text().contains("shortcuts");
  EXPECT_TRUE(listed) << "Help > Keyboard shortcuts";
}

TEST_F(WindowTest, ThePlotExportsAsPngSvgAndPdfAtAChosenSizeWithATitle) {
  test::TempDir dir;
  MainWindow window;
  window.resize(1200, 700);
  window.show();
  open(window, SIGLAB_SAMPLE_PATH);
  run(window);
  const QString title = window.plotTitle();
  EXPECT_TRUE(title.contains("noise_sample.txt")) << title.toStdString();
  EXPECT_TRUE(title.contains(QString::fromStdString(chainText(parseChain("mean 5"))))) << title.toStdString();

  window.savePlot(QString::fromStdString(dir.file("plot.png")), {800, 500, title});
  ASSERT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
  const QImage png(QString::fromStdString(dir.file("plot.png")));
  EXPECT_EQ(png.size(), QSize(800, 500));
  window.savePlot(QString::fromStdString(dir.file("plot.svg")), {640, 400, title});
  QFile svg(QString::fromStdString(dir.file("plot.svg")));
  ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
  const QByteArray svgText = svg.readAll();
  EXPECT_TRUE(svgText.contains("<svg"));
  EXPECT_TRUE(svgText.contains("width=\"") && svgText.contains("viewBox=\"0 0 640 400\"")) << svgText.left(600).toStdString();
  EXPECT_TRUE(svgText.contains("noise_sample.txt")) << "the title is in the drawing";
  window.savePlot(QString::fromStdString(dir.file("plot.pdf")), {1000, 600, title});
  QFile pdf(QString::fromStdString(dir.file("plot.pdf")));
  ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
  EXPECT_TRUE(pdf.read(5) == "%PDF-");
  EXPECT_EQ(window.signalPlot()->plot()->plotLayout()->rowCount(), 1) << "the title is removed after the export";

  window.savePlot(QString::fromStdString(dir.file("plot.gif")), {});
  EXPECT_TRUE(window.lastError().contains("use .png, .svg or .pdf")) << window.lastError().toStdString();

  QPrinter printer;
  printer.setOutputFormat(QPrinter::PdfFormat);
  printer.setOutputFileName(QString::fromStdString(dir.file("printed.pdf")));
  window.printPlot(printer);
  QFile printed(QString::fromStdString(dir.file("printed.pdf")));
  ASSERT_TRUE(printed.open(QIODevice::ReadOnly));
  EXPECT_TRUE(printed.read(5) == "%PDF-");
  EXPECT_GT(printed.size(), 2000);
}

}  // namespace
}  // namespace siglab

// Writes PNGs of the main views after a run on the bundled sample, for the README and for people
// reviewing a change. They land in SIGLAB_SCREENSHOT_DIR.
#include <QDir>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>

#include "gui_dialog_support.hpp"
#include "gui_test_support.hpp"
#include "lab_view.hpp"
#include "ladder_view.hpp"
#include "import_dialog.hpp"
#include "signal_plot.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/text_format.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// A 256-colour PNG at full compression (quality 0): far fewer bytes, the same look for a UI.
bool saveSmallPng(QWidget& widget, const QString& path) {
  return widget.grab().toImage().convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither).save(path, "PNG", 0);
}

TEST(Screenshots, MainViewsOfARunOnTheSample) {
  QSettings().clear();  // the default filter, whatever ran before in this process
  gui::MainWindow window;
  window.resize(1500, 820);
  window.show();
  window.openFile(SIGLAB_SAMPLE_PATH);
  ASSERT_TRUE(test::waitForTask(window));
  window.runEngines();
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.comparison());
  ASSERT_TRUE(QDir().mkpath(SIGLAB_SCREENSHOT_DIR));
  const QDir dir(SIGLAB_SCREENSHOT_DIR);

  window.signalPlot()->setVisibleRange(0, 2999);
  QCoreApplication::processEvents();
  ASSERT_TRUE(saveSmallPng(window, dir.filePath("siglab-overlaid.png")));
  EXPECT_EQ(QImage(dir.filePath("siglab-overlaid.png")).width(), window.width());

  window.signalPlot()->setStacked(true);
  window.signalPlot()->resetView();
  QCoreApplication::processEvents();
  ASSERT_TRUE(saveSmallPng(window, dir.filePath("siglab-stacked.png")));

  auto* tabs = window.findChild<QTabWidget*>();
  ASSERT_TRUE(tabs);
  window.signalPlot()->setStacked(false);
  window.signalPlot()->setVisibleRange(2000, 4999);
  tabs->setCurrentWidget(window.statisticsPanel());
  window.statisticsPanel()->setShowFiltered(true);
  ASSERT_TRUE(test::waitForVisibleStatistics(*window.statisticsPanel()));
  QCoreApplication::processEvents();
  ASSERT_TRUE(saveSmallPng(window, dir.filePath("siglab-statistics.png")));

  tabs->setCurrentWidget(window.labView());
  window.labView()->showExperiment(LabExperiment::Matmul);
  for (QSpinBox* spin : window.labView()->findChildren<QSpinBox*>()) {
    if (spin->prefix() == "M " || spin->prefix() == "N " || spin->prefix() == "K ") spin->setValue(384);
  }
  window.runLab(LabExperiment::Matmul);
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.labView()->ladderView(LabExperiment::Matmul)->ladder());
  QCoreApplication::processEvents();
  ASSERT_TRUE(saveSmallPng(window, dir.filePath("siglab-lab.png")));

  tabs->setCurrentIndex(tabs->count() - 1);  // the device panel
  ASSERT_EQ(tabs->tabText(tabs->currentIndex()), "Device");
  QCoreApplication::processEvents();
  ASSERT_TRUE(saveSmallPng(window, dir.filePath("siglab-device.png")));
}

TEST(Screenshots, TheFirstWindowAndTheImportDialog) {
  QSettings().clear();
  test::TempDir dir;
  std::string csv = "time,pressure,temperature\n";
  for (int i = 0; i < 200; ++i) csv += std::to_string(i) + "," + std::to_string(1000 + i % 13) + "," + std::to_string(20 + i % 5) + "\n";
  test::writeFile(dir.file("logger.csv"), csv);
  gui::MainWindow window;
  window.resize(1200, 700);
  window.show();
  QCoreApplication::processEvents();
  ASSERT_TRUE(QDir().mkpath(SIGLAB_SCREENSHOT_DIR));
  const QDir shots(SIGLAB_SCREENSHOT_DIR);
  ASSERT_TRUE(saveSmallPng(window, shots.filePath("siglab-empty.png")));
  window.openFile(QString::fromStdString(dir.file("logger.csv")));
  gui::ImportDialog* dialog = test::waitForChild<gui::ImportDialog>(window);
  ASSERT_TRUE(dialog);
  QCoreApplication::processEvents();
  ASSERT_TRUE(saveSmallPng(*dialog, shots.filePath("siglab-import.png")));
  dialog->reject();
}

TEST(Screenshots, AMillionSamplesZoomedOutKeepTheirSpikes) {
  QSettings().clear();
  test::TempDir dir;
  GenerateOptions options;
  options.count = 1'000'000;
  options.period = 250'000;
  std::vector<double> values = generateSignal(options);
  for (std::size_t i : {111'111u, 222'222u, 777'777u}) values[i] += 4.0;  // one-sample spikes
  writeTextSignal(dir.file("large.txt"), values);
  gui::MainWindow window;
  window.resize(1500, 820);
  window.show();
  window.openFile(QString::fromStdString(dir.file("large.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  window.runEngines();
  ASSERT_TRUE(test::waitForTask(window));
  window.signalPlot()->setStacked(true);
  QCoreApplication::processEvents();
  ASSERT_TRUE(QDir().mkpath(SIGLAB_SCREENSHOT_DIR));
  ASSERT_TRUE(saveSmallPng(window, QDir(SIGLAB_SCREENSHOT_DIR).filePath("siglab-large.png")));
}

}  // namespace
}  // namespace siglab

// A PNG of a million samples zoomed out, for people reviewing a change (SIGLAB_SCREENSHOT_DIR).
// The README's screenshots are siglab-screenshots' (readme_screenshots.cpp).
#include <QDir>
#include <QSettings>

#include "gui_test_support.hpp"
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

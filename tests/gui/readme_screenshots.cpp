// siglab-screenshots OUT_DIR SAMPLE_FILE: drives SigLab's window through what the README shows
// and writes one PNG per view into OUT_DIR: the filtered signal, the timing table after Compare,
// the Spectrum tab with the filter's response, the Lab tab, the first window, the import dialog
// and the statistics. scripts/screenshots.sh runs it (under Xvfb where there is one); ctest runs
// it offscreen so it keeps working. Exit status 1 and a message on stderr when a view fails.
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QThread>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>

#include "cursor_docks.hpp"
#include "cursor_readout_view.hpp"
#include "gui_dialog_support.hpp"
#include "gui_test_support.hpp"
#include "import_dialog.hpp"
#include "lab_view.hpp"
#include "markers_view.hpp"
#include "signal_cursors.hpp"
#include "ladder_view.hpp"
#include "signal_plot.hpp"
#include "spectrogram_view.hpp"
#include "siglab/io/signal_io.hpp"
#include "spectrum_view.hpp"
#include "timing_view.hpp"

namespace siglab {
namespace {

constexpr int kWidth = 1500, kHeight = 860;

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what);
}

void waitForTask(const gui::MainWindow& window, const std::string& what) {
  require(static_cast<bool>(test::waitForTask(window)), what + ": the task did not finish");
  require(window.lastError().isEmpty(), what + ": " + window.lastError().toStdString());
}

void waitForSpectrum(const gui::SpectrumView& view) {
  // processEvents returns at once when no event is waiting: the deadline is a clock, not a count.
  QElapsedTimer clock;
  clock.start();
  while (view.computing() && clock.elapsed() < 20000) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(5);
  }
  require(!view.computing(), "the spectrum did not finish in 20 s");
}

void waitForSpectrogram(const gui::SpectrogramView& view) {
  QElapsedTimer clock;
  clock.start();
  while ((view.busy() || !view.complete()) && clock.elapsed() < 20000) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(5);
  }
  require(!view.busy() && view.complete(), "the spectrogram was not drawn at screen resolution in 20 s");
}

// A 256-colour PNG at full compression: far fewer bytes, the same look for a UI.
void save(QWidget& widget, const QDir& dir, const char* name) {
  QCoreApplication::processEvents();
  const QString path = dir.filePath(name);
  require(widget.grab().toImage().convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither).save(path, "PNG", 0),
          "cannot write " + path.toStdString());
  std::printf("wrote %s\n", qPrintable(path));
}

void firstWindowAndImportDialog(const QDir& out, const QDir& scratch) {
  gui::MainWindow window;
  window.resize(kWidth, kHeight);
  window.show();
  save(window, out, "siglab-empty.png");
  std::string csv = "time,pressure,temperature\n";
  for (int i = 0; i < 200; ++i) {
    csv += std::to_string(i) + "," + std::to_string(1000 + i % 13) + "," + std::to_string(20 + i % 5) + "\n";
  }
  const QString path = scratch.filePath("logger.csv");
  QFile file(path);
  require(file.open(QIODevice::WriteOnly) && file.write(csv.data(), static_cast<qint64>(csv.size())) > 0,
          "cannot write " + path.toStdString());
  file.close();
  window.openFile(path);
  auto* dialog = test::waitForChild<gui::ImportDialog>(window);
  require(dialog != nullptr, "the import dialog did not open for a CSV file with a header");
  save(*dialog, out, "siglab-import.png");
  dialog->reject();
}

void sampleViews(const QDir& out, const QString& sample) {
  gui::MainWindow window;
  window.resize(kWidth, kHeight);
  window.show();
  window.openFile(sample);
  waitForTask(window, "opening " + sample.toStdString());

  window.applyFilter();
  waitForTask(window, "Apply");
  require(window.filtered() != nullptr, "Apply gave no filtered signal");
  window.signalPlot()->setVisibleRange(0, 2999);
  window.showView(window.statisticsPanel());
  window.statisticsPanel()->setShowFiltered(true);
  require(static_cast<bool>(test::waitForVisibleStatistics(*window.statisticsPanel())), "statistics not refreshed");
  save(window, out, "siglab-gui.png");

  window.runEngines();
  waitForTask(window, "Compare engines");
  require(window.comparison() != nullptr, "Compare gave no comparison");
  window.showView(window.timingView());
  window.signalPlot()->setStacked(true);
  window.signalPlot()->setVisibleRange(2000, 4999);
  save(window, out, "siglab-timings.png");

  window.signalPlot()->setStacked(false);
  window.showView(window.statisticsPanel());
  require(static_cast<bool>(test::waitForVisibleStatistics(*window.statisticsPanel())), "statistics not refreshed");
  save(window, out, "siglab-statistics.png");

  // Cursors A and B with their readout, a marker and a region between them.
  auto* docks = gui::CursorDocks::of(&window);
  docks->cursors()->setShown(true);
  docks->cursors()->setPositions(2600, 3700);
  docks->markers()->addMarker({2300, "onset", std::nullopt});
  docks->markers()->addRegionFromCursors("burst");
  window.showView(docks->readout());
  QCoreApplication::processEvents();
  save(window, out, "siglab-cursors.png");

  window.showView(window.labView());
  window.labView()->showExperiment(LabExperiment::Matmul);
  for (QSpinBox* spin : window.labView()->findChildren<QSpinBox*>()) {
    if (spin->prefix() == "M " || spin->prefix() == "N " || spin->prefix() == "K ") spin->setValue(384);
  }
  window.runLab(LabExperiment::Matmul);
  waitForTask(window, "the matrix-multiply ladder");
  require(window.labView()->ladderView(LabExperiment::Matmul)->ladder() != nullptr, "the ladder gave no result");
  save(*window.labView()->window(), out, "siglab-lab.png");  // the Lab floats apart from the window
}

// Tones at 300 Hz and 2.5 kHz in noise at 8 kHz: the default mean of 5 keeps the first and takes
// the second down by its response there, which the Spectrum tab draws over the spectra.
void spectrumView(const QDir& out, const QDir& scratch) {
  const double rate = 8000.0;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0.0, 0.05);
  std::vector<double> x(400'000);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double t = static_cast<double>(i) / rate;
    x[i] = 0.5 * std::sin(2 * std::numbers::pi * 300 * t) + 0.2 * std::sin(2 * std::numbers::pi * 2500 * t) + noise(rng);
  }
  WriteOptions wav;
  wav.sampleRate = rate;
  const QString path = scratch.filePath("tones.wav");
  writeSignal(path.toStdString(), x, wav);
  gui::MainWindow window;
  window.resize(kWidth, kHeight);
  window.show();
  window.openFile(path);
  waitForTask(window, "opening tones.wav");
  window.applyFilter();
  waitForTask(window, "Apply on tones.wav");
  window.showView(window.spectrumView());
  window.spectrumView()->setSegment(2048);
  waitForSpectrum(*window.spectrumView());
  require(window.spectrumView()->curves().response.has_value(), "no filter response over the spectrum");
  window.signalPlot()->setVisibleRange(0, 800);
  save(window, out, "siglab-spectrum.png");

  // The same tones over time: the whole signal, the Spectrogram dock in front.
  auto* dock = window.findChild<QDockWidget*>("spectrogramDock");
  require(dock != nullptr, "no Spectrogram dock");
  dock->raise();
  window.signalPlot()->setVisibleRange(0, x.size());
  auto* spectrogram = dock->findChild<gui::SpectrogramView*>();
  require(spectrogram != nullptr, "no spectrogram view in its dock");
  QCoreApplication::processEvents();
  waitForSpectrogram(*spectrogram);
  save(window, out, "siglab-spectrogram.png");
}

}  // namespace
}  // namespace siglab

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: siglab-screenshots OUT_DIR SAMPLE_FILE\n");
    return 2;
  }
  // Default settings, in a scratch folder: the user's own never change the pictures.
  QTemporaryDir scratch;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, scratch.path());
  QApplication::setOrganizationName("SigLabScreenshots");
  QApplication::setApplicationName("siglab-screenshots");
  const QString outPath = QString::fromLocal8Bit(argv[1]);
  if (!QDir().mkpath(outPath)) {
    std::fprintf(stderr, "siglab-screenshots: cannot create the folder %s\n", argv[1]);
    return 1;
  }
  try {
    const QDir out(outPath), work(scratch.path());
    siglab::firstWindowAndImportDialog(out, work);
    siglab::sampleViews(out, QString::fromLocal8Bit(argv[2]));
    siglab::spectrumView(out, work);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "siglab-screenshots: %s\n", e.what());
    return 1;
  }
  return 0;
}

// The Spectrogram dock: in the window, linked to the signal's time axis both ways, its cells the
// spectrogram stage's values, a new request replacing the running one, Esc, export, the readout.
#include <qcustomplot.h>

#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QSettings>

#include <cmath>
#include <cstring>
#include <numbers>

#include "gui_test_support.hpp"
#include "signal_plot.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_stages.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline_run.hpp"
#include "spectrogram_tasks.hpp"
#include "spectrogram_view.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::SpectrogramView;

// Runs the event loop until the view has drawn every tile its range needs (or 20 s have passed).
::testing::AssertionResult waitForSpectrogram(const SpectrogramView& view) {
  QElapsedTimer timer;
  timer.start();
  while (view.busy() || !view.complete()) {
    if (timer.elapsed() > 20'000) return ::testing::AssertionFailure() << "the spectrogram was not complete in 20 s";
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  }
  return ::testing::AssertionSuccess();
}

std::vector<double> tone(std::size_t n, double cyclesPerSample) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = std::sin(2 * std::numbers::pi * cyclesPerSample * static_cast<double>(i)) + 1e-3 * std::cos(0.37 * static_cast<double>(i * i % 1009));
  }
  return x;
}

gui::SignalPtr signalOf(const std::vector<double>& x, std::optional<double> rate = std::nullopt) {
  return std::make_shared<const gui::LoadedSignal>("test", x, Progress{}, rate);
}

TEST(SpectrogramGui, TheDockIsInTheWindowAndItsTimeAxisIsTheSignalPlotsBothWays) {
  QSettings().clear();
  test::TempDir dir;
  writeSignal(dir.file("tone.txt"), tone(200'000, 0.1));
  gui::MainWindow window;
  window.resize(1400, 900);
  window.show();
  auto* dock = window.findChild<QDockWidget*>("spectrogramDock");
  ASSERT_TRUE(dock);
  EXPECT_EQ(dock->windowTitle(), "Spectrogram");
  dock->raise();  // its tab in front
  window.openFile(QString::fromStdString(dir.file("tone.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  auto* view = dock->findChild<SpectrogramView*>();
  ASSERT_TRUE(view);
  ASSERT_TRUE(waitForSpectrogram(*view));
  EXPECT_EQ(view->last(), 200'000.0);

  window.signalPlot()->setVisibleRange(50'000, 60'000);  // the signal zoomed: the spectrogram follows
  QCoreApplication::processEvents();
  EXPECT_NEAR(view->first(), 50'000, 1);
  EXPECT_NEAR(view->last(), 60'000, 1);
  ASSERT_TRUE(waitForSpectrogram(*view));
  EXPECT_EQ(view->levelDrawn(), view->tiles()->wantedLevel(50'000, 60'000, static_cast<std::size_t>(view->plot()->axisRect()->width())));

  std::pair<std::size_t, std::size_t> plotRange;
  QObject::connect(window.signalPlot(), &gui::SignalPlot::visibleRangeChanged,
                   [&plotRange](std::size_t first, std::size_t last) { plotRange = {first, last}; });
  view->plot()->xAxis->setRange(52'000, 54'000);  // the spectrogram panned and zoomed: the signal follows
  QCoreApplication::processEvents();
  EXPECT_NEAR(static_cast<double>(plotRange.first), 52'000, 1);
  EXPECT_NEAR(static_cast<double>(plotRange.second), 54'000, 1);
  EXPECT_NEAR(view->first(), 52'000, 1);
  ASSERT_TRUE(waitForSpectrogram(*view));
}

TEST(SpectrogramGui, AFileViewedFromItsMappingIsDrawnFromThePreviewAndKeepsItsTilesOnceIndexed) {
  QSettings().clear();
  test::TempDir dir;
  const std::vector<double> x = tone(300'000, 0.05);
  WriteOptions raw;
  raw.format = FileFormat::raw;
  writeSignal(dir.file("big.raw"), x, raw);
  gui::MainWindow window;
  window.setMappedAboveBytes(0);  // as a file larger than memory
  window.resize(1400, 900);
  window.show();
  auto* dock = window.findChild<QDockWidget*>("spectrogramDock");
  ASSERT_TRUE(dock);
  dock->raise();
  auto* view = dock->findChild<SpectrogramView*>();
  ReadOptions options;
  options.rawType = SampleType::f64;
  window.openFile(QString::fromStdString(dir.file("big.raw")), options);
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal() && window.signal()->mapping()) << window.lastError().toStdString();
  ASSERT_TRUE(waitForSpectrogram(*view));
  const std::shared_ptr<SpectrogramTiles> tiles = view->tiles();
  EXPECT_EQ(tiles->layout().frames, (300'000 - 256) / 224 + 1);
  window.signalPlot()->setOriginal(window.signal());  // the indexed signal again: the same samples, the same tiles
  EXPECT_EQ(view->tiles(), tiles);
}

TEST(SpectrogramGui, TheDrawnCellsAreTheSpectrogramStagesValuesInDecibels) {
  test::TempDir dir;
  const std::vector<double> x = tone(30'000, 0.05);
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  ChannelSource source;
  source.channels = {x};
  const std::string out = dir.file("stage.npy");
  ASSERT_TRUE(runPipeline(parseChain("spectrogram nperseg=128 noverlap=0 window=hann"), source, FileSink{out, {}}, engines,
                          PipelineOptions{}).written);
  const std::string bytes = test::readFile(out);
  const std::size_t header = 10 + (static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8);
  std::vector<double> stage((bytes.size() - header) / sizeof(double));
  std::memcpy(stage.data(), bytes.data() + header, stage.size() * sizeof(double));

  SpectrogramView view;
  view.resize(900, 700);  // more columns than the 234 frames: every frame drawn
  view.show();
  view.setSegment(128, 0, "hann");
  view.setSignal(signalOf(x));
  ASSERT_TRUE(waitForSpectrogram(view));
  EXPECT_EQ(view.levelDrawn(), 0u);
  EXPECT_TRUE(view.note().startsWith("every frame")) << view.note().toStdString();
  QCPColorMapData* cells = view.colourMap()->data();
  const std::size_t frequencies = 65;
  ASSERT_EQ(cells->valueSize(), static_cast<int>(frequencies));  // one row a bin
  const std::vector<ViewColumn> columns =
      view.tiles()->columnsFor(view.first(), view.last(), static_cast<std::size_t>(cells->keySize()));
  // FFTW's values are the stage's bits; cuFFT's (where a GPU ran the tiles) within the stage's stated bound.
  const bool gpu = view.note().contains("cuFFT");
  const double bound = spectrogramAgreementBound(view.tiles()->layout(), 1.01);
  for (int c = 0; c < cells->keySize(); c += 37) {
    for (int r = 0; r < cells->valueSize(); r += 5) {
      const double power = stage[columns[static_cast<std::size_t>(c)].frame * frequencies + static_cast<std::size_t>(r)];
      if (gpu) EXPECT_NEAR(std::pow(10.0, cells->cell(c, r) / 10.0), power, bound) << "column " << c << ", row " << r;
      else EXPECT_EQ(cells->cell(c, r), powerDecibels(power)) << "column " << c << ", row " << r;
    }
  }
}

TEST(SpectrogramGui, ANewRangeReplacesTheRunningRequestAndEscStopsIt) {
  std::vector<double> x = tone(4'000'000, 0.01);
  SpectrogramView view;
  view.resize(900, 400);
  view.show();
  view.setSegment(4096, 0, "hann");
  view.setSignal(signalOf(x));
  ASSERT_TRUE(view.busy());  // the overview: about 900 frames of 4096 samples
  view.setVisibleRange(1'000'000, 1'400'000);  // replaces it
  ASSERT_TRUE(waitForSpectrogram(view));
  EXPECT_TRUE(view.tiles()->missingFor(1'000'000, 1'400'000, static_cast<std::size_t>(view.plot()->axisRect()->width())).empty());

  view.setSegment(8192, 0, "blackman");  // a new pyramid: everything to compute again
  ASSERT_TRUE(view.busy());
  QKeyEvent esc(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
  QCoreApplication::sendEvent(view.plot(), &esc);
  QElapsedTimer timer;
  timer.start();
  while (view.busy() && timer.elapsed() < 10'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  EXPECT_FALSE(view.busy());
  while (gui::tileWorkersRunning() > 0 && timer.elapsed() < 10'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  EXPECT_EQ(gui::tileWorkersRunning(), 0);  // the worker stopped too, at its next check
  EXPECT_FALSE(view.complete());  // stopped before the tiles it asked for
  EXPECT_FALSE(view.tiles()->missingFor(view.first(), view.last(), static_cast<std::size_t>(view.plot()->axisRect()->width())).empty());
}

// A zoom through the signal plot moves the range more than once in one turn of the event loop: the
// view draws once for all of them (each drawing fills every cell and replots).
TEST(SpectrogramGui, RangesSetInOneTurnOfTheEventLoopAreDrawnOnce) {
  const std::vector<double> x = tone(400'000, 0.05);
  SpectrogramView view;
  view.resize(900, 400);
  view.show();
  view.setSignal(signalOf(x));
  ASSERT_TRUE(waitForSpectrogram(view));
  const auto columns = static_cast<std::size_t>(view.plot()->axisRect()->width());
  ASSERT_TRUE(view.tiles()->missingFor(10, 400'000, columns).empty()) << "the test needs ranges drawn from cached tiles";
  ASSERT_TRUE(view.tiles()->missingFor(20, 400'000, columns).empty());
  int drawings = 0;
  QObject::connect(&view, &SpectrogramView::drawn, [&drawings] { ++drawings; });
  view.setVisibleRange(10, 400'000);
  view.setVisibleRange(20, 400'000);
  ASSERT_TRUE(waitForSpectrogram(view));
  EXPECT_EQ(drawings, 1);
  EXPECT_EQ(view.plot()->xAxis->range().lower, 20);
}

// Each zoom step asks the tile pyramid once, through the signal plot or on the spectrogram alone,
// and ends drawn on the range asked for (a second request per step, its tiles all cached, once
// abandoned the running worker before its drawing).
TEST(SpectrogramGui, EachZoomStepAsksForTilesOnceAndIsDrawnOnItsRange) {
  QSettings().clear();
  test::TempDir dir;
  WriteOptions raw;
  raw.format = FileFormat::raw;
  writeSignal(dir.file("tone.raw"), tone(2'000'000, 0.05), raw);
  gui::MainWindow window;
  window.setMappedAboveBytes(0);  // as a file larger than memory
  window.resize(1400, 900);
  window.show();
  auto* dock = window.findChild<QDockWidget*>("spectrogramDock");
  ASSERT_TRUE(dock);
  auto* view = dock->findChild<SpectrogramView*>();
  dock->setFloating(true);  // as the GUI benchmark shows it
  dock->resize(1200, 500);
  dock->show();
  ReadOptions options;
  options.rawType = SampleType::f64;
  window.openFile(QString::fromStdString(dir.file("tone.raw")), options);
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  ASSERT_TRUE(waitForSpectrogram(*view));
  double first = 0, last = 2'000'000;
  for (int step = 0; step < 8; ++step) {
    const double width = (last - first) / 2;
    first += width / 3;
    last = first + width;
    const std::uint64_t before = view->tileRequests();
    if (step % 2 == 0) window.signalPlot()->setVisibleRange(first, last);
    else view->setVisibleRange(first, last);
    ASSERT_TRUE(waitForSpectrogram(*view));
    ASSERT_TRUE(test::waitForTask(window));
    EXPECT_EQ(view->tileRequests() - before, 1u) << "step " << step << (step % 2 == 0 ? " through the plot" : " alone");
    EXPECT_NEAR(view->first(), first, 1) << "step " << step;
    EXPECT_NEAR(view->last(), last, 1) << "step " << step;
  }
}

TEST(SpectrogramGui, ExportWritesPngSvgAndPdfAndSaysWhyNot) {
  test::TempDir dir;
  SpectrogramView view;
  view.resize(600, 400);
  view.show();
  view.setSampleRate(1000.0);
  view.setSignal(signalOf(tone(20'000, 0.2), 1000.0));
  ASSERT_TRUE(waitForSpectrogram(view));
  for (const char* name : {"s.png", "s.svg", "s.pdf"}) {
    const QString path = QString::fromStdString(dir.file(name));
    EXPECT_TRUE(view.exportTo(path).isEmpty()) << name;
    EXPECT_GT(QFileInfo(path).size(), 100) << name;
  }
  const QString error = view.exportTo(QString::fromStdString(dir.file("missing/s.png")));
  EXPECT_TRUE(error.contains("missing/s.png")) << error.toStdString();
}

TEST(SpectrogramGui, TheReadoutSaysFrequencyTimeAndPowerAndTheControlsApply) {
  SpectrogramView view;
  view.resize(700, 500);
  view.show();
  view.setSampleRate(8000.0);
  view.setSignal(signalOf(tone(64'000, 1000.0 / 8000.0), 8000.0));  // a 1 kHz tone at 8 kHz
  ASSERT_TRUE(waitForSpectrogram(view));
  const QString atTone = view.readoutAt(32'000, 1000.0);
  EXPECT_TRUE(atTone.startsWith("f = 1 kHz, t = ")) << atTone.toStdString();
  EXPECT_TRUE(atTone.endsWith(" dB")) << atTone.toStdString();
  const QString away = view.readoutAt(32'000, 3000.0);
  const auto decibels = [](const QString& text) { return text.section(", ", -1).chopped(3).toDouble(); };
  EXPECT_GT(decibels(atTone), decibels(away) + 40);

  view.setDecibelRange(std::pair{-90.0, -10.0});
  EXPECT_EQ(view.colourMap()->dataRange(), QCPRange(-90, -10));
  view.setDecibelRange(std::nullopt);
  EXPECT_NE(view.colourMap()->dataRange(), QCPRange(-90, -10));
  view.setColourMap("grey");
  EXPECT_EQ(view.colourMap()->gradient().color(0, QCPRange(0, 1)), QColor(Qt::black).rgb());
}

}  // namespace
}  // namespace siglab

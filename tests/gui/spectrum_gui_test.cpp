// The sample rate in the GUI (export, axis, readout, remembered per file) and the Spectrum tab.
#include <qcustomplot.h>

#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QStatusBar>
#include <QElapsedTimer>
#include <QSettings>

#include <cmath>
#include <numbers>
#include <random>

#include "gui_test_support.hpp"
#include "sample_rate_field.hpp"
#include "signal_plot.hpp"
#include "siglab/auto_engine_rule.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/io/signal_io.hpp"
#include "spectrum_engine.hpp"
#include "spectrum_view.hpp"
#include "task_runner.hpp"
#include "task_status.hpp"
#include "cli_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

::testing::AssertionResult waitForSpectrum(const gui::SpectrumView& view) {
  QElapsedTimer timer;
  timer.start();
  while (view.computing()) {
    if (timer.elapsed() > 20'000) return ::testing::AssertionFailure() << "the spectrum did not finish in 20 s";
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  }
  return ::testing::AssertionSuccess();
}

std::vector<double> pureTone(std::size_t n, double cyclesPerSample) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = std::sin(2 * std::numbers::pi * cyclesPerSample * static_cast<double>(i));
  return x;
}

class SampleRateGuiTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
};

TEST_F(SampleRateGuiTest, AWavExportedFromTheGuiKeepsTheInputsRate) {
  test::TempDir dir;
  WriteOptions wav;
  wav.sampleRate = 44100.0;
  writeSignal(dir.file("in.wav"), pureTone(5000, 0.01), wav);
  MainWindow window;
  window.openFile(QString::fromStdString(dir.file("in.wav")));
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  EXPECT_EQ(window.sampleRate(), 44100.0);
  window.runEngines();
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.filtered()) << window.lastError().toStdString();
  window.exportResult(QString::fromStdString(dir.file("out.wav")));
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
  EXPECT_EQ(readSignal(dir.file("out.wav")).sampleRate, 44100.0);  // was 48000: the GUI dropped the rate

  window.exportReport(QString::fromStdString(dir.file("report.json")));
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_NE(test::readFile(dir.file("report.json")).find("\"sample_rate_hz\": 44100.0"), std::string::npos);
}

TEST_F(SampleRateGuiTest, WithARateThePlotsReadTimeAndTheRateIsRememberedPerFile) {
  test::TempDir dir;
  writeSignal(dir.file("a.txt"), pureTone(2000, 0.01));
  writeSignal(dir.file("b.txt"), pureTone(2000, 0.01));
  {
    MainWindow window;
    window.resize(1200, 700);
    window.show();
    window.openFile(QString::fromStdString(dir.file("a.txt")));
    ASSERT_TRUE(test::waitForTask(window));
    EXPECT_FALSE(window.sampleRate());
    EXPECT_EQ(window.signalPlot()->plot()->xAxis->label(), "sample index");
    window.sampleRateField()->setValue(1000.0);  // as a user types it
    EXPECT_EQ(window.sampleRate(), 1000.0);
    EXPECT_EQ(window.signalPlot()->plot()->xAxis->label(), "time");
    EXPECT_TRUE(window.signalPlot()->readoutAt(1500.0).startsWith("t = 1.5 s, sample ")) << window.signalPlot()->readoutAt(1500.0).toStdString();
    window.statisticsPanel()->setVisibleRange(0, 2000);
    ASSERT_TRUE(test::waitForVisibleStatistics(*window.statisticsPanel()));
    const QString maxCell = window.statisticsPanel()->table()->item(5, 0)->text();
    EXPECT_TRUE(maxCell.endsWith(" ms")) << maxCell.toStdString();  // the max's position as a time
  }
  MainWindow window;
  window.openFile(QString::fromStdString(dir.file("b.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(window.sampleRate()) << "another file keeps its own (unknown) rate";
  window.openFile(QString::fromStdString(dir.file("a.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_EQ(window.sampleRate(), 1000.0) << "remembered for a.txt";
}

// The Device tab's GPUs compute the spectra with cuFFT (the same bits on a forced split as on GPU
// 0) for a signal long enough (the auto rule's Welch row); where none can, FFTW does, and the note
// says which ran and why (core's rule).
TEST(SpectrumView, RunsOnTheChosenDevicesOrSaysFftwRan) {
  auto original = std::make_shared<const gui::LoadedSignal>("tone", pureTone(kWelchGpuMinSamples, 0.05));
  gui::SpectrumView view;
  view.setSegment(1024);
  view.setOriginal(original);
  ASSERT_TRUE(waitForSpectrum(view));
  const bool gpu = probeDevices().front().available;
  const std::string fftw = "cpu (FFTW); the GPU could not run it: ";
  if (!gpu) {
    EXPECT_EQ(view.curves().engine.toStdString().substr(0, fftw.size()), fftw);
  }
  const Spectrum cpu = view.curves().original;
  view.setDevices({0});
  ASSERT_TRUE(waitForSpectrum(view));
  const Spectrum one = view.curves().original;
  if (gpu) {
    EXPECT_EQ(view.curves().engine, "gpu (cuFFT)");
  }
  view.setDevices({0, 0});
  ASSERT_TRUE(waitForSpectrum(view));
  if (gpu) {
    EXPECT_EQ(view.curves().engine, "gpu (cuFFT) on devices 0,0");
  }
  EXPECT_EQ(view.curves().original.power, one.power);  // the same bits
  ASSERT_EQ(one.power.size(), cpu.power.size());
  WelchOptions options;
  options.segment = 1024;
  const double bound = spectrumAgreementBound(options, 1.0, original->size());
  for (std::size_t k = 0; k < cpu.power.size(); ++k) EXPECT_NEAR(one.power[k], cpu.power[k], bound);
}

TEST(SpectrumView, ShowsTheTonesPeakTheFilteredSpectrumAndTheFiltersResponse) {
  const double rate = 8000.0;
  auto original = std::make_shared<const gui::LoadedSignal>("tone", pureTone(50000, 1000.0 / rate));
  const FilterSpec mean = makeMeanFilter(9);
  std::vector<double> filteredSamples(original->size());
  filterSerial(original->samples(), mean, filteredSamples);
  auto filtered = std::make_shared<const gui::LoadedSignal>("filtered", std::move(filteredSamples));

  gui::SpectrumView view;
  view.resize(800, 500);
  view.setSegment(1024);
  view.setSampleRate(rate);
  view.setOriginal(original);
  ASSERT_TRUE(waitForSpectrum(view));
  const Spectrum& s = view.curves().original;
  ASSERT_EQ(s.power.size(), 513u);
  const auto peak = std::max_element(s.power.begin(), s.power.end()) - s.power.begin();
  EXPECT_DOUBLE_EQ(s.frequency[static_cast<std::size_t>(peak)], 1000.0);
  EXPECT_FALSE(view.curves().filtered);

  view.setFiltered(filtered, mean);
  ASSERT_TRUE(waitForSpectrum(view));
  ASSERT_TRUE(view.curves().filtered);
  ASSERT_TRUE(view.curves().response);
  EXPECT_EQ(view.curves().response->frequency.size(), 512u);
  // The mean of 9 passes 0 Hz and nulls 8000 / 9 Hz: its response says so.
  EXPECT_NEAR(view.curves().response->magnitudeDb()[0], 0.0, 1e-12);
  EXPECT_EQ(view.plot()->graphCount(), 3);
  EXPECT_GT(view.plot()->graph(2)->dataCount(), 500);

  view.setVisibleOnly(true);
  view.setVisibleRange(1000, 1600);  // 600 samples: the segment shrinks to fit
  ASSERT_TRUE(waitForSpectrum(view));
  QElapsedTimer timer;
  timer.start();
  while (view.curves().range.begin != 1000 && timer.elapsed() < 5000) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    ASSERT_TRUE(waitForSpectrum(view));
  }
  EXPECT_EQ(view.curves().range.begin, 1000u);
  EXPECT_EQ(view.curves().range.end, 1600u);
  EXPECT_EQ(view.curves().segment, 600u);
  view.setLogFrequency(true);
  EXPECT_EQ(view.plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

// One rule picks Welch's engine (core's chooseWelchEngine): the desktop's Spectrum view, the CLI's
// spectrum command and Python's welch (welchEngineHere, as the binding calls it) name the same
// engine and reason for the same request ("auto" on GPU 0).
TEST(SpectrumView, NamesTheEngineTheCliAndPythonName) {
  test::TempDir dir;
  const std::vector<double> x = pureTone(20000, 0.05);
  std::string text;
  for (double v : x) text += std::to_string(v) + "\n";
  test::writeFile(dir.file("tone.txt"), text);
  const test::CliOutcome cli = test::runCli("spectrum " + dir.file("tone.txt") + " --segment 1024 -o " + dir.file("psd.csv"), dir);
  ASSERT_EQ(cli.exitCode, 0) << cli.err;

  gui::SpectrumView view;
  view.setSegment(1024);
  view.setOriginal(std::make_shared<const gui::LoadedSignal>("tone", x));
  ASSERT_TRUE(waitForSpectrum(view));
  const std::string gui = view.curves().engine.toStdString();
  const std::string python = welchEngineHere("auto", {}, x.size()).note();
  EXPECT_EQ(gui, python);
  EXPECT_NE(cli.out.find("segments of 1024, " + gui + "\n"), std::string::npos) << cli.out << " vs " << gui;
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

// Issue 29 item 6: the spectrum shows what it computes in the status bar, and Esc (the window's
// Cancel) stops it between its pieces, saying so.
TEST(SpectrumView, ShowsItsProgressInTheStatusBarAndEscCancelsIt) {
  gui::MainWindow window;
  gui::SpectrumView* view = window.spectrumView();
  gui::TaskStatus* status = view->taskStatus();
  ASSERT_TRUE(status);
  EXPECT_TRUE(window.statusBar()->isAncestorOf(status)) << "in the window's status bar";
  std::vector<double> x(std::size_t{1} << 22);  // 4 pieces of a million samples
  std::mt19937_64 rng(test::freshSeed());
  std::normal_distribution<double> normal;
  for (double& v : x) v = normal(rng);
  view->setOriginal(std::make_shared<const gui::LoadedSignal>("noise", x));
  ASSERT_TRUE(view->computing());
  EXPECT_FALSE(status->isHidden());
  auto* label = status->findChild<QLabel*>();
  ASSERT_TRUE(label);
  EXPECT_TRUE(label->text().startsWith("Computing the spectrum")) << label->text().toStdString();
  window.cancelTask();  // what Esc does
  ASSERT_TRUE(waitForSpectrum(*view));
  EXPECT_TRUE(status->isHidden());
  EXPECT_TRUE(view->curves().problem.contains("cancelled")) << view->curves().problem.toStdString();
  EXPECT_TRUE(view->curves().original.power.empty());

  view->setSegment(1024);  // computes again, to the end, reporting its pieces
  bool percentShown = false;
  while (view->computing()) {
    percentShown = percentShown || label->text().contains('%');
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  }
  EXPECT_TRUE(percentShown) << "the pieces' progress in the status bar";
  EXPECT_FALSE(view->curves().original.power.empty());
  EXPECT_TRUE(view->curves().problem.isEmpty()) << view->curves().problem.toStdString();
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

// One spectrum for one request: the view hands its range to core's welchOfRange as the CLI's
// spectrum command and Python's welch do (welchOnEngine), so a signal of several million samples
// gives the same bits in all three, not an average of the view's own pieces.
TEST(SpectrumView, DrawsTheBitsTheCliAndPythonComputeForTheSameRequest) {
  std::vector<double> x((std::size_t{1} << 21) + 1000);  // two of the view's former pieces of 8 MiB
  std::mt19937_64 rng(test::freshSeed());
  std::normal_distribution<double> normal;
  for (double& v : x) v = normal(rng);
  gui::SpectrumView view;
  view.setSegment(4096);
  view.setOriginal(std::make_shared<const gui::LoadedSignal>("noise", x));
  ASSERT_TRUE(waitForSpectrum(view));
  WelchOptions options;
  options.segment = 4096;
  std::string note;
  const Spectrum front = welchOnEngine(x, options, "auto", {}, note);
  EXPECT_EQ(view.curves().original.power, front.power);
  EXPECT_EQ(view.curves().original.frequency, front.frequency);
  EXPECT_EQ(view.curves().engine.toStdString(), note);
}

}  // namespace
}  // namespace siglab

// Playback (issue 29, item 7) on the producer side: the bytes handed to the audio output for the
// visible range, resampled by the resample-poly stage, the play position on the plot, start and
// stop (by the action, a changed signal, a closed window), and no audio device said, not a crash.
#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMainWindow>

#include <cmath>
#include <cstring>
#include <functional>

#include "gui_test_support.hpp"
#include "playback_bar.hpp"
#include "signal_cursors.hpp"
#include "cursor_docks.hpp"
#include "signal_plot.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"

namespace siglab {
namespace {

using gui::AudioOutput;
using gui::PlaybackBar;

// An output that keeps what it was handed and plays as far as the test says.
class RecordingOutput final : public AudioOutput {
 public:
  std::optional<PlaybackDevice> device() const override { return PlaybackDevice{48000.0, 2, PlaybackFormat::Int16}; }
  QString missing() const override { return {}; }
  void start(QByteArray frames) override {
    bytes = std::move(frames);
    ++starts;
    playing = true;
  }
  void stop() override { playing = false; }
  std::uint64_t framesPlayed() const override { return played; }

  QByteArray bytes;
  int starts = 0;
  bool playing = false;
  std::uint64_t played = 0;
};

std::shared_ptr<const BackendList> cpuEngines() {
  auto engines = std::make_shared<BackendList>();
  engines->push_back(std::make_unique<CpuSerialBackend>());
  engines->push_back(std::make_unique<CpuParallelBackend>());
  return engines;
}

bool waitUntil(const std::function<bool()>& done) {
  QElapsedTimer timer;
  timer.start();
  while (!done() && timer.elapsed() < 10'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  return done();
}

gui::SignalPtr toneAt(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.8 * std::sin(0.05 * static_cast<double>(i));
  return std::make_shared<const gui::LoadedSignal>("tone", x);
}

struct Rig {
  QStringList messages;
  gui::SignalPtr original, filtered;
  QMainWindow window;
  gui::SignalPlot* plot = new gui::SignalPlot;
  RecordingOutput* output = nullptr;
  PlaybackBar* bar = nullptr;

  explicit Rig(std::unique_ptr<AudioOutput> out = nullptr, std::optional<double> rate = 8000.0) {
    window.setCentralWidget(plot);
    if (!out) {
      auto recording = std::make_unique<RecordingOutput>();
      output = recording.get();
      out = std::move(recording);
    }
    bar = new PlaybackBar(plot, {[this] { return original; }, [this] { return filtered; }}, cpuEngines(), std::move(out), &window);
    window.addToolBar(bar);
    QObject::connect(bar, &PlaybackBar::message, [this](const QString& text) { messages << text; });
    original = toneAt(1000);
    plot->setOriginal(original);
    plot->setSampleRate(rate);
  }
};

TEST(Playback, PlaysTheRangeResampledToTheDeviceWithAMovingPosition) {
  Rig rig;
  rig.bar->setRange(100, 400);
  rig.bar->playAction()->trigger();
  ASSERT_TRUE(waitUntil([&] { return rig.output->starts == 1; })) << rig.messages.join("; ").toStdString();

  const std::vector<double> x = test::asVector(rig.original->samples());
  const PlaybackClip expected = preparePlayback({x}, 8000.0, 100, 400, *rig.output->device(), *cpuEngines());
  EXPECT_EQ(expected.factors.up, 6);
  EXPECT_EQ(expected.frames, 1800u);
  ASSERT_EQ(static_cast<std::size_t>(rig.output->bytes.size()), expected.bytes.size());
  EXPECT_EQ(std::memcmp(rig.output->bytes.constData(), expected.bytes.data(), expected.bytes.size()), 0);
  EXPECT_TRUE(rig.messages.last().contains("resample-poly 6,1")) << rig.messages.last().toStdString();

  rig.output->played = 900;  // half the clip: sample 250
  ASSERT_TRUE(waitUntil([&] { return rig.bar->positionLine().position() == 250.0; }));
  EXPECT_EQ(rig.bar->positionLine().linesShown(), 1u);
  EXPECT_EQ(rig.bar->playAction()->text(), "Stop");

  rig.bar->playAction()->trigger();  // Space again: stop
  EXPECT_FALSE(rig.output->playing);
  EXPECT_FALSE(rig.bar->controller().active());
  EXPECT_EQ(rig.bar->positionLine().linesShown(), 0u);
  EXPECT_EQ(rig.bar->playAction()->text(), "Play");
  EXPECT_EQ(rig.bar->playAction()->shortcut(), QKeySequence(Qt::Key_Space));
}

TEST(Playback, ClippingIsSaidInTheStatusMessage) {
  Rig rig(nullptr, 48000.0);
  std::vector<double> loud(500, 1.5);
  rig.original = std::make_shared<const gui::LoadedSignal>("loud", loud);
  rig.plot->setOriginal(rig.original);
  rig.plot->setSampleRate(48000.0);
  rig.bar->playAction()->trigger();  // no visible range given: the whole signal
  ASSERT_TRUE(waitUntil([&] { return rig.output->starts == 1; }));
  EXPECT_EQ(rig.output->bytes.size(), 500 * 2 * 2);
  EXPECT_TRUE(rig.messages.last().contains("1000 samples beyond full scale clipped")) << rig.messages.last().toStdString();
}

TEST(Playback, StopsWhenTheSignalChangesOrTheWindowCloses) {
  Rig rig;
  rig.window.show();
  rig.bar->playAction()->trigger();
  ASSERT_TRUE(waitUntil([&] { return rig.output->playing; }));
  rig.original = toneAt(1000);  // another signal opened
  ASSERT_TRUE(waitUntil([&] { return !rig.output->playing; }));
  EXPECT_TRUE(rig.messages.last().contains("the signal changed"));

  rig.bar->playAction()->trigger();
  ASSERT_TRUE(waitUntil([&] { return rig.output->playing; }));
  rig.window.close();
  EXPECT_FALSE(rig.output->playing);
  EXPECT_FALSE(rig.bar->controller().active());
}

TEST(Playback, SaysWhyItCannotPlay) {
  Rig rig(nullptr, std::nullopt);  // no sample rate
  rig.bar->playAction()->trigger();
  EXPECT_TRUE(rig.messages.last().contains("no sample rate")) << rig.messages.last().toStdString();
  rig.plot->setSampleRate(50.0);
  rig.bar->playAction()->trigger();
  EXPECT_TRUE(rig.messages.last().contains("below the lowest audio rate")) << rig.messages.last().toStdString();
  rig.plot->setSampleRate(8000.0);
  rig.bar->sourceBox()->setCurrentIndex(1);
  rig.bar->playAction()->trigger();
  EXPECT_TRUE(rig.messages.last().contains("no filtered signal")) << rig.messages.last().toStdString();
  EXPECT_EQ(rig.output->starts, 0);
  EXPECT_FALSE(rig.bar->controller().active());
}

TEST(Playback, NoAudioDeviceIsSaidNotACrash) {
  Rig none(std::make_unique<gui::NoAudioOutput>("there is no audio output device"));
  EXPECT_TRUE(none.bar->playAction()->toolTip().contains("no audio output device"));
  none.bar->playAction()->trigger();
  EXPECT_EQ(none.messages.last(), "Cannot play: there is no audio output device");
  EXPECT_FALSE(none.bar->controller().active());

  // Whatever this machine has (often no sound card): Play and Stop neither crash nor hang.
  Rig machine(gui::makeAudioOutput());
  machine.bar->playAction()->trigger();
  if (machine.bar->controller().output().device()) {
    ASSERT_TRUE(waitUntil([&] { return !machine.messages.isEmpty() && !machine.messages.last().startsWith("Preparing"); }));
    machine.bar->controller().stop();
  } else {
    EXPECT_TRUE(machine.messages.last().startsWith("Cannot play: ")) << machine.messages.last().toStdString();
  }
  EXPECT_FALSE(machine.bar->controller().active());
}

TEST(Playback, TheMainWindowHasThePlayBar) {
  gui::MainWindow window;
  auto* bar = window.findChild<PlaybackBar*>("playbackToolBar");
  ASSERT_NE(bar, nullptr);
  EXPECT_EQ(bar->playAction()->shortcut(), QKeySequence(Qt::Key_Space));
  bar->playAction()->trigger();  // nothing open: said, not played
  EXPECT_FALSE(bar->controller().active());
}

TEST(Playback, PlaysFromCursorAToBWhileTheyAreShownElseTheVisibleRange) {
  gui::MainWindow window;
  window.openFile(QString::fromStdString(SIGLAB_SAMPLE_PATH));
  ASSERT_TRUE(test::waitForTask(window));
  auto* bar = window.findChild<PlaybackBar*>("playbackToolBar");
  ASSERT_NE(bar, nullptr);
  const auto visible = bar->range();
  gui::SignalCursors* cursors = gui::CursorDocks::of(&window)->cursors();
  cursors->setShown(true);
  cursors->setPositions(120, 40);
  EXPECT_EQ(bar->range(), std::make_pair(std::size_t{40}, std::size_t{121}))
      << "cursors " << cursors->a() << ", " << cursors->b() << ", signal " << (cursors->signal() ? cursors->signal()->size() : 0);
  cursors->setShown(false);
  EXPECT_EQ(bar->range(), visible);
}

}  // namespace
}  // namespace siglab

// Issue 16's polish, checked offscreen: odd-only window entry, labelled fields without stale
// values, the Lab's note without a GPU, and Cancel stopping inside an engine's run.
#include <qcustomplot.h>

#include <QComboBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSettings>

#include <cstdio>

#include "filter_panel.hpp"
#include "gpu_test_support.hpp"
#include "gui_test_support.hpp"
#include "lab_view.hpp"
#include "ladder_view.hpp"
#include "odd_spin_box.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/measure.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

// Types `text` into `widget` key by key, then presses Enter, as a user would.
void typeAndEnter(QWidget* widget, const QString& text) {
  for (const QChar c : text) {
    QKeyEvent press(QEvent::KeyPress, 0, Qt::NoModifier, QString(c));
    QCoreApplication::sendEvent(widget, &press);
  }
  QKeyEvent enter(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier);
  QCoreApplication::sendEvent(widget, &enter);
}

QComboBox* tapsBox(const gui::FilterPanel& panel) {
  for (QComboBox* box : panel.findChildren<QComboBox*>()) {
    if (box->findData("gaussian") >= 0) return box;
  }
  return nullptr;
}

class PolishTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
};

TEST_F(PolishTest, TheWindowFieldTakesOnlyOddNumbers) {
  MainWindow window;
  window.show();
  auto* spin = window.filterPanel()->findChild<gui::OddSpinBox*>();
  ASSERT_TRUE(spin);
  ASSERT_EQ(spin->value(), 5);
  spin->stepUp();
  EXPECT_EQ(spin->value(), 7) << "the arrows step through odd numbers";

  spin->selectAll();
  typeAndEnter(spin, "4");
  EXPECT_EQ(spin->value(), 7) << "an even number is never taken";
  EXPECT_EQ(spin->text(), "7 samples") << "Enter brings the last odd value back";

  spin->selectAll();
  typeAndEnter(spin, "41");
  EXPECT_EQ(spin->value(), 41) << "4 on the way to 41 is fine";

  spin->selectAll();
  typeAndEnter(spin, "100000");
  EXPECT_EQ(spin->value(), 41) << "no value is taken on the way (1, 10, ...): the last odd one comes back";
  QString error;
  ASSERT_TRUE(window.filterPanel()->spec(&error)) << error.toStdString();
  EXPECT_EQ(window.filterPanel()->spec(&error)->window(), 41u);
}

TEST_F(PolishTest, EachTapsChoiceShowsItsOwnLabelledFieldsAndNoStaleWindow) {
  MainWindow window;
  window.show();
  gui::FilterPanel* panel = window.filterPanel();
  QComboBox* taps = tapsBox(*panel);
  ASSERT_TRUE(taps);
  auto* spin = panel->findChild<gui::OddSpinBox*>();
  ASSERT_TRUE(spin);
  QLineEdit* custom = nullptr;
  for (QLineEdit* edit : panel->findChildren<QLineEdit*>()) {
    if (edit->text() == "0.25, 0.5, 0.25") custom = edit;
  }
  ASSERT_TRUE(custom);
  auto* form = qobject_cast<QFormLayout*>(custom->parentWidget()->layout());
  ASSERT_TRUE(form);

  EXPECT_TRUE(spin->isVisible()) << "the mean's window";
  EXPECT_FALSE(custom->isVisible());

  taps->setCurrentIndex(taps->findData("gaussian"));
  QCoreApplication::processEvents();
  EXPECT_FALSE(spin->isVisible()) << "no stale \"5 samples\" beside the Gaussian's own taps";
  bool tapCount = false;
  for (QLabel* label : panel->findChildren<QLabel*>()) tapCount = tapCount || (label->isVisible() && label->text() == "9 taps");
  EXPECT_TRUE(tapCount) << "sigma 1: 9 taps, shown beside sigma";

  taps->setCurrentIndex(taps->findData("custom"));
  QCoreApplication::processEvents();
  EXPECT_FALSE(spin->isVisible());
  EXPECT_TRUE(custom->isVisible());
  auto* label = qobject_cast<QLabel*>(form->labelForField(custom));
  ASSERT_TRUE(label) << "the custom taps field has a label";
  EXPECT_TRUE(label->isVisible());
  EXPECT_EQ(label->text(), "Weights");

  auto* dtype = [&]() -> QComboBox* {
    for (QComboBox* box : panel->findChildren<QComboBox*>()) {
      if (box->findData("f32") >= 0 && box->findData("f64") == 0) return box;
    }
    return nullptr;
  }();
  ASSERT_TRUE(dtype) << "float32 is offered";
  EXPECT_EQ(dtype->itemText(dtype->findData("f32")), "float32");
}

// The engines' note (why some cannot run) is whole in the first window: word-wrapped to the
// panel's width and as tall as its text needs; a panel taller than the window scrolls.
TEST_F(PolishTest, TheFilterPanelsNoteIsNotClipped) {
  MainWindow window;  // the first window's size: most of the screen
  window.show();
  gui::FilterPanel* panel = window.filterPanel();
  QComboBox* taps = tapsBox(*panel);
  ASSERT_TRUE(taps);
  taps->setCurrentIndex(taps->findData("custom"));  // non-uniform taps: cpu-running cannot run them
  QCoreApplication::processEvents();
  QLabel* note = nullptr;
  for (QLabel* label : panel->findChildren<QLabel*>()) {
    if (label->text().startsWith("Cannot run here: ")) note = label;
  }
  ASSERT_TRUE(note);
  ASSERT_TRUE(note->isVisible());
  EXPECT_GE(note->height(), note->heightForWidth(note->width())) << note->text().toStdString();
  const QRect inPanel(note->mapTo(panel, QPoint(0, 0)), note->size());
  EXPECT_TRUE(panel->rect().contains(inPanel)) << "the note reaches past the panel";
  auto* scroll = qobject_cast<QScrollArea*>(panel->parentWidget()->parentWidget());
  ASSERT_TRUE(scroll) << "the panel is in a scroll area";
  EXPECT_LE(panel->width(), scroll->viewport()->width()) << "no text off to the right";
}

TEST_F(PolishTest, TheLabSaysWhatItsRunDoesWithoutAGpu) {
  MainWindow window;
  gui::LadderView* reduction = window.labView()->ladderView(LabExperiment::Reduction);
  if (test::firstDevice().available) {
    EXPECT_EQ(reduction->runText(), "Run ladder");
    return;
  }
  EXPECT_EQ(reduction->runText(), "Run CPU rungs");
  EXPECT_TRUE(reduction->summary().contains("No GPU here")) << reduction->summary().toStdString();
  EXPECT_TRUE(reduction->summary().contains(QString::fromStdString(test::firstDevice().reason).toHtmlEscaped()))
      << "the device's own reason";
  EXPECT_EQ(reduction->chart()->plottableCount(), 0) << "nothing run yet: a note, not bars";
}

// The bound: Cancel ends a run inside the engine within 100 ms, not after it.
TEST_F(PolishTest, CancelStopsACompareInsideCpuSerialWithin100Ms) {
  test::TempDir dir;
  GenerateOptions options;
  options.count = 200'000;
  writeTextSignal(dir.file("long.txt"), generateSignal(options));
  QSettings().setValue("filter/window", 20001);  // cpu-serial alone: 4e9 multiply-adds, seconds
  QSettings().setValue("filter/repeat", 1);
  MainWindow window;
  window.openFile(QString::fromStdString(dir.file("long.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  QString error;
  ASSERT_EQ(window.filterPanel()->spec(&error)->window(), 20001u);

  window.runEngines();
  ASSERT_TRUE(window.busy());
  const PhaseTimes started = timeOnHost([] {
    for (int i = 0; i < 20; ++i) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  });
  ASSERT_TRUE(window.busy()) << "the run ended within " << started.totalMs << " ms: it must be longer for this test";
  const PhaseTimes stopping = timeOnHost([&] {
    window.cancelTask();
    while (window.busy()) QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
  });
  std::printf("Compare (cpu-serial, W 20001, 200,000 samples): stopped %.2f ms after Cancel\n", stopping.totalMs);
  EXPECT_LT(stopping.totalMs, 100.0);
  EXPECT_FALSE(window.comparison()) << "a cancelled run shows nothing";
  EXPECT_FALSE(window.filtered());
  EXPECT_TRUE(window.lastError().isEmpty()) << "a cancel is not an error";
}

}  // namespace
}  // namespace siglab

// Issue 16's polish, checked offscreen: an even window refused with the kind's word, labelled
// fields without stale ones, the Lab's note without a GPU, and Cancel stopping inside an engine's run.
#include <qcustomplot.h>

#include <QComboBox>
#include <QFormLayout>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>

#include <cstdio>

#include "filter_panel.hpp"
#include "stage_form.hpp"
#include "gpu_test_support.hpp"
#include "gui_test_support.hpp"
#include "lab_view.hpp"
#include "ladder_view.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/measure.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/stage_registry.hpp"
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

// The form's kind selector: the combo box labelled "Filter".
QComboBox* kindBox(const gui::FilterPanel& panel) {
  for (QFormLayout* form : panel.findChildren<QFormLayout*>()) {
    for (int row = 0; row < form->rowCount(); ++row) {
      auto* label = qobject_cast<QLabel*>(form->itemAt(row, QFormLayout::LabelRole)
                                              ? form->itemAt(row, QFormLayout::LabelRole)->widget() : nullptr);
      auto* field = form->itemAt(row, QFormLayout::FieldRole) ? form->itemAt(row, QFormLayout::FieldRole)->widget() : nullptr;
      if (label && label->text() == "Filter" && qobject_cast<QComboBox*>(field)) return qobject_cast<QComboBox*>(field);
    }
  }
  return nullptr;
}

// The spin box of the form's parameter `name`.
QSpinBox* parameterSpin(const gui::FilterPanel& panel, const char* name) {
  return panel.form()->findChild<QSpinBox*>(name);
}

class PolishTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
};

TEST_F(PolishTest, AnEvenWindowIsNeverRunAndTheKindSaysWhy) {
  MainWindow window;
  window.show();
  QSpinBox* spin = parameterSpin(*window.filterPanel(), "window");
  ASSERT_TRUE(spin) << "the mean's window";
  ASSERT_EQ(spin->value(), 5);
  EXPECT_EQ(spin->text(), "5 samples") << "the parameter's unit";
  spin->selectAll();
  typeAndEnter(spin, "4");
  QString error;
  EXPECT_FALSE(window.filterPanel()->spec(&error)) << "an even window is never taken";
  EXPECT_TRUE(error.contains("odd")) << error.toStdString();
  bool shown = false;
  for (QLabel* label : window.filterPanel()->findChildren<QLabel*>()) shown = shown || (label->isVisible() && label->text() == error);
  EXPECT_TRUE(shown) << "the kind's message under the form";

  spin->selectAll();
  typeAndEnter(spin, "41");
  ASSERT_TRUE(window.filterPanel()->spec(&error)) << error.toStdString();
  EXPECT_EQ(window.filterPanel()->spec(&error)->window(), 41u);
}

TEST_F(PolishTest, EachKindShowsItsOwnLabelledFieldsAndNoStaleOnes) {
  MainWindow window;
  window.show();
  gui::FilterPanel* panel = window.filterPanel();
  QComboBox* kinds = kindBox(*panel);
  ASSERT_TRUE(kinds) << "a kind selector labelled Filter";
  ASSERT_EQ(static_cast<std::size_t>(kinds->count()), stageKinds().size());
  for (std::size_t k = 0; k < stageKinds().size(); ++k) {
    const StageKind& kind = *stageKinds()[k];
    kinds->setCurrentIndex(static_cast<int>(k));
    QCoreApplication::processEvents();
    EXPECT_EQ(kinds->currentText().toStdString(), kind.name());
    EXPECT_EQ(kinds->itemData(static_cast<int>(k), Qt::ToolTipRole).toString().toStdString(), kind.summary());
    std::vector<std::string> shown;
    for (QFormLayout* form : panel->form()->findChildren<QFormLayout*>()) {
      for (int row = 0; row < form->rowCount(); ++row) {
        QLayoutItem* label = form->itemAt(row, QFormLayout::LabelRole);
        QLayoutItem* field = form->itemAt(row, QFormLayout::FieldRole);
        if (!label || !field || qobject_cast<QComboBox*>(field->widget()) == kinds) continue;
        auto* text = qobject_cast<QLabel*>(label->widget());
        ASSERT_TRUE(text && text->isVisible()) << kind.name() << ": a field without a visible label";
        EXPECT_EQ(text->text().toStdString(), field->widget()->objectName().toStdString());
        shown.push_back(text->text().toStdString());
      }
    }
    std::vector<std::string> expected;
    for (const ParameterInfo& info : kind.parameters()) expected.push_back(info.name);
    EXPECT_EQ(shown, expected) << kind.name() << ": its parameters, and no other kind's";
  }

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
  panel->setStage(parseChain("gaussian 2").stages.front());  // non-uniform taps: cpu-running cannot run them
  while (panel->availabilityPending()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  QCoreApplication::processEvents();
  QLabel* note = nullptr;
  for (QLabel* label : panel->findChildren<QLabel*>()) {
    if (label->text().startsWith("Cannot run here: ")) note = label;
  }
  ASSERT_TRUE(note);
  ASSERT_TRUE(note->isVisible());
  // The note's text comes from a worker; the layout grows it in the event loop after (a second at most).
  QElapsedTimer settling;
  settling.start();
  while (note->height() < note->heightForWidth(note->width()) && settling.elapsed() < 1000) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  }
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
  QSettings().setValue("filter/stage", "mean 20001");  // cpu-serial alone: 4e9 multiply-adds, seconds
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

// The stage form is generated from the registry: every kind gets a form whose values round-trip
// through the kind, a bad value shows the kind's own message, the units follow the signal's rate,
// binding's message shows (a taps file that cannot be read), and engines that cannot run the bound
// stage are greyed out with its reasons.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSettings>

#include <algorithm>
#include <cstdint>

#include "filter_panel.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/stage_registry.hpp"
#include "stage_form.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

BackendList panelEngines() {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  engines.push_back(std::make_unique<CpuRunningBackend>());
  return engines;
}

void waitForEngines(const gui::FilterPanel& panel) {
  while (panel.availabilityPending()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

bool showsMessage(const QWidget& widget, const QString& text) {
  const auto labels = widget.findChildren<QLabel*>();
  return std::any_of(labels.begin(), labels.end(), [&](QLabel* l) { return l->text() == text && !l->isHidden(); });
}

// Each parameter's value moved off its start (a Whole up by 2, a Number by half, where the range
// allows; a Flag flipped, the last Choice, a Text set).
StageParameters changedValues(const StageKind& kind, StageParameters values, const test::TempDir& dir) {
  for (const ParameterInfo& info : kind.parameters()) {
    if (info.optional && !values.count(info.name)) continue;  // not given: SciPy's None (the form's tick off)
    ParameterValue& value = values[info.name];
    switch (info.type) {
      case ParameterType::Whole:
        if (std::get<std::int64_t>(value) + 2 <= info.max) value = std::get<std::int64_t>(value) + 2;  // odd stays odd
        break;
      case ParameterType::Number:
        if (std::get<double>(value) * 1.5 <= info.max) value = std::get<double>(value) * 1.5;  // 0.15000000000000002: kept whole
        break;
      case ParameterType::Flag: value = !std::get<bool>(value); break;
      case ParameterType::Choice: value = info.choices.back(); break;
      case ParameterType::Text: value = dir.file("taps.txt"); break;
    }
  }
  return values;
}

TEST(StageForm, EveryKindInTheRegistryGetsAFormWhoseValuesRoundTripThroughTheKind) {
  test::TempDir dir;
  gui::StageForm form;
  for (const StageKind* kind : stageKinds()) {
    SCOPED_TRACE(std::string(kind->name()));
    const StageParameters example = completeParameters(*kind, kind->parseValue(kind->exampleValue()));
    const StageParameters changed = changedValues(*kind, example, dir);
    for (const StageParameters& values : {example, changed}) {
      form.setStage(Stage{kind, values});
      EXPECT_EQ(&form.kind(), kind);
      for (const ParameterInfo& info : kind->parameters()) {
        EXPECT_NE(form.findChild<QWidget*>(QString::fromStdString(info.name)), nullptr) << "a row for " << info.name;
      }
      QString error;
      const std::optional<Stage> read = form.stage(&error);
      if (!read) {  // a combination the kind refuses: its own words, not the form's
        try {
          kind->check(completeParameters(*kind, values));
          ADD_FAILURE() << "the form refused what the kind takes: " << error.toStdString();
        } catch (const StageError& e) {
          EXPECT_TRUE(error.contains(e.what())) << error.toStdString();
        }
        continue;
      }
      EXPECT_EQ(read->kind, kind);
      EXPECT_EQ(read->values, completeParameters(*kind, values)) << chainText(Pipeline{{*read}});
    }
  }
}

TEST(StageForm, ABadValueShowsTheKindsMessageAndIsRefused) {
  QSettings().clear();
  const BackendList engines = panelEngines();
  gui::FilterPanel panel(engines);
  const std::pair<const char*, StageParameters> bads[] = {
      {"savgol", {{"window", std::int64_t{7}}, {"order", std::int64_t{7}}}},  // the order not below W
      {"mean", {{"window", std::int64_t{4}}}},                                // an even window
      {"butter", {{"order", std::int64_t{4}}, {"cutoff", 0.3}, {"cutoff2", 0.1}, {"type", std::string("bandpass")}}},
  };
  for (const auto& [name, values] : bads) {
    const StageKind* kind = findStageKind(name);
    ASSERT_TRUE(kind) << name;
    const Stage stage{kind, completeParameters(*kind, values)};
    const std::string bad = name;
    panel.setStage(stage);
    std::string expected;
    try {
      stage.kind->check(stage.values);
      stage.kind->bind(stage.values, {});
    } catch (const StageError& e) {
      expected = e.what();
    }
    if (bad == "butter") EXPECT_TRUE(panel.stage(nullptr)) << "its cutoffs are checked by binding, on a worker";
    ASSERT_FALSE(expected.empty()) << bad << " is taken by its kind";
    QString error;
    EXPECT_FALSE(panel.spec(&error)) << bad;
    EXPECT_TRUE(error.contains(QString::fromStdString(expected))) << error.toStdString() << " | " << expected;
    waitForEngines(panel);
    EXPECT_TRUE(showsMessage(panel, error)) << bad << " under the form: " << error.toStdString();
  }
}

TEST(StageForm, NumbersReadInHzWithARateAndAsFractionsOfNyquistWithout) {
  EXPECT_EQ(gui::unitText("Hz (x Nyquist without a rate)", true), "Hz");
  EXPECT_EQ(gui::unitText("Hz (x Nyquist without a rate)", false), "x Nyquist");
  EXPECT_EQ(gui::unitText("samples", false), "samples");
  gui::StageForm form;
  form.setStage(parseChain("butter 4,0.1,0.3").stages.front());
  auto* cutoff = form.findChild<QDoubleSpinBox*>("cutoff");
  ASSERT_TRUE(cutoff);
  EXPECT_EQ(cutoff->suffix(), " x Nyquist");
  EXPECT_EQ(cutoff->text(), "0.1 x Nyquist") << "the fewest decimals that say it";
  form.setSampleRate(8000.0);
  EXPECT_EQ(cutoff->suffix(), " Hz");
}

TEST(StageForm, BindingsMessageShowsAndEnginesThatCannotRunTheStageAreGreyed) {
  QSettings().clear();
  test::TempDir dir;
  const BackendList engines = panelEngines();
  gui::FilterPanel panel(engines);
  panel.setStage(parseChain("median 101 mode reflect").stages.front());
  waitForEngines(panel);
  QString error;
  const std::optional<FilterSpec> spec = panel.spec(&error);
  ASSERT_TRUE(spec) << error.toStdString();
  EXPECT_EQ(spec->kind, FilterKind::Median);
  EXPECT_EQ(spec->window(), 101u);
  // cpu-running computes correlations only: greyed out with its reason, the other two can run it.
  EXPECT_EQ(panel.checkedEngines(), (std::vector<std::string>{"cpu-serial", "cpu-parallel"}));
  const std::string why = engines[2]->whyNot(*spec, SampleType::f64);
  ASSERT_FALSE(why.empty());
  EXPECT_TRUE(showsMessage(panel, QString::fromStdString("Cannot run here: " + why)));

  // A taps file that is not there: the form's stage is checked, binding (on a worker) says why.
  Stage taps = parseChain("taps " + dir.file("missing.txt")).stages.front();
  panel.setStage(taps);
  EXPECT_TRUE(panel.stage(&error)) << "the kind's check passes: " << error.toStdString();
  waitForEngines(panel);
  bool named = false;
  for (QLabel* label : panel.form()->findChildren<QLabel*>()) {
    named = named || (!label->isHidden() && label->text().contains("missing.txt"));
  }
  EXPECT_TRUE(named) << "binding's message names the file";
  EXPECT_FALSE(panel.spec(&error));
  EXPECT_TRUE(error.contains("missing.txt")) << error.toStdString();
}

}  // namespace
}  // namespace siglab

// The filter panel's other kinds: each gives the core's spec, a bad value is refused as it is typed
// (with the reason under the form), engines that cannot run the kind are greyed out, and sessions
// keep the kind and its parameters.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryFile>

#include "filter_panel.hpp"
#include "session_adapter.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"

namespace siglab {
namespace {

BackendList panelEngines() {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  engines.push_back(std::make_unique<CpuRunningBackend>());
  return engines;
}

TEST(FilterPanelKinds, EachKindGivesTheCoreSpecAndBadValuesAreRefusedAsTyped) {
  const BackendList engines = panelEngines();
  gui::FilterPanel panel(engines);
  FilterSettings settings;
  settings.taps = "median";
  settings.window = 101;
  settings.mode = "reflect";
  gui::applyFilterSettings(panel, settings);
  QString error;
  std::optional<FilterSpec> spec = panel.spec(&error);
  ASSERT_TRUE(spec) << error.toStdString();
  EXPECT_EQ(spec->kind, FilterKind::Median);
  EXPECT_EQ(spec->window(), 101u);
  EXPECT_EQ(spec->mode, BoundaryMode::Reflect);
  // cpu-running computes correlations only: greyed out, the other two can run it.
  EXPECT_EQ(panel.checkedEngines(), (std::vector<std::string>{"cpu-serial", "cpu-parallel"}));

  settings.taps = "savgol";
  settings.window = 7;
  settings.savgolOrder = 7;  // not below W
  settings.mode = "interp";
  gui::applyFilterSettings(panel, settings);
  EXPECT_FALSE(panel.spec(&error));
  EXPECT_NE(error.toStdString().find("order must be below the window (0 to 6)"), std::string::npos) << error.toStdString();
  const auto labels = panel.findChildren<QLabel*>();
  EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [&](QLabel* l) { return l->text() == error && !l->isHidden(); }));
  settings.savgolOrder = 3;
  settings.savgolDeriv = 1;
  gui::applyFilterSettings(panel, settings);
  spec = panel.spec(&error);
  ASSERT_TRUE(spec) << error.toStdString();
  EXPECT_EQ(spec->kind, FilterKind::SavitzkyGolay);
  EXPECT_TRUE(spec->savgol.interp);
  EXPECT_EQ(spec->savgol.deriv, 1u);

  settings.taps = "butter";
  settings.butterOrder = 8;
  settings.butterBand = "bandpass";
  settings.cutoff = 0.3;
  settings.cutoff2 = 0.1;  // not increasing
  gui::applyFilterSettings(panel, settings);
  EXPECT_FALSE(panel.spec(&error));
  EXPECT_NE(error.toStdString().find("must increase"), std::string::npos) << error.toStdString();
  settings.cutoff2 = 0.45;
  gui::applyFilterSettings(panel, settings);
  spec = panel.spec(&error);
  ASSERT_TRUE(spec) << error.toStdString();
  EXPECT_EQ(spec->kind, FilterKind::Sos);
  EXPECT_EQ(spec->sos.sections.size(), 8u);
  EXPECT_TRUE(spec->sos.zeroPhase);

  // The session keeps what the panel shows.
  const FilterSettings saved = gui::filterSettingsOf(panel);
  EXPECT_EQ(saved.taps, "butter");
  EXPECT_EQ(saved.butterOrder, 8);
  EXPECT_EQ(saved.butterBand, "bandpass");
  EXPECT_DOUBLE_EQ(saved.cutoff2, 0.45);
  EXPECT_EQ(saved.savgolDeriv, 1u);
}

}  // namespace
}  // namespace siglab

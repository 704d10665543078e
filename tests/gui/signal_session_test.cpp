// Issue 29 item 9: the session holds what the window works on and says what changed; the views
// follow it without the window pushing state into each.
#include <QSettings>
#include <QTableWidget>

#include "gui_test_support.hpp"
#include "signal_plot.hpp"
#include "signal_session.hpp"
#include "siglab/filter_spec.hpp"
#include "siglab/pipeline.hpp"
#include "timing_view.hpp"

namespace siglab {
namespace {

std::shared_ptr<const Comparison> oneEngineComparison() {
  auto comparison = std::make_shared<Comparison>();
  comparison->spec = makeMeanFilter(5);
  comparison->samples = 100;
  BackendResult serial;
  serial.name = "cpu-serial";
  serial.run.total = {1.0, 1.0, 1.0, 1};
  serial.agrees = true;
  comparison->results = {serial};
  return comparison;
}

TEST(SignalSessionTest, TheViewsFollowWhatTheSessionSays) {
  QSettings().clear();
  gui::MainWindow window;
  window.openFile(SIGLAB_SAMPLE_PATH);
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal());
  gui::SignalSession& session = *window.session();

  const std::shared_ptr<const Comparison> comparison = oneEngineComparison();
  session.setComparison(comparison);
  EXPECT_EQ(window.comparison(), comparison);
  EXPECT_EQ(window.timingView()->table()->rowCount(), 1) << "the timings did not follow the session";

  gui::ChainStep step;
  step.stage = parseChain("mean 5").stages.front();
  step.report = std::make_shared<StageReport>();
  step.result = window.signal();
  step.spec = makeMeanFilter(5);
  int chains = 0;
  QObject::connect(&session, &gui::SignalSession::chainChanged, [&] { ++chains; });
  session.appendStep(step);
  EXPECT_EQ(chains, 1);
  EXPECT_EQ(window.filtered(), window.signal()) << "the step's result is the filtered signal";
  EXPECT_TRUE(window.hasUnexportedResult());
  session.removeLastStep();
  EXPECT_EQ(chains, 2);
  EXPECT_FALSE(window.filtered());

  const gui::SignalPtr signal = window.signal();
  session.setSignal(SIGLAB_SAMPLE_PATH, {}, signal);  // a new signal: the old run goes
  EXPECT_FALSE(window.comparison());
  EXPECT_EQ(window.timingView()->table()->rowCount(), 0) << "the timings kept the last signal's run";
}

}  // namespace
}  // namespace siglab

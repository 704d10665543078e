// A Savitzky-Golay's coefficients (up to 0.2 s of fitting) are never computed on the GUI's main
// thread: the form checks their bounds only (its engines are worked out by binding on a worker),
// and Apply and Compare bind the stage in their background task.
#include <gtest/gtest.h>

#include <QSettings>

#include <atomic>
#include <thread>

#include "filter_panel.hpp"
#include "gui_test_support.hpp"
#include "siglab/stage_registry.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/savgol.hpp"

namespace siglab {
namespace {

std::thread::id mainThread;
std::atomic<int> fitsOnMainThread{0};
std::atomic<int> fitsOnWorkers{0};

void countFit() { ++(std::this_thread::get_id() == mainThread ? fitsOnMainThread : fitsOnWorkers); }

// Sets the observer for one scope, and clears it whatever happens.
struct CountedFits {
  CountedFits() {
    mainThread = std::this_thread::get_id();
    fitsOnMainThread = 0;
    fitsOnWorkers = 0;
    savgolCoefficientsObserverForTests = &countFit;
  }
  ~CountedFits() { savgolCoefficientsObserverForTests = nullptr; }
};

TEST(SavgolOffMainThread, TheFormChecksBoundsAndApplyAndCompareFitOnAWorkerWithTheReferenceResult) {
  QSettings().clear();
  QSettings().setValue("filter/applyEngine", "cpu-serial");
  gui::MainWindow window;
  window.openFile(SIGLAB_SAMPLE_PATH);
  ASSERT_TRUE(test::waitForTask(window));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();

  // Made as the form makes it, not through a chain's text (which the kind checks as it reads it).
  const auto savgol = [](std::int64_t window) {
    const StageKind& kind = *findStageKind("savgol");
    return Stage{&kind, completeParameters(kind, {{"window", window},
                                                  {"order", static_cast<std::int64_t>(kMaxSavgolOrder)},
                                                  {"mode", std::string("interp")}})};
  };
  window.filterPanel()->setRepeat(1);
  gui::SignalPtr applied;
  {
    const CountedFits fits;
    window.filterPanel()->setStage(savgol(20001));
    QString error;
    EXPECT_FALSE(window.filterPanel()->spec(&error));  // past the work's bound: refused as typed, nothing fitted
    EXPECT_NE(error.toStdString().find("steps to fit its coefficients"), std::string::npos) << error.toStdString();

    // order 32 with interp edges: within the bound
    window.filterPanel()->setStage(savgol(301));
    window.applyFilter();
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.applied()) << window.lastError().toStdString();
    applied = window.filtered();
    window.runEngines();
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.comparison()) << window.lastError().toStdString();
    EXPECT_EQ(fitsOnMainThread, 0) << "coefficients were fitted on the main thread";
    EXPECT_GE(fitsOnWorkers, 2) << "Apply and Compare fitted no coefficients";
  }
  const FilterSpec spec = makeSavgolFilter(301, kMaxSavgolOrder, 0, true, BoundaryMode::Mirror);
  const std::vector<double> input = readTextSignal(SIGLAB_SAMPLE_PATH);
  std::vector<double> expected(input.size());
  savgolFilter(input, savgolSpecOf(spec), expected);
  EXPECT_EQ(window.applied()->engine, "cpu-serial");
  EXPECT_TRUE(test::asVector(applied->samples()) == expected) << "Apply's result";
  std::vector<double> again(input.size());  // Compare runs the form's stage on the chain's result
  savgolFilter(expected, savgolSpecOf(spec), again);
  EXPECT_TRUE(test::asVector(window.filtered()->samples()) == again) << "Compare's cpu-serial result";
  window.close();
}

}  // namespace
}  // namespace siglab

// Issue 29 item 5: the filter form greys out what does not apply and says why, and the timings
// header describes the filter compared (a Butterworth has no window).
#include <QComboBox>
#include <QSettings>
#include <QSpinBox>


#include "filter_panel.hpp"
#include "gui_test_support.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/filter_kinds.hpp"
#include "timing_view.hpp"

namespace siglab {
namespace {

TEST(FilterForm, AccumulateIsGreyedOutWithFloat64SamplesAndSaysWhy) {
  QSettings().clear();
  gui::MainWindow window;
  auto* dtype = window.filterPanel()->findChild<QComboBox*>("dtype");
  auto* accumulate = window.filterPanel()->findChild<QComboBox*>("accumulator");
  ASSERT_TRUE(dtype && accumulate);
  dtype->setCurrentIndex(dtype->findData("f64"));
  EXPECT_FALSE(accumulate->isEnabled()) << "float32 accumulation is offered with float64 samples";
  EXPECT_TRUE(accumulate->toolTip().contains("float64 samples")) << accumulate->toolTip().toStdString();
  dtype->setCurrentIndex(dtype->findData("f32"));
  EXPECT_TRUE(accumulate->isEnabled()) << "float32 samples choose how they are summed";
}

TEST(FilterForm, GpuOptionsAreGreyedOutWithoutAGpuAndSayWhy) {
  if (probeDevices().front().available) GTEST_SKIP() << "a GPU is here";
  gui::MainWindow window;
  for (const char* name : {"blockSize", "gpuBudget"}) {
    auto* option = window.filterPanel()->findChild<QSpinBox*>(name);
    ASSERT_TRUE(option) << name;
    EXPECT_FALSE(option->isEnabled()) << name << " is offered without a GPU";
    EXPECT_TRUE(option->toolTip().contains("no GPU here")) << option->toolTip().toStdString();
  }
}

TEST(FilterForm, TheTimingsHeaderAfterAButterworthCompareDescribesItNotAWindow) {
  auto comparison = std::make_shared<Comparison>();
  ButterworthSpec design;
  design.cutoff = 1000;
  design.sampleRate = 22050;
  comparison->spec = makeButterworthFilter(design, true);
  comparison->samples = 1000;
  gui::TimingView view;
  view.setComparison(comparison, {});
  EXPECT_FALSE(view.summary().contains("window 0")) << view.summary().toStdString();
  EXPECT_TRUE(view.summary().contains("butterworth order 4 lowpass 1000 Hz")) << view.summary().toStdString();
}

}  // namespace
}  // namespace siglab

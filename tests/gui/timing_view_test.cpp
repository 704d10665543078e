#include <qcustomplot.h>

#include <QTableWidget>

#include <gtest/gtest.h>

#include "gui_test_support.hpp"
#include "timing_view.hpp"

namespace siglab {
namespace {

BackendResult ok(const std::string& name, double kernelMs, double transferMs) {
  BackendResult r;
  r.name = name;
  r.run.kernel = {kernelMs, kernelMs, kernelMs, 10};
  r.run.transfer = {transferMs, transferMs, transferMs, 10};
  r.run.total = {kernelMs + transferMs, kernelMs + transferMs, kernelMs + transferMs, 10};
  r.agrees = true;
  return r;
}

TEST(TimingView, ShowsSpeedupsBandwidthAndALogScaleForAWideSpread) {
  auto c = std::make_shared<Comparison>();
  c->spec = makeMeanFilter(5);
  c->samples = 10'000'000;  // 160 MB moved per run
  c->results = {ok("cpu-serial", 100.0, 0.0), ok("cpu-parallel", 50.0, 0.0), ok("gpu-fast", 0.5, 20.0)};
  c->results[2].usesGpu = true;  // as the engine says; never guessed from its transfer time
  BackendResult missing;
  missing.name = "gpu-missing";
  missing.run.status = RunStatus::Unavailable;
  missing.run.message = "no GPU";
  c->results.push_back(missing);
  DeviceInfo gpu;
  gpu.available = true;
  gpu.memoryBusWidthBits = 5120;
  gpu.memoryClockKHz = 2'000'000;  // 2 * 2e9 * 640 B = 2560 GB/s

  gui::TimingView view;
  view.setComparison(c, {gpu});
  QTableWidget* table = view.table();
  ASSERT_EQ(table->rowCount(), 4);
  auto cell = [&](int row, int column) { return table->item(row, column)->text(); };
  EXPECT_EQ(cell(2, 5), "320.0");                  // 160 MB in 0.5 ms
  EXPECT_EQ(cell(2, 6), "13 %");                   // of 2560 GB/s
  EXPECT_EQ(cell(2, 7), "200× / 4.88×");  // kernel and end to end vs cpu-serial
  EXPECT_EQ(cell(1, 8), "1.00× / 1.00×");
  EXPECT_EQ(cell(0, 6), "–") << "CPU engines have no device limit";
  EXPECT_EQ(cell(3, 1), "unavailable");
  EXPECT_EQ(table->item(3, 1)->toolTip(), "no GPU");
  EXPECT_EQ(view.chart()->yAxis->scaleType(), QCPAxis::stLogarithmic);
  EXPECT_EQ(view.chart()->plottable(0)->interface1D()->dataCount(), 3) << "only engines that ran get bars";
}

}  // namespace
}  // namespace siglab

#include <qcustomplot.h>

#include <QHeaderView>
#include <QScrollBar>
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
  auto header = [&](int column) { return table->horizontalHeaderItem(column)->text(); };
  EXPECT_EQ(header(0), "Engine");
  EXPECT_EQ(header(1), "Status");
  EXPECT_EQ(header(2), "End to end ms");
  EXPECT_EQ(header(3), "× serial");
  EXPECT_EQ(header(4), "× parallel");
  auto cell = [&](int row, int column) { return table->item(row, column)->text(); };
  EXPECT_EQ(cell(2, 2), "20.500");
  EXPECT_EQ(cell(2, 3), "4.88×") << "end to end against cpu-serial";
  EXPECT_EQ(cell(2, 4), "2.44×") << "end to end against cpu-parallel";
  EXPECT_EQ(cell(1, 3), "2.00×");
  EXPECT_EQ(cell(3, 1), "unavailable");
  EXPECT_TRUE(table->item(3, 1)->toolTip().contains("no GPU")) << table->item(3, 1)->toolTip().toStdString();

  // The details are in every cell's tooltip...
  const QString tip = table->item(2, 2)->toolTip();
  for (const char* detail : {"kernel 0.500  (0.500 – 0.500) ms", "transfers 20.000 ms", "320.0 GB/s",
                             "13 % of the device's limit", "kernel 200× cpu-serial", "max |diff| 0, bit-identical"}) {
    EXPECT_TRUE(tip.contains(detail)) << detail << " missing from " << tip.toStdString();
  }
  // ... and in the columns of the wider view.
  for (int column = 5; column < table->columnCount(); ++column) EXPECT_TRUE(table->isColumnHidden(column)) << column;
  view.setAllColumnsShown(true);
  for (int column = 0; column < table->columnCount(); ++column) EXPECT_FALSE(table->isColumnHidden(column)) << column;
  auto columnNamed = [&](const QString& name) {
    for (int column = 0; column < table->columnCount(); ++column) {
      if (header(column) == name) return column;
    }
    return -1;
  };
  EXPECT_EQ(cell(2, columnNamed("GB/s")), "320.0");  // 160 MB in 0.5 ms
  EXPECT_EQ(cell(2, columnNamed("% of device limit")), "13 %");  // of 2560 GB/s
  EXPECT_EQ(cell(2, columnNamed("Kernel × serial")), "200×");
  EXPECT_EQ(cell(0, columnNamed("% of device limit")), "–") << "CPU engines have no device limit";
  EXPECT_EQ(view.chart()->yAxis->scaleType(), QCPAxis::stLogarithmic);
  EXPECT_EQ(view.chart()->plottable(0)->interface1D()->dataCount(), 3) << "only engines that ran get bars";
}

// The narrow table fits the Timings pane of the first window: no horizontal scrolling for the
// speedups.
TEST(TimingView, TheLeadingColumnsFitThePaneWithoutScrolling) {
  auto c = std::make_shared<Comparison>();
  c->spec = makeMeanFilter(5);
  c->samples = 10'000'000;
  for (const char* name : {"cpu-serial", "cpu-parallel", "cpu-running", "cpu-fft", "gpu-constant", "gpu-tuned"}) {
    c->results.push_back(ok(name, 1234.567, 0.0));
  }
  gui::TimingView view;
  view.resize(480, 700);  // narrower than the pane in a 1360-pixel first window
  view.show();
  view.setComparison(c, {});
  QCoreApplication::processEvents();
  QTableWidget* table = view.table();
  EXPECT_LE(table->horizontalHeader()->length(), table->viewport()->width());
  EXPECT_FALSE(table->horizontalScrollBar()->isVisible());
  view.setAllColumnsShown(true);
  QCoreApplication::processEvents();
  EXPECT_GT(table->horizontalHeader()->length(), table->viewport()->width()) << "the wider view scrolls";
}

}  // namespace
}  // namespace siglab

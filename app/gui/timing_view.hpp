#pragma once
#include <QWidget>

#include <memory>
#include <vector>

#include "siglab/comparison.hpp"
#include "siglab/cuda_backends.hpp"

class QCPBarsGroup;
class QCheckBox;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace siglab::gui {

// A run's timings: a bar chart (kernel, transfers and end to end per engine; log scale when the
// spread is large) above a table. The table leads with engine, status, end-to-end time and the
// speedups, narrow enough for its pane; kernel and transfer times, bandwidth and agreement are in
// each row's tooltip and in the columns "All columns" shows.
class TimingView : public QWidget {
  Q_OBJECT
 public:
  explicit TimingView(QWidget* parent = nullptr);

  // `devices` gives the GPU's theoretical bandwidth for the "% of device limit" column.
  // `measuredOn`: what was measured where not the whole signal (a channel's name, a region).
  void setComparison(std::shared_ptr<const Comparison> comparison, const std::vector<DeviceInfo>& devices,
                     const QString& measuredOn = {});
  void clear();  // back to the invitation to run

  QCustomPlot* chart() const { return chart_; }
  QTableWidget* table() const { return table_; }
  QString summary() const;  // the header above the chart: what was run, and the verdict
  void setAllColumnsShown(bool shown);

 private:
  void showChart(const Comparison& comparison);
  void showTable(const Comparison& comparison, double deviceLimitGBs);

  QLabel* summary_ = nullptr;
  QCustomPlot* chart_ = nullptr;
  QTableWidget* table_ = nullptr;
  QCheckBox* allColumns_ = nullptr;
  QCPBarsGroup* barsGroup_ = nullptr;
};


}  // namespace siglab::gui

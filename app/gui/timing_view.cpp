#include "timing_view.hpp"

#include <qcustomplot.h>

#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

#include "bar_chart.hpp"
#include "siglab/metrics.hpp"

namespace siglab::gui {
namespace {

enum Column { kEngine, kStatus, kKernel, kTransfer, kTotal, kBandwidth, kOfLimit, kVsSerial, kVsParallel,
              kMaxDiff, kBitIdentical, kColumnCount };

QString ms(const TimingStats& t) {
  return QString("%1  (%2 – %3)").arg(t.medianMs, 0, 'f', 3).arg(t.minMs, 0, 'f', 3).arg(t.maxMs, 0, 'f', 3);
}

QString speedup(double ratio) {
  if (ratio <= 0.0) return QStringLiteral("–");
  return QString("%1×").arg(ratio, 0, 'f', ratio < 10 ? 2 : ratio < 100 ? 1 : 0);
}

}  // namespace

TimingView::TimingView(QWidget* parent) : QWidget(parent) {
  summary_ = new QLabel;
  summary_->setWordWrap(true);
  chart_ = new QCustomPlot;
  chart_->setMinimumHeight(220);
  chart_->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
  // The legend in a row under the chart, where it covers no bar.
  chart_->plotLayout()->addElement(1, 0, chart_->legend);
  chart_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  chart_->legend->setBorderPen(Qt::NoPen);
  chart_->legend->setMargins(QMargins(0, 0, 0, 0));
  chart_->plotLayout()->setRowStretchFactor(1, 0.001);
  table_ = makeResultsTable({tr("Engine"), tr("Status"), tr("Kernel ms (min – max)"), tr("Transfer ms"),
                             tr("Total ms (min – max)"), tr("GB/s"), tr("% of device limit"),
                             tr("Speedup vs cpu-serial (kernel / total)"), tr("vs cpu-parallel"), tr("Max |diff|"),
                             tr("Bit-identical")});
  table_->horizontalHeaderItem(kBandwidth)->setToolTip(tr("Bytes read and written (16 per sample) per kernel second"));
  table_->horizontalHeaderItem(kOfLimit)->setToolTip(tr("GB/s against the GPU's theoretical memory bandwidth"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addWidget(chartAboveTable(chart_, table_), 1);
  clear();
}

void TimingView::clear() {
  summary_->setText(tr("Run the engines (Ctrl+R) to see their timings here."));
  chart_->clearPlottables();
  chart_->legend->setVisible(false);
  chart_->replot();
  table_->setRowCount(0);
}

void TimingView::setComparison(std::shared_ptr<const Comparison> comparison, const std::vector<DeviceInfo>& devices) {
  double limit = 0.0;
  for (const DeviceInfo& d : devices) {
    if (d.available) limit = d.theoreticalBandwidthGBs();
  }
  summary_->setText(tr("%1 samples, window %2%3, boundary %4; median of %5 runs after a warm-up. %6")
                        .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(comparison->samples)))
                        .arg(comparison->spec.window())
                        .arg(comparison->spec.isUniform() ? tr(" (mean)") : QString())
                        .arg(QString::fromStdString(std::string(toString(comparison->spec.mode))))
                        .arg(comparison->options.measure.repeats)
                        .arg(comparison->allAgree() ? tr("Every engine agrees with cpu-serial.")
                                                    : tr("<b>An engine disagrees with cpu-serial.</b>")));
  showChart(*comparison);
  showTable(*comparison, limit);
}

void TimingView::showChart(const Comparison& comparison) {
  chart_->clearPlottables();
  std::vector<const BackendResult*> ran;
  for (const auto& r : comparison.results) {
    if (r.run.status == RunStatus::Ok) ran.push_back(&r);
  }
  QStringList names;
  double smallest = std::numeric_limits<double>::max(), largest = 0.0;
  for (const BackendResult* r : ran) {
    names << QString::fromStdString(r->name);
    for (double v : {r->run.kernel.medianMs, r->run.transfer.medianMs, r->run.total.medianMs}) {
      if (v > 0.0) smallest = std::min(smallest, v), largest = std::max(largest, v);
    }
  }
  setCategoryAxis(chart_, names);
  const double base = setTimeAxis(chart_, smallest, largest);

  if (!barsGroup_) barsGroup_ = new QCPBarsGroup(chart_);  // owned by the chart, reused run after run
  const struct {
    QString name;
    QColor color;
    TimingStats FilterRun::*phase;
  } phases[] = {{tr("kernel"), QColor(30, 136, 229), &FilterRun::kernel},
                {tr("transfers"), QColor(142, 36, 170), &FilterRun::transfer},
                {tr("end to end"), QColor(230, 81, 0), &FilterRun::total}};
  for (const auto& phase : phases) {
    auto* bars = new QCPBars(chart_->xAxis, chart_->yAxis);
    bars->setName(phase.name);
    bars->setPen(Qt::NoPen);
    bars->setBrush(phase.color);
    bars->setWidth(0.25);
    bars->setBarsGroup(barsGroup_);
    bars->setBaseValue(base);
    QVector<double> keys, values;
    for (std::size_t i = 0; i < ran.size(); ++i) {
      keys << static_cast<double>(i + 1);
      values << ((*ran[i]).run.*phase.phase).medianMs;
    }
    bars->setData(keys, values, true);
  }
  chart_->legend->setVisible(true);
  chart_->replot();
}

void TimingView::showTable(const Comparison& comparison, double deviceLimitGBs) {
  table_->setRowCount(static_cast<int>(comparison.results.size()));
  const BackendResult* serial = comparison.find("cpu-serial");
  const BackendResult* parallel = comparison.find("cpu-parallel");
  const bool haveParallel = parallel && parallel->run.status == RunStatus::Ok;
  for (int row = 0; row < table_->rowCount(); ++row) {
    const BackendResult& r = comparison.results[static_cast<std::size_t>(row)];
    const bool ok = r.run.status == RunStatus::Ok;
    auto set = [&](int column, const QString& text, const QString& tip = {}) {
      auto* item = new QTableWidgetItem(text);
      item->setToolTip(tip.isEmpty() ? text : tip);
      if (column >= kKernel) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(row, column, item);
    };
    set(kEngine, QString::fromStdString(r.name), QString::fromStdString(r.description));
    const QString status = !ok ? (r.run.status == RunStatus::Unavailable ? tr("unavailable") : tr("FAILED"))
                               : (r.agrees ? tr("ok") : tr("DIFFERS"));
    set(kStatus, status, QString::fromStdString(r.run.message));
    for (int c = kKernel; c < kColumnCount; ++c) set(c, QStringLiteral("–"));
    if (!ok) {
      table_->item(row, kStatus)->setForeground(QColor(120, 120, 120));
      continue;
    }
    if (!r.agrees) table_->item(row, kStatus)->setForeground(QColor(198, 40, 40));
    set(kKernel, ms(r.run.kernel));
    set(kTransfer, r.usesGpu ? QString::number(r.run.transfer.medianMs, 'f', 3) : QStringLiteral("–"));
    set(kTotal, ms(r.run.total));
    set(kBandwidth, QString::number(kernelGBs(comparison, r), 'f', 1));
    if (const double percent = percentOfDeviceLimit(comparison, r, deviceLimitGBs); percent > 0.0) {
      set(kOfLimit, QString("%1 %").arg(percent, 0, 'f', 0));
    }
    set(kVsSerial, speedup(comparison.kernelSpeedup(r)) + " / " + speedup(comparison.endToEndSpeedup(r)));
    if (haveParallel) {
      set(kVsParallel, speedup(comparison.kernelSpeedup(r, "cpu-parallel")) + " / " +
                           speedup(comparison.endToEndSpeedup(r, "cpu-parallel")));
    }
    set(kMaxDiff, QString::number(r.agreement.maxAbsDiff, 'g', 3));
    set(kBitIdentical, r.agreement.bitIdentical() ? tr("yes") : tr("no (%1 differ)").arg(r.agreement.mismatches));
  }
}

}  // namespace siglab::gui

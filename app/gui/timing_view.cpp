#include "timing_view.hpp"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

#include "bar_chart.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/metrics.hpp"

namespace siglab::gui {
namespace {

// The first five fit the pane; the rest are the details.
enum Column { kEngine, kStatus, kTotal, kVsSerial, kVsParallel, kKernel, kTransfer, kTotalRange, kBandwidth,
              kOfLimit, kKernelVsSerial, kMaxDiff, kBitIdentical, kColumnCount };
constexpr int kFirstDetail = kKernel;

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
  table_ = makeResultsTable({tr("Engine"), tr("Status"), tr("End to end ms"), tr("× serial"), tr("× parallel"),
                             tr("Kernel ms (min – max)"), tr("Transfer ms"), tr("End to end ms (min – max)"),
                             tr("GB/s"), tr("% of device limit"), tr("Kernel × serial"), tr("Max |diff|"),
                             tr("Bit-identical")});
  table_->horizontalHeaderItem(kTotal)->setToolTip(tr("Median end-to-end time: transfers and kernel"));
  table_->horizontalHeaderItem(kVsSerial)->setToolTip(tr("End-to-end speedup against cpu-serial"));
  table_->horizontalHeaderItem(kVsParallel)->setToolTip(tr("End-to-end speedup against cpu-parallel"));
  table_->horizontalHeaderItem(kBandwidth)->setToolTip(tr("Bytes read and written (16 per sample) per kernel second"));
  table_->horizontalHeaderItem(kOfLimit)->setToolTip(tr("GB/s against the GPU's theoretical memory bandwidth"));
  allColumns_ = new QCheckBox(tr("All columns"));
  allColumns_->setToolTip(tr("Show kernel and transfer times, bandwidth and agreement as columns (also in each "
                             "row's tooltip)"));
  connect(allColumns_, &QCheckBox::toggled, this, &TimingView::setAllColumnsShown);
  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(allColumns_, 0, Qt::AlignTop);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(chartAboveTable(chart_, table_), 1);
  setAllColumnsShown(false);
  clear();
}

void TimingView::setAllColumnsShown(bool shown) {
  allColumns_->setChecked(shown);
  for (int c = kFirstDetail; c < kColumnCount; ++c) table_->setColumnHidden(c, !shown);
}

void TimingView::clear() {
  summary_->setText(tr("Run the engines (Ctrl+R) to see their timings here."));
  chart_->clearPlottables();
  setCategoryAxis(chart_, {});  // neither the last run's engine names nor its scale stay
  setTimeAxis(chart_, 0.0, 0.0);
  chart_->yAxis->setRange(0.0, 1.0);
  chart_->legend->setVisible(false);
  chart_->replot();
  chart_->hide();  // no bare axes before a run: the summary says what to do
  table_->setRowCount(0);
}

void TimingView::setComparison(std::shared_ptr<const Comparison> comparison, const std::vector<DeviceInfo>& devices,
                               const QString& measuredOn) {
  double limit = 0.0;
  for (const DeviceInfo& d : devices) {
    if (d.available) limit = d.theoreticalBandwidthGBs();
  }
  // The filter as core describes it: a Butterworth has sections, not a window.
  QString samples = QLocale(QLocale::English).toString(static_cast<qulonglong>(comparison->samples));
  if (!measuredOn.isEmpty()) samples = tr("%1 (%2)").arg(samples, measuredOn.toHtmlEscaped());
  summary_->setText(tr("%1 samples, %2; median of %3 runs after a warm-up. %4")
                        .arg(samples)
                        .arg(QString::fromStdString(describeFilter(comparison->spec)))
                        .arg(comparison->options.measure.repeats)
                        .arg(comparison->allAgree() ? tr("Every engine agrees with cpu-serial.")
                                                    : tr("<b>An engine disagrees with cpu-serial.</b>")));
  chart_->show();
  showChart(*comparison);
  showTable(*comparison, limit);
}

QString TimingView::summary() const { return summary_->text(); }

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
  const BackendResult* parallel = comparison.find("cpu-parallel");
  const bool haveParallel = parallel && parallel->run.status == RunStatus::Ok;
  for (int row = 0; row < table_->rowCount(); ++row) {
    const BackendResult& r = comparison.results[static_cast<std::size_t>(row)];
    const bool ok = r.run.status == RunStatus::Ok;
    auto set = [&](int column, const QString& text) {
      auto* item = new QTableWidgetItem(text);
      if (column >= kTotal) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(row, column, item);
    };
    set(kEngine, QString::fromStdString(r.name));
    const QString status = !ok ? (r.run.status == RunStatus::Unavailable ? tr("unavailable") : tr("FAILED"))
                               : (r.agrees ? tr("ok") : tr("DIFFERS"));
    set(kStatus, status);
    for (int c = kTotal; c < kColumnCount; ++c) set(c, QStringLiteral("–"));
    // Every cell's tooltip tells the whole row: the details the narrow table leaves out.
    QStringList details{QString::fromStdString(r.name) + ": " + QString::fromStdString(r.description)};
    if (!ok) {
      details << QString::fromStdString(r.run.message);
      table_->item(row, kStatus)->setForeground(QColor(120, 120, 120));
    } else {
      if (!r.agrees) table_->item(row, kStatus)->setForeground(QColor(198, 40, 40));
      set(kTotal, QString::number(r.run.total.medianMs, 'f', 3));
      set(kVsSerial, speedup(comparison.endToEndSpeedup(r)));
      if (haveParallel) set(kVsParallel, speedup(comparison.endToEndSpeedup(r, "cpu-parallel")));
      set(kKernel, ms(r.run.kernel));
      set(kTransfer, r.usesGpu ? QString::number(r.run.transfer.medianMs, 'f', 3) : QStringLiteral("–"));
      set(kTotalRange, ms(r.run.total));
      set(kBandwidth, QString::number(kernelGBs(comparison, r), 'f', 1));
      const double percent = percentOfDeviceLimit(comparison, r, deviceLimitGBs);
      if (percent > 0.0) set(kOfLimit, QString("%1 %").arg(percent, 0, 'f', 0));
      set(kKernelVsSerial, speedup(comparison.kernelSpeedup(r)));
      set(kMaxDiff, QString::number(r.agreement.maxAbsDiff, 'g', 3));
      set(kBitIdentical, r.agreement.bitIdentical() ? tr("yes") : tr("no (%1 differ)").arg(r.agreement.mismatches));
      if (!r.run.message.empty()) details << QString::fromStdString(r.run.message);
      details << tr("end to end %1 ms").arg(ms(r.run.total)) << tr("kernel %1 ms").arg(ms(r.run.kernel));
      if (r.usesGpu) details << tr("transfers %1 ms").arg(r.run.transfer.medianMs, 0, 'f', 3);
      details << tr("%1 GB/s").arg(kernelGBs(comparison, r), 0, 'f', 1);
      if (percent > 0.0) details << tr("%1 % of the device's limit").arg(percent, 0, 'f', 0);
      details << tr("kernel %1 cpu-serial").arg(speedup(comparison.kernelSpeedup(r)))
              << tr("max |diff| %1, %2").arg(QString::number(r.agreement.maxAbsDiff, 'g', 3),
                                             table_->item(row, kBitIdentical)->text() == tr("yes")
                                                 ? tr("bit-identical")
                                                 : tr("not bit-identical"));
    }
    const QString tip = details.join("\n");
    for (int c = 0; c < kColumnCount; ++c) table_->item(row, c)->setToolTip(tip);
  }
}

}  // namespace siglab::gui

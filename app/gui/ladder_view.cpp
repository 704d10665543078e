#include "ladder_view.hpp"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "bar_chart.hpp"

namespace siglab::gui {
namespace {

enum Column { kRung, kTimes, kTime, kRate, kStep, kTotal, kOfYardstick, kResult, kColumnCount };

QString ratio(double value) { return value > 0.0 ? QString::fromStdString(ratioText(value)) : QStringLiteral("–"); }

// The median (min – max) for the whole problem; "≈" where scaled up from the part a rung timed.
QString wholeProblemTime(const LadderRung& rung) {
  const double scale = rung.timedShare > 0.0 ? 1.0 / rung.timedShare : 1.0;
  return QString("%1%2  (%3 – %4)")
      .arg(scale != 1.0 ? QStringLiteral("≈ ") : QString())
      .arg(wholeProblemMs(rung), 0, 'f', 4)
      .arg(rung.time.minMs * scale, 0, 'f', 4)
      .arg(rung.time.maxMs * scale, 0, 'f', 4);
}

QColor barColour(const LadderRung& rung) {
  if (rung.kind == RungKind::Yardstick) return QColor(67, 160, 71);
  if (rung.name.rfind("cpu", 0) == 0) return QColor(251, 140, 0);
  return QColor(30, 136, 229);
}

// The rate axis: logarithmic when the bars spread over more than 50x. Returns the bars' base value.
double setRateAxis(QCustomPlot* chart, double smallest, double largest, const QString& unit) {
  QCPAxis* y = chart->yAxis;
  const bool logScale = smallest > 0.0 && largest / smallest > 50.0;
  y->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  y->setTicker(logScale ? QSharedPointer<QCPAxisTicker>(QSharedPointer<QCPAxisTickerLog>::create())
                        : QSharedPointer<QCPAxisTicker>::create());
  y->setLabel(logScale ? QObject::tr("%1 (log scale)").arg(unit) : unit);
  if (!logScale) {
    y->setRange(0.0, largest * 1.15);
    return 0.0;
  }
  y->setRange(smallest / 4.0, largest * 3.0);
  return smallest / 4.0;
}

}  // namespace

LadderView::LadderView(QWidget* controls, const QString& runToolTip, const QString& note, QWidget* parent)
    : QWidget(parent) {
  run_ = new QPushButton(tr("Run ladder"));
  run_->setToolTip(runToolTip);
  connect(run_, &QPushButton::clicked, this, &LadderView::runRequested);
  auto* top = new QHBoxLayout;
  top->addWidget(controls);
  top->addWidget(run_);
  top->addStretch();

  auto* noteLabel = new QLabel(note);
  noteLabel->setWordWrap(true);
  summary_ = new QLabel(tr("Run the ladder: each rung one change more than the last, timed and checked."));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  chart_ = new QCustomPlot;
  chart_->setMinimumHeight(180);
  showEmptyChart();
  table_ = makeResultsTable({tr("Rung"), tr("Times"), tr("Median ms, whole problem (min – max)"), tr("Rate"), tr("Step"), tr("Total"),
                             tr("Of yardstick"), tr("Check")});
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(noteLabel);
  layout->addWidget(summary_);
  layout->addWidget(chartAboveTable(chart_, table_), 1);
}

bool LadderView::chartEmpty() const { return emptyChart_->visible() && !chart_->xAxis->visible() && chart_->plottableCount() == 0; }

void LadderView::showEmptyChart() {
  emptyChart_ = new QCPItemText(chart_);
  emptyChart_->setObjectName("emptyChart");
  emptyChart_->position->setType(QCPItemPosition::ptAxisRectRatio);
  emptyChart_->position->setCoords(0.5, 0.5);
  emptyChart_->setText(tr("No run yet: Run ladder times each rung and draws its rate here"));
  emptyChart_->setColor(QColor(69, 90, 100));
  emptyChart_->setClipToAxisRect(false);
  for (QCPAxis* axis : chart_->axisRect()->axes()) axis->setVisible(false);  // no bare axes
}

QString LadderView::summary() const { return summary_->text(); }

void LadderView::setRunEnabled(bool enabled) { run_->setEnabled(enabled); }

void LadderView::setGpuMissing(const QString& reason) {
  run_->setText(tr("Run CPU rungs"));
  run_->setToolTip(tr("No GPU here: only the CPU rungs run (%1)").arg(reason));
  if (!ladder_) {
    summary_->setText(tr("<b>No GPU here</b> (%1): Run times the CPU rungs only; the GPU rungs and the "
                         "yardstick need a CUDA device.")
                          .arg(reason.toHtmlEscaped()));
  }
}

QString LadderView::runText() const { return run_->text(); }

void LadderView::setLadder(std::shared_ptr<const Ladder> ladder) {
  ladder_ = ladder;
  chart_->clearPlottables();
  emptyChart_->setVisible(false);
  chart_->xAxis->setVisible(true);
  chart_->yAxis->setVisible(true);
  table_->setRowCount(0);
  QStringList lines{QString::fromStdString(ladder->title).toHtmlEscaped()};
  for (const std::string& line : ladder->footnotes) lines << QString::fromStdString(line).toHtmlEscaped();
  summary_->setText(lines.join("<br>"));

  std::vector<const LadderRung*> ran;
  for (const LadderRung& rung : ladder->rungs) {
    if (rung.ran() && rung.rate > 0.0) ran.push_back(&rung);
  }
  QStringList names;
  double smallest = 0.0, largest = 0.0;
  for (std::size_t i = 0; i < ran.size(); ++i) {
    names << QString::fromStdString(ran[i]->name);
    smallest = i == 0 ? ran[i]->rate : std::min(smallest, ran[i]->rate);
    largest = std::max(largest, ran[i]->rate);
  }
  setCategoryAxis(chart_, names);
  const QString unit = QString::fromStdString(ladder->rateUnit);
  const double base = setRateAxis(chart_, smallest, largest, unit);
  for (std::size_t i = 0; i < ran.size(); ++i) {  // one bar per rung: each its colour
    auto* bar = new QCPBars(chart_->xAxis, chart_->yAxis);
    bar->setPen(Qt::NoPen);
    bar->setBrush(barColour(*ran[i]));
    bar->setWidth(0.6);
    bar->setBaseValue(base);
    bar->addData(static_cast<double>(i + 1), ran[i]->rate);
  }
  chart_->replot();

  table_->setRowCount(static_cast<int>(ladder->rungs.size()));
  for (int row = 0; row < table_->rowCount(); ++row) {
    const LadderRung& rung = ladder->rungs[static_cast<std::size_t>(row)];
    QString check = QString::fromStdString(rung.ran() ? rung.result : "not run: " + rung.problem);
    if (!rung.access.empty()) check += "; " + QString::fromStdString(rung.access);
    const QString cells[kColumnCount] = {
        QString::fromStdString(rung.name),
        QString::fromStdString(timedText(rung)),
        rung.ran() ? wholeProblemTime(rung) : QStringLiteral("–"),
        rung.ran() ? QString("%1 %2").arg(rung.rate, 0, 'f', 1).arg(unit) : QStringLiteral("–"),
        ratio(rung.stepSpeedup),
        ratio(rung.totalSpeedup),
        ratio(rung.ofYardstick),
        check};
    for (int c = 0; c < kColumnCount; ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setToolTip(c == kRung ? QString::fromStdString(rung.description)
                       : c == kTime && rung.timedShare < 1.0
                           ? tr("Scaled to the whole problem from %1, measured at %2 ms (median), so every row "
                                "compares the same work")
                                 .arg(QString::fromStdString(rung.timedPart))
                                 .arg(rung.time.medianMs, 0, 'f', 4)
                           : cells[c]);
      if (c != kRung && c != kResult) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      if (c == kResult && rung.ran() && !rung.correct) item->setForeground(Qt::red);
      table_->setItem(row, c, item);
    }
  }
}

}  // namespace siglab::gui

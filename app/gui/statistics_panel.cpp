#include "statistics_panel.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "mapped_channel.hpp"
#include "statistics_tasks.hpp"
#include "task_runner.hpp"
#include "task_status.hpp"
#include "time_axis.hpp"

namespace siglab::gui {
namespace {

enum Row { kCount, kMean, kRms, kStddev, kMin, kMax, kRowCount };
enum Column { kWhole, kVisible, kRegion, kColumnCount };
enum Source { kOriginal, kFiltered };

const QString kNothing = QStringLiteral("—");

SampleRange clampTo(SampleRange range, std::size_t size) {
  const std::size_t begin = std::min(range.begin, size);
  return {begin, std::clamp(range.end, begin, size)};
}

bool sameRange(SampleRange a, SampleRange b) { return a.begin == b.begin && a.end == b.end; }

QString integer(std::uint64_t n) { return QLocale().toString(static_cast<qulonglong>(n)); }

QString number(double value, int digits) { return std::isnan(value) ? kNothing : QLocale().toString(value, 'g', digits); }

// Where sample `index` lies: its index, or its time where the rate is known.
QString position(std::uint64_t index, std::optional<double> sampleRate) {
  return sampleRate ? timeOfSample(static_cast<double>(index), *sampleRate) : integer(index);
}

// The cell for people (6 digits) or, with 17 digits, for its tooltip.
QString cellText(const Statistics& s, Row row, int digits, std::optional<double> sampleRate) {
  if (row == kCount) return integer(s.count);
  if (s.count == 0) return kNothing;
  switch (row) {
    case kMean: return number(s.mean, digits);
    case kRms: return number(s.rms, digits);
    case kStddev: return number(s.stddev, digits);
    case kMin: return QObject::tr("%1 at %2").arg(number(s.min, digits), position(s.minIndex, sampleRate));
    default: return QObject::tr("%1 at %2").arg(number(s.max, digits), position(s.maxIndex, sampleRate));
  }
}

}  // namespace

StatisticsPanel::StatisticsPanel(QWidget* parent) : QWidget(parent) {
  source_ = new QComboBox;
  source_->addItem(tr("original signal"));
  source_->addItem(tr("filtered signal (cpu-serial)"));
  source_->setToolTip(tr("Which signal the table summarises; the filtered one after a run"));
  if (auto* model = qobject_cast<QStandardItemModel*>(source_->model())) model->item(kFiltered)->setEnabled(false);
  connect(source_, &QComboBox::currentIndexChanged, this, &StatisticsPanel::refreshAll);
  channelBox_ = new QComboBox;
  channelBox_->setToolTip(tr("Which channel the table summarises"));
  channelBox_->setVisible(false);
  connect(channelBox_, &QComboBox::activated, this, [this](int index) { setChannel(static_cast<std::size_t>(index)); });

  fileChannelNote_ = new QLabel;
  fileChannelNote_->setObjectName("fileChannelNote");
  fileChannelNote_->setWordWrap(true);
  fileChannelNote_->setVisible(false);

  table_ = new QTableWidget(kRowCount, kColumnCount);
  table_->setVerticalHeaderLabels({tr("Count"), tr("Mean"), tr("RMS"), tr("Std deviation"), tr("Min"), tr("Max")});
  table_->verticalHeaderItem(kStddev)->setToolTip(tr("Population standard deviation: divided by the count"));
  table_->verticalHeaderItem(kMin)->setToolTip(tr("The smallest sample and the first index holding it"));
  table_->verticalHeaderItem(kMax)->setToolTip(tr("The largest sample and the first index holding it"));
  table_->setHorizontalHeaderLabels({tr("Whole signal"), tr("Visible range"), tr("Region")});
  table_->setColumnHidden(kRegion, true);  // until a region is used
  table_->horizontalHeaderItem(kVisible)->setToolTip(tr("The samples whose index lies within the plot's x axis"));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  table_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);  // no empty rows below
  table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  for (int row = 0; row < kRowCount; ++row) {
    for (int column = 0; column < kColumnCount; ++column) {
      auto* item = new QTableWidgetItem(kNothing);
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(row, column, item);
    }
  }

  // Trailing edge only: a drag recomputes once per interval, on the latest range.
  refreshTimer_ = new QTimer(this);
  refreshTimer_->setObjectName("visibleRefreshTimer");
  refreshTimer_->setSingleShot(true);
  refreshTimer_->setInterval(kVisibleRefreshMs);
  connect(refreshTimer_, &QTimer::timeout, this, &StatisticsPanel::refreshVisible);
  background_ = new QFutureWatcher<Statistics>(this);
  connect(background_, &QFutureWatcher<Statistics>::finished, this, &StatisticsPanel::backgroundFinished);
  status_ = new TaskStatus;  // the window's status bar takes it (MainWindow)
  status_->setObjectName("statisticsStatus");
  tasks_ = new TaskRunner(status_, this);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Statistics of the")));
  controls->addWidget(source_);
  controls->addWidget(channelBox_);
  controls->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(fileChannelNote_);
  layout->addWidget(table_);
  layout->addStretch();
}

TaskStatus* StatisticsPanel::taskStatus() const { return status_; }

StatisticsPanel::~StatisticsPanel() {
  if (status_ && !status_->parent()) delete status_.data();  // no status bar took it
}

void StatisticsPanel::setOriginal(SignalPtr signal) {
  original_ = std::move(signal);
  wantedRange_ = {0, original_ ? original_->size() : 0};
  channel_ = 0;
  region_.reset();  // the last signal's
  channelBox_->clear();
  const std::size_t channels = original_ ? original_->channelCount() : 1;
  for (std::size_t c = 0; c < channels; ++c) channelBox_->addItem(original_ ? channelLabel(*original_, c) : tr("channel 1"));
  channelBox_->setVisible(channels > 1);
  fileChannelNote_->setText(tr("Statistics of %1").arg(mappedChannelNote(original_.get())));
  fileChannelNote_->setVisible(fileChannels(original_.get()) > 1);
  setFiltered(nullptr);  // refreshes
}

void StatisticsPanel::setFiltered(SignalPtr signal) {
  filtered_ = std::move(signal);
  if (auto* model = qobject_cast<QStandardItemModel*>(source_->model())) model->item(kFiltered)->setEnabled(filtered_ != nullptr);
  if (!filtered_ && source_->currentIndex() == kFiltered) source_->setCurrentIndex(kOriginal);  // refreshes
  else refreshAll();
}

void StatisticsPanel::setSampleRate(std::optional<double> sampleRate) {
  sampleRate_ = sampleRate;
  fillColumn(kWhole, shown() ? &whole_ : nullptr);
  showVisible(visible_);
  refreshRegion();
}

void StatisticsPanel::setShowFiltered(bool filtered) {
  if (filtered_ || !filtered) source_->setCurrentIndex(filtered ? kFiltered : kOriginal);
}

bool StatisticsPanel::showsFiltered() const { return filtered_ && source_->currentIndex() == kFiltered; }

void StatisticsPanel::setChannel(std::size_t channel) {
  channel_ = original_ && channel < original_->channelCount() ? channel : 0;
  channelBox_->setCurrentIndex(static_cast<int>(channel_));
  refreshAll();
}

SignalPtr StatisticsPanel::shownSignal() const {
  const SignalPtr& signal = source_->currentIndex() == kFiltered && filtered_ ? filtered_ : original_;
  return channelOf(signal, signal && channel_ < signal->channelCount() ? channel_ : 0);
}

void StatisticsPanel::setVisibleRange(std::size_t first, std::size_t last) {
  const SampleRange range = clampTo({first, last}, original_ ? original_->size() : 0);
  if (sameRange(range, wantedRange_)) return;
  wantedRange_ = range;
  if (const LoadedSignal* signal = shown(); signal && signal->mapping()) {
    if (computing_) {  // its range is gone: it stops, and the next sum waits for the view to rest
      stale_ = true;
      backgroundStop_->store(true);
    }
    return refreshTimer_->start(kMappedVisibleRestMs);  // each step of a zoom starts the wait again
  }
  if (!refreshTimer_->isActive()) refreshTimer_->start(kVisibleRefreshMs);
}

bool StatisticsPanel::refreshPending() const { return refreshTimer_->isActive() || computing_; }

void StatisticsPanel::refreshAll() {
  const LoadedSignal* signal = shown();
  whole_ = signal ? signal->statistics() : Statistics{};
  fillColumn(kWhole, signal ? &whole_ : nullptr);
  refreshVisible();
  refreshRegion();
}

void StatisticsPanel::setRegion(std::optional<SampleRange> range, const QString& label) {
  region_ = range;
  regionLabel_ = label;
  refreshRegion();
}

void StatisticsPanel::refreshRegion() {
  const SignalPtr signal = shownSignal();
  table_->setColumnHidden(kRegion, !region_ || !signal);
  if (!region_ || !signal) return tasks_->abandon();
  const SampleRange range = clampTo(*region_, signal->size());
  QString header = regionLabel_.isEmpty() ? tr("Region") : regionLabel_;
  if (range.begin < range.end) {
    header += sampleRate_ ? tr("\n(%1 – %2)").arg(position(range.begin, sampleRate_), position(range.end - 1, sampleRate_))
                          : tr("\n(samples %1–%2)").arg(integer(range.begin), integer(range.end - 1));
  }
  table_->horizontalHeaderItem(kRegion)->setText(header);
  regionStatistics_ = Statistics{};
  for (int row = 0; row < kRowCount; ++row) table_->item(row, kRegion)->setText(tr("…"));
  // Off the GUI thread whatever its length (a mapped file's region is read from disk).
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<StatisticsOutcome>(tr("Statistics of %1").arg(regionLabel_.isEmpty() ? tr("the region") : regionLabel_), cancel,
                            QtConcurrent::run(&computeStatistics, signal, range, std::shared_ptr<const std::atomic<bool>>(cancel)),
                            [this, cancel](const QFuture<StatisticsOutcome>& done) { showRegion(done, cancel->load()); });
}

// Esc counts even when the sum ended before the worker saw it: its result is not shown.
void StatisticsPanel::showRegion(const QFuture<StatisticsOutcome>& done, bool cancelled) {
  cancelled = cancelled || done.resultCount() == 0;
  const QString problem = cancelled ? tr("cancelled") : done.result().error;
  if (!problem.isEmpty()) {
    for (int row = 0; row < kRowCount; ++row) {
      table_->item(row, kRegion)->setText(row == kCount ? problem : kNothing);
      table_->item(row, kRegion)->setToolTip(cancelled ? tr("Esc stopped it: use the region again to compute it") : problem);
    }
    return;
  }
  regionStatistics_ = done.result().statistics;
  fillColumn(kRegion, &regionStatistics_);
}

bool StatisticsPanel::regionPending() const { return tasks_->busy(); }

void StatisticsPanel::cancel() { tasks_->cancel(); }

void StatisticsPanel::refreshVisible() {
  refreshTimer_->stop();
  if (computing_) {  // one sum at a time: the running one stops, the latest range follows
    stale_ = true;
    backgroundStop_->store(true);
    return;
  }
  const SignalPtr signal = shownSignal();
  shownRange_ = clampTo(wantedRange_, signal ? signal->size() : 0);
  if (!signal) {
    showVisible(Statistics{});
  } else if (sameRange(shownRange_, {0, signal->size()})) {
    showVisible(signal->statistics());  // all of it: known already
  } else if (shownRange_.end - shownRange_.begin < backgroundFrom_ && !signal->mapping()) {  // a mapped file's: read from disk
    showVisible(signal->statisticsOf(shownRange_));
  } else {
    stale_ = false;
    computing_ = true;
    backgroundStop_ = std::make_shared<std::atomic<bool>>(false);
    background_->setFuture(statisticsInBackground(signal, shownRange_, backgroundStop_));
  }
}

void StatisticsPanel::backgroundFinished() {
  computing_ = false;
  if (stale_ || !sameRange(shownRange_, clampTo(wantedRange_, shown() ? shown()->size() : 0))) {
    stale_ = false;
    if (!refreshTimer_->isActive()) refreshVisible();  // the plot or the signal moved on meanwhile (else the timer sums it)
    return;
  }
  showVisible(background_->result());
}

void StatisticsPanel::showVisible(const Statistics& statistics) {
  visible_ = statistics;
  const LoadedSignal* signal = shown();
  QString header = tr("Visible range");
  if (signal && shownRange_.begin == shownRange_.end) header = tr("Visible range\n(no samples)");
  else if (signal && sampleRate_) {
    header = tr("Visible range\n(%1 – %2)").arg(position(shownRange_.begin, sampleRate_), position(shownRange_.end - 1, sampleRate_));
  } else if (signal) {
    header = tr("Visible range\n(samples %1–%2)").arg(integer(shownRange_.begin), integer(shownRange_.end - 1));
  }
  table_->horizontalHeaderItem(kVisible)->setText(header);
  fillColumn(kVisible, signal ? &visible_ : nullptr);
}

void StatisticsPanel::fillColumn(int column, const Statistics* statistics) {
  for (int row = 0; row < kRowCount; ++row) {
    QTableWidgetItem* item = table_->item(row, column);
    item->setText(statistics ? cellText(*statistics, static_cast<Row>(row), 6, sampleRate_) : kNothing);
    item->setToolTip(statistics ? cellText(*statistics, static_cast<Row>(row), 17, sampleRate_) : QString());
  }
}

}  // namespace siglab::gui

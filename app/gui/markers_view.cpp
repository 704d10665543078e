#include "markers_view.hpp"

#include <qcustomplot.h>

#include <QAction>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <exception>

#include "signal_cursors.hpp"
#include "signal_plot.hpp"

namespace siglab::gui {
namespace {

enum Column { kAt, kEnd, kLabel };

}  // namespace

MarkersView::MarkersView(SignalCursors* cursors, QWidget* parent)
    : QWidget(parent), cursors_(cursors), peaks_(new QFutureWatcher<FoundPeaks>(this)) {
  table_ = new QTableWidget(0, 3);
  table_->setObjectName("markersTable");
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->setVisible(false);
  table_->setContextMenuPolicy(Qt::ActionsContextMenu);
  const auto use = [this](const QString& text, const QString& tip, RegionUse how) {
    auto* action = new QAction(text, table_);
    action->setToolTip(tip);
    connect(action, &QAction::triggered, this, [this, how] { useSelected(how); });
    table_->addAction(action);
  };
  use(tr("Statistics of this region"), tr("A column of the Statistics view for the region's samples"), RegionUse::statistics);
  use(tr("Compare engines on this region"), tr("Compare the checked engines on the region's samples only"),
      RegionUse::compare);
  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (filling_ || item->column() != kLabel) return;
    markers_[static_cast<std::size_t>(item->row())].label = item->text().toStdString();
    changed();
  });
  const auto button = [this](const QString& text, const QString& tip, auto slot) {
    auto* b = new QPushButton(text);
    b->setToolTip(tip);
    connect(b, &QPushButton::clicked, this, slot);
    return b;
  };
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(button(tr("Marker at A"), tr("A marker at cursor A (or double-click the signal)"), [this] {
    addMarker({cursors_->a(), tr("marker %1").arg(markers_.size() + 1).toStdString(), std::nullopt});
  }));
  buttons->addWidget(button(tr("Region A–B"), tr("A labelled region from cursor A to cursor B"), [this] { addRegionFromCursors(); }));
  buttons->addWidget(button(tr("Measure"), tr("Cursors A and B on the chosen region: the readout gives its statistics"),
                            [this] { measureSelected(); }));
  buttons->addWidget(button(tr("Remove"), tr("Remove the chosen row"), [this] {
    const int row = table_->currentRow();
    if (row < 0) return;
    markers_.erase(markers_.begin() + row);
    changed();
  }));
  auto* files = new QHBoxLayout;
  prominence_ = new QDoubleSpinBox;
  prominence_->setObjectName("peakProminence");
  prominence_->setRange(0.0, 1e12);
  prominence_->setDecimals(4);
  prominence_->setValue(1.0);
  prominence_->setToolTip(tr("The least prominence of a peak marked (find-peaks' --prominence)"));
  files->addWidget(button(tr("Mark peaks"), tr("Markers on the peaks the find-peaks stage finds"), [this] { markPeaks(); }));
  files->addWidget(new QLabel(tr("prominence")));
  files->addWidget(prominence_);
  files->addStretch();
  files->addWidget(button(tr("Import CSV…"), tr("Markers and regions from CSV (time, label, end)"), [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import markers"), {}, tr("CSV (*.csv)"));
    if (!path.isEmpty()) note_->setText(importCsv(path));
  }));
  files->addWidget(button(tr("Export CSV…"), tr("Markers and regions to CSV (time, label, end)"), [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export markers"), "markers.csv", tr("CSV (*.csv)"));
    if (!path.isEmpty()) note_->setText(exportCsv(path));
  }));
  note_ = new QLabel;
  note_->setObjectName("markersNote");
  note_->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(buttons);
  layout->addLayout(files);
  layout->addWidget(table_, 1);
  layout->addWidget(note_);

  connect(peaks_, &QFutureWatcher<FoundPeaks>::finished, this, [this] {
    auto [found, problem] = peaks_->result();
    if (!problem.isEmpty()) {
      note_->setText(tr("Could not mark peaks: %1").arg(problem));
      return;
    }
    note_->setText(tr("%n peak(s) marked", nullptr, static_cast<int>(found.size())));
    std::erase_if(markers_, [](const Marker& m) { return m.label == "peak"; });  // the latest peaks replace the last
    markers_.insert(markers_.end(), found.begin(), found.end());
    changed();
  });
  QCustomPlot* plot = cursors_->plot()->plot();
  connect(plot, &QCustomPlot::mouseDoubleClick, this, [this, plot](QMouseEvent* event) {
    if (!cursors_->signal()) return;
    const double at = std::round(plot->axisRect()->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x()));
    addMarker({std::clamp(at, 0.0, static_cast<double>(cursors_->signal()->size() - 1)),
               tr("marker %1").arg(markers_.size() + 1).toStdString(), std::nullopt});
  });
  fillTable();
}

void MarkersView::setMarkers(std::vector<Marker> markers) {
  markers_ = std::move(markers);
  changed();
}

void MarkersView::addMarker(Marker marker) {
  markers_.push_back(std::move(marker));
  changed();
}

void MarkersView::addRegionFromCursors(const QString& label) {
  const double first = std::min(cursors_->a(), cursors_->b()), last = std::max(cursors_->a(), cursors_->b());
  addMarker({first, (label.isEmpty() ? tr("region %1").arg(markers_.size() + 1) : label).toStdString(), last});
}

bool MarkersView::measureSelected() {
  const int row = table_->currentRow();
  if (row < 0 || static_cast<std::size_t>(row) >= markers_.size()) return false;
  const Marker& marker = markers_[static_cast<std::size_t>(row)];
  cursors_->setShown(true);
  cursors_->setPositions(marker.at, marker.end.value_or(marker.at));
  return true;
}

bool MarkersView::useSelected(RegionUse use) {
  const int row = table_->currentRow();
  const SignalPtr signal = cursors_->signal();
  if (row < 0 || static_cast<std::size_t>(row) >= markers_.size() || !signal) return false;
  const Marker& marker = markers_[static_cast<std::size_t>(row)];
  emit regionUsed(rangeOf(marker, signal->size()), QString::fromStdString(marker.label), use);
  return true;
}

QString MarkersView::exportCsv(const QString& path) const {
  try {
    saveMarkersCsv(path.toStdString(), markers_, cursors_->signal() ? cursors_->plot()->sampleRate() : std::nullopt);
  } catch (const std::exception& e) {
    return tr("Could not export the markers: %1").arg(QString::fromStdString(e.what()));
  }
  return tr("Exported %n marker(s) and region(s) to %1", nullptr, static_cast<int>(markers_.size())).arg(path);
}

QString MarkersView::importCsv(const QString& path) {
  try {
    std::vector<Marker> read = loadMarkersCsv(path.toStdString(), cursors_->plot()->sampleRate());
    markers_.insert(markers_.end(), read.begin(), read.end());
    changed();
    return tr("Imported %n marker(s) and region(s)", nullptr, static_cast<int>(read.size()));
  } catch (const std::exception& e) {
    return tr("Could not import the markers: %1").arg(QString::fromStdString(e.what()));
  }
}

void MarkersView::markPeaks() {
  const SignalPtr signal = cursors_->signal();
  if (!signal || peaks_->isRunning()) return;
  PeakOptions options;
  if (prominence_->value() > 0) options.prominence = prominence_->value();
  note_->setText(tr("Finding peaks…"));
  peaks_->setFuture(QtConcurrent::run([signal, options]() -> FoundPeaks {
    try {
      return {peakMarkers([&](std::size_t first, std::span<double> out) { signal->read(first, out); }, signal->size(), options), {}};
    } catch (const std::exception& e) {
      return {{}, QString::fromStdString(e.what())};
    }
  }));
}

void MarkersView::changed() {
  fillTable();
  cursors_->setMarkers(markers_);
  emit markersChanged();
}

void MarkersView::fillTable() {
  filling_ = true;
  const std::optional<double> rate = cursors_->plot()->sampleRate();
  table_->setHorizontalHeaderLabels({rate ? tr("Time (s)") : tr("Sample"), rate ? tr("End (s)") : tr("End sample"), tr("Label")});
  table_->setRowCount(static_cast<int>(markers_.size()));
  const auto shown = [&](double at) { return QString::number(rate ? at / *rate : at, 'g', 10); };
  for (int row = 0; row < table_->rowCount(); ++row) {
    const Marker& m = markers_[static_cast<std::size_t>(row)];
    const QString cells[3] = {shown(m.at), m.end ? shown(*m.end) : QString(), QString::fromStdString(m.label)};
    for (int c = 0; c < 3; ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c != kLabel) item->setFlags(item->flags() & ~Qt::ItemIsEditable);
      table_->setItem(row, c, item);
    }
  }
  filling_ = false;
}

}  // namespace siglab::gui

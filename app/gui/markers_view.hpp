#pragma once
#include <QFutureWatcher>
#include <QWidget>

#include <utility>
#include <vector>

#include "siglab/markers.hpp"

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace siglab::gui {

class SignalCursors;

// What a region's range is used as (its row's context menu).
enum class RegionUse { statistics, compare };

// The markers and labelled regions: a table (time or sample, end, label: labels edited in place),
// a marker at cursor A or a double-click on the signal, a region from A to B, the peaks the peak
// stage finds, CSV import and export (markers.hpp's format), and "Measure" putting A and B on the
// chosen region so the readout gives its statistics. The list is drawn by the cursors' overlay.
class MarkersView : public QWidget {
  Q_OBJECT
 public:
  explicit MarkersView(SignalCursors* cursors, QWidget* parent = nullptr);

  const std::vector<Marker>& markers() const { return markers_; }
  void setMarkers(std::vector<Marker> markers);
  void addMarker(Marker marker);
  void addRegionFromCursors(const QString& label = {});
  // The selected row's range to cursors A and B (a marker: its sample); false with no selection.
  bool measureSelected();
  // The selected row's samples (core's rangeOf: a region's [at, end], a marker's one sample) as the
  // range of the statistics or of Compare: regionUsed follows; false with no selection or signal.
  bool useSelected(RegionUse use);
  // Empty on success, else what went wrong (file, line, why); nothing changes on failure.
  QString exportCsv(const QString& path) const;
  QString importCsv(const QString& path);
  void markPeaks();  // in the background: peaksPending() until done
  bool peaksPending() const { return peaks_->isRunning(); }
  QTableWidget* table() const { return table_; }
  QLabel* note() const { return note_; }

 signals:
  void markersChanged();
  void regionUsed(SampleRange range, const QString& label, RegionUse use);

 private:
  void fillTable();
  void changed();
  SignalCursors* cursors_;
  std::vector<Marker> markers_;
  QTableWidget* table_ = nullptr;
  QLabel* note_ = nullptr;
  QDoubleSpinBox* prominence_ = nullptr;
  using FoundPeaks = std::pair<std::vector<Marker>, QString>;  // the peaks, or why none
  QFutureWatcher<FoundPeaks>* peaks_ = nullptr;
  bool filling_ = false;
};

}  // namespace siglab::gui

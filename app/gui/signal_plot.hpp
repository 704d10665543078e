#pragma once
#include <QWidget>

#include <optional>

#include "loaded_signal.hpp"

class QCPAxisRect;
class QCPGraph;
class QCPRange;
class QCustomPlot;
class QLabel;

namespace siglab::gui {

// The original and filtered signals, overlaid on one axis or stacked with linked x axes. Each
// redraw asks the signals' min/max pyramids for a few points per pixel column of the visible
// range (exact samples once zoomed in), so QCustomPlot never holds the whole signal.
class SignalPlot : public QWidget {
  Q_OBJECT
 public:
  explicit SignalPlot(QWidget* parent = nullptr);

  void setOriginal(SignalPtr signal);  // also clears the filtered signal and resets the view
  // Same length as the original, or null to clear; `caption` names it (the chain that made it).
  void setFiltered(SignalPtr signal, const QString& caption = {});
  QString filteredCaption() const;
  void setStacked(bool stacked);
  bool stacked() const { return stacked_; }
  void setRubberBandZoom(bool on);
  // With a rate the x axis reads time (seconds with SI prefixes); without one, sample indices.
  void setSampleRate(std::optional<double> sampleRate);
  std::optional<double> sampleRate() const { return sampleRate_; }
  void resetView();
  void setVisibleRange(double first, double last);  // in sample indices

  QCustomPlot* plot() const { return plot_; }
  std::size_t pointsShown() const;  // data points now held by the graphs, both signals
  QString readoutAt(double key) const;
  QLabel* emptyHint() const { return emptyHint_; }  // what to do, shown while there is no signal

 signals:
  void cursorReadout(const QString& text);
  void visibleRangeChanged(std::size_t first, std::size_t last);  // sample indices [first, last)

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();
  void refreshPoints();
  void onXRangeChanged(const QCPRange& range);

  QCustomPlot* plot_ = nullptr;
  QLabel* emptyHint_ = nullptr;
  SignalPtr original_;
  SignalPtr filtered_;
  QString filteredCaption_;
  QCPGraph* originalGraph_ = nullptr;
  QCPGraph* filteredGraph_ = nullptr;
  QCPAxisRect* lowerRect_ = nullptr;  // the filtered signal's, when stacked
  bool stacked_ = false;
  std::optional<double> sampleRate_;
  bool refreshing_ = false;
  int columns_ = 0;  // pixel columns the points were made for
};

}  // namespace siglab::gui

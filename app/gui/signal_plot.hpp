#pragma once
#include <QWidget>

#include <optional>
#include <vector>

#include "loaded_signal.hpp"

class QCPAxis;
class QCPAxisRect;
class QComboBox;
class QCPGraph;
class QCPRange;
class QCustomPlot;
class QLabel;

namespace siglab::gui {

class TaskRunner;

// The original and filtered signals, overlaid on one axis or stacked with linked x axes. Each
// redraw asks the signals' min/max pyramids for a few points per pixel column of the visible
// range (exact samples once zoomed in), so QCustomPlot never holds the whole signal. A mapped
// file's points are read in a worker (plot_points_tasks.hpp), the curves showing the previous
// view's until they come; a newer view replaces the request running.
// A signal of several channels shows one lane a channel (its original and filtered curves),
// all lanes sharing the time axis; a channel selector above them (hidden for one channel)
// shows all lanes or one. A signal viewed from its file one channel at a time (mapped_channel.hpp)
// has one lane; its selector lists the file's channels and asks for another (fileChannelChosen).
class SignalPlot : public QWidget {
  Q_OBJECT
 public:
  explicit SignalPlot(QWidget* parent = nullptr);

  void setOriginal(SignalPtr signal);  // also clears the filtered signal and resets the view
  // Same length as the original, or null to clear; `caption` names it (the chain that made it).
  // Its channels are drawn in the original's lanes of the same number.
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

  // The lanes shown: every channel (nullopt) or one (0-based); what the selector does.
  void showChannels(std::optional<std::size_t> channel);
  std::optional<std::size_t> channelShown() const { return channelShown_; }
  std::vector<std::size_t> lanes() const;  // the channels (0-based) whose lanes show, top to bottom
  // "All channels", "Channel 1", …; for one channel of a mapped file, its "Channel 1" … "Channel C".
  QComboBox* channelBox() const { return channelBox_; }

  QCustomPlot* plot() const { return plot_; }
  SignalPtr original() const { return original_; }
  SignalPtr filtered() const { return filtered_; }
  std::size_t pointsShown() const;  // data points now held by the graphs, both signals
  QString readoutAt(double key, std::size_t lane = 0) const;  // lane: its index in lanes()
  QLabel* emptyHint() const { return emptyHint_; }  // what to do, shown while there is no signal
  // A file's points for the latest view still being read (the curves show the previous ones).
  bool pointsPending() const;

 signals:
  void cursorReadout(const QString& text);
  void visibleRangeChanged(std::size_t first, std::size_t last);  // sample indices [first, last)
  void originalChanged(const SignalPtr& signal);  // a coarse preview of a mapped file too
  void channelChosen(std::optional<std::size_t> channel);         // by the selector
  // Another channel (0-based) of the mapped file chosen: the selector still shows the channel
  // drawn until the window shows the new one (setOriginal).
  void fileChannelChosen(std::size_t channel);
  void pointsArrived();  // a file's points for the latest view are drawn

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  // One channel's curves and the axis rects they are drawn in (two when stacked).
  struct Lane {
    std::size_t channel = 0;
    QCPGraph* original = nullptr;
    QCPGraph* filtered = nullptr;
    std::vector<QCPAxisRect*> rects;
  };
  void rebuild();
  void refreshPoints();
  void requestPoints(const QCPRange& range, int columns);
  void showPoints(const std::vector<PlotPoints>& points, int columns);
  void fitLanes();
  SignalPtr filteredOf(std::size_t channel) const;  // channel's filtered signal, or null
  void onXRangeChanged(const QCPRange& range);
  void fillChannelBox();
  void emitHoverReadout();
  QCPAxis* keyAxis() const;  // the first lane's x axis, which every other follows

  QCustomPlot* plot_ = nullptr;
  QLabel* emptyHint_ = nullptr;
  QWidget* channelBar_ = nullptr;
  QComboBox* channelBox_ = nullptr;
  SignalPtr original_;
  SignalPtr filtered_;
  QString filteredCaption_;
  std::vector<Lane> lanes_;
  std::optional<std::size_t> channelShown_;
  bool stacked_ = false;
  std::optional<double> sampleRate_;
  bool refreshing_ = false;
  TaskRunner* points_ = nullptr;  // a mapped file's points, read in a worker
  int columns_ = 0;  // pixel columns the points were made for
  std::optional<QPointF> hover_;  // where the mouse last was: the readout follows zoom and pan
};

}  // namespace siglab::gui

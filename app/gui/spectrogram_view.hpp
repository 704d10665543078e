#pragma once
#include <QWidget>

#include <memory>
#include <optional>

#include "loaded_signal.hpp"
#include "siglab/spectrogram_tiles.hpp"

class QCheckBox;
class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTimer;

namespace siglab::gui {

class TaskRunner;
class TaskStatus;

// The spectrogram (power in dB against time and frequency) of the signal's visible range, drawn
// from the tile pyramid of spectrogram_tiles.hpp: the missing tiles are computed in the background
// by the spectrogram stage's engine (GPU or CPU), coarse first; what the cache holds is drawn (the
// overview, every Nth frame) unless they come within a few tens of milliseconds, and the view
// refines as they arrive, one drawing a turn of the event loop. Its time axis is the signal plot's (spectrogram_dock.hpp links the two): zoom or pan
// either and the other follows. A new view replaces the request running; Esc stops it.
class SpectrogramView : public QWidget {
  Q_OBJECT
 public:
  explicit SpectrogramView(QWidget* parent = nullptr);
  ~SpectrogramView() override;

  void setSignal(SignalPtr signal);  // shows all of it
  void setSampleRate(std::optional<double> rate);
  void setVisibleRange(double first, double last);  // sample indices, as the signal plot's
  void setColourMap(const QString& name);           // colourMapNames()
  void setDecibelRange(std::optional<std::pair<double, double>> range);  // nullopt: automatic
  void setSegment(std::size_t nperseg, std::size_t noverlap, const QString& window);
  void cancel();  // Esc: the running request stops, what it computed stays

  bool busy() const;
  SignalPtr signal() const { return signal_; }
  double first() const { return first_; }
  double last() const { return last_; }
  std::shared_ptr<SpectrogramTiles> tiles() const { return tiles_; }
  QCustomPlot* plot() const { return plot_; }
  QCPColorMap* colourMap() const { return map_; }
  QString note() const;                 // "overview: every 16384th frame · FFTW", or why nothing shows
  unsigned levelDrawn() const { return levelDrawn_; }  // the coarsest level of the last drawing
  bool complete() const { return complete_; }  // the last drawing was at screen resolution, and no newer one waits
  bool covered() const { return covered_; }            // the last drawing had every column (the overview at least)
  // The views asked of the tile pyramid so far (what is missing, computed in a worker): one a change
  // of range, settings or signal.
  std::uint64_t tileRequests() const { return tileRequests_; }
  // "f = 1.2 kHz, t = 3.5 s, -42.1 dB" at a time (sample index) and frequency (Hz, or cycles/sample).
  QString readoutAt(double key, double frequency);
  // Writes the plot as PNG, SVG or PDF (by the extension); the error in words, or empty.
  QString exportTo(const QString& path);

 signals:
  void visibleRangeChanged(double first, double last);  // by this view's own zoom or pan
  void readout(const QString& text);
  void drawn();  // after each drawing, complete() or not

 protected:
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void rebuild();  // a new pyramid for the signal, rate and settings
  void request();  // draws what is cached and asks for what is missing
  void scheduleRedraw();  // one drawing at the next turn of the event loop
  void redraw();
  void readSettings();
  void exportChosen();
  std::size_t columns() const;

  QComboBox* window_ = nullptr;
  QComboBox* segment_ = nullptr;
  QSpinBox* overlap_ = nullptr;
  QComboBox* colours_ = nullptr;
  QCheckBox* autoRange_ = nullptr;
  QDoubleSpinBox* low_ = nullptr;
  QDoubleSpinBox* high_ = nullptr;
  QLabel* note_ = nullptr;
  QLabel* readout_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;
  TaskStatus* status_ = nullptr;
  TaskRunner* runner_ = nullptr;
  QTimer* refresh_ = nullptr;  // redraws while tiles arrive
  QTimer* coarse_ = nullptr;   // a request's first drawing, from the coarser levels cached

  SignalPtr signal_;
  std::optional<double> rate_;
  std::shared_ptr<SpectrogramTiles> tiles_;
  QString problem_;  // why there is no spectrogram (settings the signal cannot take)
  QString engine_;
  double first_ = 0, last_ = 0;
  unsigned levelDrawn_ = 0;
  bool complete_ = false;
  bool covered_ = false;
  std::uint64_t drawnInsertions_ = 0;  // the cache's insertions() at the last drawing
  bool redrawQueued_ = false;
  std::uint64_t tileRequests_ = 0;
  bool applying_ = false;  // the axis moved by the view itself, not the user
};

}  // namespace siglab::gui

#pragma once
#include <QToolBar>

#include <cstddef>
#include <functional>
#include <memory>
#include <utility>

#include "audio_output.hpp"
#include "loaded_signal.hpp"
#include "play_position_line.hpp"
#include "playback_controller.hpp"

class QAction;
class QComboBox;

namespace siglab::gui {

class SignalPlot;

// The Play/Stop action (Space) and the choice of the signal or the filtered signal, playing the
// plot's visible range with its play position drawn on the plot. The window hands it what it shows.
class PlaybackBar : public QToolBar {
  Q_OBJECT
 public:
  struct Shown {
    std::function<SignalPtr()> original;
    std::function<SignalPtr()> filtered;
  };
  PlaybackBar(SignalPlot* plot, Shown shown, std::shared_ptr<const BackendList> engines,
              std::unique_ptr<AudioOutput> output = makeAudioOutput(), QWidget* parent = nullptr);

  QAction* playAction() const { return play_; }
  QComboBox* sourceBox() const { return source_; }  // 0: the signal, 1: the filtered signal
  PlaybackController& controller() { return controller_; }
  const PlayPositionLine& positionLine() const { return line_; }

  // What Play plays, in sample indices [first, last): cursors A to B where shown, else the visible
  // range; [0, 0) is the whole signal.
  void setRange(std::size_t first, std::size_t last);
  std::pair<std::size_t, std::size_t> range() const { return {first_, last_}; }
  void togglePlay();

 signals:
  void message(const QString& text);  // for the status bar

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;  // the window hidden (closed): stop

 private:
  SignalPtr chosen() const;

  SignalPlot* plot_;
  Shown shown_;
  PlaybackController controller_;
  PlayPositionLine line_;
  QAction* play_;
  QComboBox* source_;
  std::size_t first_ = 0, last_ = 0;
};

}  // namespace siglab::gui

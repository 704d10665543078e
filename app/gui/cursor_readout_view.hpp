#pragma once
#include <QWidget>

class QCheckBox;
class QLabel;

namespace siglab::gui {

class SignalCursors;
class SpectrumCursor;

// The cursors' readout: a switch for A and B on the signal, what they read (time, every channel's
// values, delta, 1/delta, the span's statistics) and what the spectrum's frequency cursor reads.
class CursorReadoutView : public QWidget {
  Q_OBJECT
 public:
  CursorReadoutView(SignalCursors* cursors, SpectrumCursor* spectrumCursor, QWidget* parent = nullptr);
  QCheckBox* showCursors() const { return show_; }
  QString signalText() const;
  QString spectrumText() const;

 private:
  SignalCursors* cursors_;
  SpectrumCursor* spectrumCursor_;
  QCheckBox* show_ = nullptr;
  QLabel* signal_ = nullptr;
  QLabel* spectrum_ = nullptr;
};

}  // namespace siglab::gui

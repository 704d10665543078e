#pragma once
#include <QObject>
#include <QString>

#include <optional>

class QCPItemStraightLine;

namespace siglab::gui {

class SpectrumView;

// A frequency cursor on the spectrum view: a click or drag puts it on the nearest bin; it reads
// that bin's frequency and power (original and filtered). Read again after every redraw, so it
// follows a new spectrum (another signal, range or segment).
class SpectrumCursor : public QObject {
  Q_OBJECT
 public:
  explicit SpectrumCursor(SpectrumView* view);
  void setFrequency(std::optional<double> frequency);  // none: hidden
  std::optional<double> frequency() const { return frequency_; }
  QString readoutText() const;  // empty while hidden or with no spectrum

 signals:
  void changed();

 private:
  void place(double pixelX);
  void redraw();
  SpectrumView* view_;
  QCPItemStraightLine* line_ = nullptr;
  std::optional<double> frequency_;
  bool dragging_ = false;
};

}  // namespace siglab::gui

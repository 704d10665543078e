#pragma once
#include <QPointer>

#include <optional>
#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPItemStraightLine;

namespace siglab::gui {

// A vertical line at a key (sample index) across every axis rect of a plot: the play position.
// The plot may rebuild its rects (lanes, stacking) at any time: the lines follow on the next move.
class PlayPositionLine {
 public:
  explicit PlayPositionLine(QCustomPlot* plot);
  ~PlayPositionLine();
  PlayPositionLine(const PlayPositionLine&) = delete;
  PlayPositionLine& operator=(const PlayPositionLine&) = delete;

  void moveTo(std::optional<double> key);  // nullopt: hidden
  std::optional<double> position() const { return position_; }
  std::size_t linesShown() const;

 private:
  void remakeIfRebuilt();
  void removeLines();

  QPointer<QCustomPlot> plot_;
  std::vector<QPointer<QCPAxisRect>> rects_;
  std::vector<QPointer<QCPItemStraightLine>> lines_;
  std::optional<double> position_;
};

}  // namespace siglab::gui

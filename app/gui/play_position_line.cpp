#include "play_position_line.hpp"

#include <qcustomplot.h>

namespace siglab::gui {

PlayPositionLine::PlayPositionLine(QCustomPlot* plot) : plot_(plot) {}

PlayPositionLine::~PlayPositionLine() { removeLines(); }

void PlayPositionLine::removeLines() {
  for (const auto& line : lines_) {
    if (line && plot_ && plot_->hasItem(line)) plot_->removeItem(line);
  }
  lines_.clear();
  rects_.clear();
}

void PlayPositionLine::remakeIfRebuilt() {
  const QList<QCPAxisRect*> rects = plot_->axisRects();
  bool same = static_cast<std::size_t>(rects.size()) == rects_.size();
  for (std::size_t i = 0; same && i < rects_.size(); ++i) same = rects_[i] == rects[static_cast<qsizetype>(i)] && lines_[i];
  if (same) return;
  removeLines();
  for (QCPAxisRect* rect : rects) {
    auto* line = new QCPItemStraightLine(plot_);
    line->setPen(QPen(QColor(0, 150, 60), 1.5));
    line->setClipAxisRect(rect);
    for (QCPItemPosition* end : {line->point1, line->point2}) end->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    line->setSelectable(false);
    rects_.emplace_back(rect);
    lines_.emplace_back(line);
  }
}

void PlayPositionLine::moveTo(std::optional<double> key) {
  position_ = key;
  if (!plot_) return;
  if (!key) {
    removeLines();
  } else {
    remakeIfRebuilt();
    for (const auto& line : lines_) {
      line->point1->setCoords(*key, 0.0);
      line->point2->setCoords(*key, 1.0);
    }
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

std::size_t PlayPositionLine::linesShown() const {
  std::size_t n = 0;
  for (const auto& line : lines_) n += line && plot_ && plot_->hasItem(line);
  return n;
}

}  // namespace siglab::gui

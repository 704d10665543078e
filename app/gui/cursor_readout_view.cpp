#include "cursor_readout_view.hpp"

#include <QCheckBox>
#include <QLabel>
#include <QVBoxLayout>

#include "signal_cursors.hpp"
#include "spectrum_cursor.hpp"

namespace siglab::gui {

CursorReadoutView::CursorReadoutView(SignalCursors* cursors, SpectrumCursor* spectrumCursor, QWidget* parent)
    : QWidget(parent), cursors_(cursors), spectrumCursor_(spectrumCursor) {
  show_ = new QCheckBox(tr("Cursors A and B on the signal"));
  show_->setObjectName("showCursors");
  show_->setToolTip(tr("Two cursors to measure between: drag them on the signal"));
  signal_ = new QLabel;
  signal_->setObjectName("cursorReadout");
  signal_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  signal_->setWordWrap(true);
  spectrum_ = new QLabel;
  spectrum_->setObjectName("spectrumCursorReadout");
  spectrum_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  spectrum_->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(show_);
  layout->addWidget(signal_);
  layout->addWidget(spectrum_);
  layout->addStretch();
  const auto refresh = [this] {
    show_->setChecked(cursors_->shown());  // shown from another view too (the session's cursors)
    signal_->setText(signalText().isEmpty() ? tr("Tick the box to place cursors A and B.") : signalText());
    spectrum_->setText(spectrumText().isEmpty() ? tr("Shift+click the spectrum for a frequency cursor.") : spectrumText());
  };
  connect(show_, &QCheckBox::toggled, cursors_, &SignalCursors::setShown);
  connect(cursors_, &SignalCursors::changed, this, refresh);
  connect(spectrumCursor_, &SpectrumCursor::changed, this, refresh);
  refresh();
}

QString CursorReadoutView::signalText() const { return cursors_->readoutText(); }

QString CursorReadoutView::spectrumText() const { return spectrumCursor_->readoutText(); }

}  // namespace siglab::gui

#include "task_status.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace siglab::gui {

TaskStatus::TaskStatus(QWidget* parent) : QWidget(parent) {
  label_ = new QLabel;
  bar_ = new QProgressBar;
  bar_->setRange(0, 1000);
  bar_->setMaximumWidth(220);
  bar_->setTextVisible(false);
  cancelButton_ = new QPushButton(tr("Cancel"));
  cancelButton_->setToolTip(tr("Stop the running task (Esc); nothing it was producing is kept"));
  connect(cancelButton_, &QPushButton::clicked, this, &TaskStatus::cancel);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(label_);
  layout->addWidget(bar_);
  layout->addWidget(cancelButton_);
  hide();
}

void TaskStatus::begin(const QString& what, std::shared_ptr<std::atomic<bool>> cancel) {
  cancel_ = std::move(cancel);
  what_ = what;
  perMille_ = 0;
  cancelling_ = false;
  elapsed_.start();
  bar_->setValue(0);
  cancelButton_->setEnabled(true);
  showText();
  show();
}

void TaskStatus::setProgress(int perMille) {
  perMille_ = perMille;
  bar_->setValue(perMille);
  showText();
}

void TaskStatus::showText() {
  QString text = what_;
  if (perMille_ > 0) {
    text += tr(" – %1%").arg(perMille_ / 10);
    if (const QString left = remainingEstimate(elapsed_.elapsed(), perMille_); !left.isEmpty()) text += ", " + left;
  }
  if (cancelling_) text += tr(" – cancelling");
  label_->setText(text);
}

void TaskStatus::end() {
  cancel_.reset();
  hide();
}

void TaskStatus::cancel() {
  if (!cancel_) return;
  cancel_->store(true);
  cancelling_ = true;
  showText();
  cancelButton_->setEnabled(false);
}

QString remainingEstimate(qint64 elapsedMs, int perMille) {
  constexpr qint64 kSettleMs = 500;  // the first moments say little about the pace
  if (perMille <= 0 || perMille >= 1000 || elapsedMs < kSettleMs) return {};
  const qint64 leftMs = elapsedMs * (1000 - perMille) / perMille;
  if (leftMs < 1000) return QObject::tr("less than a second left");
  if (leftMs < 90'000) return QObject::tr("about %1 s left").arg((leftMs + 500) / 1000);
  return QObject::tr("about %1 min left").arg((leftMs + 30'000) / 60'000);
}

}  // namespace siglab::gui

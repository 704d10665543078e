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
  label_->setText(what);
  bar_->setValue(0);
  cancelButton_->setEnabled(true);
  show();
}

void TaskStatus::setProgress(int perMille) { bar_->setValue(perMille); }

void TaskStatus::end() {
  cancel_.reset();
  hide();
}

void TaskStatus::cancel() {
  if (!cancel_) return;
  cancel_->store(true);
  label_->setText(label_->text() + tr(" – cancelling"));
  cancelButton_->setEnabled(false);
}

}  // namespace siglab::gui

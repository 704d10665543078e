#include "task_runner.hpp"

#include "task_status.hpp"

namespace siglab::gui {

TaskRunner::TaskRunner(TaskStatus* status, QObject* parent) : QObject(parent), status_(status) {}

void TaskRunner::begin(QFutureWatcherBase* watcher, const QString& what, std::shared_ptr<std::atomic<bool>> cancel) {
  current_ = watcher;
  cancel_ = cancel;
  if (status_) {
    status_->begin(what, std::move(cancel));
    connect(watcher, &QFutureWatcherBase::progressValueChanged, status_, [this, watcher](int perMille) {
      if (current_ == watcher) status_->setProgress(perMille);
    });
  }
  emit busyChanged(true);
}

void TaskRunner::finish() {
  current_ = nullptr;
  cancel_.reset();
  if (status_) status_->end();
  emit busyChanged(false);
}

void TaskRunner::cancel() {
  if (status_) return status_->cancel();
  if (cancel_) cancel_->store(true);
}

void TaskRunner::abandon() {
  if (!current_) return;
  cancel_->store(true);  // its watcher still deletes itself once the worker has stopped
  finish();
}

}  // namespace siglab::gui

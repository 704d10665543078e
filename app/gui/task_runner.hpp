#pragma once
#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace siglab::gui {

class TaskStatus;

// The window's one background task at a time. A new request replaces the running one (as Qt's
// mandelbrot example restarts its worker): the old task is told to stop and its result is never
// shown, so nothing the user asks for is dropped because something else was running. Progress and
// Cancel go to the status bar's TaskStatus.
class TaskRunner : public QObject {
  Q_OBJECT
 public:
  // `status` null: tasks too short to show (a view's plot points), no progress and no Cancel button.
  TaskRunner(TaskStatus* status, QObject* parent = nullptr);

  bool busy() const { return current_ != nullptr; }
  // Runs `onDone` on this thread once `future` has finished, unless another task replaced it first.
  // `cancel` is the flag the task's worker reads.
  template <typename T>
  void start(const QString& what, std::shared_ptr<std::atomic<bool>> cancel, QFuture<T> future,
             std::function<void(const QFuture<T>&)> onDone) {
    abandon();
    auto* watcher = new QFutureWatcher<T>(this);
    begin(watcher, what, std::move(cancel));
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, onDone = std::move(onDone)] {
      if (current_ == watcher) {
        finish();
        onDone(watcher->future());
        emit finished();
      }
      watcher->deleteLater();
    });
    watcher->setFuture(future);
  }
  // The user's Cancel (Esc): the task stops and its onDone reports what was kept.
  void cancel();
  // Stops the running task and forgets it: its result is never shown (a new request, Undo).
  void abandon();

 signals:
  void busyChanged(bool busy);
  void finished();  // a task's onDone has run

 private:
  void begin(QFutureWatcherBase* watcher, const QString& what, std::shared_ptr<std::atomic<bool>> cancel);
  void finish();

  TaskStatus* status_;
  QFutureWatcherBase* current_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;
};

}  // namespace siglab::gui

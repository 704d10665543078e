#pragma once
#include <QElapsedTimer>
#include <QWidget>

#include <atomic>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;

namespace siglab::gui {

// The status bar's view of the running task: what it is, how far along with an estimate of the
// time left ("Loading a.txt – 40%, about 3 s left"), and a Cancel that sets the task's cancel flag.
class TaskStatus : public QWidget {
  Q_OBJECT
 public:
  explicit TaskStatus(QWidget* parent = nullptr);
  void begin(const QString& what, std::shared_ptr<std::atomic<bool>> cancel);
  void setProgress(int perMille);
  void end();
  void cancel();

 private:
  void showText();

  QLabel* label_ = nullptr;
  QProgressBar* bar_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;
  QString what_;
  int perMille_ = 0;
  bool cancelling_ = false;
  QElapsedTimer elapsed_;
};

// The time left of a task `perMille` done after `elapsedMs`, at the pace so far ("about 3 s left"),
// or nothing before there is enough to go by.
QString remainingEstimate(qint64 elapsedMs, int perMille);

}  // namespace siglab::gui

#pragma once
#include <QWidget>

#include <atomic>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;

namespace siglab::gui {

// The status bar's view of the running task: what it is, how far along, and a Cancel that sets
// the task's cancel flag.
class TaskStatus : public QWidget {
  Q_OBJECT
 public:
  explicit TaskStatus(QWidget* parent = nullptr);
  void begin(const QString& what, std::shared_ptr<std::atomic<bool>> cancel);
  void setProgress(int perMille);
  void end();
  void cancel();

 private:
  QLabel* label_ = nullptr;
  QProgressBar* bar_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;
};

}  // namespace siglab::gui

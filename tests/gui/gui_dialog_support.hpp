#pragma once
#include <QAbstractButton>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QWidget>

namespace siglab::test {

// The window-modal child named `name` of type T once it is shown (or null after 5 s).
template <typename T>
T* waitForChild(const QWidget& parent, const char* name = nullptr) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < 5'000) {
    for (T* child : parent.findChildren<T*>()) {
      if ((!name || child->objectName() == name) && child->isVisible()) return child;
    }
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  }
  return nullptr;
}

// Clicks `button` of the message box named `name`; false when no such box is showing.
inline bool answer(const QWidget& parent, const char* name, QMessageBox::StandardButton button) {
  QMessageBox* box = waitForChild<QMessageBox>(parent, name);
  if (!box || !box->button(button)) return false;
  box->button(button)->click();
  QCoreApplication::processEvents();
  return true;
}

}  // namespace siglab::test

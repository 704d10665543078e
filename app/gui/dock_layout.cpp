#include "dock_layout.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

#include <algorithm>

namespace siglab::gui {
namespace {

constexpr int kDockWidth = 340;  // what the form needs; the signal keeps the rest

}  // namespace

QDockWidget* addViewDock(QMainWindow& window, QWidget* view, const QString& title, const QString& objectName,
                         QMenu* viewsMenu) {
  auto* dock = new QDockWidget(title, &window);
  dock->setObjectName(objectName);  // saveState's key
  dock->setWidget(view);
  dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  window.addDockWidget(Qt::RightDockWidgetArea, dock);
  QAction* toggle = dock->toggleViewAction();
  toggle->setToolTip(QObject::tr("Show or hide the %1 view").arg(title));
  viewsMenu->addAction(toggle);
  return dock;
}

void arrangeDocks(QMainWindow& window, QDockWidget* form, const std::vector<QDockWidget*>& views,
                  const std::vector<QDockWidget*>& apart) {
  for (QDockWidget* dock : apart) {
    dock->hide();
    dock->setFloating(true);
    dock->resize(dock->sizeHint());
  }
  for (QDockWidget* dock : views) window.removeDockWidget(dock);
  window.removeDockWidget(form);
  window.addDockWidget(Qt::RightDockWidgetArea, form);
  form->setFloating(false);
  form->show();
  QDockWidget* first = nullptr;
  for (QDockWidget* dock : views) {
    if (!first) {
      window.addDockWidget(Qt::RightDockWidgetArea, dock, Qt::Vertical);
      first = dock;
    } else {
      window.tabifyDockWidget(first, dock);
    }
    dock->setFloating(false);
    dock->show();
  }
  if (first) first->raise();
  window.resizeDocks({form}, {std::max(kDockWidth, form->minimumSizeHint().width())}, Qt::Horizontal);
  if (first) window.resizeDocks({form, first}, {3, 2}, Qt::Vertical);
}

}  // namespace siglab::gui

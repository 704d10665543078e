#pragma once
#include <QString>

#include <vector>

class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

namespace siglab::gui {

// The window's views as dock widgets around the signal plot: each can be moved, floated, closed and
// shown again (View > Views), and QMainWindow::saveState remembers where they are. A new view
// (cursors, markers) is one more addViewDock in MainWindow::createDocks.
QDockWidget* addViewDock(QMainWindow& window, QWidget* view, const QString& title, const QString& objectName,
                         QMenu* viewsMenu);

// The first arrangement (and View > Restore the layout): `form` at the right, the signal keeping at
// least 60% of the window, `views` tabbed under the form, the first of them in front, and `apart`
// (wide views such as the Lab) floating, hidden until View > Views shows them.
void arrangeDocks(QMainWindow& window, QDockWidget* form, const std::vector<QDockWidget*>& views,
                  const std::vector<QDockWidget*>& apart);

}  // namespace siglab::gui

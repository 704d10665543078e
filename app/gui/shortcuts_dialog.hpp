#pragma once
#include <QList>
#include <QString>

class QAction;
class QWidget;

namespace siglab::gui {

// An HTML table of every action with a shortcut, in menu order, read from the actions themselves
// so it cannot go stale; plus the plot's mouse gestures.
QString shortcutTable(const QList<QAction*>& actions);
void showShortcuts(const QList<QAction*>& actions, QWidget* parent);

}  // namespace siglab::gui

#include "shortcuts_dialog.hpp"

#include <QAction>
#include <QMessageBox>

namespace siglab::gui {

QString shortcutTable(const QList<QAction*>& actions) {
  QString rows;
  for (const QAction* action : actions) {
    if (action->shortcut().isEmpty()) continue;
    const QString name = action->text().remove('&').remove(QString::fromUtf8("…"));
    rows += QString("<tr><td><b>%1</b></td><td>%2</td></tr>")
                .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(), name.toHtmlEscaped());
  }
  rows += QMessageBox::tr("<tr><td><b>Wheel</b></td><td>Zoom the plot around the cursor</td></tr>"
                          "<tr><td><b>Drag</b></td><td>Pan the plot (or draw a zoom box with rubber-band zoom)</td></tr>"
                          "<tr><td><b>Drop a file</b></td><td>Open it</td></tr>");
  return "<table cellspacing=\"6\">" + rows + "</table>";
}

void showShortcuts(const QList<QAction*>& actions, QWidget* parent) {
  auto* box = new QMessageBox(QMessageBox::NoIcon, QMessageBox::tr("Keyboard shortcuts"), shortcutTable(actions),
                              QMessageBox::Close, parent);
  box->setObjectName("shortcutsBox");
  box->setTextFormat(Qt::RichText);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

}  // namespace siglab::gui

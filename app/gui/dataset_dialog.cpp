#include "dataset_dialog.hpp"

#include <QFileInfo>
#include <QInputDialog>
#include <QStringList>

namespace siglab::gui {

std::optional<std::string> pickDataset(QWidget* parent, const QString& path, const std::vector<DatasetEntry>& entries) {
  QStringList labels;
  for (const DatasetEntry& entry : entries) labels << QString::fromStdString(datasetLabel(entry));
  bool chosen = false;
  const QString label = QInputDialog::getItem(parent, QObject::tr("Open %1").arg(QFileInfo(path).fileName()),
                                              QObject::tr("The file holds several signals; open:"), labels, 0, false,
                                              &chosen);
  if (!chosen) return std::nullopt;
  return entries[static_cast<std::size_t>(labels.indexOf(label))].name;
}

}  // namespace siglab::gui

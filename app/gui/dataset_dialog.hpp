#pragma once
#include <QString>
#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "siglab/io/dataset_files.hpp"

namespace siglab::gui {

// Asks which of an HDF5/MAT file's datasets to open (listDatasets' entries, labelled by core's
// datasetLabel); nullopt when cancelled.
std::optional<std::string> pickDataset(QWidget* parent, const QString& path, const std::vector<DatasetEntry>& entries);

}  // namespace siglab::gui

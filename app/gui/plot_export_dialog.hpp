#pragma once
#include <QDialog>

#include "plot_export.hpp"

class QLineEdit;
class QSpinBox;

namespace siglab::gui {

// The size and title of an exported plot; the format follows the file name chosen before.
class PlotExportDialog : public QDialog {
  Q_OBJECT
 public:
  PlotExportDialog(const QSize& shown, const QString& title, QWidget* parent = nullptr);
  PlotImageOptions options() const;

  QSpinBox* widthBox() const { return width_; }
  QSpinBox* heightBox() const { return height_; }
  QLineEdit* titleEdit() const { return title_; }

 private:
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
  QLineEdit* title_ = nullptr;
};

}  // namespace siglab::gui

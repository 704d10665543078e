#include "plot_export_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

namespace siglab::gui {
namespace {

QSpinBox* pixelBox(int value) {
  auto* box = new QSpinBox;
  box->setRange(100, 20000);
  box->setSuffix(QDialog::tr(" px"));
  box->setValue(value);
  return box;
}

}  // namespace

PlotExportDialog::PlotExportDialog(const QSize& shown, const QString& title, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Export plot"));
  width_ = pixelBox(shown.width() * 2);  // twice the screen's pixels by default: sharp in documents
  height_ = pixelBox(shown.height() * 2);
  title_ = new QLineEdit(title);
  title_->setToolTip(tr("Drawn above the plot; empty: no title"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* form = new QFormLayout(this);
  form->addRow(tr("&Width"), width_);
  form->addRow(tr("&Height"), height_);
  form->addRow(tr("&Title"), title_);
  form->addRow(buttons);
}

PlotImageOptions PlotExportDialog::options() const { return {width_->value(), height_->value(), title_->text()}; }

}  // namespace siglab::gui

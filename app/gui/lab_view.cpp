#include "lab_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QVBoxLayout>

#include "ladder_view.hpp"

namespace siglab::gui {
namespace {

QSpinBox* spinBox(int low, int high, int value, const QString& prefix, const QString& suffix, const QString& tip) {
  auto* box = new QSpinBox;
  box->setRange(low, high);
  box->setValue(value);
  box->setPrefix(prefix);
  box->setSuffix(suffix);
  box->setToolTip(tip);
  return box;
}

QWidget* row(std::initializer_list<QWidget*> widgets) {
  auto* holder = new QWidget;
  auto* layout = new QHBoxLayout(holder);
  layout->setContentsMargins(0, 0, 0, 0);
  for (QWidget* w : widgets) layout->addWidget(w);
  return holder;
}

}  // namespace

LabView::LabView(QWidget* parent) : QWidget(parent) {
  const QString repeatTip = tr("Timed runs of each rung after one warm-up; the median is shown");
  for (auto& box : repeat_) box = spinBox(1, 1000, 10, "", tr(" runs"), repeatTip);

  source_ = new QComboBox;
  source_->addItem(tr("the loaded signal (float64)"));
  source_->addItem(tr("random bytes as int32 (the classic benchmark)"));
  source_->setToolTip(tr("What the kernels sum"));
  reductionLog2_ = spinBox(10, 28, 24, "2^", "", tr("How many int32 values the classic benchmark sums"));
  reductionLog2_->setEnabled(false);
  connect(source_, &QComboBox::currentIndexChanged, this, [this](int i) { reductionLog2_->setEnabled(i == 1); });
  QWidget* reductionControls =
      row({new QLabel(tr("Sum")), source_, reductionLog2_, repeat_[index(LabExperiment::Reduction)]});

  reversalLog2_ = spinBox(1, 28, 24, "2^", tr(" int32"), tr("How many int32 values to reverse"));
  QWidget* reversalControls =
      row({new QLabel(tr("Reverse")), reversalLog2_, repeat_[index(LabExperiment::Reversal)]});

  const char* sides[] = {"M ", "N ", "K "};
  for (int i = 0; i < 3; ++i) {
    shape_[static_cast<std::size_t>(i)] =
        spinBox(1, 8192, 1000, sides[i], "", tr("C (M x N) = A (M x K) B (K x N), float32"));
  }
  QWidget* matmulControls = row({new QLabel(tr("Multiply")), shape_[0], shape_[1], shape_[2],
                                 repeat_[index(LabExperiment::Matmul)]});

  views_[index(LabExperiment::Reduction)] =
      new LadderView(reductionControls, tr("Sum on the CPU, with every reduction kernel and cub::DeviceReduce::Sum"),
                     QString::fromStdString(labNote(LabExperiment::Reduction)));
  views_[index(LabExperiment::Reversal)] =
      new LadderView(reversalControls, tr("Reverse on the CPU and with every GPU rung, next to a device copy"),
                     QString::fromStdString(labNote(LabExperiment::Reversal)));
  views_[index(LabExperiment::Matmul)] =
      new LadderView(matmulControls, tr("Multiply on the CPU and with every GPU rung, next to cublasSgemm"),
                     QString::fromStdString(labNote(LabExperiment::Matmul)));
  tabs_ = new QTabWidget;
  tabs_->addTab(views_[0], tr("Reduction"));
  tabs_->addTab(views_[1], tr("Reversal"));
  tabs_->addTab(views_[2], tr("Matrix multiply"));
  for (LabExperiment e : {LabExperiment::Reduction, LabExperiment::Reversal, LabExperiment::Matmul}) {
    connect(views_[index(e)], &LadderView::runRequested, this, [this, e] { emit runRequested(e); });
  }
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tabs_);
}

LabRequest LabView::request(LabExperiment experiment) const {
  LabRequest r;
  r.experiment = experiment;
  r.onSignal = source_->currentIndex() == 0;
  r.log2Count = experiment == LabExperiment::Reversal ? reversalLog2_->value() : reductionLog2_->value();
  r.shape = MatmulShape{shape_[0]->value(), shape_[1]->value(), shape_[2]->value()};
  r.repeat = repeat_[index(experiment)]->value();
  return r;
}

void LabView::showExperiment(LabExperiment experiment) { tabs_->setCurrentIndex(static_cast<int>(index(experiment))); }

void LabView::setSignalAvailable(bool available) {
  if (available == signalAvailable_) return;
  signalAvailable_ = available;
  source_->setCurrentIndex(available ? 0 : 1);  // the signal once there is one
  if (auto* model = qobject_cast<QStandardItemModel*>(source_->model())) model->item(0)->setEnabled(available);
}

void LabView::setGpuMissing(const QString& reason) {
  for (LadderView* view : views_) view->setGpuMissing(reason);
}

void LabView::setRunEnabled(bool enabled) {
  for (LadderView* view : views_) view->setRunEnabled(enabled);
}

}  // namespace siglab::gui

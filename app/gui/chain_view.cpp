#include "chain_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace siglab::gui {

ChainView::ChainView(QUndoStack* undo, QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* header = new QHBoxLayout;
  header->addWidget(new QLabel(tr("Chain")), 1);
  auto* undoButton = new QToolButton;
  undoButton->setText(tr("Undo"));
  undoButton->setToolTip(tr("Remove the last step and show the result before it (Ctrl+Z)"));
  connect(undoButton, &QToolButton::clicked, undo, &QUndoStack::undo);
  connect(undo, &QUndoStack::canUndoChanged, undoButton, &QToolButton::setEnabled);
  undoButton->setEnabled(undo->canUndo());
  auto* redoButton = new QToolButton;
  redoButton->setText(tr("Redo"));
  redoButton->setToolTip(tr("Add the step undone again, with its result (Ctrl+Shift+Z)"));
  connect(redoButton, &QToolButton::clicked, undo, &QUndoStack::redo);
  connect(undo, &QUndoStack::canRedoChanged, redoButton, &QToolButton::setEnabled);
  redoButton->setEnabled(undo->canRedo());
  header->addWidget(undoButton);
  header->addWidget(redoButton);
  layout->addLayout(header);
  list_ = new QListWidget;
  list_->setToolTip(tr("The stages applied in turn, each to the result of the one before"));
  list_->setWordWrap(true);
  list_->setAlternatingRowColors(true);
  list_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  list_->setMinimumHeight(60);
  list_->setMaximumHeight(140);
  layout->addWidget(list_);
  setSteps({});
}

void ChainView::setSteps(const std::vector<ChainStep>& steps) {
  list_->clear();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const ChainStep& step = steps[i];
    list_->addItem(tr("%1. %2\n%3, %4 ms")
                       .arg(i + 1)
                       .arg(QString::fromStdString(step.report->description), QString::fromStdString(step.report->engine))
                       .arg(step.report->pass.phases.totalMs, 0, 'f', 2));
  }
  if (steps.empty()) list_->addItem(tr("(no stage applied: Apply adds one)"));
}

Pipeline pipelineOf(const std::vector<ChainStep>& steps) {
  Pipeline pipeline;
  for (const ChainStep& step : steps) pipeline.stages.push_back(step.stage);
  return pipeline;
}

}  // namespace siglab::gui

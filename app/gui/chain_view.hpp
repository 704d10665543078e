#pragma once
#include <QString>
#include <QUndoCommand>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

#include "loaded_signal.hpp"
#include "siglab/filter_spec.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/pipeline_run.hpp"

class QListWidget;
class QToolButton;
class QUndoStack;

namespace siglab::gui {

// One applied stage of the chain: the stage, how it ran, and the signal it made.
struct ChainStep {
  Stage stage;
  std::shared_ptr<const StageReport> report;  // its description, engine, times and verification
  SignalPtr result;
  FilterSpec spec;          // the filter it is, for the spectrum (empty where none)
  ReadOptions resultRead;   // how a mapped result's file is read
  bool inFile = false;      // a mapped result: written already
};

// The stages applied in turn, as a list under the form (each with its engine and time), with
// undo and redo of the last step through `undo`.
class ChainView : public QWidget {
  Q_OBJECT
 public:
  explicit ChainView(QUndoStack* undo, QWidget* parent = nullptr);
  void setSteps(const std::vector<ChainStep>& steps);
  QListWidget* list() const { return list_; }

 private:
  QListWidget* list_ = nullptr;
};

// A step of the chain as an undoable command: redo adds it (with the result it made), undo takes it off.
class StepCommand : public QUndoCommand {
 public:
  StepCommand(const QString& text, std::function<void()> add, std::function<void()> remove)
      : QUndoCommand(text), add_(std::move(add)), remove_(std::move(remove)) {}
  void redo() override { add_(); }
  void undo() override { remove_(); }

 private:
  std::function<void()> add_;
  std::function<void()> remove_;
};

// The chain's stages, as a pipeline.
Pipeline pipelineOf(const std::vector<ChainStep>& steps);

}  // namespace siglab::gui

#pragma once
#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

#include "background_tasks.hpp"
#include "siglab/session.hpp"
#include "siglab/stage.hpp"
#include "siglab/statistics.hpp"

class QUndoStack;
class QWidget;

namespace siglab::gui {

class FilterPanel;
class SignalSession;
class TaskRunner;

// What Apply and Compare work with: the window's parts, and how to ask the user.
struct RunParts {
  SignalSession* session = nullptr;
  TaskRunner* tasks = nullptr;
  FilterPanel* form = nullptr;
  QUndoStack* undo = nullptr;
  EnginesPtr engines;
  QWidget* window = nullptr;  // the dialogs' parent
  std::function<QString(const QString& title, const QString& defaultName, const QString& filters)> askSavePath;
  std::function<bool(const QString& path)> checkOutput;  // says why not itself
  std::function<ViewRange()> visibleRange;               // the plot's x axis, in samples
  std::function<std::uint64_t()> mappedAboveBytes;
  std::function<QString()> cacheFolder;
};

// Apply and Compare on the session's chain, each a background task of the window's TaskRunner (a
// new request replaces the running one); the results go to the session, Apply's through the undo
// stack. What it has to say goes out as message() and failed(): the window shows them.
class RunController : public QObject {
  Q_OBJECT
 public:
  RunController(RunParts parts, QObject* parent);

  // The form's stage added to the chain, run on the chain's current result with the form's one
  // engine; on a signal viewed from its file, streamed into a file the user names (applyInto).
  void apply();
  void applyInto(const QString& outputPath);
  // `stages` applied in turn (a pipeline file's, a session's chain), the chain cleared first.
  void applyStages(std::vector<Stage> stages);
  void applyPending();  // the next of those, or nothing
  // The checked engines on the chain's current result; on a signal viewed from its file, on a range
  // the user agrees to.
  void compare();
  void compareRange(SampleRange range, const QString& label = {});

 signals:
  void message(const QString& text, int timeoutMs);
  void failed(const QString& title, const QString& text);

 private:
  void applyStage(JobDraft job);
  void offerCompareRange();
  std::string checkedEngineList() const;

  RunParts parts_;
  std::vector<Stage> pendingStages_;  // a pipeline's stages still to apply, in order
};

}  // namespace siglab::gui

#pragma once
#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory_resource>
#include <optional>

#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/progress.hpp"
#include "siglab/session.hpp"
#include "loaded_signal.hpp"

class QAction;
class QUndoStack;
class QWidget;

namespace siglab::gui {

class FilterPanel;
class MarkersView;
class RunController;
class SignalPlot;
class SignalSession;
class TaskRunner;

// What opening and writing files work with: the window's parts.
struct FileParts {
  SignalSession* session = nullptr;
  TaskRunner* tasks = nullptr;
  FilterPanel* form = nullptr;
  QUndoStack* undo = nullptr;
  RunController* runs = nullptr;  // applies a session's or pipeline's chain once its signal is there
  SignalPlot* plot = nullptr;
  MarkersView* markers = nullptr;
  QAction* stacked = nullptr;  // View > Stacked plots, saved in sessions
  QWidget* window = nullptr;   // the dialogs' parent
  std::pmr::memory_resource* hostMemory = nullptr;  // where loaded samples go: page-locked with a GPU
  std::function<std::optional<double>()> sampleRate;
};

// The window's files: signals opened (probed in the background, the import dialog or dataset
// picker where a file needs one, a file larger than memory from its mapping), sessions and pipelines
// read and saved, the filtered signal and the timing report exported, each a background task of the
// window's TaskRunner. What it has to say goes out as message() and failed(); the window shows them.
class FileController : public QObject {
  Q_OBJECT
 public:
  FileController(FileParts parts, QObject* parent);

  void openFile(const QString& path);  // a session, or a signal (asking how to read it where needed)
  void openFile(const QString& path, const ReadOptions& options);
  void requestOpen(const QString& path);  // asks before discarding an unexported result first
  void showFileChannel(std::size_t channel);  // of a mapped file of several (0-based)
  void exportResult(const QString& path);
  void exportReport(const QString& path);
  void saveSession(const QString& path);
  void openSession(const QString& path);
  void savePipeline(const QString& path);
  void loadPipeline(const QString& path);
  Session currentSession() const;
  // Runs `proceed` at once when no unexported result would be lost, else after the user chose
  // Discard, or Export and the export succeeded; Cancel runs nothing.
  void askToDiscardResult(std::function<void()> proceed);
  // Whether `path` may be written, by the CLI's one check (checkOutputsBeforeWork) against the
  // loaded signal's file (and its cache): says why not (failed()) and returns false.
  bool checkOutput(const QString& path);
  // Runs `write` (an atomic writer of `path`) in the background; a failure is reported under
  // `failureTitle` (empty: "Could not export").
  void startExport(const QString& path, std::function<void(const Progress&)> write,
                   std::function<void()> onWritten = {}, const QString& failureTitle = {});
  QString askSavePath(const QString& title, const QString& defaultName, const QString& filters);
  QString resultFileName() const;       // Export's default name: "result" (and the channel of a mapped file)
  QString resultExportFilters() const;  // formats that hold the result's channels first

  const QString& lastDirectory() const { return lastDirectory_; }
  void setLastDirectory(const QString& folder) { lastDirectory_ = folder; }
  void setMappedAboveBytes(std::uint64_t bytes) { mappedAboveBytes_ = bytes; }
  std::uint64_t mappedAboveBytes() const { return mappedAboveBytes_; }
  void setCacheFolder(const QString& folder) { cacheFolder_ = folder; }
  QString cacheFolder() const;  // the user's cache location (QStandardPaths) unless set

 signals:
  void message(const QString& text, int timeoutMs = 0);
  void failed(const QString& title, const QString& text);
  void signalShown(const QString& path);  // a signal opened and shown (the recent files remember it)

 private:
  void exportResultThen(std::function<void()> proceed);  // asks where; `proceed` once written
  void startResultExport(const QString& path, std::function<void()> onWritten);
  void showSignal(const QString& path, const ReadOptions& options, SignalPtr signal, std::optional<ViewRange> view);
  bool opensMapped(const QString& path, const ReadOptions& options) const;
  // `preview`: the first, coarse view replaces the signal shown before the indexed one comes.
  void openMapped(const QString& path, const ReadOptions& options, bool preview = true);

  SignalSession* session_;
  TaskRunner* tasks_;
  FilterPanel* filterPanel_;
  QUndoStack* undo_;
  RunController* runs_;
  SignalPlot* plot_;
  MarkersView* markers_;
  QAction* stackedAction_;
  QWidget* window_;
  std::pmr::memory_resource* hostMemory_;
  std::function<std::optional<double>()> sampleRate_;
  Pipeline pendingChain_;                 // a session's or pipeline file's chain, applied once its signal has loaded
  std::optional<ViewRange> pendingView_;  // a session's view, shown once its signal has loaded
  QString lastDirectory_;
  std::uint64_t mappedAboveBytes_;
  QString cacheFolder_;
};

}  // namespace siglab::gui

#pragma once
#include <QFuture>
#include <QMainWindow>

#include <cstdint>
#include <functional>
#include <memory>
#include <memory_resource>
#include <optional>
#include <vector>

#include "chain_view.hpp"
#include "lab_ladders.hpp"
#include "loaded_signal.hpp"
#include "siglab/comparison.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/job.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/progress.hpp"
#include "siglab/session.hpp"
#include "plot_export.hpp"

class QAction;
class QLabel;
class QMenu;
class QPrinter;
class QDockWidget;
class QUndoStack;

namespace siglab::gui {

class ChainView;
class FileController;
class RunController;
class DevicePanel;
class FilterPanel;
struct JobDraft;
class LabView;
class SampleRateField;
class SignalSession;
class SpectrumView;
class SignalPlot;
class StatisticsPanel;
class TaskRunner;
class TaskStatus;
class TimingView;

// SigLab's window: the signal plot in the centre, the filter form and the views (statistics, chain,
// timings, spectrum, device, lab) in docks around it (dock_layout.hpp).
// It assembles them with the menus and actions: what it works on is the SignalSession's (the views
// follow it); Apply and Compare are the RunController's, files the FileController's, and every long
// job goes to the TaskRunner, a new request replacing the running one.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // What the menus do, callable directly (tests, the command line). Each starts a background
  // task and returns at once; taskFinished() follows.
  void openFile(const QString& path);
  // Apply: the form's stage added to the chain, run once on the chain's current result with the
  // panel's one engine; its result is shown and exported. Undo (Ctrl+Z) removes it again.
  void applyFilter();
  void runEngines();   // Compare engines: the benchmark of the checked engines on the current result
  void exportResult(const QString& path);  // every channel (writeChannels: the seed's text holds one)
  void exportReport(const QString& path);  // .json or .csv
  void savePlot(const QString& path);       // .png or .pdf
  void runLab(siglab::LabExperiment experiment);
  void cancelTask();

  // Opens `path` with these reading options, asking nothing (the import dialog and sessions).
  void openFile(const QString& path, const ReadOptions& options);
  // What the menus, a drop and the recent files do: asks before discarding an unexported
  // filtered signal, then openFile(path), which shows the import dialog where a file needs it.
  void requestOpen(const QString& path);
  void savePlot(const QString& path, const PlotImageOptions& options);  // .png, .svg or .pdf
  void printPlot(QPrinter& printer);
  QString plotTitle() const;  // the file's name (and channel shown of a mapped file) and the chain that made the result
  Session currentSession() const;
  void saveSession(const QString& path);  // in the background, as an export
  void openSession(const QString& path);  // restores the form, engines and view, loads the signal, applies the chain
  // The chain as a pipeline file (what siglab-cli filter --pipeline reads; in the background, as
  // an export), and one read back:
  // its stages applied in turn to the signal, in place of the chain (to the next signal opened
  // where none is).
  void savePipeline(const QString& path);
  void loadPipeline(const QString& path);
  Pipeline chain() const;
  const std::vector<ChainStep>& chainSteps() const;
  QUndoStack* undoStack() const { return undo_; }
  ChainView* chainView() const { return chainView_; }
  bool hasUnexportedResult() const;
  QLabel* cursorReadout() const { return cursorLabel_; }

  // Signals larger than memory (FileController, RunController): a file whose float64 samples exceed
  // mappedAboveBytes() (an eighth of physical memory: large_signal_policy.hpp) is viewed from its
  // mapping, a text or WAV file through a float64 cache in cacheFolder().
  // A file of several channels is viewed one channel at a time: the plot's selector lists them.
  // Another channel (0-based) is opened from the file's mapping in the background, the channel
  // shown kept until it is ready; the chain then applies again as after an open.
  void showFileChannel(std::size_t channel);
  void applyFilterTo(const QString& outputPath);  // Apply on a mapped signal, streamed into the file
  // Compare on samples [begin, end) only; `label` names them (a region's) in the timings.
  void compareRange(SampleRange range, const QString& label = {});
  void setMappedAboveBytes(std::uint64_t bytes);
  std::uint64_t mappedAboveBytes() const;
  void setCacheFolder(const QString& folder);
  QString cacheFolder() const;  // the user's cache location (QStandardPaths) unless set

  bool busy() const;
  SignalSession* session() const { return session_; }  // what the window works on; the views follow it
  SignalPtr signal() const;
  SignalPtr filtered() const;
  std::shared_ptr<const Comparison> comparison() const;
  std::shared_ptr<const StageReport> applied() const;  // the chain's last step's run
  QString lastError() const { return lastError_; }
  SignalPlot* signalPlot() const { return plot_; }
  TimingView* timingView() const { return timings_; }
  LabView* labView() const { return lab_; }
  StatisticsPanel* statisticsPanel() const { return statistics_; }
  FilterPanel* filterPanel() const { return filterPanel_; }
  SpectrumView* spectrumView() const { return spectrum_; }
  SampleRateField* sampleRateField() const { return rateField_; }
  std::optional<double> sampleRate() const;  // the rate field's: the file's own or the user's
  // Brings the dock holding `view` (statistics, timings, spectrum, ...) to the front.
  void showView(QWidget* view);

 signals:
  void taskFinished();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  void createSessionActions(QMenu* file);
  void createDocks();
  void subscribeViews();
  void restoreSettings();
  void saveSettings() const;
  void updateActions();
  void updateRecentMenu();
  void rememberRecent(const QString& path);
  void showMessage(const QString& text, int timeoutMs);
  void showError(const QString& title, const QString& message);
  void setTitle();
  void showNextStageInput();  // the form's units and bounds follow what the next stage takes

  std::vector<DeviceInfo> devices_;  // probed once for the session
  std::shared_ptr<const BackendList> engines_;  // made once: their staging buffers stay
  FilterPanel* filterPanel_ = nullptr;
  SignalPlot* plot_ = nullptr;
  TimingView* timings_ = nullptr;
  DevicePanel* devicePanel_ = nullptr;
  LabView* lab_ = nullptr;
  StatisticsPanel* statistics_ = nullptr;
  SpectrumView* spectrum_ = nullptr;
  SampleRateField* rateField_ = nullptr;
  QDockWidget* formDock_ = nullptr;
  std::vector<QDockWidget*> views_;  // statistics, chain, timings, spectrum, device: tabbed under the form
  std::vector<QDockWidget*> apart_;  // the Lab: floating, shown from View > Views
  QMenu* viewsMenu_ = nullptr;
  TaskStatus* taskStatus_ = nullptr;
  TaskRunner* tasks_ = nullptr;
  QLabel* cursorLabel_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QAction* openAction_ = nullptr;
  QAction* runAction_ = nullptr;
  QAction* applyAction_ = nullptr;
  QAction* exportResultAction_ = nullptr;
  QAction* exportReportAction_ = nullptr;
  QAction* savePlotAction_ = nullptr;
  QAction* saveChartAction_ = nullptr;
  QAction* cancelAction_ = nullptr;
  QAction* stackedAction_ = nullptr;
  QAction* printAction_ = nullptr;
  QAction* openSessionAction_ = nullptr;
  QAction* saveSessionAction_ = nullptr;
  QAction* savePipelineAction_ = nullptr;
  QAction* loadPipelineAction_ = nullptr;
  QUndoStack* undo_ = nullptr;
  ChainView* chainView_ = nullptr;

  SignalSession* session_ = nullptr;
  RunController* runs_ = nullptr;   // Apply and Compare
  FileController* files_ = nullptr;  // signals, sessions, pipelines and exports
  QString lastError_;
  bool discardConfirmed_ = false;
};

}  // namespace siglab::gui

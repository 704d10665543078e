#pragma once
#include <QFuture>
#include <QMainWindow>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "loaded_signal.hpp"
#include "siglab/comparison.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/progress.hpp"

class QAction;
class QLabel;
class QMenu;
class QSplitter;

namespace siglab::gui {

class DevicePanel;
class FilterPanel;
class ReductionsView;
class SampleRateField;
class SpectrumView;
class SignalPlot;
class StatisticsPanel;
class TaskStatus;
class TimingView;

// SigLab's window: the filter panel, the signal plots, and the timings and statistics side by side.
// It owns the state (signal, last run) and hands every long job to a worker, one at a time.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // What the menus do, callable directly (tests, the command line). Each starts a background
  // task and returns at once; taskFinished() follows.
  void openFile(const QString& path);
  void runEngines();
  void exportResult(const QString& path);
  void exportReport(const QString& path);  // .json or .csv
  void savePlot(const QString& path);       // .png or .pdf
  void runReductions();
  void cancelTask();

  bool busy() const { return busy_; }
  SignalPtr signal() const { return signal_; }
  SignalPtr filtered() const { return filtered_; }
  std::shared_ptr<const Comparison> comparison() const { return comparison_; }
  QString lastError() const { return lastError_; }
  SignalPlot* signalPlot() const { return plot_; }
  TimingView* timingView() const { return timings_; }
  ReductionsView* reductionsView() const { return reductions_; }
  StatisticsPanel* statisticsPanel() const { return statistics_; }
  FilterPanel* filterPanel() const { return filterPanel_; }
  SpectrumView* spectrumView() const { return spectrum_; }
  SampleRateField* sampleRateField() const { return rateField_; }
  std::optional<double> sampleRate() const;  // the rate field's: the file's own or the user's

 signals:
  void taskFinished();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  void restoreSettings();
  void saveSettings() const;
  void updateActions();
  void updateRecentMenu();
  void rememberRecent(const QString& path);
  void showError(const QString& title, const QString& message);
  void setTitle();
  QString askSavePath(const QString& title, const QString& defaultName, const QString& filters);

  // Runs `write` (an atomic writer of `path`) in the background.
  void startExport(const QString& path, std::function<void(const Progress&)> write);
  template <typename T>
  void startTask(const QString& what, std::shared_ptr<std::atomic<bool>> cancel, QFuture<T> future,
                 std::function<void(const QFuture<T>&)> onDone);

  std::vector<DeviceInfo> devices_;
  FilterPanel* filterPanel_ = nullptr;
  SignalPlot* plot_ = nullptr;
  TimingView* timings_ = nullptr;
  DevicePanel* devicePanel_ = nullptr;
  ReductionsView* reductions_ = nullptr;
  StatisticsPanel* statistics_ = nullptr;
  SpectrumView* spectrum_ = nullptr;
  SampleRateField* rateField_ = nullptr;
  QSplitter* splitter_ = nullptr;
  TaskStatus* taskStatus_ = nullptr;
  QLabel* cursorLabel_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QAction* openAction_ = nullptr;
  QAction* runAction_ = nullptr;
  QAction* exportResultAction_ = nullptr;
  QAction* exportReportAction_ = nullptr;
  QAction* savePlotAction_ = nullptr;
  QAction* saveChartAction_ = nullptr;
  QAction* cancelAction_ = nullptr;
  QAction* stackedAction_ = nullptr;

  SignalPtr signal_;
  SignalPtr filtered_;
  std::shared_ptr<const Comparison> comparison_;
  QString lastDirectory_;
  QString lastError_;
  bool busy_ = false;
};

}  // namespace siglab::gui

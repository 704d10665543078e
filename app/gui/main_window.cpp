#include "main_window.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QtConcurrent>

#include <nlohmann/json.hpp>

#include "all_backends.hpp"
#include "background_tasks.hpp"
#include "device_panel.hpp"
#include "filter_panel.hpp"
#include "plot_export.hpp"
#include "reductions_view.hpp"
#include "report_csv.hpp"
#include "sample_rate_field.hpp"
#include "signal_plot.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/errors.hpp"
#include "siglab/report.hpp"
#include "siglab/io/signal_io.hpp"
#include "spectrum_view.hpp"
#include "statistics_panel.hpp"
#include "task_status.hpp"
#include "timing_view.hpp"

namespace siglab::gui {
namespace {

constexpr int kMaxRecentFiles = 8;
// What readSignal recognises without options: text by default, .npy and WAV by their magic bytes.
const char* const kSignalFilters =
    "Signal files (*.txt *.dat *.csv *.tsv *.npy *.wav);;Text, one number a line (*.txt *.dat);;"
    "NumPy (*.npy);;WAV (*.wav);;All files (*)";

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), devices_(probeDevices()) {
  filterPanel_ = new FilterPanel(describeEngines(makeAllBackends()));
  filterPanel_->setMinimumWidth(220);
  plot_ = new SignalPlot;
  timings_ = new TimingView;
  devicePanel_ = new DevicePanel(devices_);
  reductions_ = new ReductionsView;
  statistics_ = new StatisticsPanel;
  spectrum_ = new SpectrumView;
  rateField_ = new SampleRateField;
  auto* tabs = new QTabWidget;
  tabs->addTab(timings_, tr("Timings"));
  tabs->addTab(statistics_, tr("Statistics"));
  tabs->addTab(spectrum_, tr("Spectrum"));
  tabs->addTab(reductions_, tr("Reductions"));
  tabs->addTab(devicePanel_, tr("Device"));

  splitter_ = new QSplitter(Qt::Horizontal);
  splitter_->addWidget(filterPanel_);
  splitter_->addWidget(plot_);
  splitter_->addWidget(tabs);
  splitter_->setStretchFactor(0, 0);
  splitter_->setStretchFactor(1, 3);
  splitter_->setStretchFactor(2, 2);
  setCentralWidget(splitter_);

  taskStatus_ = new TaskStatus;
  cursorLabel_ = new QLabel;
  statusBar()->addWidget(cursorLabel_, 1);
  statusBar()->addPermanentWidget(taskStatus_);
  connect(plot_, &SignalPlot::cursorReadout, cursorLabel_, &QLabel::setText);
  connect(plot_, &SignalPlot::visibleRangeChanged, statistics_, &StatisticsPanel::setVisibleRange);
  connect(plot_, &SignalPlot::visibleRangeChanged, spectrum_, &SpectrumView::setVisibleRange);
  connect(rateField_, &SampleRateField::rateChanged, this, [this](std::optional<double> rate) {
    plot_->setSampleRate(rate);
    statistics_->setSampleRate(rate);
    spectrum_->setSampleRate(rate);
  });
  connect(filterPanel_, &FilterPanel::runRequested, this, &MainWindow::runEngines);
  connect(reductions_, &ReductionsView::runRequested, this, &MainWindow::runReductions);

  createActions();
  setAcceptDrops(true);
  restoreSettings();
  updateActions();
  setTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  openAction_ = file->addAction(tr("&Open signal…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open signal"), lastDirectory_, tr(kSignalFilters));
    if (!path.isEmpty()) openFile(path);
  });
  openAction_->setShortcut(QKeySequence::Open);
  openAction_->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
  openAction_->setToolTip(tr("Open a signal file: one number per line (Ctrl+O); or drop a file on the window"));
  recentMenu_ = file->addMenu(tr("Open &recent"));
  file->addSeparator();
  exportResultAction_ = file->addAction(tr("&Export filtered signal…"), this, [this] {
    const QString path = askSavePath(tr("Export filtered signal"), "result.txt",
                                     tr("Seed text format (*.txt);;NumPy (*.npy);;WAV, 32-bit float (*.wav);;"
                                        "Raw float64 (*.raw *.bin)"));
    if (!path.isEmpty()) exportResult(path);
  });
  exportResultAction_->setShortcut(QKeySequence::Save);
  exportResultAction_->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
  exportResultAction_->setToolTip(
      tr("Write the cpu-serial result (Ctrl+S): text in the seed's %2.16f format, or .npy, .wav, .raw by extension"));
  exportReportAction_ = file->addAction(tr("Export timing &report…"), this, [this] {
    const QString path = askSavePath(tr("Export timing report"), "report.json", tr("JSON (*.json);;CSV (*.csv)"));
    if (!path.isEmpty()) exportReport(path);
  });
  exportReportAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  savePlotAction_ = file->addAction(tr("Save signal &plot…"), this, [this] {
    const QString path = askSavePath(tr("Save signal plot"), "signal.png", tr("PNG image (*.png);;PDF (*.pdf)"));
    if (!path.isEmpty()) savePlot(path);
  });
  savePlotAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
  saveChartAction_ = file->addAction(tr("Save timing &chart…"), this, [this] {
    const QString path = askSavePath(tr("Save timing chart"), "timings.png", tr("PNG image (*.png);;PDF (*.pdf)"));
    if (path.isEmpty()) return;
    try {
      siglab::gui::savePlot(timings_->chart(), path);
      statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    } catch (const std::exception& e) {
      showError(tr("Could not save the chart"), QString::fromStdString(e.what()));
    }
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  runAction_ = run->addAction(tr("&Run engines"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::runEngines);
  runAction_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  runAction_->setToolTip(tr("Filter the signal on every checked engine and compare them (Ctrl+R)"));
  cancelAction_ = run->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), this, &MainWindow::cancelTask);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* reset = view->addAction(tr("&Reset view"), QKeySequence(Qt::CTRL | Qt::Key_0), plot_, &SignalPlot::resetView);
  reset->setToolTip(tr("Show the whole signal (Ctrl+0)"));
  reset->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
  stackedAction_ = view->addAction(tr("&Stacked plots"));
  stackedAction_->setCheckable(true);
  stackedAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
  stackedAction_->setToolTip(tr("Original and filtered in two plots with linked x axes, or overlaid (Ctrl+T)"));
  connect(stackedAction_, &QAction::toggled, plot_, &SignalPlot::setStacked);
  QAction* rubberBand = view->addAction(tr("Rubber-band &zoom"));
  rubberBand->setCheckable(true);
  rubberBand->setShortcut(QKeySequence(Qt::Key_Z));
  rubberBand->setToolTip(tr("Drag a box to zoom into it (Z); off: drag pans. The wheel zooms either way"));
  connect(rubberBand, &QAction::toggled, plot_, &SignalPlot::setRubberBandZoom);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About SigLab"), this, [this] {
    QMessageBox::about(this, tr("About SigLab"),
                       tr("<h3>SigLab %1</h3><p>Mean filters for large 1-D signals on the CPU and the GPU, "
                          "compared honestly.</p><p>Qt %2, QCustomPlot %3, CUDA engines %4.</p><p>GPU: %5</p>")
                           .arg(SIGLAB_VERSION, qVersion(), QCUSTOMPLOT_VERSION_STR,
                                builtWithCuda() ? tr("built") : tr("not built"), gpuSummary(devices_).toHtmlEscaped()));
  });

  QToolBar* tools = addToolBar(tr("Main"));
  tools->setObjectName("mainToolBar");
  tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  tools->addActions({openAction_, runAction_, exportResultAction_});
  tools->addSeparator();
  tools->addActions({reset, stackedAction_, rubberBand});
  tools->addSeparator();
  tools->addWidget(new QLabel(tr(" Sample rate ")));
  tools->addWidget(rateField_);
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  if (!splitter_->restoreState(settings.value("window/splitter").toByteArray())) splitter_->setSizes({240, 700, 560});
  lastDirectory_ = settings.value("lastDirectory").toString();
  stackedAction_->setChecked(settings.value("plot/stacked", false).toBool());
  filterPanel_->restoreSettings(settings);
  updateRecentMenu();
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/splitter", splitter_->saveState());
  settings.setValue("lastDirectory", lastDirectory_);
  settings.setValue("plot/stacked", stackedAction_->isChecked());
  filterPanel_->saveSettings(settings);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  cancelTask();
  saveSettings();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) openFile(urls.first().toLocalFile());
}

template <typename T>
void MainWindow::startTask(const QString& what, std::shared_ptr<std::atomic<bool>> cancel, QFuture<T> future,
                           std::function<void(const QFuture<T>&)> onDone) {
  busy_ = true;
  updateActions();
  taskStatus_->begin(what, std::move(cancel));
  auto* watcher = new QFutureWatcher<T>(this);
  connect(watcher, &QFutureWatcherBase::progressValueChanged, taskStatus_, &TaskStatus::setProgress);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, onDone = std::move(onDone)] {
    taskStatus_->end();
    busy_ = false;
    onDone(watcher->future());
    watcher->deleteLater();
    updateActions();
    emit taskFinished();
  });
  watcher->setFuture(future);
}

void MainWindow::openFile(const QString& path) {
  if (busy_) return;
  lastDirectory_ = QFileInfo(path).absolutePath();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  startTask<LoadOutcome>(tr("Loading %1").arg(QFileInfo(path).fileName()), cancel,
                         QtConcurrent::run(&loadSignal, path, std::shared_ptr<const std::atomic<bool>>(cancel)),
                         [this, path](const QFuture<LoadOutcome>& done) {
                           if (done.resultCount() == 0) {
                             statusBar()->showMessage(tr("Loading cancelled; the previous signal is kept"), 5000);
                             return;
                           }
                           const LoadOutcome outcome = done.result();
                           if (!outcome.signal) {
                             showError(tr("Could not open the signal"), outcome.error);
                             return;
                           }
                           signal_ = outcome.signal;
                           filtered_.reset();
                           comparison_.reset();
                           timings_->clear();
                           statistics_->setOriginal(signal_);
                           plot_->setOriginal(signal_);
                           spectrum_->setOriginal(signal_);
                           rateField_->setFile(path, signal_->sampleRate());
                           rememberRecent(path);
                           setTitle();
                           statusBar()->showMessage(
                               tr("Loaded %1 samples from %2").arg(QLocale().toString(static_cast<qulonglong>(signal_->size())), path),
                               5000);
                         });
}

void MainWindow::runEngines() {
  if (busy_ || !signal_) return;
  QString error;
  RunRequest request;
  const auto spec = filterPanel_->spec(&error);
  if (!spec) {
    showError(tr("Cannot run this filter"), error);
    return;
  }
  request.signal = signal_;
  request.spec = *spec;
  request.options = filterPanel_->runOptions();
  request.engines = filterPanel_->checkedEngines();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  startTask<RunOutcome>(tr("Running %1 engines").arg(request.engines.size()), cancel,
                        QtConcurrent::run(&siglab::gui::runEngines, request, std::shared_ptr<const std::atomic<bool>>(cancel)),
                        [this](const QFuture<RunOutcome>& done) {
                          if (done.resultCount() == 0) {
                            statusBar()->showMessage(tr("Run cancelled"), 5000);
                            return;
                          }
                          const RunOutcome outcome = done.result();
                          if (!outcome.comparison) {
                            showError(tr("The run failed"), outcome.error);
                            return;
                          }
                          comparison_ = outcome.comparison;
                          filtered_ = outcome.filtered;
                          statistics_->setFiltered(filtered_);
                          plot_->setFiltered(filtered_);
                          spectrum_->setFiltered(filtered_, comparison_->spec.taps);
                          timings_->setComparison(comparison_, devices_);
                          devicePanel_->setMeasuredRun(*comparison_);
                          statusBar()->showMessage(comparison_->allAgree() ? tr("Every engine agrees with cpu-serial")
                                                                           : tr("An engine DISAGREES with cpu-serial"),
                                                   8000);
                        });
}

void MainWindow::runReductions() {
  if (busy_) return;
  const ReductionRequest request = reductions_->request();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  startTask<ReductionOutcome>(tr("Running the reduction ladder"), cancel,
                              QtConcurrent::run(&siglab::gui::runReductions, signal_, request,
                                                std::shared_ptr<const std::atomic<bool>>(cancel)),
                              [this](const QFuture<ReductionOutcome>& done) {
                                if (done.resultCount() == 0) return;
                                const ReductionOutcome outcome = done.result();
                                if (!outcome.ladder) {
                                  showError(tr("The reduction ladder failed"), outcome.error);
                                  return;
                                }
                                reductions_->setLadder(outcome.ladder);
                              });
}

void MainWindow::exportResult(const QString& path) {
  if (busy_ || !filtered_) return;
  SignalPtr result = filtered_;
  const std::string file = path.toStdString();
  WriteOptions options;
  options.sampleRate = sampleRate().value_or(options.sampleRate);  // a WAV keeps the input's rate
  startExport(path, [result, file, options](const Progress& progress) {
    writeSignal(file, result->samples(), options, progress);
  });
}

void MainWindow::exportReport(const QString& path) {
  if (busy_ || !comparison_) return;
  std::shared_ptr<const Comparison> comparison = comparison_;
  const std::string file = path.toStdString();
  const std::string input = signal_ ? signal_->source() : std::string();
  const bool csv = path.endsWith(".csv", Qt::CaseInsensitive);
  const std::optional<double> rate = sampleRate();
  startExport(path, [comparison, file, input, csv, rate](const Progress& progress) {
    if (csv) return writeFileAtomically(file, comparisonToCsv(*comparison, input), progress);
    nlohmann::json report = comparisonToJson(*comparison, input);
    report["sample_rate_hz"] = rate ? nlohmann::json(*rate) : nlohmann::json(nullptr);
    writeFileAtomically(file, report.dump(2) + "\n", progress);
  });
}

void MainWindow::startExport(const QString& path, std::function<void(const Progress&)> write) {
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  startTask<ExportOutcome>(tr("Writing %1").arg(QFileInfo(path).fileName()), cancel,
                           QtConcurrent::run(&exportFile, std::move(write), std::shared_ptr<const std::atomic<bool>>(cancel)),
                           [this, path](const QFuture<ExportOutcome>& done) {
                             if (done.resultCount() == 0) return;
                             if (!done.result().error.isEmpty()) showError(tr("Could not export"), done.result().error);
                             else statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
                           });
}

void MainWindow::savePlot(const QString& path) {
  try {
    siglab::gui::savePlot(plot_->plot(), path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  } catch (const std::exception& e) {
    showError(tr("Could not save the plot"), QString::fromStdString(e.what()));
  }
}

void MainWindow::cancelTask() { taskStatus_->cancel(); }

std::optional<double> MainWindow::sampleRate() const { return rateField_->rate(); }

void MainWindow::updateActions() {
  openAction_->setEnabled(!busy_);
  recentMenu_->setEnabled(!busy_);
  runAction_->setEnabled(!busy_ && signal_);
  filterPanel_->setRunEnabled(!busy_ && signal_);
  exportResultAction_->setEnabled(!busy_ && filtered_);
  exportReportAction_->setEnabled(!busy_ && comparison_);
  saveChartAction_->setEnabled(comparison_ != nullptr);
  savePlotAction_->setEnabled(signal_ != nullptr);
  cancelAction_->setEnabled(busy_);
  reductions_->setRunEnabled(!busy_);
  reductions_->setSignalAvailable(signal_ != nullptr);
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value("recentFiles").toStringList();
  for (const QString& path : recent) {
    recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openFile(path); })->setToolTip(path);
  }
  recentMenu_->setEnabled(!recent.isEmpty() && !busy_);
}

void MainWindow::rememberRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("recentFiles").toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  while (recent.size() > kMaxRecentFiles) recent.removeLast();
  settings.setValue("recentFiles", recent);
  updateRecentMenu();
}

void MainWindow::showError(const QString& title, const QString& message) {
  lastError_ = message;
  statusBar()->showMessage(message, 10000);
  // Window-modal and non-blocking: the window stays alive behind it.
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::setTitle() {
  setWindowTitle(signal_ ? tr("%1 – SigLab").arg(QFileInfo(QString::fromStdString(signal_->source())).fileName())
                         : tr("SigLab"));
}

QString MainWindow::askSavePath(const QString& title, const QString& defaultName, const QString& filters) {
  const QString path = QFileDialog::getSaveFileName(this, title, QDir(lastDirectory_).filePath(defaultName), filters);
  if (!path.isEmpty()) lastDirectory_ = QFileInfo(path).absolutePath();
  return path;
}

}  // namespace siglab::gui

#include "main_window.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPrintDialog>
#include <QPrinter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QScreen>
#include <QStatusBar>
#include <QStyle>
#include <QVBoxLayout>
#include <QToolBar>
#include <QUndoStack>
#include <QtConcurrent>

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "about_box.hpp"
#include "all_backends.hpp"
#include "app_resources.hpp"
#include "background_tasks.hpp"
#include "chain_view.hpp"
#include "cursor_docks.hpp"
#include "dataset_dialog.hpp"
#include "device_chooser.hpp"
#include "device_panel.hpp"
#include "dock_layout.hpp"
#include "filter_panel.hpp"
#include "import_dialog.hpp"
#include "siglab/io/signal_formats.hpp"
#include "plot_export.hpp"
#include "playback_bar.hpp"
#include "lab_tasks.hpp"
#include "lab_view.hpp"
#include "ladder_view.hpp"
#include "mapped_channel.hpp"
#include "markers_view.hpp"
#include "plot_export_dialog.hpp"
#include "siglab/io/output_checks.hpp"
#include "session_adapter.hpp"
#include "shortcuts_dialog.hpp"
#include "signal_loading.hpp"
#include "sample_rate_field.hpp"
#include "signal_cursors.hpp"
#include "signal_plot.hpp"
#include "siglab/device_list.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/errors.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/report.hpp"
#include "siglab/io/file_probe.hpp"
#include "siglab/io/signal_io.hpp"
#include "spectrogram_dock.hpp"
#include "spectrum_view.hpp"
#include "statistics_panel.hpp"
#include "signal_session.hpp"
#include "task_runner.hpp"
#include "task_status.hpp"
#include "timing_view.hpp"
#include "window_geometry.hpp"

namespace siglab::gui {
namespace {

constexpr int kMaxRecentFiles = 8;
constexpr int kDockStateVersion = 1;  // QMainWindow::saveState's: raise it when the docks change
const char* const kSessionFilter = "SigLab session (*.siglab)";

// What readSignal recognises (the format registry's filters), and sessions.
QString signalOpenFilters() {
  return QString::fromStdString(openFileFilters()) + ";;" + QObject::tr(kSessionFilter);
}
const char* const kPipelineFilter = "SigLab pipeline (*.json)";

// The GPUs chosen in the Device tab (setting "gpu/devices", as --devices reads it), or device 0
// where none was chosen or the saved list no longer fits this machine.
CudaOptions savedCudaOptions(const std::vector<DeviceInfo>& devices) {
  CudaOptions options;
  const std::string saved = QSettings().value("gpu/devices").toString().toStdString();
  if (saved.empty()) return options;
  try {
    options.devices = parseDeviceList(saved, devices.front().index < 0 ? 0 : static_cast<int>(devices.size()));
  } catch (const std::invalid_argument&) {
    options.devices.clear();
  }
  return options;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      devices_(probeDevices()),
      engines_(std::make_shared<const BackendList>(makeAllBackends(savedCudaOptions(devices_), &devices_.front()))) {
  filterPanel_ = new FilterPanel(*engines_);
  filterPanel_->setMinimumWidth(220);
  session_ = new SignalSession(this);
  undo_ = new QUndoStack(this);
  chainView_ = new ChainView(undo_);
  plot_ = new SignalPlot;
  timings_ = new TimingView;
  devicePanel_ = new DevicePanel(devices_);
  lab_ = new LabView;
  statistics_ = new StatisticsPanel;
  spectrum_ = new SpectrumView;
  if (devices_.front().available) spectrum_->setDevices(savedCudaOptions(devices_).devices);  // GPU Welch there
  rateField_ = new SampleRateField;
  setCentralWidget(plot_);  // the signal takes the centre; every other view is a dock
  new CursorDocks(this, plot_, spectrum_);  // A/B and frequency cursors, their readout, markers: two docks

  taskStatus_ = new TaskStatus;
  tasks_ = new TaskRunner(taskStatus_, this);
  connect(tasks_, &TaskRunner::busyChanged, this, &MainWindow::updateActions);
  connect(tasks_, &TaskRunner::finished, this, &MainWindow::updateActions);  // what the task's result enables
  connect(tasks_, &TaskRunner::finished, this, &MainWindow::taskFinished);
  // A task's result would follow a chain that changed (Undo, Redo, the chain view): it goes.
  connect(undo_, &QUndoStack::indexChanged, tasks_, &TaskRunner::abandon);
  cursorLabel_ = new QLabel;
  statusBar()->addWidget(cursorLabel_, 1);
  statusBar()->addPermanentWidget(taskStatus_);
  connect(plot_, &SignalPlot::cursorReadout, cursorLabel_, &QLabel::setText);
  connect(plot_, &SignalPlot::visibleRangeChanged, statistics_, &StatisticsPanel::setVisibleRange);
  connect(plot_, &SignalPlot::visibleRangeChanged, spectrum_, &SpectrumView::setVisibleRange);
  connect(plot_, &SignalPlot::channelChosen, this,
          [this](std::optional<std::size_t> channel) { session_->setChannel(channel.value_or(0)); });
  connect(plot_, &SignalPlot::fileChannelChosen, this, &MainWindow::showFileChannel);
  connect(rateField_, &SampleRateField::rateChanged, this, [this](std::optional<double> rate) {
    plot_->setSampleRate(rate);
    statistics_->setSampleRate(rate);
    spectrum_->setSampleRate(rate);
    showNextStageInput();
  });
  connect(filterPanel_, &FilterPanel::runRequested, this, &MainWindow::runEngines);
  connect(filterPanel_, &FilterPanel::applyRequested, this, &MainWindow::applyFilter);
  connect(lab_, &LabView::runRequested, this, &MainWindow::runLab);
  if (!devices_.front().available) {
    lab_->setGpuMissing(QString::fromStdString(devices_.front().reason));
    filterPanel_->setGpuMissing(QString::fromStdString(devices_.front().reason));
  }

  createActions();
  createDocks();
  subscribeViews();
  setWindowIcon(applicationIcon());
  setAcceptDrops(true);
  restoreSettings();
  updateActions();
  setTitle();
}

MainWindow::~MainWindow() = default;

// The form (with the sample rate it reads its units by) and the views, each a dock: a new view
// (cursors, markers) is one more addViewDock here, and one more entry in views_.
void MainWindow::createDocks() {
  auto* form = new QWidget;
  auto* formLayout = new QVBoxLayout(form);
  formLayout->setContentsMargins(0, 0, 0, 0);
  auto* rateRow = new QHBoxLayout;
  rateRow->setContentsMargins(9, 4, 9, 0);
  rateRow->addWidget(new QLabel(tr("Sample rate")));
  rateRow->addWidget(rateField_, 1);
  formLayout->addLayout(rateRow);
  // The panel scrolls when it is taller than the window, instead of squeezing its notes.
  auto* panelScroll = new QScrollArea;
  panelScroll->setWidget(filterPanel_);
  panelScroll->setWidgetResizable(true);
  panelScroll->setFrameShape(QFrame::NoFrame);
  panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  panelScroll->setMinimumWidth(filterPanel_->minimumSizeHint().width() + panelScroll->verticalScrollBar()->sizeHint().width());
  formLayout->addWidget(panelScroll, 1);

  auto* deviceTab = new QWidget;
  auto* deviceLayout = new QVBoxLayout(deviceTab);
  deviceLayout->addWidget(devicePanel_, 1);
  auto* deviceChooser = new DeviceChooser(devices_, savedCudaOptions(devices_).devices);
  connect(deviceChooser, &DeviceChooser::chosenChanged, this, [](const std::vector<int>& devices) {
    QSettings().setValue("gpu/devices", QString::fromStdString(formatDeviceList(devices)));
  });
  deviceLayout->addWidget(deviceChooser);

  formDock_ = addViewDock(*this, form, tr("Filter"), "filterDock", viewsMenu_);
  views_ = {addViewDock(*this, statistics_, tr("Statistics"), "statisticsDock", viewsMenu_),
            addViewDock(*this, chainView_, tr("Chain"), "chainDock", viewsMenu_),
            addViewDock(*this, timings_, tr("Timings"), "timingsDock", viewsMenu_),
            addViewDock(*this, spectrum_, tr("Spectrum"), "spectrumDock", viewsMenu_),
            addSpectrogramDock(*this, plot_, session_, viewsMenu_),
            addViewDock(*this, deviceTab, tr("Device"), "deviceDock", viewsMenu_)};
  apart_ = {addViewDock(*this, lab_, tr("Lab"), "labDock", viewsMenu_)};
  arrangeDocks(*this, formDock_, views_, apart_);
  const CursorDocks* cursorDocks = CursorDocks::of(this);  // hidden until asked for
  viewsMenu_->addActions({cursorDocks->readoutDock()->toggleViewAction(), cursorDocks->markersDock()->toggleViewAction()});
}

void MainWindow::showView(QWidget* view) {
  for (QDockWidget* dock : findChildren<QDockWidget*>()) {
    if (dock->widget() == view || dock->widget()->isAncestorOf(view)) {
      dock->show();
      dock->raise();
    }
  }
}


void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  openAction_ = file->addAction(tr("&Open signal…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open signal"), lastDirectory_, signalOpenFilters());
    if (!path.isEmpty()) requestOpen(path);
  });
  openAction_->setShortcut(QKeySequence::Open);
  openAction_->setIcon(toolbarIcon("open"));
  openAction_->setToolTip(tr("Open a signal file: one number per line (Ctrl+O); or drop a file on the window"));
  recentMenu_ = file->addMenu(tr("Open &recent"));
  createSessionActions(file);
  file->addSeparator();
  exportResultAction_ = file->addAction(tr("&Export filtered signal…"), this, [this] {
    const QString path = askSavePath(tr("Export filtered signal"), resultFileName(), resultExportFilters());
    if (!path.isEmpty()) exportResult(path);
  });
  exportResultAction_->setShortcut(QKeySequence::Save);
  exportResultAction_->setIcon(toolbarIcon("export"));
  exportResultAction_->setToolTip(
      tr("Write the filtered signal shown, Apply's engine result or Compare's cpu-serial result (Ctrl+S): text in "
         "one number a line (%2.16f), or another format by extension (every channel)"));
  exportReportAction_ = file->addAction(tr("Export timing &report…"), this, [this] {
    const QString path = askSavePath(tr("Export timing report"), "report.json", tr("JSON (*.json);;CSV (*.csv)"));
    if (!path.isEmpty()) exportReport(path);
  });
  exportReportAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  savePlotAction_ = file->addAction(tr("Export signal &plot…"), this, [this] {
    const QString path = askSavePath(tr("Export signal plot"), "signal.png",
                                     tr("PNG image (*.png);;SVG drawing (*.svg);;PDF (*.pdf)"));
    if (path.isEmpty()) return;
    auto* dialog = new PlotExportDialog(plot_->plot()->size(), plotTitle(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, path] { savePlot(path, dialog->options()); });
    dialog->open();
  });
  savePlotAction_->setToolTip(tr("Write the signal plot as PNG, SVG or PDF at a chosen size, titled with the file and filter"));
  printAction_ = file->addAction(toolbarIcon("print"), tr("P&rint signal plot…"), this, [this] {
    QPrinter printer(QPrinter::HighResolution);
    printer.setPageOrientation(QPageLayout::Landscape);
    auto* dialog = new QPrintDialog(&printer, this);
    if (dialog->exec() == QDialog::Accepted) printPlot(printer);
    delete dialog;
  });
  printAction_->setShortcut(QKeySequence::Print);
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

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undoStep = edit->addAction(tr("&Undo the last stage"), QKeySequence(Qt::CTRL | Qt::Key_Z), this, [this] {
    undo_->undo();
  });
  undoStep->setToolTip(tr("Remove the chain's last stage and show the result before it (Ctrl+Z)"));
  QAction* redoStep = edit->addAction(tr("&Redo the stage"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), this, [this] {
    undo_->redo();
  });
  redoStep->setToolTip(tr("Add the stage undone again, with its result (Ctrl+Shift+Z)"));
  connect(undo_, &QUndoStack::canUndoChanged, undoStep, &QAction::setEnabled);
  connect(undo_, &QUndoStack::canRedoChanged, redoStep, &QAction::setEnabled);
  undoStep->setEnabled(false);
  redoStep->setEnabled(false);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  applyAction_ = run->addAction(tr("&Apply filter"), QKeySequence(Qt::CTRL | Qt::Key_Return), this,
                                &MainWindow::applyFilter);
  applyAction_->setIcon(toolbarIcon("run"));
  applyAction_->setToolTip(tr("Add the stage to the chain: run it once on the current result with the chosen engine "
                              "and show its result (Ctrl+Return)"));
  runAction_ = run->addAction(tr("&Compare engines"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::runEngines);
  runAction_->setIcon(toolbarIcon("run"));
  runAction_->setToolTip(tr("Measure every checked engine and check each against cpu-serial (Ctrl+R)"));
  cancelAction_ = run->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), this, &MainWindow::cancelTask);
  cancelAction_->setIcon(toolbarIcon("cancel"));

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* reset = view->addAction(tr("&Reset view"), QKeySequence(Qt::CTRL | Qt::Key_0), plot_, &SignalPlot::resetView);
  reset->setToolTip(tr("Show the whole signal (Ctrl+0)"));
  reset->setIcon(toolbarIcon("reset-view"));
  stackedAction_ = view->addAction(tr("&Stacked plots"));
  stackedAction_->setCheckable(true);
  stackedAction_->setIcon(toolbarIcon("stacked"));
  stackedAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
  stackedAction_->setToolTip(tr("Original and filtered in two plots with linked x axes, or overlaid (Ctrl+T)"));
  connect(stackedAction_, &QAction::toggled, plot_, &SignalPlot::setStacked);
  QAction* rubberBand = view->addAction(tr("Rubber-band &zoom"));
  rubberBand->setCheckable(true);
  rubberBand->setIcon(toolbarIcon("zoom"));
  rubberBand->setShortcut(QKeySequence(Qt::Key_Z));
  rubberBand->setToolTip(tr("Drag a box to zoom into it (Z); off: drag pans. The wheel zooms either way"));
  connect(rubberBand, &QAction::toggled, plot_, &SignalPlot::setRubberBandZoom);
  view->addSeparator();
  viewsMenu_ = view->addMenu(tr("&Views"));
  view->addAction(tr("Restore the &layout"), this, [this] { arrangeDocks(*this, formDock_, views_, apart_); })
      ->setToolTip(tr("Every view back in its first place, the signal in the centre"));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this, [this] {
    QList<QAction*> actions;
    for (QMenu* menu : menuBar()->findChildren<QMenu*>()) actions += menu->actions();
    showShortcuts(actions, this);
  });
  help->addAction(applicationIcon(), tr("&About SigLab"), this, [this] { makeAboutBox(devices_, this)->open(); });

  QToolBar* tools = addToolBar(tr("Main"));
  tools->setObjectName("mainToolBar");
  tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  tools->addActions({openAction_, applyAction_, runAction_, exportResultAction_});
  tools->addSeparator();
  tools->addActions({reset, stackedAction_, rubberBand});

  auto* playback = new PlaybackBar(plot_, {[this] { return session_->signal(); }, [this] { return session_->filtered(); }},
                                   engines_, makeAudioOutput(), this);
  addToolBar(playback);
  // Play plays cursors A to B (B included) while they are shown, else the visible range.
  SignalCursors* cursors = CursorDocks::of(this)->cursors();
  auto visible = std::make_shared<std::pair<std::size_t, std::size_t>>(0, 0);
  const auto playRange = [cursors, playback, visible] {
    if (!cursors->shown() || !cursors->signal()) return playback->setRange(visible->first, visible->second);
    const double a = std::min(cursors->a(), cursors->b()), b = std::max(cursors->a(), cursors->b());
    playback->setRange(static_cast<std::size_t>(a), static_cast<std::size_t>(b) + 1);
  };
  connect(plot_, &SignalPlot::visibleRangeChanged, playback, [visible, playRange](std::size_t first, std::size_t last) {
    *visible = {first, last};
    playRange();
  });
  connect(cursors, &SignalCursors::changed, playback, playRange);
  connect(playback, &PlaybackBar::message, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });
}

void MainWindow::restoreSettings() {
  QSettings settings;
  if (!restoreGeometry(settings.value("window/geometry").toByteArray())) {
    setGeometry(firstWindowGeometry(screen()->availableGeometry()));
  }
  restoreState(settings.value("window/docks").toByteArray(), kDockStateVersion);  // else the first arrangement
  lastDirectory_ = settings.value("lastDirectory").toString();
  stackedAction_->setChecked(settings.value("plot/stacked", false).toBool());
  filterPanel_->restoreSettings(settings);
  updateRecentMenu();
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/docks", saveState(kDockStateVersion));
  settings.setValue("lastDirectory", lastDirectory_);
  settings.setValue("plot/stacked", stackedAction_->isChecked());
  filterPanel_->saveSettings(settings);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (hasUnexportedResult() && !discardConfirmed_) {
    event->ignore();
    askToDiscardResult([this] {
      discardConfirmed_ = true;
      close();
    });
    return;
  }
  cancelTask();
  saveSettings();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) requestOpen(urls.first().toLocalFile());
}

void MainWindow::openFile(const QString& path) {
  if (path.endsWith(".siglab", Qt::CaseInsensitive)) {
    openSession(path);
    return;
  }
  // Probed in the background: a FIFO waits for its writer, which must not freeze the window.
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<ProbeOutcome>(tr("Looking at %1").arg(QFileInfo(path).fileName()), cancel,
                          QtConcurrent::run(&probeFile, path, std::shared_ptr<const std::atomic<bool>>(cancel)),
                          [this, path, cancel](const QFuture<ProbeOutcome>& done) {
                            // A cancel that came after the probe finished, before this ran, still counts.
                            if (done.resultCount() == 0 || cancel->load()) {
                              statusBar()->showMessage(tr("Opening cancelled; the previous signal is kept"), 5000);
                              return;
                            }
                            const ProbeOutcome outcome = done.result();
                            if (!outcome.probe) {
                              showError(tr("Could not open the signal"), outcome.error);
                              return;
                            }
                            if (outcome.probe->datasetFile) {  // HDF5/MAT: which dataset, if it holds several
                              ReadOptions options = suggestedReadOptions(*outcome.probe);
                              if (needsReadChoices(*outcome.probe)) {
                                const auto chosen = pickDataset(this, path, outcome.probe->datasets);
                                if (!chosen) return;
                                options.dataset = *chosen;
                              }
                              openFile(path, options);
                              return;
                            }
                            if (!needsReadChoices(*outcome.probe)) {
                              openFile(path, ReadOptions{});
                              return;
                            }
                            auto* dialog = new ImportDialog(path, *outcome.probe, this);
                            dialog->setAttribute(Qt::WA_DeleteOnClose);
                            connect(dialog, &QDialog::accepted, this,
                                    [this, dialog] { openFile(dialog->path(), dialog->readOptions()); });
                            dialog->open();
                          });
}

void MainWindow::requestOpen(const QString& path) {
  askToDiscardResult([this, path] { openFile(path); });
}

// Signals load into page-locked memory when a GPU can filter them: its engines copy them at full speed.
std::pmr::memory_resource* MainWindow::hostMemory() const {
  return devices_.front().available ? pinnedHostMemory() : nullptr;
}

ReadOptions MainWindow::withHostMemory(ReadOptions options) const {
  options.hostMemory = hostMemory();
  return options;
}

void MainWindow::openFile(const QString& path, const ReadOptions& options) {
  if (opensMapped(path, options)) {
    openMapped(path, options);
    return;
  }
  lastDirectory_ = QFileInfo(path).absolutePath();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  const std::shared_ptr<const std::atomic<bool>> cancelled = cancel;
  tasks_->start<LoadOutcome>(tr("Loading %1").arg(QFileInfo(path).fileName()), cancel,
                         isDefault(options) ? QtConcurrent::run(&loadSignal, path, hostMemory(), cancelled)
                                            : QtConcurrent::run(&loadSignalWith, path, withHostMemory(options), cancelled),
                         [this, path, options](const QFuture<LoadOutcome>& done) {
                           const std::optional<ViewRange> view = std::exchange(pendingView_, std::nullopt);
                           const Pipeline chain = std::exchange(pendingChain_, {});
                           if (done.resultCount() == 0) {
                             statusBar()->showMessage(tr("Loading cancelled; the previous signal is kept"), 5000);
                             return;
                           }
                           const LoadOutcome outcome = done.result();
                           if (!outcome.signal) {
                             showError(tr("Could not open the signal"), outcome.error);
                             return;
                           }
                           showSignal(path, options, outcome.signal, view);
                           pendingStages_ = chain.stages;
                           applyPending();
                         });
}

void MainWindow::showSignal(const QString& path, const ReadOptions& options, SignalPtr signal,
                            std::optional<ViewRange> view) {
  undo_->clear();
  session_->setSignal(path, options, std::move(signal));
  const SignalPtr& shown = session_->signal();
  if (view) plot_->setVisibleRange(view->first, view->last);
  rememberRecent(path);
  const QString samples = QLocale().toString(static_cast<qulonglong>(shown->size()));
  const QString oneOfFile = mappedChannelNote(shown.get());
  statusBar()->showMessage(shown->channelCount() > 1
                               ? tr("Loaded %1 channels of %2 samples from %3").arg(shown->channelCount()).arg(samples, path)
                           : !oneOfFile.isEmpty() ? tr("Viewing %1 samples of %2 from %3").arg(samples, oneOfFile, path)
                                                  : tr("Loaded %1 samples from %2").arg(samples, path),
                           5000);
}

// Each view follows the session: what it shows is set here, once, for every way the session changes.
void MainWindow::subscribeViews() {
  connect(session_, &SignalSession::signalChanged, this, [this](const SignalPtr& signal) {
    statistics_->setOriginal(signal);
    plot_->setOriginal(signal);
    spectrum_->setOriginal(signal);
    cursorLabel_->clear();  // the old signal's readout
    rateField_->setFile(session_->path(), signal->sampleRate());
    setTitle();
  });
  connect(session_, &SignalSession::chainChanged, this, [this](const std::vector<ChainStep>& steps) {
    chainView_->setSteps(steps);
    showNextStageInput();
    updateActions();
  });
  connect(session_, &SignalSession::filteredChanged, this,
          [this](const SignalPtr& filtered, const QString& caption, const FilterSpec& spec) {
            statistics_->setFiltered(filtered);
            plot_->setFiltered(filtered, caption);
            spectrum_->setFiltered(session_->channelShown(filtered), spec);
            updateActions();
          });
  connect(session_, &SignalSession::comparisonChanged, this, [this](const std::shared_ptr<const Comparison>& comparison) {
    if (comparison) {
      timings_->setComparison(comparison, devices_);
      devicePanel_->setMeasuredRun(*comparison);
    } else {
      timings_->clear();
    }
    updateActions();
  });
  connect(session_, &SignalSession::channelChanged, this, [this](std::size_t channel) {
    statistics_->setChannel(channel);
    spectrum_->setOriginal(session_->channelShown(session_->signal()));
    spectrum_->setFiltered(session_->channelShown(session_->filtered()), session_->filteredSpec());
  });
}

// The form's units and bounds follow what the next stage takes: the chain's result, at the rate.
void MainWindow::showNextStageInput() {
  const SignalPtr input = session_->currentResult();
  filterPanel_->setSignal(input ? std::optional<std::uint64_t>(input->size()) : std::nullopt, sampleRate());
}

void MainWindow::applyFilter() {
  if (!session_->signal()) return;
  QString error;
  std::optional<JobDraft> job = filterPanel_->job(&error);
  if (!job) {
    showError(tr("Cannot run this filter"), error);
    return;
  }
  pendingStages_.clear();
  if (session_->currentResult()->mapping()) {  // too large for memory: streamed into a file the user names
    const QString output = askSavePath(tr("Write the filtered signal to"),
                                       fileChannels(session_->signal().get()) > 1
                                           ? tr("filtered-channel%1.raw").arg(session_->signal()->mapping()->channel())
                                           : QString("filtered.raw"),
                                       tr("Raw float64 (*.raw *.bin);;NumPy (*.npy);;Text, one number a line (*.txt);;"
                                          "WAV, 32-bit float (*.wav)"));
    if (!output.isEmpty()) applyFilterTo(output);
    return;
  }
  applyStage(std::move(*job));
}

void MainWindow::applyPending() {
  if (pendingStages_.empty() || !session_->signal()) return;
  if (session_->currentResult()->mapping()) {
    pendingStages_.clear();
    showError(tr("Cannot apply the chain here"),
              tr("%1 is viewed from its file: Apply its stages one by one, each into a file of your choice")
                  .arg(QFileInfo(session_->path()).fileName()));
    return;
  }
  const Stage next = pendingStages_.front();
  pendingStages_.erase(pendingStages_.begin());
  applyStage(filterPanel_->jobFor(next));
}

void MainWindow::applyStage(JobDraft job) {
  const SignalPtr input = session_->currentResult();
  job.job.input = input->source();
  job.job.engines = filterPanel_->applyEngine();
  const Stage stage = job.stage;
  // The stage is bound, and its engine chosen, by the task.
  RunRequest request{input, std::move(job), engines_};
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<ApplyOutcome>(tr("Applying %1").arg(QString::fromUtf8(stage.kind->name().data(),
                                                                  static_cast<int>(stage.kind->name().size()))),
                          cancel,
                          QtConcurrent::run(&siglab::gui::applyStage, request,
                                            std::shared_ptr<const std::atomic<bool>>(cancel)),
                          [this, stage](const QFuture<ApplyOutcome>& done) {
                            if (done.resultCount() == 0) {
                              pendingStages_.clear();
                              statusBar()->showMessage(tr("Apply cancelled"), 5000);
                              return;
                            }
                            const ApplyOutcome outcome = done.result();
                            if (!outcome.filtered) {
                              pendingStages_.clear();
                              showError(tr("The filter could not be applied"), outcome.error);
                              return;
                            }
                            const ChainStep step{stage, outcome.report, outcome.filtered, outcome.spec, {}, false};
                            undo_->push(new StepCommand(QString::fromStdString(outcome.report->description),
                                                        [this, step] { session_->appendStep(step); },
                                                        [this] { session_->removeLastStep(); }));
                            const StageReport& r = *outcome.report;
                            statusBar()->showMessage(
                                tr("Applied %1 in %2 ms (%3); verified %4 outputs")
                                    .arg(QString::fromStdString(r.engine))
                                    .arg(r.pass.phases.totalMs, 0, 'f', 2)
                                    .arg(QString::fromStdString(r.why))
                                    .arg(r.verification.checked),
                                10000);
                            applyPending();
                          });
}

void MainWindow::runEngines() {
  if (!session_->signal()) return;
  const SignalPtr input = session_->currentResult();
  if (input->mapping()) {
    offerCompareRange();
    return;
  }
  QString error;
  std::optional<JobDraft> job = filterPanel_->job(&error);
  if (!job) {
    showError(tr("Cannot run this filter"), error);
    return;
  }
  const std::vector<std::string> names = filterPanel_->checkedEngines();
  Pipeline compared = chain();
  compared.stages.push_back(job->stage);
  const QString caption = QString::fromStdString(chainText(compared));
  job->job.input = input->source();
  job->job.engines.clear();
  for (const std::string& name : names) job->job.engines += (job->job.engines.empty() ? "" : ",") + name;
  RunRequest request{input, std::move(*job), engines_};
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<RunOutcome>(tr("Comparing %1 engines").arg(names.size()), cancel,
                        QtConcurrent::run(&siglab::gui::runEngines, request, std::shared_ptr<const std::atomic<bool>>(cancel)),
                        [this, caption](const QFuture<RunOutcome>& done) {
                          if (done.resultCount() == 0) {
                            statusBar()->showMessage(tr("Run cancelled"), 5000);
                            return;
                          }
                          const RunOutcome outcome = done.result();
                          if (!outcome.comparison) {
                            showError(tr("The run failed"), outcome.error);
                            return;
                          }
                          session_->setCompared(outcome.filtered, outcome.comparison->spec, caption, outcome.comparison);
                          QString verdict = outcome.comparison->allAgree() ? tr("Every engine agrees with cpu-serial")
                                                                    : tr("An engine DISAGREES with cpu-serial");
                          // The engines are measured on one channel; Apply filters every channel.
                          if (session_->signal()->channelCount() > 1) verdict += tr(" (compared on channel 1)");
                          statusBar()->showMessage(verdict, 8000);
                        });
}

void MainWindow::runLab(LabExperiment experiment) {
  const LabRequest request = lab_->request(experiment);
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<LabOutcome>(tr("Running the ladder"), cancel,
                        QtConcurrent::run(&siglab::gui::runLab, session_->signal(), request,
                                          std::shared_ptr<const std::atomic<bool>>(cancel)),
                        [this](const QFuture<LabOutcome>& done) {
                          if (done.resultCount() == 0) return;
                          const LabOutcome outcome = done.result();
                          if (!outcome.ladder) {
                            showError(tr("The ladder failed"), outcome.error);
                            return;
                          }
                          lab_->ladderView(outcome.experiment)->setLadder(outcome.ladder);
                        });
}

void MainWindow::exportResult(const QString& path) { startResultExport(path, {}); }

void MainWindow::startResultExport(const QString& path, std::function<void()> onWritten) {
  if (!session_->filtered() || !checkOutput(path)) return;
  SignalPtr result = session_->filtered();
  const std::string file = path.toStdString();
  WriteOptions options;
  options.sampleRate = sampleRate().value_or(options.sampleRate);  // a WAV keeps the input's rate
  startExport(
      path, [result, file, options](const Progress& progress) { writeLoadedSignal(file, *result, options, progress); },
      [this, path, result, onWritten = std::move(onWritten)] {
        if (result == session_->filtered()) session_->setResultExported(true);
        if (const QString channel = mappedChannelName(session_->signal().get()); !channel.isEmpty()) {
          statusBar()->showMessage(tr("Wrote %1: the filtered %2, the channel shown").arg(path, channel), 5000);
        }
        if (onWritten) onWritten();
      });
}

void MainWindow::exportReport(const QString& path) {
  if (!session_->comparison() || !checkOutput(path)) return;
  std::shared_ptr<const Comparison> comparison = session_->comparison();
  const std::string file = path.toStdString();
  const std::string input = session_->signal() ? session_->signal()->source() : std::string();
  const std::optional<double> rate = sampleRate();
  startExport(path, [comparison, file, input, rate](const Progress& progress) {
    writeFileAtomically(file, comparisonReport(*comparison, input, file, rate), progress);
  });
}

void MainWindow::startExport(const QString& path, std::function<void(const Progress&)> write,
                             std::function<void()> onWritten, const QString& failureTitle) {
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<ExportOutcome>(tr("Writing %1").arg(QFileInfo(path).fileName()), cancel,
                           QtConcurrent::run(&exportFile, std::move(write), std::shared_ptr<const std::atomic<bool>>(cancel)),
                           [this, path, onWritten, failureTitle](const QFuture<ExportOutcome>& done) {
                             if (done.resultCount() == 0) return;
                             if (!done.result().error.isEmpty()) {
                               showError(failureTitle.isEmpty() ? tr("Could not export") : failureTitle,
                                         done.result().error);
                               return;
                             }
                             statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
                             if (onWritten) onWritten();
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

void MainWindow::savePlot(const QString& path, const PlotImageOptions& options) {
  try {
    siglab::gui::savePlot(plot_->plot(), path, options);
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  } catch (const std::exception& e) {
    showError(tr("Could not save the plot"), QString::fromStdString(e.what()));
  }
}

void MainWindow::printPlot(QPrinter& printer) { siglab::gui::printPlot(plot_->plot(), printer, plotTitle()); }

QString MainWindow::plotTitle() const {
  if (!session_->signal()) return QString();
  QString name = QFileInfo(session_->path()).fileName();
  const QString channel = mappedChannelName(session_->signal().get());
  if (!channel.isEmpty()) name = tr("%1, %2").arg(name, channel);
  return session_->filtered() ? tr("%1 – %2").arg(name, session_->filteredCaption()) : name;
}

void MainWindow::createSessionActions(QMenu* file) {
  openSessionAction_ = file->addAction(toolbarIcon("session"), tr("Open &session…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), lastDirectory_, tr(kSessionFilter));
    if (!path.isEmpty()) requestOpen(path);
  });
  openSessionAction_->setToolTip(tr("Restore a saved session: the signal, how it was read, the filter, engines and view"));
  saveSessionAction_ = file->addAction(tr("Save s&ession…"), this, [this] {
    const QString path = askSavePath(tr("Save session"), QFileInfo(session_->path()).completeBaseName() + ".siglab",
                                     tr(kSessionFilter));
    if (!path.isEmpty()) saveSession(path);
  });
  saveSessionAction_->setToolTip(tr("Save the signal's path and read options, the chain, the form, engines and view as "
                                    ".siglab (JSON)"));
  file->addSeparator();
  loadPipelineAction_ = file->addAction(tr("&Load pipeline…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load pipeline"), lastDirectory_, tr(kPipelineFilter));
    if (!path.isEmpty()) loadPipeline(path);
  });
  loadPipelineAction_->setToolTip(tr("Apply a pipeline file's stages in turn to the signal, in place of the chain"));
  savePipelineAction_ = file->addAction(tr("Save &pipeline…"), this, [this] {
    const QString path = askSavePath(tr("Save pipeline"), "pipeline.json", tr(kPipelineFilter));
    if (!path.isEmpty()) savePipeline(path);
  });
  savePipelineAction_->setToolTip(tr("Write the chain as a pipeline file (JSON), as siglab-cli filter --pipeline reads it"));
}

Session MainWindow::currentSession() const {
  Session session;
  session.signalPath = session_->path().toStdString();
  session.read = session_->readOptions();
  session.chain = chain();
  session.stage = filterPanel_->stage(nullptr);
  session.repeat = filterPanel_->repeat();
  session.engines = filterPanel_->checkedEngines();
  if (session_->signal()) {
    const QCPRange range = plot_->plot()->xAxis->range();
    session.view = ViewRange{range.lower, range.upper};
  }
  session.stacked = stackedAction_->isChecked();
  session.markers = CursorDocks::of(this)->markers()->markers();
  return session;
}

void MainWindow::saveSession(const QString& path) {
  if (!session_->signal() || !checkOutput(path)) return;
  const std::string file = path.toStdString();
  startExport(
      path, [file, session = currentSession()](const Progress& progress) { siglab::saveSession(file, session, progress); },
      [this, path] { statusBar()->showMessage(tr("Saved the session to %1").arg(path), 5000); },
      tr("Could not save the session"));
}

void MainWindow::savePipeline(const QString& path) {
  if (session_->steps().empty()) {
    showError(tr("Nothing to save"), tr("The chain is empty: Apply a stage first"));
    return;
  }
  if (!checkOutput(path)) return;
  const std::string file = path.toStdString();
  startExport(
      path, [file, pipeline = chain()](const Progress&) { siglab::savePipeline(file, pipeline); },
      [this, path] { statusBar()->showMessage(tr("Saved the chain to %1").arg(path), 5000); },
      tr("Could not save the pipeline"));
}

void MainWindow::loadPipeline(const QString& path) {
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<PipelineOutcome>(
      tr("Reading %1").arg(QFileInfo(path).fileName()), cancel,
      QtConcurrent::run(&readPipeline, path, std::shared_ptr<const std::atomic<bool>>(cancel)),
      [this, cancel](const QFuture<PipelineOutcome>& done) {
        if (done.resultCount() == 0 || cancel->load()) return;
        const PipelineOutcome outcome = done.result();
        if (!outcome.pipeline) {
          showError(tr("Could not load the pipeline"), outcome.error);
          return;
        }
        if (!outcome.pipeline->stages.empty()) filterPanel_->setStage(outcome.pipeline->stages.back());
        if (!session_->signal()) {
          pendingChain_ = *outcome.pipeline;
          statusBar()->showMessage(tr("The pipeline is applied to the next signal opened"), 5000);
          return;
        }
        undo_->clear();  // the file's chain in place of this one
        session_->clearChain();
        pendingStages_ = outcome.pipeline->stages;
        applyPending();
      });
}

void MainWindow::openSession(const QString& path) {
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<SessionOutcome>(tr("Reading %1").arg(QFileInfo(path).fileName()), cancel,
                            QtConcurrent::run(&readSession, path, std::shared_ptr<const std::atomic<bool>>(cancel)),
                            [this, cancel](const QFuture<SessionOutcome>& done) {
                              if (done.resultCount() == 0 || cancel->load()) return;  // cancelled, even after it read
                              const SessionOutcome outcome = done.result();
                              if (!outcome.session) {
                                showError(tr("Could not open the session"), outcome.error);
                                return;
                              }
                              const Session& session = *outcome.session;
                              if (session.stage) filterPanel_->setStage(*session.stage);
                              filterPanel_->setRepeat(session.repeat);
                              pendingChain_ = session.chain;
                              applyEngines(*filterPanel_, session.engines);
                              stackedAction_->setChecked(session.stacked);
                              CursorDocks::of(this)->markers()->setMarkers(session.markers);
                              pendingView_ = session.view;
                              openFile(QString::fromStdString(session.signalPath), session.read);
                            });
}

void MainWindow::askToDiscardResult(std::function<void()> proceed) {
  if (!hasUnexportedResult()) {
    proceed();
    return;
  }
  auto* box = new QMessageBox(QMessageBox::Question, tr("Discard the filtered signal?"),
                              tr("The filtered signal has not been exported and will be lost."),
                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
  box->setObjectName("discardPrompt");
  box->button(QMessageBox::Save)->setText(tr("Export…"));
  box->setDefaultButton(QMessageBox::Save);
  box->setAttribute(Qt::WA_DeleteOnClose);
  connect(box, &QMessageBox::finished, this, [this, box, proceed = std::move(proceed)] {
    const QMessageBox::StandardButton choice = box->standardButton(box->clickedButton());
    if (choice == QMessageBox::Discard) proceed();
    if (choice == QMessageBox::Save) exportResultThen(proceed);
  });
  box->open();
}

void MainWindow::exportResultThen(std::function<void()> proceed) {
  const QString path = askSavePath(tr("Export filtered signal"), resultFileName(), resultExportFilters());
  if (!path.isEmpty()) startResultExport(path, std::move(proceed));
}

QString MainWindow::resultFileName() const {
  if (session_->filtered() && session_->filtered()->channelCount() > 1) return "result.npy";
  if (fileChannels(session_->signal().get()) > 1) return tr("result-channel%1.txt").arg(session_->signal()->mapping()->channel());
  return "result.txt";
}

QString MainWindow::resultExportFilters() const {
  // The seed's text holds one channel (core says so for more): formats of several come first then.
  const std::size_t channels = session_->filtered() ? session_->filtered()->channelCount() : 1;
  return QString::fromStdString(saveFileFilters(channels, channels > 1 ? ".npy" : ".txt"));
}

void MainWindow::cancelTask() { tasks_->cancel(); }

bool MainWindow::busy() const { return tasks_->busy(); }
SignalPtr MainWindow::signal() const { return session_->signal(); }
SignalPtr MainWindow::filtered() const { return session_->filtered(); }
std::shared_ptr<const Comparison> MainWindow::comparison() const { return session_->comparison(); }
std::shared_ptr<const StageReport> MainWindow::applied() const { return session_->applied(); }
Pipeline MainWindow::chain() const { return session_->chain(); }
const std::vector<ChainStep>& MainWindow::chainSteps() const { return session_->steps(); }
bool MainWindow::hasUnexportedResult() const { return session_->hasUnexportedResult(); }

std::optional<double> MainWindow::sampleRate() const { return rateField_->rate(); }

void MainWindow::updateActions() {
  // Nothing waits for a running task: a new request replaces it (TaskRunner).
  runAction_->setEnabled(session_->signal() != nullptr);
  applyAction_->setEnabled(session_->signal() != nullptr);
  filterPanel_->setRunEnabled(session_->signal() != nullptr);
  exportResultAction_->setEnabled(session_->filtered() != nullptr);
  exportReportAction_->setEnabled(session_->comparison() != nullptr);
  saveChartAction_->setEnabled(session_->comparison() != nullptr);
  savePlotAction_->setEnabled(session_->signal() != nullptr);
  printAction_->setEnabled(session_->signal() != nullptr);
  saveSessionAction_->setEnabled(session_->signal() != nullptr);
  savePipelineAction_->setEnabled(!session_->steps().empty());
  cancelAction_->setEnabled(tasks_->busy());
  lab_->setSignalAvailable(session_->signal() != nullptr);
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value("recentFiles").toStringList();
  for (const QString& path : recent) {
    recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { requestOpen(path); })->setToolTip(path);
  }
  recentMenu_->setEnabled(!recent.isEmpty());
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
  setWindowTitle(session_->signal() ? tr("%1 – SigLab").arg(QFileInfo(QString::fromStdString(session_->signal()->source())).fileName())
                         : tr("SigLab"));
}

bool MainWindow::checkOutput(const QString& path) {
  std::vector<NamedPath> inputs;
  if (session_->signal()) inputs.push_back({"the signal", session_->signal()->source()});
  if (session_->signal() && session_->signal()->mapping()) inputs.push_back({"the signal", session_->signal()->mapping()->mappedPath()});
  for (const ChainStep& step : session_->steps()) {  // a step's file: undo shows it again
    if (step.result->mapping()) inputs.push_back({"a stage's result", step.result->mapping()->mappedPath()});
  }
  try {
    const NamedPath outputs[] = {{"the output", path.toStdString()}};
    checkOutputsBeforeWork(outputs, inputs);
    return true;
  } catch (const std::exception& e) {
    showError(tr("Cannot write there"), QString::fromStdString(e.what()));
    return false;
  }
}

QString MainWindow::askSavePath(const QString& title, const QString& defaultName, const QString& filters) {
  const QString path = QFileDialog::getSaveFileName(this, title, QDir(lastDirectory_).filePath(defaultName), filters);
  if (!path.isEmpty()) lastDirectory_ = QFileInfo(path).absolutePath();
  return path;
}

}  // namespace siglab::gui

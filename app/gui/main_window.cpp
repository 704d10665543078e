#include "main_window.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
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

#include "about_box.hpp"
#include "all_backends.hpp"
#include "app_resources.hpp"
#include "background_tasks.hpp"
#include "chain_view.hpp"
#include "cursor_docks.hpp"
#include "cursor_links.hpp"
#include "device_chooser.hpp"
#include "device_panel.hpp"
#include "file_controller.hpp"
#include "dock_layout.hpp"
#include "filter_panel.hpp"
#include "siglab/io/signal_formats.hpp"
#include "plot_export.hpp"
#include "playback_bar.hpp"
#include "run_controller.hpp"
#include "lab_tasks.hpp"
#include "lab_view.hpp"
#include "ladder_view.hpp"
#include "markers_view.hpp"
#include "plot_export_dialog.hpp"
#include "shortcuts_dialog.hpp"
#include "sample_rate_field.hpp"
#include "signal_cursors.hpp"
#include "signal_plot.hpp"
#include "siglab/device_list.hpp"
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
  spectrum_->setDevices(savedCudaOptions(devices_).devices);  // core's rule picks cuFFT there or FFTW
  rateField_ = new SampleRateField;
  setCentralWidget(plot_);  // the signal takes the centre; every other view is a dock
  auto* cursorDocks = new CursorDocks(this, plot_, spectrum_);  // A/B and frequency cursors, their readout, markers: two docks
  // The cursors are the session's: every time view (a spectrogram too) and frequency view follows them.
  linkCursors(session_, cursorDocks->cursors(), cursorDocks->spectrumCursor());
  // A region as the range of the statistics or of Compare (the markers' context menu).
  connect(cursorDocks->markers(), &MarkersView::regionUsed, this, [this](SampleRange range, const QString& label, RegionUse use) {
    if (use == RegionUse::compare) return compareRange(range, label);
    statistics_->setRegion(range, label);
    showView(statistics_);
  });

  taskStatus_ = new TaskStatus;
  tasks_ = new TaskRunner(taskStatus_, this);
  runs_ = new RunController({session_, tasks_, filterPanel_, undo_, engines_, this,
                             [this](const QString& title, const QString& name, const QString& filters) {
                               return files_->askSavePath(title, name, filters);
                             },
                             [this](const QString& path) { return files_->checkOutput(path); },
                             [this] {
                               const QCPRange range = plot_->plot()->axisRect(0)->axis(QCPAxis::atBottom)->range();
                               return ViewRange{range.lower, range.upper};
                             },
                             [this] { return files_->mappedAboveBytes(); }, [this] { return files_->cacheFolder(); }},
                            this);
  connect(tasks_, &TaskRunner::busyChanged, this, &MainWindow::updateActions);
  connect(tasks_, &TaskRunner::finished, this, &MainWindow::updateActions);  // what the task's result enables
  connect(tasks_, &TaskRunner::finished, this, &MainWindow::taskFinished);
  // A task's result would follow a chain that changed (Undo, Redo, the chain view): it goes.
  connect(undo_, &QUndoStack::indexChanged, tasks_, &TaskRunner::abandon);
  cursorLabel_ = new QLabel;
  statusBar()->addWidget(cursorLabel_, 1);
  statusBar()->addPermanentWidget(taskStatus_);
  statusBar()->addPermanentWidget(spectrum_->taskStatus());  // the spectrum's own progress, beside the task's
  statusBar()->addPermanentWidget(statistics_->taskStatus());  // a region's statistics, the same
  connect(spectrum_->tasks(), &TaskRunner::busyChanged, this, &MainWindow::updateActions);
  connect(statistics_->tasks(), &TaskRunner::busyChanged, this, &MainWindow::updateActions);
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
  // Signals (a page-locked home for their samples where a GPU will copy them), sessions, pipelines, exports.
  files_ = new FileController({session_, tasks_, filterPanel_, undo_, runs_, plot_, cursorDocks->markers(), stackedAction_,
                               this, devices_.front().available ? pinnedHostMemory() : nullptr,
                               [this] { return sampleRate(); }},
                              this);
  connect(runs_, &RunController::message, this, &MainWindow::showMessage);
  connect(runs_, &RunController::failed, this, &MainWindow::showError);
  connect(files_, &FileController::message, this, &MainWindow::showMessage);
  connect(files_, &FileController::failed, this, &MainWindow::showError);
  connect(files_, &FileController::signalShown, this, &MainWindow::rememberRecent);
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
    const QString path = QFileDialog::getOpenFileName(this, tr("Open signal"), files_->lastDirectory(), signalOpenFilters());
    if (!path.isEmpty()) requestOpen(path);
  });
  openAction_->setShortcut(QKeySequence::Open);
  openAction_->setIcon(toolbarIcon("open"));
  openAction_->setToolTip(tr("Open a signal file: one number per line (Ctrl+O); or drop a file on the window"));
  recentMenu_ = file->addMenu(tr("Open &recent"));
  createSessionActions(file);
  file->addSeparator();
  exportResultAction_ = file->addAction(tr("&Export filtered signal…"), this, [this] {
    const QString path = files_->askSavePath(tr("Export filtered signal"), files_->resultFileName(), files_->resultExportFilters());
    if (!path.isEmpty()) exportResult(path);
  });
  exportResultAction_->setShortcut(QKeySequence::Save);
  exportResultAction_->setIcon(toolbarIcon("export"));
  exportResultAction_->setToolTip(
      tr("Write the filtered signal shown, Apply's engine result or Compare's cpu-serial result (Ctrl+S): text in "
         "one number a line (%2.16f), or another format by extension (every channel)"));
  exportReportAction_ = file->addAction(tr("Export timing &report…"), this, [this] {
    const QString path = files_->askSavePath(tr("Export timing report"), "report.json", tr("JSON (*.json);;CSV (*.csv)"));
    if (!path.isEmpty()) exportReport(path);
  });
  exportReportAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  savePlotAction_ = file->addAction(tr("Export signal &plot…"), this, [this] {
    const QString path = files_->askSavePath(tr("Export signal plot"), "signal.png",
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
    const QString path = files_->askSavePath(tr("Save timing chart"), "timings.png", tr("PNG image (*.png);;PDF (*.pdf)"));
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
  files_->setLastDirectory(settings.value("lastDirectory").toString());
  stackedAction_->setChecked(settings.value("plot/stacked", false).toBool());
  filterPanel_->restoreSettings(settings);
  updateRecentMenu();
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/docks", saveState(kDockStateVersion));
  settings.setValue("lastDirectory", files_->lastDirectory());
  settings.setValue("plot/stacked", stackedAction_->isChecked());
  filterPanel_->saveSettings(settings);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (hasUnexportedResult() && !discardConfirmed_) {
    event->ignore();
    files_->askToDiscardResult([this] {
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
      timings_->setComparison(comparison, devices_, session_->comparedOn());
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

QString MainWindow::plotTitle() const { return session_->title(); }

void MainWindow::createSessionActions(QMenu* file) {
  openSessionAction_ = file->addAction(toolbarIcon("session"), tr("Open &session…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), files_->lastDirectory(), tr(kSessionFilter));
    if (!path.isEmpty()) requestOpen(path);
  });
  openSessionAction_->setToolTip(tr("Restore a saved session: the signal, how it was read, the filter, engines and view"));
  saveSessionAction_ = file->addAction(tr("Save s&ession…"), this, [this] {
    const QString path = files_->askSavePath(tr("Save session"), QFileInfo(session_->path()).completeBaseName() + ".siglab",
                                     tr(kSessionFilter));
    if (!path.isEmpty()) saveSession(path);
  });
  saveSessionAction_->setToolTip(tr("Save the signal's path and read options, the chain, the form, engines and view as "
                                    ".siglab (JSON)"));
  file->addSeparator();
  loadPipelineAction_ = file->addAction(tr("&Load pipeline…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load pipeline"), files_->lastDirectory(), tr(kPipelineFilter));
    if (!path.isEmpty()) loadPipeline(path);
  });
  loadPipelineAction_->setToolTip(tr("Apply a pipeline file's stages in turn to the signal, in place of the chain"));
  savePipelineAction_ = file->addAction(tr("Save &pipeline…"), this, [this] {
    const QString path = files_->askSavePath(tr("Save pipeline"), "pipeline.json", tr(kPipelineFilter));
    if (!path.isEmpty()) savePipeline(path);
  });
  savePipelineAction_->setToolTip(tr("Write the chain as a pipeline file (JSON), as siglab-cli filter --pipeline reads it"));
}

// What the menus do, by the controllers that do it.
void MainWindow::openFile(const QString& path) { files_->openFile(path); }
void MainWindow::openFile(const QString& path, const ReadOptions& options) { files_->openFile(path, options); }
void MainWindow::requestOpen(const QString& path) { files_->requestOpen(path); }
void MainWindow::showFileChannel(std::size_t channel) { files_->showFileChannel(channel); }
void MainWindow::applyFilter() { runs_->apply(); }
void MainWindow::applyFilterTo(const QString& outputPath) { runs_->applyInto(outputPath); }
void MainWindow::runEngines() { runs_->compare(); }
void MainWindow::compareRange(SampleRange range, const QString& label) { runs_->compareRange(range, label); }
void MainWindow::exportResult(const QString& path) { files_->exportResult(path); }
void MainWindow::exportReport(const QString& path) { files_->exportReport(path); }
Session MainWindow::currentSession() const { return files_->currentSession(); }
void MainWindow::saveSession(const QString& path) { files_->saveSession(path); }
void MainWindow::openSession(const QString& path) { files_->openSession(path); }
void MainWindow::savePipeline(const QString& path) { files_->savePipeline(path); }
void MainWindow::loadPipeline(const QString& path) { files_->loadPipeline(path); }
void MainWindow::setMappedAboveBytes(std::uint64_t bytes) { files_->setMappedAboveBytes(bytes); }
std::uint64_t MainWindow::mappedAboveBytes() const { return files_->mappedAboveBytes(); }
void MainWindow::setCacheFolder(const QString& folder) { files_->setCacheFolder(folder); }
QString MainWindow::cacheFolder() const { return files_->cacheFolder(); }

void MainWindow::showMessage(const QString& text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); }

void MainWindow::cancelTask() {
  tasks_->cancel();
  spectrum_->cancel();
  statistics_->cancel();
}

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
  cancelAction_->setEnabled(tasks_->busy() || spectrum_->computing() || statistics_->regionPending());
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

}  // namespace siglab::gui

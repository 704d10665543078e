// The window's files: signals (in memory or from their mapping), sessions, pipelines and exports.
#include "file_controller.hpp"

#include <qcustomplot.h>

#include <QAction>
#include <QDialog>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QUndoStack>
#include <QtConcurrent>

#include "background_tasks.hpp"
#include "dataset_dialog.hpp"
#include "filter_panel.hpp"
#include "import_dialog.hpp"
#include "mapped_channel.hpp"
#include "mapped_tasks.hpp"
#include "markers_view.hpp"
#include "run_controller.hpp"
#include "session_adapter.hpp"
#include "signal_loading.hpp"
#include "signal_plot.hpp"
#include "signal_session.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/file_probe.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/io/signal_formats.hpp"
#include "siglab/large_signal_policy.hpp"
#include "siglab/report.hpp"
#include "task_runner.hpp"

namespace siglab::gui {
namespace {

ReadOptions withHostMemory(ReadOptions options, std::pmr::memory_resource* hostMemory) {
  options.hostMemory = hostMemory;
  return options;
}

}  // namespace

FileController::FileController(FileParts parts, QObject* parent)
    : QObject(parent), session_(parts.session), tasks_(parts.tasks), filterPanel_(parts.form), undo_(parts.undo),
      runs_(parts.runs), plot_(parts.plot), markers_(parts.markers), stackedAction_(parts.stacked),
      window_(parts.window), hostMemory_(parts.hostMemory), sampleRate_(std::move(parts.sampleRate)),
      mappedAboveBytes_(mappingThresholdBytes(physicalMemoryBytes())) {}

void FileController::openFile(const QString& path) {
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
                              emit message(tr("Opening cancelled; the previous signal is kept"), 5000);
                              return;
                            }
                            const ProbeOutcome outcome = done.result();
                            if (!outcome.probe) {
                              emit failed(tr("Could not open the signal"), outcome.error);
                              return;
                            }
                            if (outcome.probe->datasetFile) {  // HDF5/MAT: which dataset, if it holds several
                              ReadOptions options = suggestedReadOptions(*outcome.probe);
                              if (needsReadChoices(*outcome.probe)) {
                                const auto chosen = pickDataset(window_, path, outcome.probe->datasets);
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
                            auto* dialog = new ImportDialog(path, *outcome.probe, window_);
                            dialog->setAttribute(Qt::WA_DeleteOnClose);
                            connect(dialog, &QDialog::accepted, this,
                                    [this, dialog] { openFile(dialog->path(), dialog->readOptions()); });
                            dialog->open();
                          });
}

void FileController::requestOpen(const QString& path) {
  askToDiscardResult([this, path] { openFile(path); });
}

void FileController::openFile(const QString& path, const ReadOptions& options) {
  if (opensMapped(path, options)) {
    openMapped(path, options);
    return;
  }
  lastDirectory_ = QFileInfo(path).absolutePath();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  const std::shared_ptr<const std::atomic<bool>> cancelled = cancel;
  tasks_->start<LoadOutcome>(tr("Loading %1").arg(QFileInfo(path).fileName()), cancel,
                         isDefault(options) ? QtConcurrent::run(&loadSignal, path, hostMemory_, cancelled)
                                            : QtConcurrent::run(&loadSignalWith, path, withHostMemory(options, hostMemory_), cancelled),
                         [this, path, options](const QFuture<LoadOutcome>& done) {
                           const std::optional<ViewRange> view = std::exchange(pendingView_, std::nullopt);
                           const Pipeline chain = std::exchange(pendingChain_, {});
                           if (done.resultCount() == 0) {
                             emit message(tr("Loading cancelled; the previous signal is kept"), 5000);
                             return;
                           }
                           const LoadOutcome outcome = done.result();
                           if (!outcome.signal) {
                             emit failed(tr("Could not open the signal"), outcome.error);
                             return;
                           }
                           showSignal(path, options, outcome.signal, view);
                           runs_->applyStages(chain.stages);
                         });
}

void FileController::showSignal(const QString& path, const ReadOptions& options, SignalPtr signal,
                            std::optional<ViewRange> view) {
  undo_->clear();
  session_->setSignal(path, options, std::move(signal));
  const SignalPtr& shown = session_->signal();
  if (view) plot_->setVisibleRange(view->first, view->last);
  emit signalShown(path);
  const QString samples = QLocale().toString(static_cast<qulonglong>(shown->size()));
  const QString oneOfFile = mappedChannelNote(shown.get());
  emit message(shown->channelCount() > 1
                               ? tr("Loaded %1 channels of %2 samples from %3").arg(shown->channelCount()).arg(samples, path)
                           : !oneOfFile.isEmpty() ? tr("Viewing %1 samples of %2 from %3").arg(samples, oneOfFile, path)
                                                  : tr("Loaded %1 samples from %2").arg(samples, path),
                           5000);
}

void FileController::exportResult(const QString& path) { startResultExport(path, {}); }

void FileController::startResultExport(const QString& path, std::function<void()> onWritten) {
  if (!session_->filtered() || !checkOutput(path)) return;
  SignalPtr result = session_->filtered();
  const std::string file = path.toStdString();
  WriteOptions options;
  options.sampleRate = sampleRate_().value_or(options.sampleRate);  // a WAV keeps the input's rate
  startExport(
      path, [result, file, options](const Progress& progress) { writeLoadedSignal(file, *result, options, progress); },
      [this, path, result, onWritten = std::move(onWritten)] {
        if (result == session_->filtered()) session_->setResultExported(true);
        if (const QString channel = mappedChannelName(session_->signal().get()); !channel.isEmpty()) {
          emit message(tr("Wrote %1: the filtered %2, the channel shown").arg(path, channel), 5000);
        }
        if (onWritten) onWritten();
      });
}

void FileController::exportReport(const QString& path) {
  if (!session_->comparison() || !checkOutput(path)) return;
  std::shared_ptr<const Comparison> comparison = session_->comparison();
  const std::string file = path.toStdString();
  const std::string input = session_->signal() ? session_->signal()->source() : std::string();
  const std::optional<double> rate = sampleRate_();
  startExport(path, [comparison, file, input, rate](const Progress& progress) {
    writeFileAtomically(file, comparisonReport(*comparison, input, file, rate), progress);
  });
}

void FileController::startExport(const QString& path, std::function<void(const Progress&)> write,
                             std::function<void()> onWritten, const QString& failureTitle) {
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<ExportOutcome>(tr("Writing %1").arg(QFileInfo(path).fileName()), cancel,
                           QtConcurrent::run(&exportFile, std::move(write), std::shared_ptr<const std::atomic<bool>>(cancel)),
                           [this, path, onWritten, failureTitle](const QFuture<ExportOutcome>& done) {
                             if (done.resultCount() == 0) return;
                             if (!done.result().error.isEmpty()) {
                               emit failed(failureTitle.isEmpty() ? tr("Could not export") : failureTitle,
                                         done.result().error);
                               return;
                             }
                             emit message(tr("Wrote %1").arg(path), 5000);
                             if (onWritten) onWritten();
                           });
}

Session FileController::currentSession() const {
  Session session;
  session.signalPath = session_->path().toStdString();
  session.read = session_->readOptions();
  session.chain = session_->chain();
  session.stage = filterPanel_->stage(nullptr);
  session.repeat = filterPanel_->repeat();
  session.engines = filterPanel_->checkedEngines();
  if (session_->signal()) {
    const QCPRange range = plot_->plot()->xAxis->range();
    session.view = ViewRange{range.lower, range.upper};
  }
  session.stacked = stackedAction_->isChecked();
  session.markers = markers_->markers();
  return session;
}

void FileController::saveSession(const QString& path) {
  if (!session_->signal() || !checkOutput(path)) return;
  const std::string file = path.toStdString();
  startExport(
      path, [file, session = currentSession()](const Progress& progress) { siglab::saveSession(file, session, progress); },
      [this, path] { emit message(tr("Saved the session to %1").arg(path), 5000); },
      tr("Could not save the session"));
}

void FileController::savePipeline(const QString& path) {
  if (session_->steps().empty()) {
    emit failed(tr("Nothing to save"), tr("The chain is empty: Apply a stage first"));
    return;
  }
  if (!checkOutput(path)) return;
  const std::string file = path.toStdString();
  startExport(
      path, [file, pipeline = session_->chain()](const Progress&) { siglab::savePipeline(file, pipeline); },
      [this, path] { emit message(tr("Saved the chain to %1").arg(path), 5000); },
      tr("Could not save the pipeline"));
}

void FileController::loadPipeline(const QString& path) {
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<PipelineOutcome>(
      tr("Reading %1").arg(QFileInfo(path).fileName()), cancel,
      QtConcurrent::run(&readPipeline, path, std::shared_ptr<const std::atomic<bool>>(cancel)),
      [this, cancel](const QFuture<PipelineOutcome>& done) {
        if (done.resultCount() == 0 || cancel->load()) return;
        const PipelineOutcome outcome = done.result();
        if (!outcome.pipeline) {
          emit failed(tr("Could not load the pipeline"), outcome.error);
          return;
        }
        if (!outcome.pipeline->stages.empty()) filterPanel_->setStage(outcome.pipeline->stages.back());
        if (!session_->signal()) {
          pendingChain_ = *outcome.pipeline;
          emit message(tr("The pipeline is applied to the next signal opened"), 5000);
          return;
        }
        undo_->clear();  // the file's chain in place of this one
        session_->clearChain();
        runs_->applyStages(outcome.pipeline->stages);
      });
}

void FileController::openSession(const QString& path) {
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<SessionOutcome>(tr("Reading %1").arg(QFileInfo(path).fileName()), cancel,
                            QtConcurrent::run(&readSession, path, std::shared_ptr<const std::atomic<bool>>(cancel)),
                            [this, cancel](const QFuture<SessionOutcome>& done) {
                              if (done.resultCount() == 0 || cancel->load()) return;  // cancelled, even after it read
                              const SessionOutcome outcome = done.result();
                              if (!outcome.session) {
                                emit failed(tr("Could not open the session"), outcome.error);
                                return;
                              }
                              const Session& session = *outcome.session;
                              if (session.stage) filterPanel_->setStage(*session.stage);
                              filterPanel_->setRepeat(session.repeat);
                              pendingChain_ = session.chain;
                              applyEngines(*filterPanel_, session.engines);
                              stackedAction_->setChecked(session.stacked);
                              markers_->setMarkers(session.markers);
                              pendingView_ = session.view;
                              openFile(QString::fromStdString(session.signalPath), session.read);
                            });
}

void FileController::askToDiscardResult(std::function<void()> proceed) {
  if (!session_->hasUnexportedResult()) {
    proceed();
    return;
  }
  auto* box = new QMessageBox(QMessageBox::Question, tr("Discard the filtered signal?"),
                              tr("The filtered signal has not been exported and will be lost."),
                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
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

void FileController::exportResultThen(std::function<void()> proceed) {
  const QString path = askSavePath(tr("Export filtered signal"), resultFileName(), resultExportFilters());
  if (!path.isEmpty()) startResultExport(path, std::move(proceed));
}

QString FileController::resultFileName() const {
  if (session_->filtered() && session_->filtered()->channelCount() > 1) return "result.npy";
  if (fileChannels(session_->signal().get()) > 1) return tr("result-channel%1.txt").arg(session_->signal()->mapping()->channel());
  return "result.txt";
}

QString FileController::resultExportFilters() const {
  // The seed's text holds one channel (core says so for more): formats of several come first then.
  const std::size_t channels = session_->filtered() ? session_->filtered()->channelCount() : 1;
  return QString::fromStdString(saveFileFilters(channels, channels > 1 ? ".npy" : ".txt"));
}

bool FileController::checkOutput(const QString& path) {
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
    emit failed(tr("Cannot write there"), QString::fromStdString(e.what()));
    return false;
  }
}

QString FileController::askSavePath(const QString& title, const QString& defaultName, const QString& filters) {
  const QString path = QFileDialog::getSaveFileName(window_, title, QDir(lastDirectory_).filePath(defaultName), filters);
  if (!path.isEmpty()) lastDirectory_ = QFileInfo(path).absolutePath();
  return path;
}

QString FileController::cacheFolder() const {
  if (!cacheFolder_.isEmpty()) return cacheFolder_;
  return QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).filePath("signals");
}

bool FileController::opensMapped(const QString& path, const ReadOptions& options) const {
  const QFileInfo info(path);
  return info.isFile() && float64BytesOf(static_cast<std::uint64_t>(info.size()), options) > mappedAboveBytes_;
}

void FileController::openMapped(const QString& path, const ReadOptions& options, bool preview) {
  lastDirectory_ = QFileInfo(path).absolutePath();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  const QFuture<LoadOutcome> future = QtConcurrent::run(&openMappedSignal, path, options, cacheFolder(),
                                                        std::shared_ptr<const std::atomic<bool>>(cancel));
  // The preview is drawn as soon as it comes; the window takes the signal once it is indexed.
  if (preview) {
    auto* watcher = new QFutureWatcher<LoadOutcome>(this);
    connect(watcher, &QFutureWatcherBase::resultReadyAt, this, [this, watcher, path, cancel](int index) {
      const LoadOutcome outcome = watcher->resultAt(index);
      if (cancel->load() || index != 0 || !outcome.signal || outcome.signal->indexed()) return;
      plot_->setOriginal(outcome.signal);
      emit message(tr("A first, coarse view of %1 (%2 samples); building its overview and statistics…")
                                   .arg(QFileInfo(path).fileName(),
                                        QLocale().toString(static_cast<qulonglong>(outcome.signal->size()))));
    });
    connect(watcher, &QFutureWatcherBase::finished, watcher, &QObject::deleteLater);
    watcher->setFuture(future);
  }
  const QString name = QFileInfo(path).fileName();
  const QString what = preview ? tr("Opening %1 from its mapping").arg(name)
                               : tr("Opening channel %1 of %2 from its mapping").arg(options.channel).arg(name);
  tasks_->start<LoadOutcome>(
      what, cancel, future,
      [this, path, options, preview, cancel](const QFuture<LoadOutcome>& done) {
        std::optional<ViewRange> view = std::exchange(pendingView_, std::nullopt);
        const Pipeline chain = std::exchange(pendingChain_, {});
        // A cancel that came after the signal was ready, before this ran, still counts.
        const LoadOutcome outcome =
            done.resultCount() > 0 && !cancel->load() ? done.resultAt(done.resultCount() - 1) : LoadOutcome{};
        if (outcome.signal && outcome.signal->indexed()) {
          if (!view) {  // where the user moved the preview to
            const QCPRange range = plot_->plot()->axisRect(0)->axis(QCPAxis::atBottom)->range();
            view = ViewRange{range.lower, range.upper};
          }
          showSignal(path, options, outcome.signal, view);
          runs_->applyStages(chain.stages);  // says why a mapped signal's chain is not applied at once
          return;
        }
        if (preview) {
          plot_->setOriginal(session_->signal());  // the preview goes; the previous signal comes back
          if (session_->filtered()) plot_->setFiltered(session_->filtered());
        }
        if (outcome.error.isEmpty()) emit message(tr("Loading cancelled; the previous signal is kept"), 5000);
        else emit failed(tr("Could not open the signal"), outcome.error);
      });
}

void FileController::showFileChannel(std::size_t channel) {
  if (fileChannels(session_->signal().get()) < 2 || channel + 1 == session_->signal()->mapping()->channel()) return;
  if (channel >= session_->signal()->mapping()->channels()) return;
  askToDiscardResult([this, channel] {
    const QCPRange range = plot_->plot()->axisRect(0)->axis(QCPAxis::atBottom)->range();
    pendingView_ = ViewRange{range.lower, range.upper};  // the same stretch of the new channel
    pendingChain_ = session_->chain();
    openMapped(session_->path(), mappedChannelOptions(session_->readOptions(), channel + 1), false);
  });
}

}  // namespace siglab::gui

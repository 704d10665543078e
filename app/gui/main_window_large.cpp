// MainWindow's paths for signals larger than memory: opened from their file's mapping (a first
// coarse plot, then the pyramid and statistics in the background), Apply streamed into a file,
// Compare on a range.
#include <qcustomplot.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QUndoStack>
#include <QtConcurrent>

#include <cmath>
#include <cstdint>

#include "device_panel.hpp"
#include "filter_panel.hpp"
#include "main_window.hpp"
#include "mapped_channel.hpp"
#include "mapped_tasks.hpp"
#include "signal_plot.hpp"
#include "signal_session.hpp"
#include "spectrum_view.hpp"
#include "task_runner.hpp"
#include "timing_view.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "siglab/large_signal_policy.hpp"

namespace siglab::gui {
namespace {

QString gibibytes(std::uint64_t bytes) { return QString::number(static_cast<double>(bytes) / (1u << 30), 'f', 1); }

}  // namespace

std::uint64_t MainWindow::defaultMappedAboveBytes() { return mappingThresholdBytes(physicalMemoryBytes()); }

QString MainWindow::cacheFolder() const {
  if (!cacheFolder_.isEmpty()) return cacheFolder_;
  return QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).filePath("signals");
}

bool MainWindow::opensMapped(const QString& path, const ReadOptions& options) const {
  const QFileInfo info(path);
  return info.isFile() && float64BytesOf(static_cast<std::uint64_t>(info.size()), options) > mappedAboveBytes_;
}

void MainWindow::openMapped(const QString& path, const ReadOptions& options, bool preview) {
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
      statusBar()->showMessage(tr("A first, coarse view of %1 (%2 samples); building its overview and statistics…")
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
          pendingStages_ = chain.stages;
          applyPending();  // says why a mapped signal's chain is not applied at once
          return;
        }
        if (preview) {
          plot_->setOriginal(session_->signal());  // the preview goes; the previous signal comes back
          if (session_->filtered()) plot_->setFiltered(session_->filtered());
        }
        if (outcome.error.isEmpty()) statusBar()->showMessage(tr("Loading cancelled; the previous signal is kept"), 5000);
        else showError(tr("Could not open the signal"), outcome.error);
      });
}

void MainWindow::showFileChannel(std::size_t channel) {
  if (fileChannels(session_->signal().get()) < 2 || channel + 1 == session_->signal()->mapping()->channel()) return;
  if (channel >= session_->signal()->mapping()->channels()) return;
  askToDiscardResult([this, channel] {
    const QCPRange range = plot_->plot()->axisRect(0)->axis(QCPAxis::atBottom)->range();
    pendingView_ = ViewRange{range.lower, range.upper};  // the same stretch of the new channel
    pendingChain_ = chain();
    openMapped(session_->path(), mappedChannelOptions(session_->readOptions(), channel + 1), false);
  });
}

void MainWindow::applyFilterTo(const QString& outputPath) {
  if (!session_->signal() || !session_->currentResult()->mapping() || !checkOutput(outputPath)) return;
  QString error;
  std::optional<JobDraft> job = filterPanel_->job(&error);
  if (!job) {
    showError(tr("Cannot run this filter"), error);
    return;
  }
  const SignalPtr input = session_->currentResult();
  job->job.input = input->source();
  job->job.engines = filterPanel_->applyEngine();  // chosen by the core's run
  const Stage stage = job->stage;
  const ReadOptions opened = session_->steps().empty() ? session_->readOptions() : session_->steps().back().resultRead;
  StreamApplyRequest request{input, opened, std::move(*job), engines_, outputPath, cacheFolder()};
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  auto timer = std::make_shared<QElapsedTimer>();
  timer->start();
  tasks_->start<ApplyOutcome>(
      tr("Filtering into %1").arg(QFileInfo(outputPath).fileName()), cancel,
      QtConcurrent::run(&streamApply, request, std::shared_ptr<const std::atomic<bool>>(cancel)),
      [this, outputPath, timer, stage](const QFuture<ApplyOutcome>& done) {
        if (done.resultCount() == 0) {
          statusBar()->showMessage(tr("Apply cancelled; %1 was not written").arg(outputPath), 5000);
          return;
        }
        const ApplyOutcome outcome = done.result();
        if (!outcome.filtered) {
          showError(tr("The filter could not be applied"), outcome.error);
          return;
        }
        const ChainStep step{stage, outcome.report, outcome.filtered, outcome.spec, readOptionsForOutput(outputPath),
                             true};  // in outputPath already
        undo_->push(new StepCommand(QString::fromStdString(outcome.report->description),
                                        [this, step] { session_->appendStep(step); },
                                        [this] { session_->removeLastStep(); }));
        QString samples = tr("%1 samples").arg(QLocale().toString(static_cast<qulonglong>(session_->filtered()->size())));
        if (const QString channel = mappedChannelName(session_->signal().get()); !channel.isEmpty()) {
          samples = tr("%1 of %2 (the channel shown)").arg(samples, channel);
        }
        statusBar()->showMessage(tr("Applied %1 to %2 in %3 s, streamed into %4")
                                     .arg(outcome.engine, samples)
                                     .arg(static_cast<double>(timer->elapsed()) / 1000.0, 0, 'f', 1)
                                     .arg(outputPath),
                                 10000);
      });
}

void MainWindow::offerCompareRange() {
  const QCPRange view = plot_->plot()->axisRect(0)->axis(QCPAxis::atBottom)->range();
  const double last = static_cast<double>(session_->currentResult()->size());
  const auto first = static_cast<std::size_t>(std::clamp(std::ceil(view.lower), 0.0, last));
  const auto end = static_cast<std::size_t>(std::clamp(std::floor(view.upper) + 1, 0.0, last));
  const std::uint64_t most = samplesToCompareInMemory(mappedAboveBytes_);
  const SampleRange range = compareRangeWithin({first, std::max(first, end)}, most);
  const std::uint64_t bytes = session_->currentResult()->size() * sizeof(double);
  auto* box = new QMessageBox(
      QMessageBox::Question, tr("Compare engines on a range?"),
      tr("%1 has %2 samples (%3 GiB), viewed from its file: too large to compare engines on all of it in memory "
         "(the samples, the reference and each engine's output: %4 GiB). Compare them on samples %5 to %6 "
         "(%7 samples: the visible range, cut to at most %8) instead?")
          .arg(QFileInfo(session_->path()).fileName(), QLocale().toString(static_cast<qulonglong>(session_->currentResult()->size())),
               gibibytes(bytes), gibibytes(3 * bytes), QLocale().toString(static_cast<qulonglong>(range.begin)),
               QLocale().toString(static_cast<qulonglong>(range.end - 1)),
               QLocale().toString(static_cast<qulonglong>(range.end - range.begin)),
               QLocale().toString(static_cast<qulonglong>(most))),
      QMessageBox::Yes | QMessageBox::Cancel, this);
  box->setObjectName("compareRangePrompt");
  box->button(QMessageBox::Yes)->setText(tr("Compare on the range"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  connect(box, &QMessageBox::finished, this, [this, box, range] {
    if (box->standardButton(box->clickedButton()) == QMessageBox::Yes) compareRange(range);
  });
  box->open();
}

void MainWindow::compareRange(SampleRange range, const QString& label) {
  if (!session_->signal()) return;
  QString error;
  std::optional<JobDraft> job = filterPanel_->job(&error);
  if (!job) {
    showError(tr("Cannot run this filter"), error);
    return;
  }
  const std::vector<std::string> names = filterPanel_->checkedEngines();
  const SignalPtr input = session_->currentResult();
  job->job.input = input->source();
  job->job.engines.clear();
  for (const std::string& name : names) job->job.engines += (job->job.engines.empty() ? "" : ",") + name;
  RunRequest request{input, std::move(*job), engines_};
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  QString what = tr("samples %1 to %2").arg(QLocale().toString(static_cast<qulonglong>(range.begin)),
                                             QLocale().toString(static_cast<qulonglong>(range.end - 1)));
  const QString channel = mappedChannelName(session_->signal().get());
  if (!channel.isEmpty()) what = tr("%1 of %2").arg(what, channel);
  if (!label.isEmpty()) what = tr("%1 (%2)").arg(label, what);
  tasks_->start<RunOutcome>(tr("Comparing %1 engines on %2").arg(names.size()).arg(what), cancel,
                        QtConcurrent::run(&runEnginesOnRange, request, range, std::shared_ptr<const std::atomic<bool>>(cancel)),
                        [this, what](const QFuture<RunOutcome>& done) {
                          if (done.resultCount() == 0) {
                            statusBar()->showMessage(tr("Run cancelled"), 5000);
                            return;
                          }
                          const RunOutcome outcome = done.result();
                          if (!outcome.comparison) {
                            showError(tr("The run failed"), outcome.error);
                            return;
                          }
                          session_->setComparison(outcome.comparison, what);  // the range's filtered signal is not drawn
                          statusBar()->showMessage(outcome.comparison->allAgree()
                                                       ? tr("On %1, every engine agrees with cpu-serial").arg(what)
                                                       : tr("On %1, an engine DISAGREES with cpu-serial").arg(what),
                                                   8000);
                        });
}

}  // namespace siglab::gui

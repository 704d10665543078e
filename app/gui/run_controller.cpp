#include "run_controller.hpp"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QUndoStack>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

#include "chain_view.hpp"
#include "filter_panel.hpp"
#include "mapped_channel.hpp"
#include "mapped_tasks.hpp"
#include "signal_session.hpp"
#include "siglab/large_signal_policy.hpp"
#include "task_runner.hpp"

namespace siglab::gui {
namespace {

QString gibibytes(std::uint64_t bytes) { return QString::number(static_cast<double>(bytes) / (1u << 30), 'f', 1); }
QString integer(std::uint64_t n) { return QLocale().toString(static_cast<qulonglong>(n)); }

}  // namespace

RunController::RunController(RunParts parts, QObject* parent) : QObject(parent), parts_(std::move(parts)) {}

std::string RunController::checkedEngineList() const {
  std::string list;
  for (const std::string& name : parts_.form->checkedEngines()) list += (list.empty() ? "" : ",") + name;
  return list;
}

void RunController::apply() {
  SignalSession* session = parts_.session;
  if (!session->signal()) return;
  QString error;
  std::optional<JobDraft> job = parts_.form->job(&error);
  if (!job) return emit failed(tr("Cannot run this filter"), error);
  pendingStages_.clear();
  if (session->currentResult()->mapping()) {  // too large for memory: streamed into a file the user names
    const QString output = parts_.askSavePath(tr("Write the filtered signal to"),
                                              fileChannels(session->signal().get()) > 1
                                                  ? tr("filtered-channel%1.raw").arg(session->signal()->mapping()->channel())
                                                  : QString("filtered.raw"),
                                              tr("Raw float64 (*.raw *.bin);;NumPy (*.npy);;Text, one number a line (*.txt);;"
                                                 "WAV, 32-bit float (*.wav)"));
    if (!output.isEmpty()) applyInto(output);
    return;
  }
  applyStage(std::move(*job));
}

void RunController::applyStages(std::vector<Stage> stages) {
  pendingStages_ = std::move(stages);
  applyPending();
}

void RunController::applyPending() {
  SignalSession* session = parts_.session;
  if (pendingStages_.empty() || !session->signal()) return;
  if (session->currentResult()->mapping()) {
    pendingStages_.clear();
    return emit failed(tr("Cannot apply the chain here"),
                       tr("%1 is viewed from its file: Apply its stages one by one, each into a file of your choice")
                           .arg(QFileInfo(session->path()).fileName()));
  }
  const Stage next = pendingStages_.front();
  pendingStages_.erase(pendingStages_.begin());
  applyStage(parts_.form->jobFor(next));
}

void RunController::applyStage(JobDraft job) {
  SignalSession* session = parts_.session;
  const SignalPtr input = session->currentResult();
  job.job.input = input->source();
  job.job.engines = parts_.form->applyEngine();
  const Stage stage = job.stage;
  // The stage is bound, and its engine chosen, by the task.
  RunRequest request{input, std::move(job), parts_.engines};
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  parts_.tasks->start<ApplyOutcome>(
      tr("Applying %1").arg(QString::fromUtf8(stage.kind->name().data(), static_cast<int>(stage.kind->name().size()))),
      cancel, QtConcurrent::run(&siglab::gui::applyStage, request, std::shared_ptr<const std::atomic<bool>>(cancel)),
      [this, session, stage](const QFuture<ApplyOutcome>& done) {
        if (done.resultCount() == 0) {
          pendingStages_.clear();
          return emit message(tr("Apply cancelled"), 5000);
        }
        const ApplyOutcome outcome = done.result();
        if (!outcome.filtered) {
          pendingStages_.clear();
          return emit failed(tr("The filter could not be applied"), outcome.error);
        }
        const ChainStep step{stage, outcome.report, outcome.filtered, outcome.spec, {}, false};
        parts_.undo->push(new StepCommand(QString::fromStdString(outcome.report->description),
                                          [session, step] { session->appendStep(step); },
                                          [session] { session->removeLastStep(); }));
        const StageReport& r = *outcome.report;
        emit message(tr("Applied %1 in %2 ms (%3); verified %4 outputs")
                         .arg(QString::fromStdString(r.engine))
                         .arg(r.pass.phases.totalMs, 0, 'f', 2)
                         .arg(QString::fromStdString(r.why))
                         .arg(r.verification.checked),
                     10000);
        applyPending();
      });
}

void RunController::applyInto(const QString& outputPath) {
  SignalSession* session = parts_.session;
  if (!session->signal() || !session->currentResult()->mapping() || !parts_.checkOutput(outputPath)) return;
  QString error;
  std::optional<JobDraft> job = parts_.form->job(&error);
  if (!job) return emit failed(tr("Cannot run this filter"), error);
  const SignalPtr input = session->currentResult();
  job->job.input = input->source();
  job->job.engines = parts_.form->applyEngine();  // chosen by the core's run
  const Stage stage = job->stage;
  const ReadOptions opened = session->steps().empty() ? session->readOptions() : session->steps().back().resultRead;
  StreamApplyRequest request{input, opened, std::move(*job), parts_.engines, outputPath, parts_.cacheFolder()};
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  auto timer = std::make_shared<QElapsedTimer>();
  timer->start();
  parts_.tasks->start<ApplyOutcome>(
      tr("Filtering into %1").arg(QFileInfo(outputPath).fileName()), cancel,
      QtConcurrent::run(&streamApply, request, std::shared_ptr<const std::atomic<bool>>(cancel)),
      [this, session, outputPath, timer, stage](const QFuture<ApplyOutcome>& done) {
        if (done.resultCount() == 0) return emit message(tr("Apply cancelled; %1 was not written").arg(outputPath), 5000);
        const ApplyOutcome outcome = done.result();
        if (!outcome.filtered) return emit failed(tr("The filter could not be applied"), outcome.error);
        const ChainStep step{stage, outcome.report, outcome.filtered, outcome.spec, readOptionsForOutput(outputPath),
                             true};  // in outputPath already
        parts_.undo->push(new StepCommand(QString::fromStdString(outcome.report->description),
                                          [session, step] { session->appendStep(step); },
                                          [session] { session->removeLastStep(); }));
        QString samples = tr("%1 samples").arg(integer(session->filtered()->size()));
        if (const QString channel = mappedChannelName(session->signal().get()); !channel.isEmpty()) {
          samples = tr("%1 of %2 (the channel shown)").arg(samples, channel);
        }
        emit message(tr("Applied %1 to %2 in %3 s, streamed into %4")
                         .arg(outcome.engine, samples)
                         .arg(static_cast<double>(timer->elapsed()) / 1000.0, 0, 'f', 1)
                         .arg(outputPath),
                     10000);
      });
}

void RunController::compare() {
  SignalSession* session = parts_.session;
  if (!session->signal()) return;
  const SignalPtr input = session->currentResult();
  if (input->mapping()) return offerCompareRange();
  QString error;
  std::optional<JobDraft> job = parts_.form->job(&error);
  if (!job) return emit failed(tr("Cannot run this filter"), error);
  const std::size_t engines = parts_.form->checkedEngines().size();
  Pipeline compared = session->chain();
  compared.stages.push_back(job->stage);
  const QString caption = QString::fromStdString(chainText(compared));
  job->job.input = input->source();
  job->job.engines = checkedEngineList();
  RunRequest request{input, std::move(*job), parts_.engines};
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  parts_.tasks->start<RunOutcome>(
      tr("Comparing %1 engines").arg(engines), cancel,
      QtConcurrent::run(&siglab::gui::runEngines, request, std::shared_ptr<const std::atomic<bool>>(cancel)),
      [this, session, caption](const QFuture<RunOutcome>& done) {
        if (done.resultCount() == 0) return emit message(tr("Run cancelled"), 5000);
        const RunOutcome outcome = done.result();
        if (!outcome.comparison) return emit failed(tr("The run failed"), outcome.error);
        // The engines are measured on one channel (named where the file names it); Apply filters every one.
        const LoadedSignal& signal = *session->signal();
        const QString channel =
            signal.channelCount() > 1 || !signal.channelName(0).empty() ? channelLabel(signal, 0) : QString();
        session->setCompared(outcome.filtered, outcome.comparison->spec, caption, outcome.comparison, channel);
        QString verdict = outcome.comparison->allAgree() ? tr("Every engine agrees with cpu-serial")
                                                         : tr("An engine DISAGREES with cpu-serial");
        if (!channel.isEmpty()) verdict += tr(" (compared on %1)").arg(channel);
        emit message(verdict, 8000);
      });
}

void RunController::offerCompareRange() {
  SignalSession* session = parts_.session;
  const ViewRange view = parts_.visibleRange();
  const double last = static_cast<double>(session->currentResult()->size());
  const auto first = static_cast<std::size_t>(std::clamp(std::ceil(view.first), 0.0, last));
  const auto end = static_cast<std::size_t>(std::clamp(std::floor(view.last) + 1, 0.0, last));
  const std::uint64_t most = samplesToCompareInMemory(parts_.mappedAboveBytes());
  const SampleRange range = compareRangeWithin({first, std::max(first, end)}, most);
  const std::uint64_t bytes = session->currentResult()->size() * sizeof(double);
  auto* box = new QMessageBox(
      QMessageBox::Question, tr("Compare engines on a range?"),
      tr("%1 has %2 samples (%3 GiB), viewed from its file: too large to compare engines on all of it in memory "
         "(the samples, the reference and each engine's output: %4 GiB). Compare them on samples %5 to %6 "
         "(%7 samples: the visible range, cut to at most %8) instead?")
          .arg(QFileInfo(session->path()).fileName(), integer(session->currentResult()->size()), gibibytes(bytes),
               gibibytes(3 * bytes), integer(range.begin), integer(range.end - 1), integer(range.end - range.begin),
               integer(most)),
      QMessageBox::Yes | QMessageBox::Cancel, parts_.window);
  box->setObjectName("compareRangePrompt");
  box->button(QMessageBox::Yes)->setText(tr("Compare on the range"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  connect(box, &QMessageBox::finished, this, [this, box, range] {
    if (box->standardButton(box->clickedButton()) == QMessageBox::Yes) compareRange(range);
  });
  box->open();
}

void RunController::compareRange(SampleRange range, const QString& label) {
  SignalSession* session = parts_.session;
  if (!session->signal()) return;
  QString error;
  std::optional<JobDraft> job = parts_.form->job(&error);
  if (!job) return emit failed(tr("Cannot run this filter"), error);
  const std::size_t engines = parts_.form->checkedEngines().size();
  const SignalPtr input = session->currentResult();
  job->job.input = input->source();
  job->job.engines = checkedEngineList();
  RunRequest request{input, std::move(*job), parts_.engines};
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  QString what = tr("samples %1 to %2").arg(integer(range.begin), integer(range.end - 1));
  const QString channel = mappedChannelName(session->signal().get());
  if (!channel.isEmpty()) what = tr("%1 of %2").arg(what, channel);
  if (!label.isEmpty()) what = tr("%1 (%2)").arg(label, what);
  parts_.tasks->start<RunOutcome>(
      tr("Comparing %1 engines on %2").arg(engines).arg(what), cancel,
      QtConcurrent::run(&runEnginesOnRange, request, range, std::shared_ptr<const std::atomic<bool>>(cancel)),
      [this, session, what](const QFuture<RunOutcome>& done) {
        if (done.resultCount() == 0) return emit message(tr("Run cancelled"), 5000);
        const RunOutcome outcome = done.result();
        if (!outcome.comparison) return emit failed(tr("The run failed"), outcome.error);
        session->setComparison(outcome.comparison, what);  // the range's filtered signal is not drawn
        emit message(outcome.comparison->allAgree() ? tr("On %1, every engine agrees with cpu-serial").arg(what)
                                                    : tr("On %1, an engine DISAGREES with cpu-serial").arg(what),
                     8000);
      });
}

}  // namespace siglab::gui

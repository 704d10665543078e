#pragma once
#include <QObject>
#include <QString>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "chain_view.hpp"
#include "loaded_signal.hpp"
#include "siglab/comparison.hpp"
#include "siglab/filter_spec.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab::gui {

// The A and B time cursors (sample indices) every time view shows: the signal's lanes, a spectrogram.
struct TimeCursors {
  bool shown = false;
  double a = 0, b = 0;
  bool operator==(const TimeCursors&) const = default;
};

// What the window works on: the signal (and how it was read), the chain of stages applied to it
// with their results, the filtered signal shown (the chain's result, or Compare's), the last
// comparison, the channel the statistics and spectrum show, and the cursors every view shares (A
// and B in time, one in frequency). It says what changed; the views
// subscribe (MainWindow::subscribeViews) instead of the window pushing state into each.
class SignalSession : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;

  // A newly opened signal: the chain, result and comparison of the last one go.
  void setSignal(const QString& path, const ReadOptions& options, SignalPtr signal);
  void appendStep(const ChainStep& step);
  void removeLastStep();
  void clearChain();
  // Compare's result: shown as the filtered signal (not part of the chain) with its comparison.
  // `measuredOn` says what it measured where that is not the whole signal ("pressure", "region onset").
  void setCompared(SignalPtr filtered, const FilterSpec& spec, const QString& caption,
                   std::shared_ptr<const Comparison> comparison, const QString& measuredOn = {});
  // A comparison of a range (a region, or of a signal larger than memory): its filtered samples are not kept.
  void setComparison(std::shared_ptr<const Comparison> comparison, const QString& measuredOn = {});
  void setChannel(std::size_t channel);  // 0-based, of the statistics and the spectrum
  void setResultExported(bool exported) { resultExported_ = exported; }
  // The cursors every view shows: a view whose cursor moved sets them here, and every view follows
  // timeCursorsChanged / frequencyCursorChanged (not emitted where nothing changed).
  void setTimeCursors(const TimeCursors& cursors);
  void setFrequencyCursor(std::optional<double> frequency);  // Hz (cycles per sample without a rate); none: hidden

  SignalPtr signal() const { return signal_; }
  const QString& path() const { return path_; }  // absolute
  const ReadOptions& readOptions() const { return readOptions_; }
  const std::vector<ChainStep>& steps() const { return steps_; }
  Pipeline chain() const { return pipelineOf(steps_); }
  SignalPtr currentResult() const { return steps_.empty() ? signal_ : steps_.back().result; }  // what the next stage takes
  SignalPtr filtered() const { return filtered_; }
  const QString& filteredCaption() const { return filteredCaption_; }  // the chain (or the stage compared) that made it
  const FilterSpec& filteredSpec() const { return filteredSpec_; }
  std::shared_ptr<const StageReport> applied() const { return steps_.empty() ? nullptr : steps_.back().report; }
  std::shared_ptr<const Comparison> comparison() const { return comparison_; }
  const QString& comparedOn() const { return comparedOn_; }  // the comparison's measuredOn
  std::size_t channel() const { return channel_; }
  SignalPtr channelShown(const SignalPtr& signal) const;  // channel() of `signal`, or null
  bool hasUnexportedResult() const { return filtered_ && !resultExported_; }
  // What a plot of it is titled: the file's name (and the channel shown of a mapped file) and the
  // chain that made the filtered signal; empty without a signal.
  QString title() const;
  const TimeCursors& timeCursors() const { return timeCursors_; }
  std::optional<double> frequencyCursor() const { return frequencyCursor_; }

 signals:
  void signalChanged(const SignalPtr& signal);
  void chainChanged(const std::vector<ChainStep>& steps);
  void filteredChanged(const SignalPtr& filtered, const QString& caption, const FilterSpec& spec);
  void comparisonChanged(const std::shared_ptr<const Comparison>& comparison);  // null: none
  void channelChanged(std::size_t channel);
  void timeCursorsChanged(const TimeCursors& cursors);
  void frequencyCursorChanged(std::optional<double> frequency);

 private:
  void showChainResult();

  SignalPtr signal_;
  QString path_;
  ReadOptions readOptions_;
  std::vector<ChainStep> steps_;
  SignalPtr filtered_;
  QString filteredCaption_;
  FilterSpec filteredSpec_;
  std::shared_ptr<const Comparison> comparison_;
  QString comparedOn_;
  std::size_t channel_ = 0;
  bool resultExported_ = true;
  TimeCursors timeCursors_;
  std::optional<double> frequencyCursor_;
};

}  // namespace siglab::gui

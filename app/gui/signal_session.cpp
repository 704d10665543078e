#include "signal_session.hpp"

#include <QFileInfo>

#include "mapped_channel.hpp"

namespace siglab::gui {

void SignalSession::setSignal(const QString& path, const ReadOptions& options, SignalPtr signal) {
  signal_ = std::move(signal);
  path_ = QFileInfo(path).absoluteFilePath();
  readOptions_ = options;
  steps_.clear();
  filtered_.reset();
  filteredCaption_.clear();
  filteredSpec_ = {};
  comparison_.reset();
  comparedOn_.clear();
  channel_ = 0;
  resultExported_ = true;
  emit signalChanged(signal_);
  emit chainChanged(steps_);
  emit comparisonChanged(nullptr);
}

void SignalSession::appendStep(const ChainStep& step) {
  steps_.push_back(step);
  showChainResult();
}

void SignalSession::removeLastStep() {
  if (steps_.empty()) return;
  steps_.pop_back();
  showChainResult();
}

void SignalSession::clearChain() {
  steps_.clear();
  showChainResult();
}

void SignalSession::showChainResult() {
  filtered_ = steps_.empty() ? nullptr : steps_.back().result;
  filteredCaption_ = QString::fromStdString(chainText(chain()));
  filteredSpec_ = steps_.empty() ? FilterSpec{} : steps_.back().spec;
  resultExported_ = steps_.empty() || steps_.back().inFile;  // a mapped result is in its file already
  emit chainChanged(steps_);
  emit filteredChanged(filtered_, filteredCaption_, filteredSpec_);
}

void SignalSession::setCompared(SignalPtr filtered, const FilterSpec& spec, const QString& caption,
                                std::shared_ptr<const Comparison> comparison, const QString& measuredOn) {
  filtered_ = std::move(filtered);
  filteredCaption_ = caption;
  filteredSpec_ = spec;
  resultExported_ = false;
  comparison_ = std::move(comparison);
  comparedOn_ = measuredOn;
  emit filteredChanged(filtered_, filteredCaption_, filteredSpec_);
  emit comparisonChanged(comparison_);
}

void SignalSession::setComparison(std::shared_ptr<const Comparison> comparison, const QString& measuredOn) {
  comparison_ = std::move(comparison);
  comparedOn_ = measuredOn;
  emit comparisonChanged(comparison_);
}

void SignalSession::setChannel(std::size_t channel) {
  if (!signal_ || channel >= signal_->channelCount() || channel == channel_) return;
  channel_ = channel;
  emit channelChanged(channel_);
}

QString SignalSession::title() const {
  if (!signal_) return QString();
  QString name = QFileInfo(path_).fileName();
  const QString channel = mappedChannelName(signal_.get());
  if (!channel.isEmpty()) name = tr("%1, %2").arg(name, channel);
  return filtered_ ? tr("%1 – %2").arg(name, filteredCaption_) : name;
}

SignalPtr SignalSession::channelShown(const SignalPtr& signal) const {
  if (!signal) return nullptr;
  return channel_ < signal->channelCount() ? channelOf(signal, channel_) : nullptr;
}

void SignalSession::setTimeCursors(const TimeCursors& cursors) {
  if (cursors == timeCursors_) return;
  timeCursors_ = cursors;
  emit timeCursorsChanged(timeCursors_);
}

void SignalSession::setFrequencyCursor(std::optional<double> frequency) {
  if (frequency == frequencyCursor_) return;
  frequencyCursor_ = frequency;
  emit frequencyCursorChanged(frequencyCursor_);
}

}  // namespace siglab::gui

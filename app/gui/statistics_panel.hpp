#pragma once
#include <QFutureWatcher>
#include <QPointer>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

#include "loaded_signal.hpp"
#include "siglab/statistics.hpp"

class QComboBox;
class QLabel;
class QTableWidget;
class QTimer;

namespace siglab::gui {

class TaskRunner;
class TaskStatus;
struct StatisticsOutcome;

// Count, mean, RMS, standard deviation, min and max of the original or the filtered signal, for
// all of it and for the samples the plot shows. The whole signal's come with the signal; the
// visible range's are recomputed at most every kVisibleRefreshMs while the plot moves, in the
// background where the range is long enough to take more than a few milliseconds or is read from a
// mapped file (a newer range stops the running sum). A signal of
// several channels is summarised one channel at a time: the one chosen beside the source. One
// channel of a file larger than memory says which under the source (mapped_channel.hpp).
class StatisticsPanel : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kVisibleRefreshMs = 50;
  // A mapped file's visible range is read from disk (gigabytes of it zoomed out): summed once the
  // view has rested this long, not between the steps of a zoom, whose tiles and points it slowed.
  static constexpr int kMappedVisibleRestMs = 300;
  static constexpr std::size_t kBackgroundFromSamples = std::size_t{1} << 24;  // about 5 ms on 2 cores

  explicit StatisticsPanel(QWidget* parent = nullptr);
  ~StatisticsPanel() override;

  void setOriginal(SignalPtr signal);  // a new signal: the filtered one goes, the range is all of it
  void setFiltered(SignalPtr signal);  // same length as the original, or null
  void setShowFiltered(bool filtered);  // ignored while there is no filtered signal
  void setSampleRate(std::optional<double> sampleRate);  // positions as times; without one, indices
  bool showsFiltered() const;
  void setChannel(std::size_t channel);  // 0-based; past the signal's channels: its first
  std::size_t channel() const { return channel_; }
  QComboBox* channelBox() const { return channelBox_; }  // hidden for one channel
  QLabel* fileChannelNote() const { return fileChannelNote_; }  // hidden but for one channel of a mapped file

  // Samples [first, last), clamped to the signal; computed when the refresh timer fires.
  void setVisibleRange(std::size_t first, std::size_t last);
  void refreshVisible();  // what the timer does, now (a long range: started now)
  bool refreshPending() const;  // the timer runs, or a background sum has not come back
  void setBackgroundFrom(std::size_t samples) { backgroundFrom_ = samples; }  // tests use 0

  // A region's samples [begin, end) (the markers' "Statistics of this region"), summarised in a
  // third column headed by `label`, following the source and channel chosen; none hides it. The sum
  // runs in the background (tasks()), with progress and Esc; a new region replaces the running one.
  void setRegion(std::optional<SampleRange> range, const QString& label = {});
  std::optional<SampleRange> regionRange() const { return region_; }
  const Statistics& regionStatistics() const { return regionStatistics_; }  // count 0 until it comes
  bool regionPending() const;
  void cancel();  // Esc: the region's sum stops, its column says so
  TaskRunner* tasks() const { return tasks_; }
  TaskStatus* taskStatus() const;  // the window's status bar shows it

  // What the table shows; count 0 where there is nothing to summarise.
  const Statistics& whole() const { return whole_; }
  const Statistics& visible() const { return visible_; }
  SampleRange visibleRange() const { return shownRange_; }
  QTableWidget* table() const { return table_; }

 private:
  SignalPtr shownSignal() const;  // the channel shown of the original or the filtered signal
  const LoadedSignal* shown() const { return shownSignal().get(); }
  void refreshAll();
  void refreshRegion();
  void showRegion(const QFuture<StatisticsOutcome>& done, bool cancelled);
  void showVisible(const Statistics& statistics);
  void backgroundFinished();
  void fillColumn(int column, const Statistics* statistics);  // null: no signal

  QComboBox* source_ = nullptr;
  QComboBox* channelBox_ = nullptr;
  QLabel* fileChannelNote_ = nullptr;
  std::size_t channel_ = 0;
  QTableWidget* table_ = nullptr;
  QTimer* refreshTimer_ = nullptr;
  QFutureWatcher<Statistics>* background_ = nullptr;
  std::shared_ptr<std::atomic<bool>> backgroundStop_;  // tells the running sum its range is stale
  QPointer<TaskStatus> status_;  // the status bar owns it once it takes it, and may go first
  TaskRunner* tasks_ = nullptr;
  std::size_t backgroundFrom_ = kBackgroundFromSamples;
  bool computing_ = false;  // until the watcher's finished signal, not just the future's end, arrives
  bool stale_ = false;      // the range or the signal changed while the background sum ran
  SignalPtr original_;
  SignalPtr filtered_;
  SampleRange wantedRange_{0, 0};  // the plot's latest
  SampleRange shownRange_{0, 0};   // the one `visible_` describes
  Statistics whole_;
  Statistics visible_;
  std::optional<SampleRange> region_;
  QString regionLabel_;
  Statistics regionStatistics_;
  std::optional<double> sampleRate_;
};

}  // namespace siglab::gui

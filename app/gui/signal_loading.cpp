#include "signal_loading.hpp"

#include <exception>
#include <new>

#include "siglab/errors.hpp"
#include "siglab/io/cancel_waits.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/channel_stream.hpp"

namespace siglab::gui {
namespace {

Progress progressBetween(QPromise<LoadOutcome>& promise, const std::atomic<bool>* cancel, double from, double to) {
  Progress progress;
  progress.cancelFlag = cancel;
  progress.onProgress = [&promise, from, to](double f) {
    promise.setProgressValue(static_cast<int>(1000.0 * (from + (to - from) * f)));
  };
  return progress;
}

}  // namespace

Channels readEveryChannel(const std::string& path, const ReadOptions& options, const Progress& progress) {
  std::size_t channels = 1;
  std::vector<std::string> names;
  if (!options.oneChannel) {
    try {
      const auto stream = openChannelStream(path, options);
      channels = stream->channels();  // its header or first line
      names = stream->channelNames();
    } catch (const InputError&) {
      // readSignal says what is wrong, as it did before
    }
  }
  if (channels > 1) return readChannels(path, options, progress);
  Signal signal = readSignal(path, options, progress);
  Channels one;
  one.channels.push_back(std::move(signal.samples));
  one.sampleRate = signal.sampleRate;
  one.sourcePath = std::move(signal.sourcePath);
  if (names.size() == 1) one.names = std::move(names);  // a CSV's one column under a header
  return one;
}

bool isDefault(const ReadOptions& o) {
  const ReadOptions d;
  return o.format == d.format && o.column == d.column && o.skipHeader == d.skipHeader && o.rawType == d.rawType &&
         o.rawOffset == d.rawOffset && o.channel == d.channel && o.allowNonFinite == d.allowNonFinite &&
         o.decimal == d.decimal && o.oneChannel == d.oneChannel && o.columns == d.columns &&
         o.rawChannels == d.rawChannels && o.dataset == d.dataset && o.rateAttribute == d.rateAttribute;
}

void loadSignalWith(QPromise<LoadOutcome>& promise, const QString& path, const ReadOptions& options,
                    std::shared_ptr<const std::atomic<bool>> cancel) {
  promise.setProgressRange(0, 1000);
  const CancelWaitsOnThread waits(cancel.get());  // a FIFO's writer that sends nothing
  const std::string file = path.toStdString();
  try {
    Channels signal = readEveryChannel(file, options, progressBetween(promise, cancel.get(), 0.0, 0.95));
    auto loaded = std::make_shared<const LoadedSignal>(file, std::move(signal.channels),
                                                       progressBetween(promise, cancel.get(), 0.95, 1.0), signal.sampleRate,
                                                       std::move(signal.names));
    promise.addResult(LoadOutcome{std::move(loaded), {}});
  } catch (const Cancelled&) {
  } catch (const std::bad_alloc&) {
    promise.addResult(LoadOutcome{nullptr, path + ": not enough memory to load this signal"});
  } catch (const std::exception& e) {
    promise.addResult(LoadOutcome{nullptr, QString::fromStdString(e.what())});
  }
}

}  // namespace siglab::gui

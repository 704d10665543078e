#include "signal_loading.hpp"

#include <exception>
#include <new>

#include "siglab/errors.hpp"
#include "siglab/io/cancel_waits.hpp"

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

bool isDefault(const ReadOptions& o) {
  const ReadOptions d;
  return o.format == d.format && o.column == d.column && o.skipHeader == d.skipHeader && o.rawType == d.rawType &&
         o.rawOffset == d.rawOffset && o.channel == d.channel && o.allowNonFinite == d.allowNonFinite &&
         o.decimal == d.decimal;
}

void loadSignalWith(QPromise<LoadOutcome>& promise, const QString& path, const ReadOptions& options,
                    std::shared_ptr<const std::atomic<bool>> cancel) {
  promise.setProgressRange(0, 1000);
  const CancelWaitsOnThread waits(cancel.get());  // a FIFO's writer that sends nothing
  const std::string file = path.toStdString();
  try {
    Signal signal = readSignal(file, options, progressBetween(promise, cancel.get(), 0.0, 0.95));
    auto loaded = std::make_shared<const LoadedSignal>(file, std::move(signal.samples),
                                                       progressBetween(promise, cancel.get(), 0.95, 1.0));
    promise.addResult(LoadOutcome{std::move(loaded), {}});
  } catch (const Cancelled&) {
  } catch (const std::bad_alloc&) {
    promise.addResult(LoadOutcome{nullptr, path + ": not enough memory to load this signal"});
  } catch (const std::exception& e) {
    promise.addResult(LoadOutcome{nullptr, QString::fromStdString(e.what())});
  }
}

}  // namespace siglab::gui

#pragma once
#include <QPromise>
#include <QString>

#include <atomic>
#include <memory>

#include "background_tasks.hpp"
#include "siglab/io/channels.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab::gui {

// Every channel `options` choose of `path` (readChannels); a file of one channel is read by
// readSignal, as before signals had channels (its parser of one channel, its messages).
Channels readEveryChannel(const std::string& path, const ReadOptions& options, const Progress& progress);

// Whether `options` are readSignal's defaults (then background_tasks' loadSignal reads the file).
bool isDefault(const ReadOptions& options);

// loadSignal (background_tasks.hpp) with the reading options an import dialog or a session chose:
// progress 0..1000, no result when cancelled, the reader's message on failure.
void loadSignalWith(QPromise<LoadOutcome>& promise, const QString& path, const ReadOptions& options,
                    std::shared_ptr<const std::atomic<bool>> cancel);

}  // namespace siglab::gui

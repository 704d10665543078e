#pragma once
// A signal larger than memory is viewed one channel of its file at a time (MappedSignal::channel):
// what the plot's selector, the status bar, the statistics panel, Apply and Export say of it.
#include <QString>

#include "loaded_signal.hpp"

namespace siglab::gui {

// The file's channels where `signal` is one channel of a mapped file of several; 1 otherwise.
std::size_t fileChannels(const LoadedSignal* signal);
// "channel K of C (a file larger than memory is viewed one channel at a time)"; empty for a
// signal that is not one channel of a mapped file of several.
QString mappedChannelNote(const LoadedSignal* signal);
// "channel K of C", or empty as mappedChannelNote.
QString mappedChannelName(const LoadedSignal* signal);

}  // namespace siglab::gui

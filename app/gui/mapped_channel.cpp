#include "mapped_channel.hpp"

#include <QObject>

namespace siglab::gui {

std::size_t fileChannels(const LoadedSignal* signal) {
  return signal && signal->mapping() ? signal->mapping()->channels() : 1;
}

QString mappedChannelName(const LoadedSignal* signal) {
  if (fileChannels(signal) < 2) return {};
  return QObject::tr("channel %1 of %2").arg(signal->mapping()->channel()).arg(signal->mapping()->channels());
}

QString mappedChannelNote(const LoadedSignal* signal) {
  if (fileChannels(signal) < 2) return {};
  return QObject::tr("%1 (a file larger than memory is viewed one channel at a time)").arg(mappedChannelName(signal));
}

}  // namespace siglab::gui

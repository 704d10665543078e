#include "audio_output.hpp"

namespace siglab::gui {

#if SIGLAB_MULTIMEDIA
std::unique_ptr<AudioOutput> makeQtAudioOutput();  // qt_audio_output.cpp
#endif

std::unique_ptr<AudioOutput> makeAudioOutput() {
#if SIGLAB_MULTIMEDIA
  return makeQtAudioOutput();
#else
  return std::make_unique<NoAudioOutput>(QObject::tr("this build has no Qt Multimedia to play sound with"));
#endif
}

}  // namespace siglab::gui

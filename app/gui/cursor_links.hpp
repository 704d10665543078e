#pragma once

namespace siglab::gui {

class SignalCursors;
class SignalSession;
class SpectrumCursor;

// Ties a time view's A/B cursors and a frequency view's cursor to the session's, both ways: moving
// one moves the session's, and the session's moving moves it. Any other time or frequency view (a
// spectrogram) does the same through SignalSession::setTimeCursors / timeCursorsChanged and
// setFrequencyCursor / frequencyCursorChanged. Either may be null.
void linkCursors(SignalSession* session, SignalCursors* cursors, SpectrumCursor* frequency);

}  // namespace siglab::gui

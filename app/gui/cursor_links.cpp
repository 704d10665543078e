#include "cursor_links.hpp"

#include <memory>

#include "signal_cursors.hpp"
#include "signal_session.hpp"
#include "spectrum_cursor.hpp"

namespace siglab::gui {

void linkCursors(SignalSession* session, SignalCursors* cursors, SpectrumCursor* frequency) {
  if (cursors) {
    // While the view takes the session's cursors, its own steps on the way are not the user's moves.
    auto following = std::make_shared<bool>(false);
    const auto tell = [session, cursors] { session->setTimeCursors({cursors->shown(), cursors->a(), cursors->b()}); };
    QObject::connect(cursors, &SignalCursors::changed, session, [following, tell] {
      if (!*following) tell();
    });
    QObject::connect(session, &SignalSession::timeCursorsChanged, cursors, [following, cursors, tell](const TimeCursors& wanted) {
      *following = true;
      // Positions first: shown for the first time, the cursors would otherwise take places of their own.
      if (wanted.a != cursors->a() || wanted.b != cursors->b()) cursors->setPositions(wanted.a, wanted.b);
      if (wanted.shown != cursors->shown()) cursors->setShown(wanted.shown);
      *following = false;
      tell();  // where this view's signal is shorter, clamped: the others follow that
    });
  }
  if (frequency) {
    QObject::connect(frequency, &SpectrumCursor::changed, session,
                     [session, frequency] { session->setFrequencyCursor(frequency->frequency()); });
    QObject::connect(session, &SignalSession::frequencyCursorChanged, frequency, [frequency](std::optional<double> wanted) {
      if (wanted != frequency->frequency()) frequency->setFrequency(wanted);
    });
  }
}

}  // namespace siglab::gui

#pragma once
class QDockWidget;
class QMainWindow;
class QMenu;

namespace siglab::gui {

class SignalPlot;
class SignalSession;

// The Spectrogram view as a dock of `window` (View > Views lists it), linked to the signal plot's
// time axis both ways and following the session's signal, channel and the window's sample rate:
// everything the window needs to add it in one line of MainWindow::createDocks.
QDockWidget* addSpectrogramDock(QMainWindow& window, SignalPlot* plot, SignalSession* session, QMenu* viewsMenu);

}  // namespace siglab::gui

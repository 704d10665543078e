// Cursors A and B on the Spectrogram dock: the session's cursors drawn as lines at their times,
// following them as the signal's do, and dragged there too (the signal's and the session's follow).
#include <qcustomplot.h>

#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QMouseEvent>

#include <cmath>

#include "cursor_docks.hpp"
#include "gui_test_support.hpp"
#include "signal_cursors.hpp"
#include "signal_plot.hpp"
#include "signal_session.hpp"
#include "siglab/io/signal_io.hpp"
#include "spectrogram_cursors.hpp"
#include "spectrogram_view.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

void mouse(QWidget* widget, QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
  QMouseEvent event(type, at, widget->mapToGlobal(at), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                    buttons, Qt::NoModifier);
  QCoreApplication::sendEvent(widget, &event);
}

TEST(SpectrogramCursors, AAndBAreDrawnAtTheSessionsTimesAndDraggedThereToo) {
  test::TempDir dir;
  std::vector<double> x(100'000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.3 * static_cast<double>(i));
  writeSignal(dir.file("tone.txt"), x);
  gui::MainWindow window;
  window.resize(1400, 900);
  window.show();
  auto* dock = window.findChild<QDockWidget*>("spectrogramDock");
  ASSERT_TRUE(dock);
  dock->raise();
  window.openFile(QString::fromStdString(dir.file("tone.txt")));
  ASSERT_TRUE(test::waitForTask(window));
  auto* view = dock->findChild<gui::SpectrogramView*>();
  auto* cursors = view ? view->findChild<gui::SpectrogramCursors*>() : nullptr;
  ASSERT_TRUE(cursors) << "the spectrogram has no cursors";
  EXPECT_FALSE(cursors->line(0)->visible()) << "hidden until shown";

  gui::SignalSession* session = window.session();
  session->setTimeCursors({true, 20'000, 70'000});  // as a drag on the signal does
  ASSERT_TRUE(cursors->line(0)->visible());
  EXPECT_EQ(cursors->line(0)->point1->coords().x(), 20'000);
  EXPECT_EQ(cursors->line(1)->point1->coords().x(), 70'000);
  window.signalPlot()->setVisibleRange(10'000, 90'000);  // they stay at their times as the view zooms
  QElapsedTimer timer;
  timer.start();
  while ((view->busy() || !view->complete()) && timer.elapsed() < 20'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  QCPAxis* axis = view->plot()->xAxis;
  EXPECT_NEAR(axis->range().lower, 10'000, 1);
  EXPECT_EQ(cursors->line(0)->point1->coords().x(), 20'000);

  const QCPRange before = axis->range();
  const double y = view->plot()->axisRect()->center().y();
  mouse(view->plot(), QEvent::MouseButtonPress, {axis->coordToPixel(70'000) - 2, y}, Qt::LeftButton);
  mouse(view->plot(), QEvent::MouseMove, {axis->coordToPixel(50'000), y}, Qt::LeftButton);
  mouse(view->plot(), QEvent::MouseButtonRelease, {axis->coordToPixel(50'000), y}, Qt::NoButton);
  const double pixel = axis->range().size() / axis->axisRect()->width();  // samples a pixel
  EXPECT_NEAR(session->timeCursors().b, 50'000, pixel) << "the drag moved the session's B";
  EXPECT_EQ(session->timeCursors().a, 20'000);
  EXPECT_NEAR(gui::CursorDocks::of(&window)->cursors()->b(), 50'000, pixel) << "and the signal's";
  EXPECT_NEAR(cursors->line(1)->point1->coords().x(), 50'000, pixel);
  EXPECT_EQ(axis->range(), before) << "the drag moved the cursor, not the view";

  session->setTimeCursors({false, 20'000, 50'000});
  EXPECT_FALSE(cursors->line(0)->visible());
  EXPECT_FALSE(cursors->line(1)->visible());
}

}  // namespace
}  // namespace siglab

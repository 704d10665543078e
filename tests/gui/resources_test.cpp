// The application's icon, toolbar icons, About box and first window size (issue 16, resources).
#include <QAction>
#include <QGuiApplication>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QToolBar>
#include <QWidgetAction>

#include "about_box.hpp"
#include "app_resources.hpp"
#include "gui_test_support.hpp"
#include "window_geometry.hpp"

namespace siglab {
namespace {

TEST(Resources, TheApplicationAndToolbarIconsAreEmbeddedAndDrawn) {
  const QIcon icon = gui::applicationIcon();
  ASSERT_FALSE(icon.isNull());
  const QImage drawn = icon.pixmap(64, 64).toImage();
  ASSERT_EQ(drawn.width(), 64);
  // The SVG drew something: the centre is opaque, a corner (outside the rounded square) is not.
  EXPECT_EQ(qAlpha(drawn.pixel(32, 32)), 255);
  EXPECT_EQ(qAlpha(drawn.pixel(0, 0)), 0);
  for (const char* name : {"open", "run", "export", "reset-view", "stacked", "zoom", "cancel", "print", "session"}) {
    EXPECT_FALSE(gui::toolbarIcon(name).pixmap(24, 24).isNull()) << name;
  }
}

TEST(Resources, TheWindowAndItsToolbarShowTheIcons) {
  QSettings().clear();
  gui::MainWindow window;
  EXPECT_FALSE(window.windowIcon().pixmap(32, 32).isNull());
  auto* toolbar = window.findChild<QToolBar*>("mainToolBar");
  ASSERT_TRUE(toolbar);
  for (QAction* action : toolbar->actions()) {
    if (action->isSeparator() || qobject_cast<QWidgetAction*>(action)) continue;  // the sample-rate field
    EXPECT_FALSE(action->icon().isNull()) << action->text().toStdString();
  }
}

TEST(Resources, TheAboutBoxShowsTheIconTheLicenceAndTheHomePage) {
  const QString text = gui::aboutText({});
  EXPECT_TRUE(text.contains("GPL-3.0-or-later")) << text.toStdString();
  EXPECT_TRUE(text.contains(SIGLAB_HOMEPAGE_FOR_TESTS)) << text.toStdString();
  QMessageBox* box = gui::makeAboutBox({}, nullptr);
  EXPECT_FALSE(box->iconPixmap().isNull());
  EXPECT_EQ(box->iconPixmap().toImage().pixel(48, 48), gui::applicationIcon().pixmap(96, 96).toImage().pixel(48, 48));
  delete box;
}

TEST(Resources, TheFirstWindowTakesMostOfTheScreenItOpensOn) {
  const QRect screen(0, 0, 1600, 1000);
  const QRect first = gui::firstWindowGeometry(screen);
  EXPECT_GE(first.width(), 1300);
  EXPECT_GE(first.height(), 800);
  EXPECT_TRUE(screen.contains(first));
  EXPECT_EQ(first.center(), screen.center());
  const QRect offset = gui::firstWindowGeometry(QRect(1920, 40, 1280, 760));  // a second screen
  EXPECT_TRUE(QRect(1920, 40, 1280, 760).contains(offset));

  QSettings().clear();  // no saved geometry: a first window
  gui::MainWindow window;
  const QRect available = window.screen()->availableGeometry();
  EXPECT_GE(window.width(), available.width() * 8 / 10);
  EXPECT_GE(window.height(), available.height() * 8 / 10);
}

}  // namespace
}  // namespace siglab

// The GUI tests' main: a QApplication on the offscreen platform, with settings kept in a scratch
// folder so the tests neither read nor change the user's.
#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "process_memory.hpp"

int main(int argc, char** argv) {
  siglab::gui::returnLargeBlocksToTheSystem();  // as the desktop does (main.cpp)
  qputenv("QT_QPA_PLATFORM", "offscreen");
  ::testing::InitGoogleTest(&argc, argv);
  QApplication app(argc, argv);
  QTemporaryDir settingsDir;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
  QApplication::setOrganizationName("SigLabTests");
  QApplication::setApplicationName("siglab-gui-tests");
  return RUN_ALL_TESTS();
}

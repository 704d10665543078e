// siglab: the desktop application over the same engines as siglab-cli.
#include <QApplication>
#include <QCommandLineParser>

#include <cstring>

#include "app_resources.hpp"
#include "main_window.hpp"
#include "process_memory.hpp"

namespace {

// --help and --version print and exit: they must work without a display (help2man runs them at
// build time), so they get the offscreen platform unless one was chosen.
void useOffscreenForTextOnlyRuns(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    for (const char* option : {"-h", "--help", "--help-all", "-?", "-v", "--version"}) {
      if (std::strcmp(argv[i], option) == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        return;
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  siglab::gui::returnLargeBlocksToTheSystem();
  useOffscreenForTextOnlyRuns(argc, argv);
  QApplication app(argc, argv);
  QApplication::setOrganizationName("SigLab");
  QApplication::setApplicationName("SigLab");
  QApplication::setApplicationVersion(SIGLAB_VERSION);
  QApplication::setWindowIcon(siglab::gui::applicationIcon());
  QGuiApplication::setDesktopFileName(siglab::gui::kDesktopFileName);

  QCommandLineParser parser;
  parser.setApplicationDescription("SigLab: filter large 1-D signals on the CPU and the GPU, and compare the engines");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("file", "A signal to open (text, CSV, .npy, raw or WAV), or a .siglab session");
  parser.process(app);

  siglab::gui::MainWindow window;
  window.show();
  if (!parser.positionalArguments().isEmpty()) window.openFile(parser.positionalArguments().first());
  return QApplication::exec();
}

// siglab: the desktop application over the same engines as siglab-cli.
#include <QApplication>
#include <QCommandLineParser>

#include "main_window.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("SigLab");
  QApplication::setApplicationName("SigLab");
  QApplication::setApplicationVersion(SIGLAB_VERSION);

  QCommandLineParser parser;
  parser.setApplicationDescription("SigLab: filter large 1-D signals on the CPU and the GPU, and compare the engines");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("file", "A signal to open: one number per line");
  parser.process(app);

  siglab::gui::MainWindow window;
  window.show();
  if (!parser.positionalArguments().isEmpty()) window.openFile(parser.positionalArguments().first());
  return QApplication::exec();
}

// The dataset picker (app/gui/dataset_dialog.cpp): opening an HDF5 file of several datasets or a
// .mat file of several variables lists them as core labels them, and the one chosen is loaded.
#include <QInputDialog>
#include <QTimer>

#include <fstream>

#include "gui_test_support.hpp"
#include "scipy_support.hpp"
#include "siglab/io/dataset_files.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

// Opens `path` in `window`; the picker (a modal dialog with its own event loop) is answered from a
// timer: its items are returned and `choice` is chosen. Empty when no picker showed.
QStringList openThroughPicker(MainWindow& window, const std::string& path, int choice) {
  QStringList items;
  QTimer poll;
  poll.setInterval(10);
  QObject::connect(&poll, &QTimer::timeout, [&] {
    for (QInputDialog* dialog : window.findChildren<QInputDialog*>()) {
      if (!dialog->isVisible()) continue;
      poll.stop();
      items = dialog->comboBoxItems();
      dialog->setTextValue(items.value(choice));
      dialog->accept();
      return;
    }
  });
  poll.start();
  window.openFile(QString::fromStdString(path));
  EXPECT_TRUE(test::waitForTask(window));  // the probe, the picker, then the load
  EXPECT_TRUE(test::waitForTask(window));
  return items;
}

bool python(const test::TempDir& dir, const std::string& script) {
  const std::string path = dir.file("make.py");
  std::ofstream(path) << "import numpy as np\n" << script;
  std::string error;
  if (test::runPython(path, &error)) return true;
  if (error.find("No module named") == std::string::npos) ADD_FAILURE() << error;
  return false;
}

void expectPickerLoadsTheChosen(const std::string& path, const std::string& chosen) {
  std::vector<DatasetEntry> entries = listDatasets(path);
  QStringList labels;
  for (const DatasetEntry& entry : entries) labels << QString::fromStdString(datasetLabel(entry));
  std::size_t index = 0;
  while (index < entries.size() && entries[index].name != chosen) ++index;
  ASSERT_LT(index, entries.size());

  MainWindow window;
  EXPECT_EQ(openThroughPicker(window, path, static_cast<int>(index)), labels);
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  ReadOptions options;
  options.dataset = chosen;
  EXPECT_EQ(test::asVector(window.signal()->samples()), readSignal(path, options).samples.toVector());
}

TEST(DatasetPicker, ListsAnHdf5FilesDatasetsAndLoadsTheOneChosen) {
  if (!hdf5Supported()) GTEST_SKIP() << "this SigLab was built without hdf5 support";
  test::TempDir dir;
  const std::string path = dir.file("two.h5");
  if (!python(dir, "import h5py\n"
                   "with h5py.File('" + path + "', 'w') as f:\n"
                   "    f['first'] = np.arange(100.0)\n"
                   "    f.create_dataset('group/second', data=np.arange(50, dtype='int16') * 3)\n"
                   "    f['group/second'].attrs['rate'] = 250.0\n")) {
    GTEST_SKIP() << "/usr/bin/python3 has no h5py";
  }
  expectPickerLoadsTheChosen(path, "/group/second");
}

TEST(DatasetPicker, ListsAMatFilesVariablesAndLoadsTheOneChosen) {
  if (!matSupported()) GTEST_SKIP() << "this SigLab was built without mat support";
  test::TempDir dir;
  const std::string path = dir.file("two.mat");
  if (!python(dir, "import scipy.io\n"
                   "scipy.io.savemat('" + path + "', {'x': np.arange(30.0), 'y': np.linspace(-1, 1, 40)[:, None]})\n")) {
    GTEST_SKIP() << "/usr/bin/python3 has no scipy.io";
  }
  expectPickerLoadsTheChosen(path, "y");
}

}  // namespace
}  // namespace siglab

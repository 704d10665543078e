// Opening files that need a choice: the import dialog (issue 16).
#include <QCheckBox>
#include <QComboBox>
#include <QSettings>
#include <QSpinBox>

#include <cstring>

#include "gui_dialog_support.hpp"
#include "gui_test_support.hpp"
#include "import_dialog.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::ImportDialog;
using gui::MainWindow;

class ImportDialogTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
  // Opens `path` in `window`, waits for the dialog, lets `choose` set it, and accepts it.
  template <typename Choose>
  ::testing::AssertionResult openThroughDialog(MainWindow& window, const std::string& path, Choose choose) {
    window.openFile(QString::fromStdString(path));
    ImportDialog* dialog = test::waitForChild<ImportDialog>(window);
    if (!dialog) return ::testing::AssertionFailure() << "no import dialog for " << path;
    choose(*dialog);
    dialog->accept();
    return test::waitForTask(window);
  }
};

TEST_F(ImportDialogTest, ACsvWithAHeaderOpensAtTheNamedColumn) {
  test::TempDir dir;
  test::writeFile(dir.file("data.csv"), "time,value\n0,1.5\n1,-2.5\n2,4\n");
  MainWindow window;
  ASSERT_TRUE(openThroughDialog(window, dir.file("data.csv"), [](ImportDialog& d) {
    EXPECT_TRUE(d.skipHeaderBox()->isChecked());
    EXPECT_EQ(d.columnBox()->currentText(), "column 2: value");
  }));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  EXPECT_EQ(test::asVector(window.signal()->samples()), (std::vector<double>{1.5, -2.5, 4}));
  EXPECT_EQ(window.currentSession().read.column, 2u);

  ASSERT_TRUE(openThroughDialog(window, dir.file("data.csv"), [](ImportDialog& d) {
    d.columnBox()->setCurrentIndex(d.columnBox()->findText("column 1: time"));
  }));
  EXPECT_EQ(test::asVector(window.signal()->samples()), (std::vector<double>{0, 1, 2}));
}

// A ';'-separated file with decimal commas opens with the comma chosen (issue 24: its integer
// parts were read), and the session keeps the choice.
TEST_F(ImportDialogTest, DecimalCommasAreDetectedAndReadWhole) {
  test::TempDir dir;
  test::writeFile(dir.file("messung.csv"), "zeit;wert\n0,5;1,5\n1;-2,25\n1,5;4\n");
  MainWindow window;
  ASSERT_TRUE(openThroughDialog(window, dir.file("messung.csv"), [](ImportDialog& d) {
    EXPECT_EQ(d.decimalBox()->currentData().toChar(), QChar(','));
    EXPECT_TRUE(d.skipHeaderBox()->isChecked());
    EXPECT_EQ(d.columnBox()->currentText(), "column 2: wert");
  }));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  EXPECT_EQ(test::asVector(window.signal()->samples()), (std::vector<double>{1.5, -2.25, 4}));
  EXPECT_EQ(window.currentSession().read.decimal, ',');

  test::writeFile(dir.file("plain.csv"), "1.5;2\n3;4\n");
  EXPECT_EQ(suggestedReadOptions(probeSignalFile(dir.file("plain.csv"))).decimal, '.');
  test::writeFile(dir.file("commas.csv"), "1,5;2\n3;4\n");
  EXPECT_EQ(suggestedReadOptions(probeSignalFile(dir.file("commas.csv"))).decimal, ',');
}

TEST_F(ImportDialogTest, AStereoWavAsksForTheChannelAndLoadsTheOneChosen) {
  const std::string path = SIGLAB_FUZZ_CORPUS "/wav/pcm24_stereo.wav";
  ReadOptions second;
  second.channel = 2;
  const SampleVector left = readSignal(path).samples;
  const SampleVector right = readSignal(path, second).samples;
  ASSERT_NE(left, right) << "the test needs channels that differ";
  MainWindow window;
  ASSERT_TRUE(openThroughDialog(window, path, [](ImportDialog& d) {
    ASSERT_EQ(d.channelBox()->count(), 3);
    EXPECT_EQ(d.channelBox()->currentText(), "all 2 channels") << "every channel loads unless one is chosen";
    EXPECT_EQ(d.channelBox()->itemText(2), "channel 2 (right)");
    d.channelBox()->setCurrentIndex(2);
  }));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  EXPECT_EQ(test::asVector(window.signal()->samples()), right);
  EXPECT_EQ(window.signal()->channelCount(), 1u);
}

TEST_F(ImportDialogTest, RawBytesAreReadWithTheTypeAndOffsetChosen) {
  test::TempDir dir;
  const std::vector<float> values = {0.5f, -1.25f, 3.0f, 8.0f};
  std::string bytes = "HEADER!!";  // 8 bytes to skip
  bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  test::writeFile(dir.file("samples.bin"), bytes);
  MainWindow window;
  ASSERT_TRUE(openThroughDialog(window, dir.file("samples.bin"), [](ImportDialog& d) {
    EXPECT_EQ(d.formatBox()->currentText(), "Raw binary samples");
    d.rawTypeBox()->setCurrentText("f32");
    d.offsetBox()->setValue(8);
  }));
  ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
  EXPECT_EQ(test::asVector(window.signal()->samples()), (std::vector<double>{0.5, -1.25, 3.0, 8.0}));
}

TEST_F(ImportDialogTest, CancellingTheDialogKeepsTheSignalAndAPlainFileAsksNothing) {
  test::TempDir dir;
  test::writeFile(dir.file("plain.txt"), "1\n2\n3\n");
  test::writeFile(dir.file("two.csv"), "1,2\n3,4\n");
  MainWindow window;
  window.openFile(QString::fromStdString(dir.file("plain.txt")));
  EXPECT_EQ(window.findChild<ImportDialog*>(), nullptr);
  ASSERT_TRUE(test::waitForTask(window));
  const gui::SignalPtr before = window.signal();
  ASSERT_TRUE(before);
  window.openFile(QString::fromStdString(dir.file("two.csv")));
  ImportDialog* dialog = test::waitForChild<ImportDialog>(window);
  ASSERT_TRUE(dialog);
  dialog->reject();
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_EQ(window.signal(), before);
}

}  // namespace
}  // namespace siglab

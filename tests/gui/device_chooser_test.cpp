// The Device tab's chooser: one box per GPU found, parts per GPU, and the device list it makes.
#include <QCheckBox>
#include <QSpinBox>

#include <gtest/gtest.h>

#include <vector>

#include "device_chooser.hpp"

namespace siglab {
namespace {

std::vector<DeviceInfo> twoGpus() {
  std::vector<DeviceInfo> devices(2);
  for (int d = 0; d < 2; ++d) {
    devices[static_cast<std::size_t>(d)].available = true;
    devices[static_cast<std::size_t>(d)].index = d;
    devices[static_cast<std::size_t>(d)].name = "Test GPU";
  }
  return devices;
}

TEST(DeviceChooser, ListsEveryGpuAndMakesTheDeviceList) {
  gui::DeviceChooser chooser(twoGpus(), {});
  const QList<QCheckBox*> boxes = chooser.findChildren<QCheckBox*>();
  ASSERT_EQ(boxes.size(), 2);
  EXPECT_EQ(chooser.chosenDevices(), (std::vector<int>{0}));  // nothing saved: device 0
  std::vector<int> emitted;
  QObject::connect(&chooser, &gui::DeviceChooser::chosenChanged, [&](const std::vector<int>& d) { emitted = d; });
  boxes[1]->setChecked(true);
  EXPECT_EQ(emitted, (std::vector<int>{0, 1}));
  chooser.findChild<QSpinBox*>()->setValue(2);
  EXPECT_EQ(emitted, (std::vector<int>{0, 0, 1, 1}));
  boxes[0]->setChecked(false);
  boxes[1]->setChecked(false);
  EXPECT_EQ(emitted, (std::vector<int>{1, 1}));  // nothing chosen: the last list stands
}

TEST(DeviceChooser, RestoresASavedForcedSplitAndSaysWhenThereIsNoGpu) {
  gui::DeviceChooser saved(twoGpus(), {1, 1});
  EXPECT_EQ(saved.chosenDevices(), (std::vector<int>{1, 1}));
  DeviceInfo none;
  none.reason = "no GPU here";
  gui::DeviceChooser empty({none}, {});
  EXPECT_TRUE(empty.findChildren<QCheckBox*>().isEmpty());
  EXPECT_TRUE(empty.chosenDevices().empty());
}

}  // namespace
}  // namespace siglab

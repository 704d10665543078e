// A format SigLab reads but does not write (Ogg, AIFF, CAF, W64, AU) is refused as an output,
// naming the file and the formats that are written, instead of text written under its name.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "siglab/errors.hpp"
#include "siglab/io/signal_formats.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(ReadOnlyFormats, AreRefusedAsOutputsByExtensionAndByName) {
  const test::TempDir dir;
  const std::vector<double> x{0.5, -0.25};
  for (const char* name : {"out.ogg", "out.aiff", "out.caf", "out.w64", "out.au"}) {
    try {
      writeSignal(dir.file(name), x);
      FAIL() << name << " was written";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("files are read, not written: name the output .npy"), std::string::npos)
          << e.what();
    }
  }
  WriteOptions byName;
  byName.format = *signalFormatNamed("ogg");
  EXPECT_THROW(writeSignal(dir.file("out.npy"), x, byName), InputError);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  writeSignal(dir.file("out.data"), x);  // an extension no format claims: text, as before
  EXPECT_TRUE(std::filesystem::exists(dir.file("out.data")));
}

}  // namespace
}  // namespace siglab

#pragma once
// SciPy as the oracle: runs /usr/bin/python3 (Debian's, with python3-scipy from scripts/setup.sh)
// on a NumPy expression of the inputs x[0], x[1], ... (float64 arrays) and reads the result back
// as float64. `prelude` may define helpers first. Tests that use it skip where SciPy is missing
// (SIGLAB_SKIP_WITHOUT_SCIPY: the GPU machine); scripts/setup.sh installs it for CI. Without the run's oracle server (scipy_support.hpp) each call costs a SciPy import (~1 s).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "scipy_support.hpp"
#include "test_support.hpp"

namespace siglab::test {

inline std::vector<double> scipyEval(const std::string& expression, const std::vector<std::vector<double>>& inputs,
                                     const std::string& prelude = "") {
  TempDir dir;
  std::string loads = "x = [";
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string path = dir.file(std::string("x").append(std::to_string(i)).append(".bin"));
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(inputs[i].data()),
               static_cast<std::streamsize>(inputs[i].size() * sizeof(double)));
    loads += "np.fromfile('" + path + "', dtype=np.float64), ";
  }
  loads += "]\n";
  const std::string result = dir.file("y.bin");
  writeFile(dir.file("oracle.py"), "import numpy as np\nimport scipy.signal as signal\nimport scipy.ndimage as ndimage\n" +
                                       loads + prelude + "\ny = " + expression + "\nnp.asarray(y, dtype=np.float64).tofile('" +
                                       result + "')\n");
  std::string error;
  if (!runPython(dir.file("oracle.py"), &error)) {
    ADD_FAILURE() << "scipy failed on: " << expression << "\n" << error;
    return {};
  }
  const std::string bytes = readFile(result);
  std::vector<double> values(bytes.size() / sizeof(double));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(double));
  return values;
}

}  // namespace siglab::test

#pragma once
// Running SciPy (Debian's /usr/bin/python3, installed by scripts/setup.sh) as the reference.
#include <cstdlib>
#include <string>

namespace siglab::test {

inline const char* kSystemPython = "/usr/bin/python3";

// Whether /usr/bin/python3 can import scipy (the GPU machine may lack it: those tests skip there).
inline bool haveScipy() {
  static const bool have =
      std::system((std::string(kSystemPython) + " -c 'import scipy.signal' >/dev/null 2>&1").c_str()) == 0;
  return have;
}

// Runs `script` with /usr/bin/python3; true when it exits 0.
inline bool runPython(const std::string& scriptPath) {
  return std::system((std::string(kSystemPython) + " " + scriptPath).c_str()) == 0;
}

}  // namespace siglab::test

#define SIGLAB_SKIP_WITHOUT_SCIPY()                                                                   \
  do {                                                                                                \
    if (!::siglab::test::haveScipy()) GTEST_SKIP() << "/usr/bin/python3 cannot import scipy.signal"; \
  } while (0)

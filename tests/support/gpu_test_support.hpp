#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "siglab/cuda_backends.hpp"

namespace siglab::test {

inline bool gpuRequired() {
  const char* v = std::getenv("SIGLAB_REQUIRE_GPU");
  return v && std::string(v) == "1";
}

inline const DeviceInfo& firstDevice() {
  static const DeviceInfo device = probeDevices().front();
  return device;
}

}  // namespace siglab::test

// Skips the test where no GPU can run it, or fails it when SIGLAB_REQUIRE_GPU=1 demands one.
#define SIGLAB_SKIP_WITHOUT_GPU()                                                                  \
  do {                                                                                           \
    if (!::siglab::test::firstDevice().available) {                                              \
      if (::siglab::test::gpuRequired()) {                                                       \
        FAIL() << "SIGLAB_REQUIRE_GPU=1 but no GPU: " << ::siglab::test::firstDevice().reason;  \
      }                                                                                          \
      GTEST_SKIP() << "no GPU: " << ::siglab::test::firstDevice().reason;                        \
    }                                                                                            \
  } while (0)

#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "siglab/cuda_backends.hpp"

namespace siglab::cli {

void addDevicesCommand(CLI::App& app, int& exitCode) {
  CLI::App* cmd = app.add_subcommand("devices", "List the GPUs found, or say why there are none");
  cmd->callback([&exitCode] {
    for (const DeviceInfo& d : probeDevices()) {
      if (!d.available) {
        std::cout << "no GPU: " << d.reason << "\n";
        continue;
      }
      std::printf("GPU %d: %s, compute capability %d.%d, %d multiprocessors\n", d.index, d.name.c_str(),
                  d.computeMajor, d.computeMinor, d.multiprocessors);
      std::printf("  memory %.1f GiB (%.1f GiB free), L2 %.1f MiB, bus %d bits, %.0f GB/s theoretical\n",
                  static_cast<double>(d.totalMemoryBytes) / (1ull << 30),
                  static_cast<double>(d.freeMemoryBytes) / (1ull << 30),
                  static_cast<double>(d.l2CacheBytes) / (1ull << 20), d.memoryBusWidthBits,
                  d.theoreticalBandwidthGBs());
      std::printf("  driver CUDA %d.%d, runtime CUDA %d.%d\n", d.driverVersion / 1000, d.driverVersion % 1000 / 10,
                  d.runtimeVersion / 1000, d.runtimeVersion % 1000 / 10);
    }
    exitCode = kExitOk;
  });
}

}  // namespace siglab::cli

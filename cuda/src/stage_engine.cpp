#include "stage_engine.hpp"

#include <map>
#include <memory>

namespace siglab::cuda {
namespace {

struct HeldEngine {
  std::mutex running;
  std::unique_ptr<StageEngine> engine;
};

// Never destroyed: the engines' memory is the device's, and CUDA may be gone at exit.
struct StageEngines {
  std::mutex mutex;
  std::map<int, std::unique_ptr<HeldEngine>> byDevice;
};
StageEngines& stageEngines() {
  static auto* const engines = new StageEngines;
  return *engines;
}

}  // namespace

StageEngineLease leaseStageEngine(int device) {
  if (std::string why = noDeviceReason(); !why.empty()) throw EngineUnavailable(why);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) cudaGetLastError();
  if (device < 0 || device >= devices) {
    throw EngineUnavailable("there is no GPU " + std::to_string(device) + ": this machine has " + std::to_string(devices) +
                            " (0 to " + std::to_string(devices - 1) + ")");
  }
  StageEngines& engines = stageEngines();
  HeldEngine* held = nullptr;
  {
    const std::lock_guard<std::mutex> guard(engines.mutex);
    std::unique_ptr<HeldEngine>& slot = engines.byDevice[device];
    if (!slot) {
      slot = std::make_unique<HeldEngine>();
      slot->engine = std::make_unique<StageEngine>(std::string(), device);
    }
    held = slot.get();
  }
  return {std::unique_lock<std::mutex>(held->running), held->engine.get()};
}

}  // namespace siglab::cuda

#pragma once
// One step of a split computation on every part at once, each part on a host thread of its own
// (a part waits on its device's copies and kernels; the others go on meanwhile).
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace siglab::cuda {

// step(p) for p = 0 .. parts - 1, all at once (inline for one part); returns when all have
// returned, then rethrows the first part's error, if any.
template <class Step>
void onEachPart(std::size_t parts, const Step& step) {
  if (parts == 1) return step(std::size_t{0});
  std::vector<std::exception_ptr> errors(parts);
  {
    std::vector<std::jthread> threads;
    for (std::size_t p = 0; p < parts; ++p) {
      threads.emplace_back([&, p] {
        try {
          step(p);
        } catch (...) {
          errors[p] = std::current_exception();
        }
      });
    }
  }
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace siglab::cuda

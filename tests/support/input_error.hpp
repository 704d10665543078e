#pragma once
// The message a reader or parser gives for bad input, as the tests compare it word for word.
#include <functional>
#include <string>

#include "siglab/errors.hpp"

namespace siglab::test {

// The InputError's message that ACTION throws, or "no error".
inline std::string errorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace siglab::test

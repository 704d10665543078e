#pragma once
// A stage kind written alone, with no value and no parameters (`envelope`, `hilbert`).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/errors.hpp"
#include "siglab/stage.hpp"

namespace siglab::stages {

class ValuelessKind : public StageKind {
 public:
  std::string_view valueSyntax() const override { return "(no value)"; }
  std::string_view exampleValue() const override { return ""; }
  std::vector<ParameterInfo> parameters() const override { return {}; }
  StageParameters parseValue(std::string_view value) const override {
    if (!value.empty()) throw StageError("takes no value, got " + quoteExcerpt(value));
    return {};
  }
  std::string formatValue(const StageParameters& /*values*/) const override { return {}; }
  void check(const StageParameters& /*values*/) const override {}
};

}  // namespace siglab::stages

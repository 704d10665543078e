// correlate: scipy.signal.correlate(x, template, mode, method), the matched filter: a template file
// (one value a line, or any signal file) slid along the signal. Output k of mode full is
// sum_i x[i] t[i - k + M - 1]: the full convolution with the reversed template, so it runs as a
// Polyphase of up = down = 1 (polyphase_stage.hpp): cpu-serial and cpu-parallel the same bits,
// streamed with the template's length as history, the same bits as in memory. Modes pick the
// window of that convolution: full (N + M - 1), same (N, centred as SciPy's), valid (|N - M| + 1).
// --correlate TEMPLATE[,mode=M][,method=X]; a chain's `correlate t.txt,mode=same`.
#include <algorithm>
#include <cstdint>

#include "kind_values.hpp"
#include "named_values.hpp"
#include "polyphase_stage.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab::stages {
namespace {

enum class Mode { full, same, valid };

// The outputs of `mode` for n inputs and m template values, and where they start in the full convolution.
struct Window {
  std::uint64_t count = 0;
  std::uint64_t offset = 0;
};

Window windowOf(Mode mode, std::uint64_t n, std::uint64_t m) {
  switch (mode) {
    case Mode::full: return {n == 0 ? 0 : n + m - 1, 0};
    case Mode::same: return {n, (m - 1) / 2};
    case Mode::valid: return {n == 0 ? 0 : std::max(n, m) - std::min(n, m) + 1, std::min(n, m) - 1};
  }
  return {};
}

class CorrelateKind final : public StageKind {
 public:
  std::string_view name() const override { return "correlate"; }
  std::string_view summary() const override {
    return "cross-correlation with a template file, the matched filter (scipy.signal.correlate(x, template, mode)); "
           "every output summed directly in one fixed order, whatever the method";
  }
  std::string_view valueSyntax() const override { return "TEMPLATE[,mode=full|same|valid][,method=auto|direct|fft]"; }
  std::string_view exampleValue() const override { return "template.txt,mode=same"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo file = describedParameter("file", ParameterType::Text, "the template: a signal file (one value a line, .npy, ...)",
                                            std::nullopt, true);
    ParameterInfo mode = choiceParameter("mode", "full: every overlap (N + M - 1); same: N, centred; valid: |N - M| + 1",
                                         {"full", "same", "valid"});
    ParameterInfo method = choiceParameter(
        "method", "SciPy's direct or FFT sums (only their rounding differs): here every output is summed directly",
        {"auto", "direct", "fft"});
    mode.inValue = method.inValue = true;
    return {file, mode, method};
  }

  StageParameters parseValue(std::string_view value) const override {
    const std::vector<std::string> parts = valueFields(value);
    if (parts.empty() || parts[0].empty() || parts[0].find('=') != std::string::npos) {
      throw StageError("takes TEMPLATE[,mode=full|same|valid][,method=auto|direct|fft] (template.txt,mode=same), got " +
                       quoteExcerpt(value));
    }
    std::string named;
    for (std::size_t k = 1; k < parts.size(); ++k) named += parts[k] + " ";
    StageParameters values = namedValues(*this, named);
    if (values.count("file")) throw StageError("takes the template's file first, not as file=");
    values["file"] = parts[0];
    return values;
  }

  std::string formatValue(const StageParameters& values) const override {
    return textOf(values, "file") + ",mode=" + textOf(values, "mode") + ",method=" + textOf(values, "method");
  }

  void check(const StageParameters& values) const override {
    if (textOf(values, "file").empty()) throw StageError("takes TEMPLATE, a file of the template's values");
  }

  // Reads the template (InputError naming the file when it cannot be read).
  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    check(values);
    const std::string& path = textOf(values, "file");
    std::vector<double> reversed = readSignal(path).samples.toVector();
    if (reversed.empty()) throw StageError("the template file " + path + " holds no value (SciPy refuses an empty in2)");
    std::reverse(reversed.begin(), reversed.end());
    const std::string& modeText = textOf(values, "mode");
    const Mode mode = modeText == "full" ? Mode::full : modeText == "same" ? Mode::same : Mode::valid;
    const std::uint64_t m = reversed.size();
    // valid's window starts where the shorter one lies wholly inside the longer: the signal's length
    // matters there, so it is the bound signal's (a template no longer than the signal where unknown).
    const std::uint64_t n = context.samples.value_or(m);
    const Window window = windowOf(mode, std::max<std::uint64_t>(n, 1), m);
    const auto outputs = [mode, m](std::uint64_t inputs) { return windowOf(mode, inputs, m).count; };
    const std::string description = "correlate with " + std::to_string(m) + " template values from " + path +
                                    ", mode " + modeText;
    return makePolyphaseStage(Polyphase(std::move(reversed), 1, 1, static_cast<std::int64_t>(window.offset)), outputs,
                              {1, 1}, description);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& correlateKind() {
  static const stages::CorrelateKind kind;
  return kind;
}
}  // namespace siglab

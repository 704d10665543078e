#include "apply_messages.hpp"

#include <cstdio>
#include <iostream>
#include <new>
#include <stdexcept>

#include "exit_codes.hpp"
#include "notes.hpp"
#include "siglab/errors.hpp"
#include "siglab/progress.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::cli {

std::string millis(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", ms);
  return text;
}

namespace {

void describeVerification(std::ostream& out, const StageReport& s, const std::string& head) {
  const Verification& v = s.verification;
  out << head;
  if (s.recursive) {
    if (v.checked == s.outputs) {
      out << "verify: all " << v.checked << " outputs against one serial pass of the reference (a recursive "
                << "filter has no local formula) in " << millis(s.verifyMs);
    } else {
      out << "verify: " << v.checked << " outputs in stretches (the first and last, at the engine's cuts and at "
                << "random) against serial passes of the reference started ahead of each; --verify-all checks every "
                << "output; in " << millis(s.verifyMs);
    }
  } else if (s.window == 0) {
    out << "verify: " << v.checked << " outputs recomputed with the reference in " << millis(s.verifyMs);
  } else {
    out << "verify: " << v.checked << " outputs recomputed with the reference formula (the first and last "
              << s.window << ", both sides of each of the engine's cuts, and random ones) in " << millis(s.verifyMs);
  }
  if (v.passed()) {
    out << (v.tolerance == 0.0 ? ": all bit-identical\n" : ": all within the engine's stated tolerance\n");
    return;
  }
  char detail[160];
  std::snprintf(detail, sizeof detail, "%zu differ, first at index %zu (max |diff| %.3g, tolerance %.3g)",
                v.mismatches, v.firstMismatch, v.maxAbsDiff, v.tolerance);
  out << ": " << detail << "\n";
}

void describeBound(std::ostream& out, const StageReport& s, const std::string& head) {
  if (!s.normWiseBound) return;
  out << head << "bound: " << s.engine << " is bounded norm-wise: every output is within ";
  if (s.verification.checked > 0) {
    char value[32];
    std::snprintf(value, sizeof value, "%.3g", s.verification.tolerance);
    out << value << " of the exact one";
  } else {
    out << "a bound relative to the signal's largest |sample|";
  }
  out << ", not relative to its own window, so an output far smaller than the signal's peak may lose every "
               "digit (auto takes only exact or component-wise engines, and the sections' block scan where the poles "
               "fade quickly)\n";
}

}  // namespace

void describeStage(const StageReport& s, const std::string& label) {
  // A stage that failed its check says so whatever --quiet: the error line follows it.
  std::ostream& out = s.verified && !s.verification.passed() ? out : notes();
  const std::string head = label.empty() ? "" : label + ": ";
  for (const std::string& passedOver : s.fellBack) out << head << "engine: passed over " << passedOver << "\n";
  if (!label.empty() || !s.correlation) out << (label.empty() ? "filter: " : head) << s.description << "\n";
  out << head << "engine" << (label.empty() ? ": " : " ") << s.engine << " (" << s.why << ")"
            << (s.pass.note.empty() ? "" : "; " + s.pass.note) << "\n";
  describeBound(out, s, head);
  if (s.verified) describeVerification(out, s, head);
}

int reportApplyFailure(const std::string& engines, const std::string& work) {
  try {
    throw;
  } catch (const InputError& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitInputOutput;
  } catch (const std::invalid_argument& e) {  // JobError among them
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  } catch (const NotEnoughMemory& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << "siglab-cli filter: not enough memory for filtering " << work << "\n";
    return kExitUsage;
  } catch (const Cancelled&) {
    throw;
  } catch (const std::runtime_error& e) {
    std::cerr << "siglab-cli filter: engine " << engines << " failed: " << e.what() << "\n";
    return kExitDisagreement;
  }
}

}  // namespace siglab::cli

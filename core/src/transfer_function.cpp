#include "siglab/transfer_function.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "polynomial_roots.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/work_bounds.hpp"
#include "zpk_to_sections.hpp"

namespace siglab {

std::vector<double> readCoefficients(const std::string& path) {
  std::vector<double> values = readTextSignal(path);
  if (values.empty()) throw InputError(path, "holds no coefficients (one a line)");
  for (double v : values) {
    if (!std::isfinite(v)) throw InputError(path, "coefficients must be finite numbers, found " + shortNumber(v));
  }
  return values;
}

Sections readSectionsFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw InputError(path, "cannot be read");
  Sections sections;
  std::string line;
  std::uint64_t number = 0;
  while (std::getline(file, line)) {
    ++number;
    const std::string text = line.substr(0, line.find('#'));
    std::vector<double> row;
    std::size_t at = 0;
    while (true) {
      at = text.find_first_not_of(" \t\r,", at);
      if (at == std::string::npos) break;
      const std::size_t end = std::min(text.find_first_of(" \t\r,", at), text.size());
      const std::string word = text.substr(at, end - at);
      double v = 0;
      const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
      if (ec != std::errc() || ptr != word.data() + word.size() || !std::isfinite(v)) {
        throw InputError(path, number, at + 1, "expected a finite number, got " + quoteExcerpt(word));
      }
      row.push_back(v);
      at = end;
    }
    if (row.empty()) continue;
    if (row.size() != 6) {
      throw InputError(path, number, 1, "expected one section a line, 6 numbers b0 b1 b2 a0 a1 a2, got " +
                                            std::to_string(row.size()));
    }
    if (row[3] != 1.0) {
      throw InputError(path, number, 1, "a0 (the 4th number) must be 1, as scipy.signal.sosfilt requires, got " +
                                            shortNumber(row[3]));
    }
    sections.push_back({row[0], row[1], row[2], row[3], row[4], row[5]});
  }
  if (sections.empty()) throw InputError(path, "holds no sections (one a line: b0 b1 b2 a0 a1 a2)");
  return sections;
}

bool TransferFunction::isFir() const {
  return std::all_of(a.begin() + 1, a.end(), [](double v) { return v == 0.0; });
}

TransferFunction normalisedTransferFunction(std::vector<double> b, std::vector<double> a) {
  if (a.empty() || a.front() == 0.0) {
    throw std::invalid_argument("a's first coefficient (a0) must not be 0: it divides every other");
  }
  while (!b.empty() && b.front() == 0.0) b.erase(b.begin());
  if (b.empty()) throw std::invalid_argument("b's coefficients are all 0: the filter's output would be 0");
  const double a0 = a.front();
  for (double& v : b) v /= a0;
  for (double& v : a) v /= a0;
  return {std::move(b), std::move(a)};
}

Sections transferFunctionSections(const TransferFunction& tf) {
  std::vector<double> b = tf.b;
  const double k = b.front();
  for (double& v : b) v /= k;
  const detail::Roots z = detail::polynomialRoots(b), p = detail::polynomialRoots(tf.a);
  for (const detail::Complex& r : p) {
    if (!(std::abs(r) < 1)) {
      throw std::invalid_argument("the filter is unstable: a pole (a root of a) lies on or outside the unit circle, at |z| = " +
                                  shortNumber(std::abs(r)));
    }
  }
  Sections sections = detail::zpkToSections(z, p, k);
  checkStable(sections);
  return sections;
}

std::size_t filtfiltPadLength(std::size_t bCount, std::size_t aCount) { return 3 * std::max(bCount, aCount); }

}  // namespace siglab

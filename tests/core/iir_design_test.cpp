// cheby1, cheby2, ellip and bessel against scipy.signal's designs (output='sos').
#include "siglab/iir_design.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "siglab/filter_kinds.hpp"

namespace siglab {
namespace {

IirDesign design(IirFamily family, ButterworthSpec band, double rp = 1, double rs = 40,
                 BesselNorm norm = BesselNorm::Phase) {
  IirDesign d;
  d.family = family;
  d.band = band;
  d.passRipple = rp;
  d.stopAttenuation = rs;
  d.norm = norm;
  return d;
}

// The same design as SciPy writes it (std::to_string's six decimals on both sides).
std::string scipyDesign(const IirDesign& d) {
  const ButterworthSpec& b = d.band;
  const bool band = b.type == BandType::Bandpass || b.type == BandType::Bandstop;
  const std::string wn = band ? "[" + std::to_string(b.cutoff) + ", " + std::to_string(b.cutoff2) + "]"
                              : std::to_string(b.cutoff);
  std::string numbers;
  if (d.family == IirFamily::Chebyshev1 || d.family == IirFamily::Elliptic) numbers += std::to_string(d.passRipple) + ", ";
  if (d.family == IirFamily::Chebyshev2 || d.family == IirFamily::Elliptic) {
    numbers += std::to_string(d.stopAttenuation) + ", ";
  }
  const std::string norm = d.family == IirFamily::Bessel ? ", norm='" + std::string(toString(d.norm)) + "'" : "";
  return "signal." + std::string(toString(d.family)) + "(" + std::to_string(b.order) + ", " + numbers + wn + ", '" +
         std::string(toString(b.type)) + "', output='sos'" + norm +
         (b.sampleRate > 0 ? ", fs=" + std::to_string(b.sampleRate) : std::string()) + ")";
}

std::vector<IirDesign> designsOf(IirFamily family) {
  using B = BandType;
  return {design(family, {1, 0.3}),
          design(family, {2, 0.5, 0, B::Highpass}, 0.5, 60),
          design(family, {3, 0.125}, 3, 30),
          design(family, {4, 0.2}, 1, 40),
          design(family, {5, 0.7, 0, B::Highpass}, 0.1, 80),
          design(family, {4, 0.1, 0.3, B::Bandpass}, 1, 50),
          design(family, {4, 1000, 3000, B::Bandpass, 44100}, 0.5, 40),
          design(family, {3, 0.2, 0.6, B::Bandstop}, 2, 30),
          design(family, {6, 0.05, 0.45, B::Bandstop}, 1, 60),
          design(family, {8, 0.25}, 0.05, 40),
          design(family, {7, 12.5, 0, B::Lowpass, 100}, 1, 45)};
}

void expectSectionsMatchScipy(const std::vector<IirDesign>& designs) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  std::string expression = "np.concatenate([";
  std::vector<double> ours;
  for (const IirDesign& d : designs) {
    expression += scipyDesign(d) + ".ravel(), ";
    for (const Section& s : iirSections(d)) ours.insert(ours.end(), s.begin(), s.end());
  }
  const std::vector<double> expected = test::scipyEval(expression + "])", {});
  ASSERT_EQ(expected.size(), ours.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    // Each row's b (or a) against its own scale: the first section carries the (possibly tiny) gain.
    const std::size_t row = i / 3 * 3;
    const double scale = std::max({std::abs(expected[row]), std::abs(expected[row + 1]), std::abs(expected[row + 2])});
    EXPECT_NEAR(ours[i], expected[i], 1e-12 * scale) << "value " << i;
  }
}

TEST(IirDesign, Cheby1MatchesScipy) { expectSectionsMatchScipy(designsOf(IirFamily::Chebyshev1)); }
TEST(IirDesign, Cheby2MatchesScipy) { expectSectionsMatchScipy(designsOf(IirFamily::Chebyshev2)); }
TEST(IirDesign, EllipMatchesScipy) { expectSectionsMatchScipy(designsOf(IirFamily::Elliptic)); }
TEST(IirDesign, BesselMatchesScipyInEachNorm) {
  std::vector<IirDesign> designs = designsOf(IirFamily::Bessel);
  for (const BesselNorm norm : {BesselNorm::Delay, BesselNorm::Mag}) {
    for (IirDesign d : designsOf(IirFamily::Bessel)) {
      d.norm = norm;
      designs.push_back(d);
    }
  }
  for (int order = 9; order <= kMaxBesselOrder; ++order) designs.push_back(design(IirFamily::Bessel, {order, 0.3}));
  expectSectionsMatchScipy(designs);
}

// decimate's default: cheby1(8, 0.05, 0.8 / q).
TEST(IirDesign, Cheby1ForDecimateMatchesScipy) {
  ButterworthSpec band{8, 0.8 / 4};
  SIGLAB_SKIP_WITHOUT_SCIPY();
  std::vector<double> ours;
  for (const Section& s : cheby1Sections(band, 0.05)) ours.insert(ours.end(), s.begin(), s.end());
  const std::vector<double> expected = test::scipyEval("signal.cheby1(8, 0.05, 0.8 / 4, output='sos').ravel()", {});
  ASSERT_EQ(expected.size(), ours.size());
  for (std::size_t i = 0; i < ours.size(); ++i) EXPECT_NEAR(ours[i], expected[i], 1e-12 * std::max(1.0, std::abs(expected[i])));
}

std::string refusal(const IirDesign& d) {
  try {
    iirSections(d);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(IirDesign, RefusesBadParametersNamingThemAndTheirRange) {
  using F = IirFamily;
  EXPECT_EQ(refusal(design(F::Chebyshev1, {0, 0.2})), "cheby1 order must be 1 to 32, got 0");
  EXPECT_EQ(refusal(design(F::Bessel, {26, 0.2})), "bessel order must be 1 to 18, got 26");
  EXPECT_EQ(refusal(design(F::Chebyshev1, {4, 0.2}, 0)), "cheby1 rp (the passband ripple) must be a positive number of dB, got 0");
  EXPECT_EQ(refusal(design(F::Chebyshev2, {4, 0.2}, 1, -3)),
            "cheby2 rs (the stopband attenuation) must be a positive number of dB, got -3");
  EXPECT_EQ(refusal(design(F::Elliptic, {4, 1.0})), "ellip cutoff must be between 0 and 1 (a fraction of Nyquist), exclusive, got 1");
  EXPECT_NE(refusal(design(F::Chebyshev1, {4, 22050, 0, BandType::Lowpass, 44100})).find("Nyquist frequency 22050 Hz"),
            std::string::npos);
  EXPECT_NE(refusal(design(F::Elliptic, {4, 0.5, 0.2, BandType::Bandpass})).find("must increase"), std::string::npos);
}

}  // namespace
}  // namespace siglab

// The designs siglab.signal returns as SciPy does: core's IIR designs (sections), iirnotch and
// iirpeak (one section), firwin's taps, and the responses freqz and sosfreqz give.
#include "design_binding.hpp"

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "siglab/butterworth.hpp"
#include "siglab/firwin.hpp"
#include "siglab/frequency_response.hpp"
#include "siglab/iir_design.hpp"

namespace py = pybind11;

namespace siglab::python {
namespace {

BandType bandOf(const std::string& name) {
  if (name == "lowpass") return BandType::Lowpass;
  if (name == "highpass") return BandType::Highpass;
  if (name == "bandpass") return BandType::Bandpass;
  if (name == "bandstop") return BandType::Bandstop;
  throw std::invalid_argument("btype must be lowpass, highpass, bandpass or bandstop, not \"" + name + "\"");
}

// The band as butter reads it: one cutoff for low/high pass, two for a band.
ButterworthSpec bandSpec(int order, const std::vector<double>& cutoffs, const std::string& btype, double fs) {
  ButterworthSpec band;
  band.order = order;
  band.type = bandOf(btype);
  const bool twoEdges = band.type == BandType::Bandpass || band.type == BandType::Bandstop;
  if (cutoffs.size() != (twoEdges ? 2U : 1U)) {
    throw std::invalid_argument(std::string("Wn must be ") + (twoEdges ? "two frequencies for " : "one frequency for ") +
                                btype + ", got " + std::to_string(cutoffs.size()));
  }
  band.cutoff = cutoffs[0];
  band.cutoff2 = twoEdges ? cutoffs[1] : 0.0;
  band.sampleRate = fs;
  return band;
}

py::array_t<double> sectionsArray(const Sections& sections) {
  py::array_t<double> out({static_cast<py::ssize_t>(sections.size()), py::ssize_t{6}});
  auto rows = out.mutable_unchecked<2>();
  for (std::size_t s = 0; s < sections.size(); ++s) {
    for (std::size_t j = 0; j < 6; ++j) rows(static_cast<py::ssize_t>(s), static_cast<py::ssize_t>(j)) = sections[s][j];
  }
  return out;
}

Sections sectionsOf(const py::array_t<double, py::array::c_style | py::array::forcecast>& sos) {
  if (sos.ndim() != 2 || sos.shape(1) != 6) throw std::invalid_argument("sos array must be shape (n_sections, 6)");
  Sections sections(static_cast<std::size_t>(sos.shape(0)));
  const auto rows = sos.unchecked<2>();
  for (std::size_t s = 0; s < sections.size(); ++s) {
    for (std::size_t j = 0; j < 6; ++j) sections[s][j] = rows(static_cast<py::ssize_t>(s), static_cast<py::ssize_t>(j));
  }
  return sections;
}

py::tuple responseTuple(FrequencyResponse&& r) {
  return py::make_tuple(py::array_t<double>(static_cast<py::ssize_t>(r.frequency.size()), r.frequency.data()),
                        py::array_t<std::complex<double>>(static_cast<py::ssize_t>(r.response.size()), r.response.data()));
}

py::array_t<double> iirDesign(const std::string& family, int order, const std::vector<double>& cutoffs,
                              const std::string& btype, double fs, double rp, double rs, const std::string& norm) {
  const ButterworthSpec band = bandSpec(order, cutoffs, btype, fs);
  if (family == "butter") return sectionsArray(butterworthSections(band));
  IirDesign design;
  design.band = band;
  design.passRipple = rp;
  design.stopAttenuation = rs;
  if (family == "cheby1") design.family = IirFamily::Chebyshev1;
  else if (family == "cheby2") design.family = IirFamily::Chebyshev2;
  else if (family == "ellip") design.family = IirFamily::Elliptic;
  else if (family == "bessel") design.family = IirFamily::Bessel;
  else throw std::invalid_argument("no IIR family named \"" + family + "\"");
  if (norm == "phase") design.norm = BesselNorm::Phase;
  else if (norm == "delay") design.norm = BesselNorm::Delay;
  else if (norm == "mag") design.norm = BesselNorm::Mag;
  else throw std::invalid_argument("norm must be phase, delay or mag, not \"" + norm + "\"");
  return sectionsArray(iirSections(design));
}

FirPassZero passZeroOf(const std::string& name) {
  if (name == "true") return FirPassZero::True;
  if (name == "false") return FirPassZero::False;
  if (name == "lowpass") return FirPassZero::Lowpass;
  if (name == "highpass") return FirPassZero::Highpass;
  if (name == "bandpass") return FirPassZero::Bandpass;
  if (name == "bandstop") return FirPassZero::Bandstop;
  throw std::invalid_argument("pass_zero must be True, False, lowpass, highpass, bandpass or bandstop, not \"" + name + "\"");
}

}  // namespace

void bindDesigns(py::module_& m) {
  m.def("iir_design", &iirDesign, py::arg("family"), py::arg("order"), py::arg("cutoffs"), py::arg("btype"), py::arg("fs"),
        py::arg("rp"), py::arg("rs"), py::arg("norm"));
  m.def(
      "notch_peak_section",
      [](double w0, double q, bool peak, double fs) {
        const Section s = notchPeakSection(w0, q, peak, fs);
        return py::array_t<double>(6, s.data());
      },
      py::arg("w0"), py::arg("q"), py::arg("peak"), py::arg("fs"));
  m.def(
      "firwin_taps",
      [](std::size_t numtaps, std::vector<double> cutoffs, const std::string& window, double beta,
         const std::string& passZero, double fs) {
        FirwinSpec spec;
        spec.numtaps = numtaps;
        spec.cutoffs = std::move(cutoffs);
        spec.window = window;
        spec.beta = beta;
        spec.passZero = passZeroOf(passZero);
        spec.sampleRate = fs;
        const std::vector<double> taps = firwinTaps(spec);
        return py::array_t<double>(static_cast<py::ssize_t>(taps.size()), taps.data());
      },
      py::arg("numtaps"), py::arg("cutoffs"), py::arg("window"), py::arg("beta"), py::arg("pass_zero"), py::arg("fs"));
  m.def(
      "fir_response",
      [](const py::array_t<double, py::array::c_style | py::array::forcecast>& taps, std::size_t points, double fs) {
        const std::span<const double> values(taps.data(), static_cast<std::size_t>(taps.size()));
        FrequencyResponse r;
        {
          py::gil_scoped_release release;
          r = firResponse(values, points, fs);
        }
        return responseTuple(std::move(r));
      },
      py::arg("taps"), py::arg("points"), py::arg("fs"));
  m.def(
      "sos_response",
      [](const py::array_t<double, py::array::c_style | py::array::forcecast>& sos, std::size_t points, double fs) {
        return responseTuple(sosResponse(sectionsOf(sos), points, false, fs));
      },
      py::arg("sos"), py::arg("points"), py::arg("fs"));
}

}  // namespace siglab::python

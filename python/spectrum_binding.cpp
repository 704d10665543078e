// siglab.signal.welch's and istft's native part: core's Welch spectrum on one channel, on the engine
// core's rule picks (siglab/welch_engine.hpp), as siglab-cli spectrum and the desktop pick it; core's
// inverse STFT.
#include "spectrum_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine_lists.hpp"
#include "siglab/istft.hpp"
#include "siglab/spectrum.hpp"
#include "spectrum_engine.hpp"

namespace py = pybind11;

namespace siglab::python {
namespace {

// Welch's spectrum of one channel on `engine` (auto, cpu, gpu), by the one rule the CLI's spectrum
// command and the desktop follow (chooseWelchEngine). Returns (frequencies, power, note).
py::tuple welchSpectrum(const py::array_t<double, py::array::c_style>& x, std::size_t segment, std::size_t overlap,
                        const std::string& window, const std::string& scaling, bool detrend, double rate,
                        const std::string& engine, const py::object& devices) {
  WelchOptions options;
  options.segment = segment;
  options.overlap = overlap;
  const std::optional<SpectrumWindow> parsed = parseSpectrumWindow(window);
  if (!parsed) throw std::invalid_argument("window must be hann, hamming, blackman or boxcar, not \"" + window + "\"");
  options.window = *parsed;
  options.scaling = scaling == "spectrum" ? SpectrumScaling::spectrum : SpectrumScaling::density;
  options.detrend = detrend ? Detrend::constant : Detrend::none;
  options.sampleRate = rate;
  const std::span<const double> samples(x.data(), static_cast<std::size_t>(x.size()));
  const std::vector<int> deviceList = deviceListOf(devices).value_or(std::vector<int>{});
  WelchEngineChoice choice = welchEngineHere(engine, deviceList, samples.size());  // core's rule: refuses an unknown engine
  Spectrum spectrum;
  {
    py::gil_scoped_release release;
    spectrum = welchOfRange(WelchSource{samples}, {}, options, welchRunFor(choice));
  }
  const std::string note = choice.note();
  return py::make_tuple(py::array_t<double>(static_cast<py::ssize_t>(spectrum.frequency.size()), spectrum.frequency.data()),
                        py::array_t<double>(static_cast<py::ssize_t>(spectrum.power.size()), spectrum.power.data()), note);
}

// One channel's signal from its STFT, frames x (re, im) x frequencies as the stft stage makes it.
py::array_t<double> inverseStft(const py::array_t<double, py::array::c_style>& planes, const std::string& window,
                                double tukeyAlpha, std::optional<std::size_t> nperseg, std::optional<std::size_t> noverlap,
                                std::optional<std::size_t> nfft, bool boundary, bool density, double rate) {
  if (planes.ndim() != 3 || planes.shape(1) != 2) throw std::invalid_argument("istft takes frames x (re, im) x frequencies");
  IstftOptions options;
  options.window = window;
  options.tukeyAlpha = tukeyAlpha;
  options.nperseg = nperseg;
  options.noverlap = noverlap;
  options.nfft = nfft;
  options.boundary = boundary;
  options.density = density;
  options.rate = rate;
  const std::span<const double> values(planes.data(), static_cast<std::size_t>(planes.size()));
  std::vector<double> x;
  {
    py::gil_scoped_release release;
    x = istft(values, static_cast<std::size_t>(planes.shape(0)), static_cast<std::size_t>(planes.shape(2)), options);
  }
  return py::array_t<double>(static_cast<py::ssize_t>(x.size()), x.data());
}

}  // namespace

void bindSpectrum(py::module_& m) {
  m.def("welch", &welchSpectrum, py::arg("x"), py::arg("segment"), py::arg("overlap"), py::arg("window"),
        py::arg("scaling"), py::arg("detrend"), py::arg("rate"), py::arg("engine"), py::arg("devices"));
  m.def("istft", &inverseStft, py::arg("planes"), py::arg("window"), py::arg("tukey_alpha"), py::arg("nperseg"),
        py::arg("noverlap"), py::arg("nfft"), py::arg("boundary"), py::arg("density"), py::arg("rate"));
  m.def("check_nola", [](const std::string& window, double alpha, std::size_t nperseg, std::size_t noverlap) {
    return checkNola(window, alpha, nperseg, noverlap);
  });
}

}  // namespace siglab::python

#include "json_file.hpp"

#include "file_bytes.hpp"
#include "siglab/errors.hpp"

namespace siglab {

nlohmann::json readJsonFile(const std::string& path, std::string_view what, int deepestNesting) {
  using nlohmann::json;
  const FileBytes file(path);  // a FIFO without a writer is an error, not a wait
  struct TooDeep {};
  const auto limitNesting = [deepestNesting](int depth, json::parse_event_t event, json&) {
    const bool opens = event == json::parse_event_t::object_start || event == json::parse_event_t::array_start;
    if (opens && depth >= deepestNesting) throw TooDeep{};
    return true;
  };
  try {
    return json::parse(file.text().begin(), file.text().end(), limitNesting);
  } catch (const json::parse_error& e) {
    throw InputError(path, "not valid JSON at byte " + std::to_string(e.byte));
  } catch (const TooDeep&) {
    throw InputError(path, "not a SigLab " + std::string(what) + ": arrays or objects nested more than " +
                               std::to_string(deepestNesting) + " deep");
  }
}

}  // namespace siglab

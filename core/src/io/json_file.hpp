#pragma once
// A JSON file SigLab reads (a session, a pipeline), parsed with its nesting bounded: a hostile
// file's depth is refused while it is parsed, before any code that walks the values recursively
// (dump(), the destructor of older nlohmann versions) sees it.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace siglab {

// Throws InputError naming `path`: unreadable, not JSON (with the byte), or arrays and objects
// nested deeper than `deepestNesting` ("not a SigLab <what>: ...").
nlohmann::json readJsonFile(const std::string& path, std::string_view what, int deepestNesting);

}  // namespace siglab

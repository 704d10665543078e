#include "mistyped_words.hpp"

#include <string_view>
#include <vector>

#include "option_values.hpp"
#include "siglab/nearest_name.hpp"

namespace siglab::cli {
namespace {

std::vector<std::string> subcommandNames(CLI::App& command) {
  std::vector<std::string> names;
  for (CLI::App* sub : command.get_subcommands(std::function<bool(CLI::App*)>{})) {
    if (!sub->get_group().empty()) names.push_back(sub->get_name());
  }
  return names;
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// The command the parse went deepest into ("lab reverse"), else the program itself.
CLI::App& deepestParsed(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands()) return deepestParsed(*sub);
  return app;
}

}  // namespace

std::optional<std::string> unknownCommandMessage(CLI::App& app, int argc, const char* const* argv) {
  CLI::App* command = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word.starts_with("-")) return std::nullopt;  // an option: CLI11 says what is wrong with it
    const std::vector<std::string> names = subcommandNames(*command);
    if (names.empty()) return std::nullopt;  // a command's own argument
    CLI::App* next = nullptr;
    for (CLI::App* sub : command->get_subcommands(std::function<bool(CLI::App*)>{})) {
      if (sub->get_name() == word) next = sub;
    }
    if (!next) {
      const std::string where = command == &app ? "siglab-cli" : "siglab-cli " + commandPath(*command);
      return where + ": unknown command \"" + std::string(word) + "\"" + didYouMean(word, names) + " (commands: " +
             listed(names) + ")";
    }
    command = next;
  }
  return std::nullopt;
}

std::optional<std::string> unknownOptionMessage(CLI::App& app) {
  CLI::App& command = deepestParsed(app);
  for (const std::string& word : app.remaining(true)) {
    if (!word.starts_with("-") || word == "-") continue;
    const std::string typed = word.substr(0, word.find('='));
    std::vector<std::string> names;
    for (const CLI::Option* option : command.get_options()) {
      for (const std::string& name : optionNames(*option)) names.push_back(name);
    }
    const std::string where = &command == &app ? "siglab-cli" : "siglab-cli " + commandPath(command);
    return where + ": unknown option \"" + typed + "\"" + didYouMean(typed, names) + " (siglab-cli " +
           (&command == &app ? std::string() : commandPath(command) + " ") + "--help lists them)";
  }
  return std::nullopt;
}

}  // namespace siglab::cli

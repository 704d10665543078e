#include "bash_completion.hpp"

#include <string>
#include <vector>

#include "option_values.hpp"

namespace siglab::cli {
namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

// The case patterns naming `option` after `path`: "filter\ --engine|filter\ -e".
std::string patterns(const std::string& path, const CLI::Option& option) {
  std::string text;
  for (const std::string& name : optionNames(option)) {
    std::string escaped = path + " " + name;
    std::string out;
    for (const char c : escaped) out += c == ' ' ? std::string("\\ ") : std::string(1, c);
    text += (text.empty() ? "" : "|") + out;
  }
  return text;
}

}  // namespace

void writeBashCompletion(std::ostream& out, CLI::App& app) {
  const std::vector<CLI::App*> commands = visibleCommands(app);
  std::vector<std::string> topLevel;
  for (CLI::App* command : commands) {
    if (command->get_parent() == &app) topLevel.push_back(command->get_name());
  }
  out << "# bash completion for siglab-cli, written by `siglab-cli reference --completion bash` from its commands,\n"
         "# options, stages and engines. Plain bash: it needs no bash-completion package.\n\n"
         "# Words of $2 (a list) for the last item of $1, a list separated by , or ;.\n"
         "_siglab_cli_items() {\n"
         "  local last=${1##*[,;]}\n"
         "  COMPREPLY=($(compgen -P \"${1%\"$last\"}\" -W \"$2\" -- \"$last\"))\n"
         "}\n\n"
         "_siglab_cli() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} command=\"\" words=\"\" i\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    case ${COMP_WORDS[i]} in\n"
         "      -*) ;;\n";
  // A command's path grows word by word while the words are its subcommands ("lab reverse").
  out << "      *) case \"$command\" in\n";
  out << "           \"\") command=${COMP_WORDS[i]} ;;\n";
  for (CLI::App* command : commands) {
    std::vector<std::string> inner;
    for (CLI::App* sub : command->get_subcommands(std::function<bool(CLI::App*)>{})) inner.push_back(sub->get_name());
    if (inner.empty()) continue;
    out << "           \"" << commandPath(*command) << "\") case ${COMP_WORDS[i]} in " << [&] {
      std::string alternatives;
      for (const std::string& name : inner) alternatives += (alternatives.empty() ? "" : "|") + name;
      return alternatives;
    }() << ") command=\"$command ${COMP_WORDS[i]}\" ;; esac ;;\n";
  }
  out << "         esac ;;\n"
         "    esac\n"
         "  done\n"
         "  case \"$command $prev\" in\n";
  for (CLI::App* command : commands) {
    const std::string path = commandPath(*command);
    for (CLI::Option* option : command->get_options()) {
      if (option->get_positional()) continue;
      const OptionValues values = valuesOf(*option);
      switch (values.kind) {
        case OptionValues::Kind::Flag: break;
        case OptionValues::Kind::Engines:
        case OptionValues::Kind::Choices:
          out << "    " << patterns(path, *option) << ") _siglab_cli_items \"$cur\" \"" << joined(values.words) << "\"; return ;;\n";
          break;
        case OptionValues::Kind::File:
          out << "    " << patterns(path, *option) << ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n";
          break;
        case OptionValues::Kind::Other:
          out << "    " << patterns(path, *option) << ") COMPREPLY=(); return ;;\n";
          break;
      }
    }
  }
  out << "  esac\n"
         "  case $command in\n"
         "    \"\") COMPREPLY=($(compgen -W \"" << joined(topLevel) << " --help --version\" -- \"$cur\")); return ;;\n";
  for (CLI::App* command : commands) {
    std::vector<std::string> words;
    for (CLI::App* sub : command->get_subcommands(std::function<bool(CLI::App*)>{})) words.push_back(sub->get_name());
    for (CLI::Option* option : command->get_options()) {
      for (const std::string& name : optionNames(*option)) {
        if (name.starts_with("--")) words.push_back(name);
      }
    }
    out << "    \"" << commandPath(*command) << "\") words=\"" << joined(words) << "\" ;;\n";
  }
  out << "  esac\n"
         "  if [[ $cur == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -W \"${words%%--*}\" -- \"$cur\") $(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _siglab_cli siglab-cli\n";
}

}  // namespace siglab::cli

#include "markdown_reference.hpp"

#include <cstdio>
#include <string>

#include "all_backends.hpp"
#include "job_options.hpp"
#include "option_values.hpp"
#include "siglab/io/signal_formats.hpp"
#include "siglab/stage_registry.hpp"

namespace siglab::cli {
namespace {

// Text for one cell of a Markdown table.
std::string cell(std::string text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else if (c == '*' || c == '_' || c == '<' || c == '>') out += std::string("\\") + c;
    else out += c;
  }
  return out;
}

std::string code(const std::string& text) { return text.empty() ? std::string() : "`" + text + "`"; }

std::string joined(const std::vector<std::string>& words, const std::string& separator) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : separator) + word;
  return text;
}

std::string valueColumn(CLI::Option& option) {
  const OptionValues values = valuesOf(option);
  if (values.kind == OptionValues::Kind::Flag) return "";
  if (!values.words.empty()) return cell(joined(values.words, ", "));
  const std::string type = option.get_type_name();  // "UINT:a whole number from 1 to 1024": its check's words
  return cell(type.find(':') == std::string::npos ? type : type.substr(type.find(':') + 1));
}

void writeCommand(std::ostream& out, CLI::App& command) {
  const std::string path = commandPath(command);
  out << "## siglab-cli " << path << "\n\n" << cell(command.get_description()) << "\n\n";
  std::vector<CLI::Option*> positionals, named;
  for (CLI::Option* option : command.get_options()) {
    (option->get_positional() ? positionals : named).push_back(option);
  }
  if (!command.get_subcommands(std::function<bool(CLI::App*)>{}).empty()) {
    std::vector<std::string> inner;
    for (CLI::App* sub : command.get_subcommands(std::function<bool(CLI::App*)>{})) inner.push_back(code(sub->get_name()));
    out << "Commands: " << joined(inner, ", ") << ".\n\n";
  }
  if (!positionals.empty()) {
    out << "| argument | what it is |\n| --- | --- |\n";
    for (CLI::Option* option : positionals) {
      out << "| " << code(option->get_name()) << (option->get_required() ? "" : " (optional)") << " | "
          << cell(option->get_description()) << " |\n";
    }
    out << "\n";
  }
  out << "| option | value | what it does | default |\n| --- | --- | --- | --- |\n";
  for (CLI::Option* option : named) {
    std::vector<std::string> names;
    for (const std::string& name : optionNames(*option)) names.push_back(code(name));
    out << "| " << joined(names, ", ") << " | " << valueColumn(*option) << " | " << cell(option->get_description()) << " | "
        << code(option->get_default_str()) << " |\n";
  }
  out << "\n";
}

std::string parameterRange(const ParameterInfo& p) {
  switch (p.type) {
    case ParameterType::Whole:
    case ParameterType::Number: {
      char text[64];
      std::snprintf(text, sizeof text, p.type == ParameterType::Whole ? "%.0f to %.0f" : "%g to %g", p.min, p.max);
      return text;
    }
    case ParameterType::Flag: return "on or off";
    case ParameterType::Choice: return joined(p.choices, ", ");
    case ParameterType::Text: return "a file";
  }
  return {};
}

void writeStages(std::ostream& out) {
  out << "## Stages\n\nEach stage is a one-stage option (`--NAME VALUE`) and a word of `--chain` "
         "(`NAME VALUE parameter=value`); pipeline files and Python take the same names.\n\n";
  for (const StageKind* kind : stageKinds()) {
    out << "### " << kind->name() << "\n\n" << cell(std::string(kind->summary())) << ".\n\n"
        << "Option: `--" << kind->optionName() << " " << kind->valueSyntax() << "`; in a chain: `" << kind->name() << " "
        << kind->exampleValue() << "`" << (kind->endsChain() ? "; it ends a chain" : "") << ".\n\n";
    const std::vector<ParameterInfo> parameters = kind->parameters();
    if (parameters.empty()) continue;
    out << "| parameter | where | takes | default | unit | what it is |\n| --- | --- | --- | --- | --- | --- |\n";
    for (const ParameterInfo& p : parameters) {
      out << "| " << code(p.name) << " | " << (p.inValue ? "in the value" : "after the value") << " | "
          << cell(parameterRange(p)) << " | " << code(p.defaultValue.value_or("")) << " | " << cell(p.unit)
          << " | " << cell(p.help) << " |\n";
    }
    out << "\n";
  }
}

void writeEngines(std::ostream& out) {
  out << "## Engines\n\n`auto` picks the fastest engine that can run a stage here and says which and why. "
         "GPU engines are listed on every machine; where they cannot run, the command says why.\n\n"
      << "| engine | what it is |\n| --- | --- |\n";
  for (const auto& engine : makeAllBackends()) {
    out << "| " << code(std::string(engine->name())) << " | " << cell(std::string(engine->description())) << " |\n";
  }
  out << "\n";
}

void writeFormats(std::ostream& out) {
  out << "## File formats\n\nFiles are recognised by their first bytes whatever their name, then by their "
         "extension, else read as text (one number a line, or the columns of a CSV).\n\n"
      << "| format | what it is |\n| --- | --- |\n";
  for (const std::string_view name : signalFormatNames()) {
    const std::optional<FileFormat> format = signalFormatNamed(name);
    out << "| " << code(std::string(name)) << " | " << (format ? cell(std::string(signalFormatDescription(*format))) : "")
        << " |\n";
  }
  out << "\n";
}

}  // namespace

void writeMarkdownReference(std::ostream& out, CLI::App& app) {
  fillEngineNamesInHelp();
  out << "# Command-line reference\n\n"
         "Written by `siglab-cli reference --markdown` from the commands, the stages, the engines and the "
         "formats this build has: every option below is one the program takes.\n\n";
  for (CLI::App* command : visibleCommands(app)) writeCommand(out, *command);
  writeStages(out);
  writeEngines(out);
  writeFormats(out);
}

}  // namespace siglab::cli

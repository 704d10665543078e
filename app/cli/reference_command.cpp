// `siglab-cli reference`: hidden from help; writes the user guide's command-line reference
// (--markdown) or the shell completion (--completion bash) from the commands and registries.
#include <iostream>
#include <memory>

#include "bash_completion.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "markdown_reference.hpp"
#include "option_checks.hpp"

namespace siglab::cli {

void addReferenceCommand(CLI::App& app, int& exitCode) {
  CLI::App* cmd = app.add_subcommand("reference", "Write the command-line reference or a shell completion script");
  cmd->group("");  // hidden: for the build and the guide, not for people
  auto completion = std::make_shared<std::string>();
  CLI::Option* markdown = cmd->add_flag("--markdown")->description("The reference as Markdown, for the user guide");
  cmd->add_option("--completion", *completion, "A completion script for this shell")->check(oneOf({"bash"}))->excludes(markdown);
  cmd->callback([&app, &exitCode, markdown, completion] {
    if (markdown->count() > 0) {
      writeMarkdownReference(std::cout, app);
    } else if (!completion->empty()) {
      writeBashCompletion(std::cout, app);
    } else {
      std::cerr << "siglab-cli reference: give --markdown or --completion bash\n";
      exitCode = kExitUsage;
      return;
    }
    exitCode = std::cout.flush() ? kExitOk : kExitInputOutput;
  });
}

}  // namespace siglab::cli

#include "notes.hpp"

#include <iostream>
#include <streambuf>

namespace siglab::cli {
namespace {

bool quietGiven = false;

// A stream buffer that takes every character and keeps none.
class DroppingBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

std::ostream& nowhere() {
  static DroppingBuffer buffer;
  static std::ostream stream(&buffer);
  return stream;
}

}  // namespace

bool quiet() { return quietGiven; }

std::ostream& notes() { return quietGiven ? nowhere() : std::cerr; }

std::ostream& notesBeside(bool resultOnStandardOutput) {
  if (quietGiven) return nowhere();
  return resultOnStandardOutput ? std::cerr : std::cout;
}

void addQuietToEveryCommand(CLI::App& app) {
  for (CLI::App* command : app.get_subcommands(std::function<bool(CLI::App*)>{})) {
    CLI::Option* option = command->get_option_no_throw("--quiet");
    if (!option) option = command->add_flag("-q,--quiet");
    option->description("Print nothing but errors and the result asked for (no progress, no notes)");
    option->each([](const std::string&) { quietGiven = true; });
    addQuietToEveryCommand(*command);
  }
}

}  // namespace siglab::cli

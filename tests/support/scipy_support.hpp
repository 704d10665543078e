#pragma once
// Running SciPy (Debian's /usr/bin/python3, installed by scripts/setup.sh) as the reference.
// Scripts run in the run's one oracle server where ctest started it (SIGLAB_SCIPY_ORACLE names its
// socket; tests/support/scipy_oracle_server.py), which pays SciPy's import once for all tests;
// without a server each script starts /usr/bin/python3.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <iostream>
#include <optional>
#include <string>

namespace siglab::test {

inline const char* kSystemPython = "/usr/bin/python3";

// The oracle server's whole answer to `request`, or nothing when no server answers.
inline std::optional<std::string> askOracleServer(const std::string& request) {
  const char* path = std::getenv("SIGLAB_SCIPY_ORACLE");
  sockaddr_un address{};
  if (path == nullptr || std::strlen(path) >= sizeof(address.sun_path)) return std::nullopt;
  address.sun_family = AF_UNIX;
  std::strcpy(address.sun_path, path);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> reply;
  const std::string line = request + "\n";
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0 &&
      ::send(fd, line.data(), line.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(line.size())) {
    std::string answer;
    char buffer[4096];
    ssize_t got = 0;
    while ((got = ::read(fd, buffer, sizeof(buffer))) > 0) answer.append(buffer, static_cast<std::size_t>(got));
    if (got == 0 && !answer.empty()) reply = std::move(answer);
  }
  ::close(fd);
  return reply;
}

// Whether /usr/bin/python3 can import scipy (the GPU machine may lack it: those tests skip there).
inline bool haveScipy() {
  static const bool have = [] {
    if (const auto answer = askOracleServer("ping")) return *answer == "scipy\n";
    return std::system((std::string(kSystemPython) + " -c 'import scipy.signal' >/dev/null 2>&1").c_str()) == 0;
  }();
  return have;
}

// Runs the Python script at `scriptPath`; true when it ends without an error. Its error, if any,
// goes to `error` (or standard error).
inline bool runPython(const std::string& scriptPath, std::string* error = nullptr) {
  if (const auto answer = askOracleServer("run " + scriptPath)) {
    if (answer->rfind("ok\n", 0) == 0) return true;
    const std::string message = answer->substr(answer->find('\n') + 1);
    if (error) *error = message; else std::cerr << message;
    return false;
  }
  const std::string errors = scriptPath + ".err";
  const bool ok = std::system((std::string(kSystemPython) + " " + scriptPath + (error ? " 2>" + errors : "")).c_str()) == 0;
  if (!ok && error) {
    std::ifstream in(errors);
    error->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return ok;
}

}  // namespace siglab::test

#define SIGLAB_SKIP_WITHOUT_SCIPY()                                                                   \
  do {                                                                                                \
    if (!::siglab::test::haveScipy()) GTEST_SKIP() << "/usr/bin/python3 cannot import scipy.signal"; \
  } while (0)

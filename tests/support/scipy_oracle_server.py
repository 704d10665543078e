"""One Python process for every SciPy oracle of a test run.

Importing SciPy costs about a second on the CI machine; each test case runs in its own process
(ctest), so without this each oracle call paid it again. ctest starts the server once (fixture
`scipy_oracle`, tests/CMakeLists.txt) and stops it after the last test that needs it; the tests'
scripts (tests/support/scipy_support.hpp) are run here by path, each in a fresh namespace, and the
tests fall back to starting /usr/bin/python3 themselves when no server answers.

  scipy_oracle_server.py start SOCKET   serve in the background; returns once it accepts
  scipy_oracle_server.py stop SOCKET    ask it to finish
Requests, one per connection, a line each: "run PATH" (answer "ok" or "failed" and the error),
"ping" (answer "scipy" or "no-scipy"), "stop".
"""
import os
import socket
import socketserver
import sys
import threading
import time
import traceback

IDLE_EXIT_SECONDS = 300  # a run interrupted before its cleanup test leaves no server behind for long


def run_script(path):
    with open(path, encoding="utf-8") as f:
        code = compile(f.read(), path, "exec")
    try:
        exec(code, {"__name__": "__main__", "__file__": path})
    except SystemExit as e:
        if e.code not in (None, 0):
            raise RuntimeError(f"{path} exited with {e.code}") from None


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        self.server.last_request = time.monotonic()
        request = self.rfile.readline().decode("utf-8").rstrip("\n")
        if request == "ping":
            self.wfile.write(b"scipy\n" if self.server.have_scipy else b"no-scipy\n")
        elif request == "stop":
            self.wfile.write(b"ok\n")
            threading.Thread(target=self.server.shutdown, daemon=True).start()
        elif request.startswith("run "):
            try:
                run_script(request[4:])
                self.wfile.write(b"ok\n")
            except BaseException:  # the test reports it; the server serves on
                self.wfile.write(("failed\n" + traceback.format_exc()).encode("utf-8"))
        else:
            self.wfile.write(b"failed\nunknown request\n")
        self.server.last_request = time.monotonic()


class Server(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True


def serve(path):
    try:
        import numpy  # noqa: F401  (imported once here: the point of the server)
        import scipy.ndimage  # noqa: F401
        import scipy.signal  # noqa: F401
        have_scipy = True
    except ImportError:
        have_scipy = False
    if os.path.exists(path):
        os.unlink(path)
    with Server(path, Handler) as server:
        server.have_scipy = have_scipy
        server.last_request = time.monotonic()

        def exit_when_idle():
            while time.monotonic() - server.last_request < IDLE_EXIT_SECONDS:
                time.sleep(5)
            server.shutdown()

        threading.Thread(target=exit_when_idle, daemon=True).start()
        try:
            server.serve_forever()
        finally:
            os.unlink(path)


def ask(path, request, timeout=2.0):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(path)
        s.sendall((request + "\n").encode("utf-8"))
        return s.makefile().readline().strip()


def start(path):
    if os.fork() == 0:  # the server, detached from ctest's process group and output
        os.setsid()
        if os.fork() != 0:
            os._exit(0)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        serve(path)
        os._exit(0)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            print("scipy oracle server:", ask(path, "ping"))
            return 0
        except OSError:
            time.sleep(0.05)
    print("scipy oracle server did not start; the tests start python3 themselves", file=sys.stderr)
    return 0  # not a failure: the oracles fall back


def stop(path):
    try:
        ask(path, "stop")
    except OSError:
        pass  # already gone (idle exit, or never started)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        sys.exit(__doc__)
    sys.exit(start(sys.argv[2]) if sys.argv[1] == "start" else stop(sys.argv[2]))

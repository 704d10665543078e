#!/usr/bin/python3
"""Runs the examples of the README and the user guide and checks their output (the doc tests).

A ```console block holds commands after "$ " and, below each, what it prints (standard output and
error together). "..." alone on a line stands for any lines, "..." in a line for any text, and a
last line "[exit N]" for the exit status (0 otherwise). A ```pycon block is a Python doctest
(ELLIPSIS on). The blocks of one file run in order in one temporary folder, where data/ is the
repository's; siglab-cli comes from --bin, the Python module from --python-path.

--words instead checks that the pages and every command's help use words users know (no "seed",
the project's old name for its first program, and no issue numbers) and that every option a page
writes after "siglab-cli COMMAND", in a code block or in running text, is one that command takes.
"""
import argparse
import doctest
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(console|pycon)\n(.*?)^```", re.S | re.M)
# "seed" where it is not a random seed (--seed, SIGLAB_TEST_SEED, "random seed"); issue numbers.
INTERNAL = re.compile(r"(?<![-_])\bseeds?\b(?!\w)|\bissues? \d+|\bissue-\d+", re.I)
RANDOM_SEED = re.compile(r"random seed|--seed|TEST_SEED|Seed of the random", re.I)


def lines_match(expected, actual):
    """Whether actual (a list of lines) fits expected, whose "..." lines and parts stand for anything."""
    if not expected:
        return not actual
    head = expected[0]
    if head == "...":
        return any(lines_match(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    if not actual:
        return False
    pattern = "^" + ".*".join(re.escape(part) for part in head.split("...")) + "$"
    return re.match(pattern, actual[0]) is not None and lines_match(expected[1:], actual[1:])


def console_examples(block):
    """(command, expected lines, exit status) for each "$ " line of a console block."""
    examples = []
    for line in block.splitlines():
        if line.startswith("$ "):
            examples.append([line[2:], [], 0])
        elif examples:
            status = re.fullmatch(r"\[exit (\d+)\]", line)
            if status:
                examples[-1][2] = int(status.group(1))
            else:
                examples[-1][1].append(line)
    return examples


def run_console(block, folder, env, where):
    failures = 0
    for command, expected, status in console_examples(block):
        run = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=120)
        actual = run.stdout.splitlines()
        if run.returncode != status or not lines_match(expected, actual):
            failures += 1
            print(f"{where}: $ {command}\n  exit {run.returncode} (expected {status}); printed:\n    "
                  + "\n    ".join(actual) + "\n  expected:\n    " + "\n    ".join(expected), file=sys.stderr)
    return failures


def run_pycon(block, folder, globs, where):
    test = doctest.DocTestParser().get_doctest(block, globs, where, where, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    here = os.getcwd()
    os.chdir(folder)
    try:
        runner.run(test, out=lambda text: sys.stderr.write(text), clear_globs=False)
        globs.update(test.globs)  # the page's next block goes on from here
    finally:
        os.chdir(here)
    return runner.failures


def run_file(path, repository, env, python_ok):
    text = open(path, encoding="utf-8").read()
    failures = 0
    globs = {}
    with tempfile.TemporaryDirectory(prefix="siglab-doc-") as folder:
        os.symlink(os.path.join(repository, "data"), os.path.join(folder, "data"))
        for match in FENCE.finditer(text):
            where = f"{path}:{text[:match.start()].count(chr(10)) + 1}"
            if match.group(1) == "console":
                failures += run_console(match.group(2), folder, env, where)
            elif python_ok:
                failures += run_pycon(match.group(2), folder, globs, where)
            else:
                print(f"{where}: Python example skipped (no siglab module in this build)")
    return failures


def check_words(paths, cli):
    texts = [(path, open(path, encoding="utf-8").read()) for path in paths]
    helps = subprocess.run([cli, "--help"], capture_output=True, text=True).stdout
    texts.append(("siglab-cli --help", helps))
    commands = re.findall(r"^  ([a-z][a-z-]*) ", helps[helps.find("Subcommands:"):], re.M)
    for command in commands + ["lab reverse", "lab matmul"]:
        texts.append((f"siglab-cli {command} --help", subprocess.run([cli, *command.split(), "--help"], capture_output=True,
                                                                     text=True).stdout))
    failures = check_options(texts, cli)
    for where, text in texts:
        for number, line in enumerate(text.splitlines(), 1):
            for found in INTERNAL.finditer(RANDOM_SEED.sub("", line)):
                failures += 1
                print(f"{where}:{number}: \"{found.group(0)}\" is not a word users know: {line.strip()[:120]}", file=sys.stderr)
    return failures


CODE = re.compile(r"^```[^\n]*\n(.*?)^```|`([^`\n]+)`", re.S | re.M)
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def command_options(cli):
    """{"filter": {"-o", "--output", ...}, ...} from the generated reference."""
    reference = subprocess.run([cli, "reference", "--markdown"], capture_output=True, text=True, check=True).stdout
    options = {}
    for part in re.split(r"^## siglab-cli ", reference, flags=re.M)[1:]:
        name = part.split("\n", 1)[0].strip()
        options[name] = set(re.findall(r"`(--?[A-Za-z][\w-]*)`", part.split("\n## ", 1)[0]))
    return options


def check_options(texts, cli):
    options = command_options(cli)
    failures = 0
    for where, text in texts:
        for match in CODE.finditer(text):
            for line in (match.group(1) or match.group(2) or "").splitlines():  # a directive: no body
                for use in re.finditer(r"siglab-cli ((?:lab )?[a-z][a-z-]*)([^#]*)", line):
                    command = use.group(1)
                    if command not in options:
                        continue  # "siglab-cli(1)", a word in a sentence
                    for option in OPTION.findall(re.sub(r'"[^"]*"', "", use.group(2))):
                        if option not in options[command]:
                            failures += 1
                            print(f"{where}: siglab-cli {command} takes no {option}: {line.strip()[:120]}", file=sys.stderr)
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the folder of siglab-cli")
    parser.add_argument("--python-path", help="the folder holding the siglab package")
    parser.add_argument("--words", action="store_true", help="check the words instead of running the examples")
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args()
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if args.words:
        failures = check_words(args.pages, os.path.join(args.bin, "siglab-cli"))
    else:
        env = dict(os.environ, PATH=os.path.abspath(args.bin) + os.pathsep + os.environ.get("PATH", ""), LC_ALL="C")
        python_ok = False
        if args.python_path:  # a build with the module: its examples must run
            sys.path.insert(0, os.path.abspath(args.python_path))
            import siglab  # noqa: F401  (an ImportError here fails the test with its reason)
            python_ok = True
        failures = sum(run_file(page, repository, env, python_ok) for page in args.pages)
    print(f"doc examples: {failures} failure(s) in {len(args.pages)} page(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

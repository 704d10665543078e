#!/usr/bin/python3
"""Writes the Doxygen XML of core's public headers, which the guide's C++ API page renders.

  cpp-api-xml.py OUT    # OUT/xml: Doxygen's XML (docs/Doxyfile); OUT/headers: what Doxygen read

The headers say what each type and function does in ordinary // comments above it or after it on
its line; Doxygen reads only ///-style ones. So each header is first copied into OUT/headers with
those comments marked for Doxygen, line for line (Doxygen's messages name the copy's lines, which
are the header's), and each header made one Doxygen group, which the page shows under its topic:
- the comment right under `#pragma once` describes the header (its group, `\\defgroup`);
- everything in `namespace siglab { ... }` is in the group (the namespace itself is not: it spans
  every header);
- a comment on lines of its own describes what follows it (`///`);
- a comment after a declaration, an inline function or an enum value on its line describes that
  one (`///<`), and so do the comment lines aligned under it;
- a class's static member defined after the class is left to the class (`\\cond`);
- any other comment (`}  // namespace siglab`) stays as it is.
One process for every header, then one Doxygen run: Doxygen's INPUT_FILTER would start one
process per header (2 s of CPU instead of 0.5 s).
"""
import os
import re
import shutil
import subprocess
import sys

OWN_LINE = re.compile(r"^(\s*)//(?![/!])(.*)$")
# Code ending in ';', ',' or '}' then a comment: a member, a declaration, an enum value, an inline
# function; not a lone closing brace (`}  // namespace siglab`).
AFTER_CODE = re.compile(r"^(\s*[^\s}].*[;,}])(\s+)//(?![/!<])(.*)$")

# A class's static member defined after the class (`inline constexpr FileFormat FileFormat::text{...}`).
MEMBER_DEFINED_OUTSIDE = re.compile(r"^inline constexpr \S+ [A-Z]\w*::\w+\s*[{=]")
NAMESPACE_OPENS = re.compile(r"^namespace siglab \{")
NAMESPACE_CLOSES = re.compile(r"^\}\s*// namespace siglab")


def mark(lines, path):
    """The header's lines (path: as included) with its comments marked for Doxygen, line for line."""
    out = []
    # A header of macros only (host_device.hpp) is its group from its first line to its last.
    whole_file_group = not any(NAMESPACE_OPENS.match(line) for line in lines)
    in_file_comment = False
    trailing_column = None  # where the last line's after-code comment began, for lines aligned under it
    for line in lines:
        own = OWN_LINE.match(line)
        after = AFTER_CODE.match(line)
        if line.startswith("#pragma once"):
            out.append(f"/// \\defgroup {group_id(path)} {path}\n")
            in_file_comment = True
            trailing_column = None
            continue
        if own and in_file_comment:
            out.append(f"{own.group(1)}///{own.group(2)}\n")
            continue
        if in_file_comment and whole_file_group:  # the group opens at the end of its description
            if out[-1].startswith("/// \\defgroup"):
                out.append("/// @{\n")  # no description to end: one line more
            else:
                out[-1] = out[-1][:-1] + " @{\n"
        in_file_comment = False
        if NAMESPACE_OPENS.match(line):
            out.append(f"{line.rstrip()}  /** \\addtogroup {group_id(path)} */ /**@{{*/\n")
            continue
        if MEMBER_DEFINED_OUTSIDE.match(line):  # the class shows it; twice would be two targets of one name
            out.append(f"/** \\cond */ {line.rstrip()} /** \\endcond */\n")
            continue
        if NAMESPACE_CLOSES.match(line):
            out.append(f"/**@}}*/ {line}")
            continue
        if own and trailing_column is not None and len(own.group(1)) == trailing_column:
            out.append(f"{own.group(1)}///<{own.group(2)}\n")
        elif own:
            out.append(f"{own.group(1)}///{own.group(2)}\n")
            trailing_column = None
        elif after and after.group(1).count('"') % 2 == 0:
            out.append(f"{after.group(1)}{after.group(2)}///<{after.group(3)}\n")
            trailing_column = len(after.group(1)) + len(after.group(2))
        else:
            out.append(line if line.endswith("\n") else line + "\n")
            trailing_column = None
    if whole_file_group:
        out.append("/// @}\n")
    return out


def group_id(path):
    """siglab/io/signal.hpp -> siglab_io_signal_hpp: the header's group, named on the C++ API page."""
    return re.sub(r"\W", "_", path)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: cpp-api-xml.py OUT")
    out = os.path.abspath(sys.argv[1])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    include = os.path.join(root, "core", "include")
    shutil.rmtree(out, ignore_errors=True)
    for folder, _, files in os.walk(os.path.join(include, "siglab")):
        for name in sorted(f for f in files if f.endswith(".hpp")):
            path = os.path.relpath(os.path.join(folder, name), include)  # as included: siglab/io/signal.hpp
            os.makedirs(os.path.dirname(os.path.join(out, "headers", path)), exist_ok=True)
            with open(os.path.join(include, path), encoding="utf-8") as header:
                marked = mark(header.readlines(), path)
            with open(os.path.join(out, "headers", path), "w", encoding="utf-8") as copy:
                copy.writelines(marked)
    env = dict(os.environ, SIGLAB_DOXYGEN_OUT=out)
    sys.exit(subprocess.run(["doxygen", "docs/Doxyfile"], cwd=root, env=env).returncode)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Checks that the guide's C++ API page (docs/cpp-api.md) shows every public header of core/.

Each header under core/include/siglab/ is one Doxygen group (scripts/cpp-api-xml.py makes it),
rendered on the page by a `doxygengroup` directive under its topic. This fails, naming the header,
where a header is on no topic of the page, where the page names a header that is gone, and where
Doxygen's XML (--xml, or written by scripts/cpp-api-xml.py into a temporary folder) leaves a
declaration of a header out of its group (so out of the page) or finds nothing described in it,
and where what the page shows of a header's comments uses a word users do not know ("seed", an
issue number: scripts/doc-examples.py's rule).
"""
import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = os.path.join(ROOT, "core", "include")
PAGE = os.path.join(ROOT, "docs", "cpp-api.md")
SKIPPED = 77  # ctest's SKIP_RETURN_CODE for this test
GROUP_ON_PAGE = re.compile(r"^```\{doxygengroup\} (\S+)", re.M)


def doc_words():
    """The words users do not know (scripts/doc-examples.py's rule for every page and help text)."""
    spec = importlib.util.spec_from_file_location("doc_examples", os.path.join(ROOT, "scripts", "doc-examples.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.INTERNAL, module.RANDOM_SEED


def prose(element):
    """The descriptions' words, without the code they quote (a parameter named `seed`)."""

    def words(node):
        if node.tag == "computeroutput":
            return [node.tail or ""]
        return [node.text or ""] + [w for child in node for w in words(child)] + [node.tail or ""]

    parts = [part for tag in ("briefdescription", "detaileddescription") for part in element.iter(tag)]
    return " ".join(" ".join("".join(words(part)).split()) for part in parts)


def group_id(header):
    return re.sub(r"\W", "_", header)


def header_of(element):
    """The header a declaration is in, as included (Doxyfile strips core/include from the path)."""
    path = element.find("location").get("file")
    return os.path.relpath(path, INCLUDE) if os.path.isabs(path) else path


def public_headers():
    headers = []
    for folder, _, files in os.walk(os.path.join(INCLUDE, "siglab")):
        headers += [os.path.relpath(os.path.join(folder, f), INCLUDE) for f in files if f.endswith(".hpp")]
    return sorted(headers)


def page_problems(headers):
    if not os.path.exists(PAGE):
        return ["docs/cpp-api.md is missing: the C++ API page shows every header of core/include/siglab"]
    with open(PAGE, encoding="utf-8") as page:
        on_page = GROUP_ON_PAGE.findall(page.read())
    problems = []
    wanted = {group_id(h): h for h in headers}
    for header in headers:
        if group_id(header) not in on_page:
            problems.append(f"docs/cpp-api.md: {header} is on no topic; add its `doxygengroup` "
                            f"{group_id(header)} under the topic it belongs to")
    for group in on_page:
        if group not in wanted:
            problems.append(f"docs/cpp-api.md: `doxygengroup` {group} names no header under core/include/siglab")
        elif on_page.count(group) > 1:
            problems.append(f"docs/cpp-api.md: {wanted[group]} is on the page {on_page.count(group)} times")
    return problems


def described(element):
    return any(("".join(element.find(tag).itertext()).strip() if element.find(tag) is not None else "")
               for tag in ("briefdescription", "detaileddescription"))


def xml_problems(headers, xml_dir):
    """Every declaration Doxygen found in a header must be in that header's group, one described."""
    index = ET.parse(os.path.join(xml_dir, "index.xml")).getroot()
    found = {}  # header -> names of its declarations in namespace siglab
    grouped = {}  # group id -> names in it
    described_groups = set()
    texts = {}  # header -> its descriptions' words
    for compound in index.findall("compound"):
        kind = compound.get("kind")
        if kind not in ("file", "namespace", "class", "struct", "union", "group"):
            continue
        root = ET.parse(os.path.join(xml_dir, compound.get("refid") + ".xml")).getroot().find("compounddef")
        name = root.findtext("compoundname")
        if kind in ("group", "class", "struct", "union"):
            header = root.findtext("title") if kind == "group" else header_of(root)
            texts[header] = texts.get(header, "") + " " + prose(root)
        if kind == "group":
            members = {m.findtext("qualifiedname") or m.findtext("name") for m in root.iter("memberdef")}
            members |= {c.text for c in root.findall("innerclass")}
            grouped[name] = members
            if described(root) or any(described(m) for m in root.iter("memberdef")):
                described_groups.add(name)
            continue
        if kind == "file":  # its macros; its other declarations are in namespace siglab
            for member in root.iter("memberdef"):
                if member.get("kind") == "define":
                    found.setdefault(header_of(member), set()).add(member.findtext("name"))
        elif kind == "namespace" and name == "siglab":
            for member in root.iter("memberdef"):
                header = header_of(member)
                found.setdefault(header, set()).add(member.findtext("qualifiedname"))
        elif kind != "namespace" and name.count("::") == 1 and name.startswith("siglab::"):
            header = header_of(root)
            found.setdefault(header, set()).add(name)
            if described(root):
                described_groups.add(group_id(header))
    problems = []
    internal, random_seed = doc_words()
    for header, text in sorted(texts.items()):
        for word in internal.finditer(random_seed.sub("", text)):
            problems.append(f"{header}: a comment on the C++ API page says \"{word.group(0)}\", a word users do not know")
    for header in headers:
        group = group_id(header)
        if not found.get(header):
            problems.append(f"{header}: Doxygen found no declaration in namespace siglab")
            continue
        missing = sorted(found[header] - grouped.get(group, set()))
        if missing:
            problems.append(f"{header}: not on the C++ API page (outside its group {group}): {', '.join(missing)}")
        if group not in described_groups:
            problems.append(f"{header}: nothing in it has a description (a // comment above its main declaration)")
    return problems


def write_xml(out_dir):
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "cpp-api-xml.py"), out_dir], check=True)
    return os.path.join(out_dir, "xml")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xml", help="Doxygen's XML folder (default: run doxygen into a temporary folder)")
    args = parser.parse_args()
    if not args.xml and not shutil.which("doxygen"):
        print("cpp-api: skipped: doxygen is not installed (scripts/setup.sh installs it)")
        return SKIPPED
    headers = public_headers()
    problems = page_problems(headers)
    if args.xml:
        problems += xml_problems(headers, args.xml)
    else:
        with tempfile.TemporaryDirectory() as out_dir:
            problems += xml_problems(headers, write_xml(out_dir))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"cpp-api: {len(headers)} headers, each on docs/cpp-api.md with everything it declares")
    return 0


if __name__ == "__main__":
    sys.exit(main())

# The SigLab user guide: Sphinx with MyST Markdown and the furo theme (Debian's python3-sphinx,
# python3-myst-parser, furo). Built by scripts/docs.sh, which first writes the generated reference
# pages under _generated/ from siglab-cli and the Python module of the build, and the C++ API's
# Doxygen XML from core's headers (docs/Doxyfile), which Breathe renders.
import os
import sys

project = "SigLab"
author = "The SigLab developers"
copyright = "The SigLab developers, GNU GPL 3 or later"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "breathe"]
source_suffix = {".md": "markdown"}
myst_heading_anchors = 3
html_theme = "furo"
html_title = "SigLab user guide"
# perf/ holds benchmark outputs as printed (linked as downloads); _generated/ is included by the
# reference pages; the audit is a working note.
exclude_patterns = ["_build", "_generated", "perf", "issue-16-audit.md"]
autodoc_member_order = "bysource"

# The Python module is imported from the build (scripts/docs.sh sets SIGLAB_PYTHON_PATH).
if os.environ.get("SIGLAB_PYTHON_PATH"):
    sys.path.insert(0, os.environ["SIGLAB_PYTHON_PATH"])

# The C++ API page (cpp-api.md) reads the XML that scripts/docs.sh has Doxygen write into the build.
breathe_projects = {"siglab": os.environ.get("SIGLAB_DOXYGEN_XML", "../build/docs/doxygen/xml")}
breathe_default_project = "siglab"
breathe_domain_by_extension = {"hpp": "cpp"}


def _drop_group_titles(app, doctree):
    """Breathe titles each header's group "group siglab_pipeline_hpp"; the page's heading already
    names the header, so only the group's description and declarations stay."""
    from sphinx import addnodes

    for desc in list(doctree.findall(addnodes.desc)):
        if desc.get("objtype") == "group":
            content = next(iter(desc.findall(addnodes.desc_content)))
            desc.replace_self(content.children)


def setup(app):
    app.connect("doctree-read", _drop_group_titles)

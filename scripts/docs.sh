#!/usr/bin/env bash
# Builds the user guide (docs/) into build/docs/html with Sphinx, MyST and furo; warnings are
# errors. The reference pages are written first from the build: the command-line reference by
# `siglab-cli reference --markdown`, the Python API from the module's docstrings (autodoc), or a
# note where this build has no Python module; the C++ API's XML by Doxygen from core's headers
# (scripts/cpp-api-xml.py), rendered by Breathe.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SIGLAB_BUILD_DIR:-build}
[[ -f $build/build.ninja ]] || { echo "docs: $build is not configured; run scripts/build.sh first" >&2; exit 1; }
targets=(siglab-cli)
[[ $'\n'$(ninja -C "$build" -t targets all) == *$'\nsiglab_python:'* ]] && targets+=(siglab_python)
cmake --build "$build" --target "${targets[@]}"
mkdir -p docs/_generated
"$build/bin/siglab-cli" reference --markdown > docs/_generated/cli.md
if SIGLAB_PYTHON_PATH=$build/python /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import siglab' "$build/python" 2>/dev/null; then
  cat > docs/_generated/python.md <<'PAGE'
# Python API reference

Written from the docstrings of the module this build made (`import siglab`).

```{eval-rst}
.. automodule:: siglab
   :members:
   :no-undoc-members:
```
PAGE
else
  printf '# Python API reference\n\nThis guide was built without the Python module (it needs pybind11 and Python'"'"'s headers: `scripts/setup.sh` installs them); `help(siglab)` shows the same text.\n' > docs/_generated/python.md
fi
/usr/bin/python3 scripts/cpp-api-xml.py "$build/docs/doxygen"
SIGLAB_DOXYGEN_XML=$(realpath "$build/docs/doxygen/xml") \
SIGLAB_PYTHON_PATH=$(realpath "$build/python" 2>/dev/null || true) \
  /usr/bin/python3 -m sphinx -W --keep-going -q -b html docs "$build/docs/html"
echo "docs: $build/docs/html/index.html"

# Sourced by the scripts that build the extension elsewhere (sanitize.sh,
# freethreaded.sh): copy_tree ROOT DEST copies the sources needed to build
# and test, without built extensions or generated C (cythonize regenerates it).
copy_tree() {
  mkdir -p "$2"
  tar -C "$1" --exclude='*.so' --exclude='src/rougekit/*.c' --exclude='src/rougekit/**/*.c' --exclude='.venv' --exclude='build' \
      --exclude='.git' --exclude='__pycache__' --exclude='*.egg-info' \
      -cf - setup.py pyproject.toml mypy.ini src tests $( [ -d "$1/examples" ] && echo examples ) \
      $(cd "$1" && ls -d README* CHANGELOG.md CONTRIBUTING.md mkdocs.yml docs 2>/dev/null) | tar -C "$2" -xf -
}

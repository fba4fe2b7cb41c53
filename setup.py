"""Build the compiled core: every ``.pyx`` under ``src/rougekit`` becomes an
extension named after its path (``src/rougekit/_core/_lcs.pyx`` is
``rougekit._core._lcs``), with the shared C headers of ``_core/include``.

Where no C extension can be built (no working C compiler, no Python C headers,
no Cython), the install goes on without them: rougekit then runs its pure-Python
twins (``rougekit.BACKEND == "pure"``, the same scores, slower), and the build
prints one line that says so and how to get the compiled core. A compiler that
works but fails on rougekit's own C sources is an error, not a fallback.

Environment:

- ``ROUGEKIT_NO_EXTENSIONS=1``: the pure-Python package only, no compiler used.
- ``ROUGEKIT_REQUIRE_EXTENSIONS=1``: the compiled core is required; where it
  cannot be built, the build fails instead of falling back. ``ROUGEKIT_WERROR``,
  ``ROUGEKIT_SANITIZE`` and cibuildwheel's ``CIBUILDWHEEL`` require it too, so
  CI and the wheel builds fail loudly.
- ``ROUGEKIT_WERROR=1``: every compiler warning is an error (CI and the Linux
  wheel builds set it; a user's build from the sdist, with whatever compiler is
  there, does not).
- ``ROUGEKIT_SANITIZE=1``: AddressSanitizer and UBSan (tests only).
- ``ROUGEKIT_BUILD_JOBS=N``: N modules built at a time (default: one per core).
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError


def _flag(name):
    return os.environ.get(name, "") not in ("", "0")


INCLUDE = os.path.join("src", "rougekit", "_core", "include")
# Modules cythonized and compiled at once (ROUGEKIT_BUILD_JOBS, default: every core).
JOBS = int(os.environ.get("ROUGEKIT_BUILD_JOBS") or os.cpu_count() or 1)
NO_EXTENSIONS = _flag("ROUGEKIT_NO_EXTENSIONS")
# The first variable that makes the compiled core required (no pure fallback):
# the explicit switch, then the settings of builds that exist to test or ship it.
REQUIRED_BY = next((name for name in ("ROUGEKIT_REQUIRE_EXTENSIONS", "ROUGEKIT_WERROR",
                                      "ROUGEKIT_SANITIZE", "CIBUILDWHEEL") if _flag(name)),
                   None)
if NO_EXTENSIONS and _flag("ROUGEKIT_REQUIRE_EXTENSIONS"):
    sys.exit("rougekit: ROUGEKIT_NO_EXTENSIONS=1 (no compiled core) and "
             "ROUGEKIT_REQUIRE_EXTENSIONS=1 (the compiled core or an error) contradict "
             "each other: unset one")

if sys.platform == "win32":
    # /fp:precise forbids contracting a*b+c into an FMA, which would change
    # roundings relative to CPython's float arithmetic.
    CFLAGS = ["/O2", "/W3", "/fp:precise"]
    LDFLAGS = []
else:
    # -ffp-contract=off: no fused multiply-add on any platform, so every
    # float we compute in C rounds exactly as CPython's does.
    CFLAGS = ["-O3", "-Wall", "-Wno-unused-function", "-ffp-contract=off"]
    LDFLAGS = []
    if _flag("ROUGEKIT_SANITIZE"):
        san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer",
               "-fno-sanitize-recover=undefined"]
        CFLAGS = ["-O1", "-g", "-Wall", "-Wno-unused-function", "-ffp-contract=off"] + san
        LDFLAGS = san
if _flag("ROUGEKIT_WERROR"):
    CFLAGS = CFLAGS + (["/WX"] if sys.platform == "win32" else ["-Werror"])

# What a failed compiler run raises (distutils' own list for optional extensions,
# less its setup errors): a compiler that fails, cannot be run, or is not there.
BUILD_ERRORS = (CCompilerError, ExecError, PlatformError)
# Each probe: a C file, and what its failure means. The first needs a C
# compiler, the second Python's C headers too (Debian's python3 lacks them).
PROBES = (
    ("int rk_probe(void) { return 0; }\n",
     "no working C compiler", "install one (gcc, clang or MSVC)"),
    ("#include <Python.h>\nint rk_probe(void) { return 0; }\n",
     "no Python C headers", "install them (Debian/Ubuntu: python3-dev)"),
)


def extensions():
    if NO_EXTENSIONS:
        return []
    exts = []
    pattern = os.path.join("src", "rougekit", "**", "*.pyx")
    for pyx in sorted(glob.glob(pattern, recursive=True)):
        module = os.path.splitext(os.path.relpath(pyx, "src"))[0]
        name = module.replace(os.sep, ".")
        exts.append(Extension(name, [pyx], include_dirs=[INCLUDE],
                              extra_compile_args=CFLAGS,
                              extra_link_args=LDFLAGS))
    return exts


def tell(line):
    """Say `line` where the person installing sees it: on stderr, which pip
    shows only with -v (it captures a build's output), and on the terminal
    when stderr is not it and this process is in its foreground."""
    print(line, file=sys.stderr, flush=True)
    if os.name != "posix" or sys.stderr.isatty():
        return
    try:
        fd = os.open("/dev/tty", os.O_WRONLY | os.O_NOCTTY)
    except OSError:                         # no controlling terminal
        return
    try:
        # A background job that writes to its terminal may be stopped (TOSTOP).
        if os.tcgetpgrp(fd) == os.getpgrp():
            os.write(fd, ("\n" + line + "\n").encode("utf-8", "replace"))
    except OSError:
        pass
    finally:
        os.close(fd)


def failure(exc):
    """What went wrong in a compiler run, in a few words: the command that
    failed and how, not the whole command line."""
    cause = exc
    while cause is not None:
        if isinstance(cause, subprocess.CalledProcessError):
            cmd = cause.cmd if isinstance(cause.cmd, str) else cause.cmd[0]
            return "%s exited with status %s" % (cmd, cause.returncode)
        if isinstance(cause, OSError) and cause.filename:
            return "%s: %s" % (cause.filename, cause.strerror)
        cause = cause.__cause__ or cause.__context__
    text = (str(exc).strip() or type(exc).__name__).splitlines()[0]
    return text if len(text) <= 160 else text[:157] + "..."


class BuildExt(build_ext):
    """Probes the compiler first: where no extension can be built, builds
    none (or fails, when the compiled core is required); else cythonizes and
    builds every module, and any failure is an error."""

    def build_extensions(self):
        cannot = self.cannot_build()
        if cannot is not None:
            what, remedy = cannot
            if REQUIRED_BY:
                sys.exit("rougekit: cannot build the compiled core: %s; %s=%s requires it "
                         "(ROUGEKIT_NO_EXTENSIONS=1 builds the pure-Python package)"
                         % (what, REQUIRED_BY, os.environ[REQUIRED_BY]))
            self.extensions = []            # nothing to build, copy or install
            tell("rougekit: built WITHOUT its compiled core: %s. The pure-Python backend "
                 "gives the same scores, slower; for the compiled one, %s and reinstall "
                 "(with pip's --no-cache-dir, so that this build is not reused), or install "
                 "a prebuilt wheel." % (what, remedy))
            return
        from Cython.Build import cythonize

        # The .c files, into the extensions themselves: setuptools has set its
        # attributes on them (cythonize returns copies).
        cythonized = cythonize(
            self.extensions,
            # cythonize's worker processes are forked: Linux only (spawned ones
            # would re-run this file).
            nthreads=JOBS if JOBS > 1 and sys.platform.startswith("linux") else 0,
            include_path=["src"],
            language_level=3,
            compiler_directives={
                "boundscheck": False,
                "wraparound": False,
                "cdivision": True,
                "initializedcheck": False,
                "embedsignature": True,
            },
        )
        sources = {ext.name: ext.sources for ext in cythonized}
        for ext in self.extensions:
            ext.sources = sources[ext.name]
        try:
            super().build_extensions()
        except BUILD_ERRORS:
            tell("rougekit: the C compiler works but failed on rougekit's C sources (above); "
                 "please report it. ROUGEKIT_NO_EXTENSIONS=1 builds the pure-Python package.")
            raise

    def cannot_build(self):
        """None when a C extension can be built here, else (what is missing,
        how to get it)."""
        try:
            import Cython.Build  # noqa: F401
        except ImportError as exc:
            return ("no Cython (%s)" % exc,
                    "install Cython>=3.0.10 (pip's build isolation does)")
        tmp = tempfile.mkdtemp(prefix="rougekit-probe-")
        try:
            for i, (code, what, remedy) in enumerate(PROBES):
                source = os.path.join(tmp, "probe%d.c" % i)
                with open(source, "w") as f:
                    f.write(code)
                try:
                    self.compiler.compile([source], output_dir=tmp, extra_postargs=CFLAGS)
                except BUILD_ERRORS as exc:
                    return "%s (%s)" % (what, failure(exc)), remedy
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return None


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt},
      options={"build_ext": {"parallel": JOBS}})

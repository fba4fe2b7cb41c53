"""Build the compiled core: every ``.pyx`` under ``src/rougekit`` becomes an
extension named after its path (``src/rougekit/_core/_lcs.pyx`` is
``rougekit._core._lcs``), with the shared C headers of ``_core/include``.

Set ``ROUGEKIT_NO_EXTENSIONS=1`` to install the pure-Python package only,
``ROUGEKIT_SANITIZE=1`` to build with AddressSanitizer and UBSan (tests only),
and ``ROUGEKIT_WERROR=1`` to make every compiler warning an error (CI and the
wheel builds set it; a user's build from the sdist, with whatever compiler is
there, does not). ``ROUGEKIT_BUILD_JOBS=N`` builds N modules at a time
(default: one per core).
"""
import glob
import os
import sys

from setuptools import Extension, setup

INCLUDE = os.path.join("src", "rougekit", "_core", "include")
# Modules cythonized and compiled at once (ROUGEKIT_BUILD_JOBS, default: every core).
JOBS = int(os.environ.get("ROUGEKIT_BUILD_JOBS") or os.cpu_count() or 1)
NO_EXTENSIONS = os.environ.get("ROUGEKIT_NO_EXTENSIONS", "") not in ("", "0")

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
    if os.environ.get("ROUGEKIT_SANITIZE", "") not in ("", "0"):
        san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer",
               "-fno-sanitize-recover=undefined"]
        CFLAGS = ["-O1", "-g", "-Wall", "-Wno-unused-function", "-ffp-contract=off"] + san
        LDFLAGS = san
if os.environ.get("ROUGEKIT_WERROR", "") not in ("", "0"):
    CFLAGS = CFLAGS + (["/WX"] if sys.platform == "win32" else ["-Werror"])


def extensions():
    if NO_EXTENSIONS:
        return []
    from Cython.Build import cythonize

    exts = []
    pattern = os.path.join("src", "rougekit", "**", "*.pyx")
    for pyx in sorted(glob.glob(pattern, recursive=True)):
        module = os.path.splitext(os.path.relpath(pyx, "src"))[0]
        name = module.replace(os.sep, ".")
        exts.append(Extension(name, [pyx], include_dirs=[INCLUDE],
                              extra_compile_args=CFLAGS,
                              extra_link_args=LDFLAGS))
    return cythonize(
        exts,
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


setup(ext_modules=extensions(), options={"build_ext": {"parallel": JOBS}})

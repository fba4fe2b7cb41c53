"""Build the compiled core: every ``src/rougekit/**/*.pyx`` becomes an extension
(module name from its path).

Set ``ROUGEKIT_NO_EXTENSIONS=1`` to install the pure-Python package only, and
``ROUGEKIT_SANITIZE=1`` to build with AddressSanitizer and UBSan (tests only).
"""
import glob
import os
import sys

from setuptools import Extension, setup

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
        CFLAGS = ["-O1", "-g", "-Wall", "-ffp-contract=off"] + san
        LDFLAGS = san


def extensions():
    if NO_EXTENSIONS:
        return []
    from Cython.Build import cythonize

    exts = []
    for pyx in sorted(glob.glob(os.path.join("src", "rougekit", "**", "*.pyx"), recursive=True)):
        name = os.path.splitext(os.path.relpath(pyx, "src"))[0].replace(os.sep, ".")
        exts.append(Extension(name, [pyx], include_dirs=["src/rougekit"],
                              extra_compile_args=CFLAGS,
                              extra_link_args=LDFLAGS))
    return cythonize(
        exts,
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


setup(ext_modules=extensions())

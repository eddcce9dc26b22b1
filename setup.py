"""The optional C extensions: the trick kernel of every game, the record bytes and the solver's kernel (everything else is in pyproject.toml).

``optional=True``: where it cannot be built (no compiler, no Python headers) phatlog installs without it
and the pure-Python engine does all the work.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "phatlog._native._trick",
            ["phatlog/_native/_trick.c"],
            depends=["phatlog/_native/_common.h"],
            optional=True,
        ),
        Extension(
            "phatlog._native._bytes",
            ["phatlog/_native/_bytes.c"],
            depends=["phatlog/_native/_common.h"],
            optional=True,
        ),
        Extension(
            "phatlog._native._solve",
            ["phatlog/_native/_solve.c"],
            extra_compile_args=["-O3"],  # 0 to 11 % less time than -O2 (docs/performance.md)
            optional=True,
        ),
    ]
)

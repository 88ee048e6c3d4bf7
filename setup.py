"""Build the compiled hot loops; everything else is declared in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "excover.dlx._engine",
        ["src/excover/dlx/_engine.pyx"],
        extra_compile_args=["-O3"],
    ),
    Extension(
        "excover.zdd._store",
        ["src/excover/zdd/_store.pyx"],
        extra_compile_args=["-O3"],
    ),
    Extension(  # OpenMP: the frontier count shares each layer among threads
        "excover.zdd._frontier",
        ["src/excover/zdd/_frontier.pyx"],
        extra_compile_args=["-O3", "-fopenmp"],
        extra_link_args=["-fopenmp"],
    ),
    Extension(
        "excover.puzzles._grid",
        ["src/excover/puzzles/_grid.pyx"],
        extra_compile_args=["-O3"],
    ),
    Extension(
        "excover.puzzles._nonogram",
        ["src/excover/puzzles/_nonogram.pyx"],
        extra_compile_args=["-O3"],
    ),
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)

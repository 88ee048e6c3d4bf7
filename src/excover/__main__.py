"""``python -m excover``: the same command as ``excover`` (see :mod:`excover.main`)."""

from excover.main import program

__all__: list[str] = []

if __name__ == "__main__":
    program()

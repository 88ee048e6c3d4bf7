"""``python -m excover``: the same command as ``excover`` (see :mod:`excover.cli`)."""

from excover.cli import command

__all__: list[str] = []

if __name__ == "__main__":
    command()

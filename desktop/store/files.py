"""Reading input files within limits, and writing output files atomically.

Everything here reads or writes whole files and raises BadFileError with the file's name;
nothing is written in place (a crash mid-write leaves the old file, never half a file).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from desktop.store.errors import BadFileError

MAX_INPUT_BYTES = 20 * 1024 * 1024


def short_path(path: Path | str) -> str:
    """A path for a one-line message: very long names are cut in the middle."""
    text = str(path)
    return text if len(text) <= 160 else f"{text[:80]}…{text[-60:]}"


def read_bytes(path: Path, limit: int = MAX_INPUT_BYTES, what: str = "file") -> bytes:
    try:
        with path.open("rb") as handle:
            # Read one byte past the limit: the size a file claims is not trusted (a pipe or
            # a growing file has none).
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise BadFileError(f"{short_path(path)}: no such file") from None
    except IsADirectoryError:
        raise BadFileError(f"{short_path(path)}: is a folder, not a {what}") from None
    except OSError as error:
        raise BadFileError(f"{short_path(path)}: cannot read it: "
                           f"{error.strerror or error}") from None
    if len(data) > limit:
        raise BadFileError(f"{short_path(path)}: too large for a {what} (the limit is "
                           f"{limit} bytes)")
    return data


def parse_json(data: bytes, name: str) -> Any:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadFileError(f"{name}: not a text file (expected UTF-8 JSON)") from None
    try:
        # A number too long to be anything real becomes infinity, which the readers then
        # refuse with the place it was found, instead of Python's digit-limit error.
        return json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as error:
        raise BadFileError(f"{name}: not valid JSON: {error.msg} at line {error.lineno} "
                           f"column {error.colno}") from None
    except RecursionError:
        raise BadFileError(f"{name}: JSON nested too deeply") from None
    except ValueError as error:
        raise BadFileError(f"{name}: not usable JSON: {str(error)[:120]}") from None


def read_json(path: Path, limit: int = MAX_INPUT_BYTES, what: str = "JSON file") -> Any:
    return parse_json(read_bytes(path, limit, what), short_path(path))


def _bounded_int(text: str) -> int | float:
    return int(text) if len(text) <= 64 else float("inf")


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder and a rename."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part",
                                             dir=folder)
    except OSError as error:
        raise BadFileError(f"{short_path(path)}: cannot write there: "
                           f"{error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as output:
            output.write(data)
            output.flush()
            os.fsync(output.fileno())
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise BadFileError(f"{short_path(path)}: cannot write it: "
                           f"{error.strerror or error}") from None

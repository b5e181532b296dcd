"""Reading input files within limits, and writing output files atomically.

Everything here reads or writes whole files and raises BadFileError with the file's name;
nothing is written in place (a crash mid-write leaves the old file, never half a file).
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from desktop.engine.errors import printable
from desktop.store.errors import BadFileError
from desktop.store.open_files import OPENING, held

MAX_INPUT_BYTES = 20 * 1024 * 1024
# Rout's own documents nest 7 deep at most. A bound of our own, rather than Python's
# RecursionError, which depends on the stack left (a worker thread has less).
MAX_JSON_DEPTH = 64
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_AS_PARENTHESES = str.maketrans("[]{}", "()()")


def short_path(path: Path | str) -> str:
    """A path for a one-line message: very long names are cut in the middle, and a line
    break or terminal escape in a file name is shown as its escape (\\n, \\x1b)."""
    text = str(path)
    if len(text) > 160:
        text = f"{text[:80]}…{text[-60:]}"
    return printable(text)


def read_bytes(path: Path, limit: int = MAX_INPUT_BYTES, what: str = "file") -> bytes:
    """A regular file's bytes, up to `limit`. A named pipe, a device or a socket is refused
    without waiting: reading one waits for a writer that may never come."""
    try:
        with OPENING:
            refuse_open_database(path, what)
            # One byte past the limit: the size a file claims is not trusted (a file still
            # growing says less).
            data = read_regular(path, limit + 1)
    except NotRegularFileError:
        raise BadFileError(f"{short_path(path)}: not a regular file (a pipe, a device or a "
                           f"socket), so not a {what}") from None
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


class NotRegularFileError(OSError):
    """A named pipe, a device or a socket: reading one waits for a writer that may never
    come."""


def read_regular(path: Path, size: int) -> bytes:
    """Up to `size` bytes of the regular file at `path`. It is opened without blocking (a
    pipe with no writer would wait there) and then asked what it is through that descriptor,
    so nothing can be swapped in between: IsADirectoryError for a folder,
    NotRegularFileError for anything else that is not a file, other OSErrors as the system
    gives them. Call it under OPENING (desktop.store.open_files)."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_BINARY", 0))
    with os.fdopen(descriptor, "rb") as handle:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFileError(errno.EINVAL, "not a regular file", str(path))
        return handle.read(size)


def refuse_open_database(path: Path, what: str) -> None:
    """A database this process has open is neither read nor replaced as another file: the
    descriptor that did it would drop SQLite's locks on it (desktop.store.open_files)."""
    if held(path):
        raise BadFileError(f"{short_path(path)}: this is the database Rout has open, not a "
                           f"{what}; nothing was read or written")


class NestedTooDeepError(ValueError):
    """JSON nested past MAX_JSON_DEPTH (a ValueError: the store reports a damaged row)."""


def _nested_too_deep(text: str) -> bool:
    """Whether any array or object in `text` sits more than MAX_JSON_DEPTH deep, worked out
    without recursion: each pass takes away the innermost empty pairs."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return False  # too few openings to nest that deep: most rows stop here
    shape = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)).translate(_AS_PARENTHESES)
    too_deep = "(" * (MAX_JSON_DEPTH + 1)
    for _ in range(MAX_JSON_DEPTH):
        # Openers in a row nest as deep, closed or not: found at once, not after 64 passes.
        if too_deep in shape:
            return True
        shorter = shape.replace("()", "")
        if len(shorter) == len(shape):
            return False  # all gone, or unbalanced (json.loads then says where)
        shape = shorter
    return "()" in shape


def load_json(text: str | bytes, parse_int: Any = None) -> Any:
    """json.loads with nesting bounded, for files and the database's JSON columns alike
    (the store's engines use it as their json_deserializer)."""
    if isinstance(text, bytes | bytearray | memoryview):
        text = bytes(text).decode("utf-8")
    if _nested_too_deep(text):
        raise NestedTooDeepError(f"JSON nested more than {MAX_JSON_DEPTH} deep")
    try:
        return json.loads(text, parse_int=parse_int)
    except RecursionError:  # not reached within the bound; kept as a last guard
        raise NestedTooDeepError("JSON nested too deeply") from None


# Python's JSON messages, in a player's words (the rest are lowered as they are).
_JSON_PROBLEMS = {
    "Expecting value": "a value was expected",
    "Expecting property name enclosed in double quotes": "a field name in double quotes "
                                                         "was expected",
    "Expecting ',' delimiter": "a comma was expected",
    "Expecting ':' delimiter": "a colon was expected",
    "Extra data": "there is more after the end of the data",
    "Unterminated string starting at": "a text is not closed by its double quote",
}


def _json_problem(message: str) -> str:
    return _JSON_PROBLEMS.get(message, message[:1].lower() + message[1:])


def parse_json(data: bytes, name: str) -> Any:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadFileError(f"{name}: not a text file (expected UTF-8 JSON)") from None
    try:
        # A number too long to be anything real becomes infinity, which the readers then
        # refuse with the place it was found, instead of Python's digit-limit error.
        return load_json(text, parse_int=_bounded_int)
    except json.JSONDecodeError as error:
        raise BadFileError(f"{name}: not valid JSON: {_json_problem(error.msg)} at line "
                           f"{error.lineno}, column {error.colno}") from None
    except NestedTooDeepError as error:
        raise BadFileError(f"{name}: {error}") from None
    except ValueError as error:
        raise BadFileError(f"{name}: not usable JSON: {str(error)[:120]}") from None


def read_json(path: Path, limit: int = MAX_INPUT_BYTES, what: str = "JSON file") -> Any:
    return parse_json(read_bytes(path, limit, what), short_path(path))


def _bounded_int(text: str) -> int | float:
    return int(text) if len(text) <= 64 else float("inf")


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder and a rename.

    The file ends with the permissions any new file gets (the user's umask), or keeps those
    of the file it replaces: an exported roster is for sharing, not private like mkstemp's.
    """
    folder = path.parent if str(path.parent) else Path(".")
    with OPENING:
        refuse_open_database(path, "file to write")
    try:
        handle, temporary = _create_temporary(folder, path.name)
    except OSError as error:
        raise BadFileError(f"{short_path(path)}: cannot write there: "
                           f"{error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as output:
            _keep_mode(path, temporary)
            output.write(data)
            output.flush()
            os.fsync(output.fileno())
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise BadFileError(f"{short_path(path)}: cannot write it: "
                           f"{error.strerror or error}") from None


def _create_temporary(folder: Path, name: str) -> tuple[int, str]:
    """A new file beside the target, created with the mode a plain open() would give it.

    tempfile.mkstemp would make it readable by its owner only (0600), and the rename would
    carry that over to the exported file.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temporary = str(folder / f".{name}.{os.urandom(4).hex()}.part")
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file")


def _keep_mode(path: Path, temporary: str) -> None:
    """Give the new file the permissions of the file it replaces, if there is one."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return
    if stat.S_ISREG(found.st_mode):
        os.chmod(temporary, stat.S_IMODE(found.st_mode))

"""Making a folder or a file really read-only for the tests, whoever runs them.

Not as root, permissions do it (chmod a-w), as they would for a player. Root ignores
permissions, so as root the folder or file is bind-mounted read-only onto itself: a real
read-only file system, which stops root too (EROFS). Where root may not mount (a container
without CAP_SYS_ADMIN) the test is skipped saying so: nothing else would stop root writing.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

NOBODY = 65534  # the unprivileged user root's tests run the CLI as


def is_root() -> bool:
    return os.geteuid() == 0


@pytest.fixture
def nobodys_folder() -> Iterator[Path]:
    """A folder root owns and may write, which the unprivileged user (NOBODY) may only read:
    outside pytest's tmp folder, which is root's alone."""
    folder = Path(tempfile.mkdtemp(prefix="rout-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def read_only(path: Path) -> Iterator[str]:
    """`path` (a folder or a file) read-only while the block runs; yields how ("chmod" or
    "mount")."""
    if not is_root():
        mode = path.stat().st_mode
        path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        try:
            yield "chmod"
        finally:
            path.chmod(mode)
        return
    mount = shutil.which("mount")
    if mount is None:
        pytest.skip("running as root, where permissions stop no write, and no `mount` to "
                    "make a read-only file system")
    bound = subprocess.run([mount, "--bind", str(path), str(path)], capture_output=True,
                           text=True, check=False)
    if bound.returncode != 0:
        pytest.skip("running as root, where permissions stop no write, without the right to "
                    f"mount a read-only file system ({bound.stderr.strip()})")
    try:
        subprocess.run([mount, "-o", "remount,bind,ro", str(path)], capture_output=True,
                       check=True)
        yield "mount"
    finally:
        subprocess.run(["umount", str(path)], capture_output=True, check=False)


"""A throwaway PostgreSQL server on loopback for the store's tests.

Debian's `postgresql` package (installed by .ci/run) provides the binaries. PostgreSQL
refuses to run as root, so as root the server runs as the `postgres` user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path


def find_binaries() -> Path | None:
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    if candidates:
        return Path(candidates[0]).parent
    found = shutil.which("pg_ctl")
    return Path(found).resolve().parent if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.binaries = find_binaries()
        self.port = _free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        return subprocess.run([*prefix, *command], capture_output=True, text=True,
                              timeout=120, check=False)

    def start(self) -> str:
        """Start the server; returns a URL to its `postgres` database."""
        if self.binaries is None:
            raise RuntimeError("no PostgreSQL server binaries (apt-get install postgresql)")
        if self.user:
            try:
                entry = pwd.getpwnam(self.user)
            except KeyError:
                raise RuntimeError("running as root and there is no 'postgres' user") from None
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        data = self.folder / "data"
        made = self._run(str(self.binaries / "initdb"), "-D", str(data), "-U", "rout",
                         "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C")
        if made.returncode:
            raise RuntimeError(f"initdb failed: {made.stderr.strip()[-400:]}")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                   "-c fsync=off -c full_page_writes=off -c max_connections=60")
        started = self._run(str(self.binaries / "pg_ctl"), "-D", str(data), "-o", options,
                            "-l", str(self.folder / "server.log"), "-w", "-t", "60", "start")
        if started.returncode:
            log = (self.folder / "server.log").read_text(errors="replace")[-400:]
            raise RuntimeError(f"pg_ctl start failed: {started.stderr.strip()} {log}")
        return self.url("postgres")

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://rout@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        if self.binaries is not None and (self.folder / "data").exists():
            self._run(str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                      "immediate", "stop")


def wait_for(predicate, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False

"""Regenerate the committed form modules from the Designer files in ui/.

    python -m desktop.gui.forms.build           write forms/ui_<name>.py for every ui/<name>.ui
    python -m desktop.gui.forms.build --check   exit 1 if one is out of date (writes nothing)

The comparison ignores the header line where uic names its own version, so a different
PySide6 patch release does not make the committed modules "stale". A `ui_*.py` module whose
form was deleted counts as out of date; building removes it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

FORMS_DIR = Path(__file__).resolve().parent
REPO_ROOT = FORMS_DIR.parents[2]
UI_DIR = REPO_ROOT / "ui"
VERSION_MARKERS = ("User Interface Compiler version", "Created by:")


class BuildError(Exception):
    """The forms could not be generated; the message says why."""


def _uic_command() -> list[str]:
    """pyside6-uic from the running environment, so the modules match the installed PySide6."""
    here = Path(sys.executable).parent
    tool = shutil.which("pyside6-uic", path=str(here)) or shutil.which("pyside6-uic")
    if tool is None:
        raise BuildError("pyside6-uic not found; install PySide6 in this environment")
    return [tool]


def normalise(text: str) -> str:
    """Generated text without line-ending differences or the uic version header line."""
    lines = text.replace("\r\n", "\n").split("\n")
    return "\n".join(line for line in lines
                     if not any(marker in line for marker in VERSION_MARKERS))


def module_path(form: Path) -> Path:
    """Where the module generated from `form` lives."""
    return FORMS_DIR / f"ui_{form.stem}.py"


def generate(form: Path) -> str:
    """The Python source pyside6-uic makes from one form."""
    result = subprocess.run([*_uic_command(), str(form)], capture_output=True, text=True,
                            check=False)
    if result.returncode != 0:
        detail = result.stderr.strip().splitlines()
        raise BuildError(f"pyside6-uic failed on {form}: {detail[-1] if detail else result}")
    return result.stdout


def forms() -> list[Path]:
    """Every Designer form in ui/, sorted by name."""
    if not UI_DIR.is_dir():
        raise BuildError(f"no ui/ folder at {UI_DIR}; run this from a source checkout")
    return sorted(UI_DIR.glob("*.ui"))


def orphans(current: Sequence[Path]) -> list[Path]:
    """Generated modules whose form no longer exists."""
    expected = {module_path(form) for form in current}
    return sorted(path for path in FORMS_DIR.glob("ui_*.py") if path not in expected)


def stale_modules() -> list[str]:
    """Human-readable reasons why the committed modules are out of date (empty: all current)."""
    problems: list[str] = []
    current = forms()
    for form in current:
        target = module_path(form)
        if not target.is_file():
            problems.append(f"{target.relative_to(REPO_ROOT)} is missing")
        elif normalise(target.read_text(encoding="utf-8")) != normalise(generate(form)):
            problems.append(f"{target.relative_to(REPO_ROOT)} is older than "
                            f"{form.relative_to(REPO_ROOT)}")
    problems.extend(f"{path.relative_to(REPO_ROOT)} has no form in ui/"
                    for path in orphans(current))
    return problems


def build() -> list[Path]:
    """Write every module whose content changed; remove orphans. Returns what changed."""
    changed: list[Path] = []
    current = forms()
    for form in current:
        target = module_path(form)
        text = generate(form)
        old = target.read_text(encoding="utf-8") if target.is_file() else None
        if old is None or normalise(old) != normalise(text):
            target.write_text(text, encoding="utf-8", newline="\n")
            changed.append(target)
    for path in orphans(current):
        path.unlink()
        changed.append(path)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m desktop.gui.forms.build",
        description="Regenerate desktop/gui/forms/ui_*.py from ui/*.ui with pyside6-uic.")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a generated module is out of date; write nothing")
    args = parser.parse_args(argv)
    try:
        if args.check:
            problems = stale_modules()
            for problem in problems:
                print(problem, file=sys.stderr)
            if problems:
                print("run: python -m desktop.gui.forms.build", file=sys.stderr)
                return 1
            return 0
        for path in build():
            print(f"{'wrote' if path.exists() else 'removed'} {path.relative_to(REPO_ROOT)}")
    except BuildError as error:
        print(f"build: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

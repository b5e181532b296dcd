"""The resolution wizard: pages from the engine's requests (DESIGN.md, "Resolution wizard")."""

from desktop.gui.wizard.selection import combats_from_selection
from desktop.gui.wizard.wizard import ResolutionWizard

__all__ = ["ResolutionWizard", "combats_from_selection"]

"""The forecast's exact walk as it was before phases (kept as a test oracle).

It knows nothing of checkpoints: every branch but the last of each roll replays the
resolution from its start with the answers so far, each run a leaf of its own. It branches
on the same classes of faces as the forecast (`classes_of`) and trusts "move" rolls the same
way, so the two must agree to the last fraction and count the same runs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction

from desktop.engine.forecast import Branch, UnitOutcome, classes_of, faces_for, summarise
from desktop.engine.procedure import Answer, Choice, Resolution, Roll, Session, Shared
from desktop.engine.sight import Sight

Subtree = tuple[dict[UnitOutcome, Fraction], set[str]]


class ReplayingWalk:
    def __init__(self, resolution: Resolution, choices: Mapping[str, str]) -> None:
        self.resolution = resolution
        self.choices = choices
        self.leaves = 0
        self.shared = Shared()

    def subtree(self, answers: tuple[Answer, ...], relied: frozenset[str],
                session: Session | None = None) -> Subtree:
        if session is None:
            session = self.resolution.replay(answers, sight=Sight(relied), shared=self.shared)
        while isinstance(session.pending, Choice):
            session.answer(self.choices.get(session.pending.key, session.pending.default))
        if session.done:
            self.leaves += 1
            assert session.sight is not None
            return ({summarise(self.resolution.battle, session.events): Fraction(1)},
                    set(session.sight.broken))
        roll = session.pending
        assert isinstance(roll, Roll)
        here = session.answers
        found: dict[UnitOutcome, Fraction] = defaultdict(Fraction)
        broken: set[str] = set()
        branches = classes_of(roll)
        for index, branch in enumerate(branches):
            trusted = roll.reads == "move" and len(branch.totals) > 1
            keys = relied | {roll.key} if trusted else relied
            live = None
            if index == len(branches) - 1:
                live = session
                if trusted:
                    assert live.sight is not None
                    live.sight.rely_on(roll.key)
                live.answer(branch.faces)
            made = self.leaves
            chances, below = self.subtree((*here, branch.faces), keys, live)
            if trusted and roll.key in below:
                self.leaves = made  # the class's runs are thrown away: they do not count
                chances, below = self.one_by_one(roll, here, branch, relied)
            share = Fraction(branch.ways, roll.dice.outcomes)
            for outcome, chance in chances.items():
                found[outcome] += share * chance
            broken |= below
        broken.discard(roll.key)
        return found, broken

    def one_by_one(self, roll: Roll, here: tuple[Answer, ...], branch: Branch,
                   relied: frozenset[str]) -> Subtree:
        found: dict[UnitOutcome, Fraction] = defaultdict(Fraction)
        broken: set[str] = set()
        ways = roll.dice.ways()
        for total in branch.totals:
            chances, below = self.subtree((*here, faces_for(roll.dice, total)), relied)
            share = Fraction(ways[total], branch.ways)
            for outcome, chance in chances.items():
                found[outcome] += share * chance
            broken |= below - {roll.key}
        return found, broken


def replaying_forecast(resolution: Resolution, answers: tuple[Answer, ...] = (),
                       choices: Mapping[str, str] | None = None
                       ) -> tuple[dict[UnitOutcome, Fraction], int]:
    """Each whole outcome's chance after `answers`, and the runs it took."""
    walk = ReplayingWalk(resolution, choices or {})
    found, _ = walk.subtree(tuple(answers), frozenset())
    return dict(found), walk.leaves

"""Animated engine moves: a picture of what the engine already decided.

When a move is applied the scene's items jump to the new state at once (the state is the
truth and stays right while anything plays). `Animator.play` then draws each Movement event
as a marker travelling its `path` (every leg at one speed, turning before or after as
`turned` says) while the real item waits, dimmed, where it ends; destroyed or caught units
fade out where they stood. `skip` ends everything at once.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QObject, QPointF, QSequentialAnimationGroup, QVariantAnimation
from PySide6.QtGui import QBrush, QColor, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPolygonItem,
    QGraphicsRectItem,
    QGraphicsScene,
)

from desktop.engine.events import Event, Movement, UnitCaught, UnitDestroyed
from desktop.engine.geometry import Point
from desktop.engine.model import Battle
from desktop.gui.battlefield.items import UnitItem, cosmetic_pen, player_colours

TABLE_CROSSING_S: Final = 6.0  # a move the length of the table takes this long (seconds)
TURN_DEGREES_PER_S: Final = 360.0
LONGEST_MOVE_S: Final = 1.6  # longer moves play faster: nobody waits for a picture
FADE_S: Final = 0.6
DIMMED: Final = 0.3  # the opacity of a unit's item while its marker travels to it

Pose = tuple[Point, float]  # centre, facing


@dataclass(frozen=True)
class Phase:
    """One straight leg or one turn in place, from pose to pose, over `seconds`."""

    start: Pose
    end: Pose
    seconds: float


def turn_between(start: float, end: float) -> float:
    """The signed smallest turn from `start` to `end` (degrees)."""
    return (end - start + 180.0) % 360.0 - 180.0


def movement_phases(event: Movement, start_facing: float, speed: float) -> list[Phase]:
    """The legs and turns of a move, each timed at `speed` table units (degrees: a fixed
    rate) per second; a move longer than LONGEST_MOVE_S is played faster to fit it."""
    path = list(event.path)
    legs = list(itertools.pairwise(path))
    length = sum(math.dist(a, b) for a, b in legs)
    turn = abs(turn_between(start_facing, event.facing))
    phases: list[Phase] = []
    if event.turned == "before" and turn:
        phases.append(Phase((path[0], start_facing), (path[0], event.facing),
                            turn / TURN_DEGREES_PER_S))
    travelled = 0.0
    for a, b in legs:
        if event.turned == "before":
            facings = (event.facing, event.facing)
        elif event.turned == "after":
            facings = (start_facing, start_facing)
        else:  # no separate turn: the facing changes along the way (a charge's alignment)
            share = (travelled / length, (travelled + math.dist(a, b)) / length) if length \
                else (0.0, 1.0)
            delta = turn_between(start_facing, event.facing)
            facings = (start_facing + delta * share[0], start_facing + delta * share[1])
        travelled += math.dist(a, b)
        phases.append(Phase((a, facings[0]), (b, facings[1]), math.dist(a, b) / speed))
    if event.turned == "after" and turn:
        phases.append(Phase((path[-1], start_facing), (path[-1], event.facing),
                            turn / TURN_DEGREES_PER_S))
    total = sum(phase.seconds for phase in phases)
    if total > LONGEST_MOVE_S:
        phases = [Phase(p.start, p.end, p.seconds * LONGEST_MOVE_S / total) for p in phases]
    return [phase for phase in phases if phase.seconds > 0]


def pose_at(phases: Sequence[Phase], seconds: float) -> Pose:
    """Where the marker stands `seconds` after the move began."""
    for phase in phases:
        if seconds <= phase.seconds:
            t = seconds / phase.seconds
            (a, facing_a), (b, facing_b) = phase.start, phase.end
            centre = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            return centre, facing_a + turn_between(facing_a, facing_b) * t
        seconds -= phase.seconds
    last = phases[-1].end
    return last[0], last[1]


class Animator(QObject):
    """Plays engine events on a scene, one after the other, without touching its state."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._group: QSequentialAnimationGroup | None = None
        self._drawn: list[QGraphicsItem] = []  # markers and fading outlines, removed at the end
        self._dimmed: list[UnitItem] = []
        self.markers: dict[str, QGraphicsRectItem] = {}  # unit -> its travelling marker, now

    @property
    def running(self) -> bool:
        return self._group is not None

    def play(self, before: Battle | None, events: Sequence[Event],
             items: dict[str, UnitItem], speed: float) -> None:
        """Animate `events`, which turned `before` into the battle the items already show."""
        self.skip()
        group = QSequentialAnimationGroup(self)
        battle = before
        for event in events:
            animation: QVariantAnimation | None = None
            if isinstance(event, Movement) and len(event.path) > 1:
                start_facing = event.start_facing
                if battle is not None and event.unit in battle.states:
                    start_facing = battle.states[event.unit].facing
                animation = self._travel(event, start_facing, items.get(event.unit), speed)
            elif isinstance(event, UnitDestroyed | UnitCaught) and event.corners:
                colour = QColor("#bbbbbb")
                if battle is not None and event.unit in battle.roster:
                    colour = player_colours(battle).get(battle.player_of(event.unit), colour)
                animation = self._fade(event.corners, colour)
            if animation is not None:
                group.addAnimation(animation)
            if battle is not None:
                battle = event.apply_to(battle)
        if group.animationCount() == 0:
            group.deleteLater()
            return
        self._group = group
        group.finished.connect(self.skip)
        group.start()

    def _travel(self, event: Movement, start_facing: float, item: UnitItem | None,
                speed: float) -> QVariantAnimation | None:
        phases = movement_phases(event, start_facing, speed)
        if item is None or not phases:
            return None
        marker = QGraphicsRectItem(item.rect())
        marker.setBrush(item.brush())
        marker.setPen(cosmetic_pen(QColor("#f4f4f4"), 1.5))
        marker.setZValue(35)
        marker.hide()  # until its turn comes in the sequence
        self._scene().addItem(marker)
        self._drawn.append(marker)
        self._dimmed.append(item)
        item.setOpacity(DIMMED)
        animation = QVariantAnimation(self)
        animation.setStartValue(0.0)
        animation.setEndValue(1.0)
        total = sum(phase.seconds for phase in phases)
        animation.setDuration(max(round(total * 1000), 1))

        def step(value: object) -> None:
            if not isinstance(value, float):
                return
            centre, facing = pose_at(phases, value * total)
            marker.setPos(QPointF(*centre))
            marker.setRotation(facing)
            marker.setVisible(value < 1.0)
            self.markers[event.unit] = marker

        animation.valueChanged.connect(step)
        return animation

    def _fade(self, corners: Sequence[Point], colour: QColor) -> QVariantAnimation:
        outline = QGraphicsPolygonItem(QPolygonF([QPointF(x, y) for x, y in corners]))
        outline.setBrush(QBrush(colour))
        outline.setPen(cosmetic_pen(colour.darker(170), 1.0))
        outline.setZValue(34)
        outline.hide()
        self._scene().addItem(outline)
        self._drawn.append(outline)
        animation = QVariantAnimation(self)
        animation.setStartValue(1.0)
        animation.setEndValue(0.0)
        animation.setDuration(round(FADE_S * 1000))

        def step(value: object) -> None:
            if isinstance(value, float):
                outline.setOpacity(value)
                outline.setVisible(value > 0.0)

        animation.valueChanged.connect(step)
        return animation

    def _scene(self) -> QGraphicsScene:
        scene = self.parent()
        assert isinstance(scene, QGraphicsScene)
        return scene

    def skip(self) -> None:
        """End every animation now: markers gone, items back to full opacity."""
        group, self._group = self._group, None
        if group is not None:
            group.finished.disconnect(self.skip)
            group.stop()
            group.deleteLater()
        for drawn in self._drawn:
            scene = drawn.scene()
            if scene is not None:
                scene.removeItem(drawn)
        for item in self._dimmed:
            item.setOpacity(1.0)
        self._drawn, self._dimmed, self.markers = [], [], {}

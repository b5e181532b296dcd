"""Column widths that fit the window rather than the longest name.

The roster: every column in sight at 1280×800, the unit's name taking the rest. Columns are
fitted to their contents whenever rows arrive (a new army, units added to an empty one), with
long text columns capped and elided so that the stat line never hides behind a scroll bar;
the player can still drag any column but the name, which stretches.

The Armies tree: the name column takes what the points column leaves, following the dock's
width, until the player drags it to a width of their own.
"""

from __future__ import annotations

import heapq

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTreeView,
)

from desktop.gui.roster_table import RosterTableModel

# The most a text column takes before it elides, in average characters: a profile name,
# the upgrades' short names and a slot rarely need more, and their tool tips say it all.
TEXT_CAPS = {"profile": 12, "upgrades": 12, "slot": 8}
PADDING = 14
# The unit's name keeps at least this many average characters: in a roster narrowed by a
# dock (the Army Book's at 1280), the capped text columns give way first, down to
# TEXT_FLOOR characters (or their header), profile first: the unit's name says most.
NAME_MIN_CHARS = 16
TEXT_FLOOR = 5
GIVE_WAY = ("profile", "upgrades", "slot")
# Rows the delegate measures per column: the widest texts (a margin for rounding and hinting).
MEASURED_ROWS = 3


class RosterColumns(QObject):
    """Keeps `view`'s columns fitted to `model`'s rows."""

    def __init__(self, view: QTableView, model: RosterTableModel) -> None:
        super().__init__(view)
        self.view = view
        self.model = model
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)  # once per turn of the event loop, however many signals
        self._timer.timeout.connect(self.fit)
        model.modelReset.connect(self._timer.start)
        model.rowsInserted.connect(self._timer.start)
        model.columnsInserted.connect(self._timer.start)
        # The player's own widths (by column key) stay through later fits.
        self.dragged: set[str] = set()
        self._fitting = False
        self._width = -1
        view.horizontalHeader().sectionResized.connect(self._dragged)
        view.viewport().installEventFilter(self)
        # Qt repaints a header from a resized section rightwards, as the sections stood at
        # that moment; when the stretched name column then takes its new width, everything
        # left of that point moves and would keep the old labels (another ruleset's) there.
        view.horizontalHeader().sectionResized.connect(self._repaint_header)

    def _repaint_header(self, *_resized: int) -> None:
        self.view.horizontalHeader().viewport().update()

    def fit_now(self) -> None:
        """Fit at once, dropping a fit still waiting for the event loop."""
        self._timer.stop()
        self.fit()

    def _dragged(self, section: int, old: int, new: int) -> None:
        header = self.view.horizontalHeader()
        if not self._fitting and section < self.model.columnCount() \
                and header.sectionResizeMode(section) == QHeaderView.ResizeMode.Interactive:
            self.dragged.add(self.model.column(section).key)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        # A dock opened or closed beside the roster: the text columns may give way again.
        if event.type() == QEvent.Type.Resize and self.view.viewport().width() != self._width:
            self._timer.start()
        return False

    def fit(self) -> None:
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        columns = self.model.columnCount()
        if not columns:
            return
        self._width = self.view.viewport().width()
        average = self.view.fontMetrics().averageCharWidth()
        name_column = self.model.column_of("name")
        widths: dict[int, int] = {}
        for section in range(columns):
            if section == name_column:
                continue
            key = self.model.column(section).key
            if key in self.dragged:
                widths[section] = header.sectionSize(section)
                continue
            width = max(self.content_width(section), header.sectionSizeHint(section))
            cap = TEXT_CAPS.get(key)
            if cap is not None:
                width = min(width, cap * average + PADDING)
            widths[section] = width
        short = sum(widths.values()) + NAME_MIN_CHARS * average + PADDING - self._width
        sections = {self.model.column(section).key: section for section in widths}
        for key in GIVE_WAY:
            section = sections.get(key, -1)
            if short <= 0 or section < 0 or key in self.dragged:
                continue
            floor = max(TEXT_FLOOR * average + PADDING, header.sectionSizeHint(section))
            given = min(short, max(widths[section] - floor, 0))
            widths[section] -= given
            short -= given
        self._fitting = True
        try:
            for section in range(columns):
                header.setSectionResizeMode(section, QHeaderView.ResizeMode.Interactive)
                if section in widths:
                    header.resizeSection(section, widths[section])
            header.setSectionResizeMode(name_column, QHeaderView.ResizeMode.Stretch)
        finally:
            self._fitting = False

    def content_width(self, section: int) -> int:
        """The width the widest cell of `section` asks for, as QTableView.sizeHintForColumn
        gives it, at a cost that hardly grows with the rows.

        The cells of a column differ only in their text and in the italic of a typed points
        figure, so the delegate measures just the few rows whose text is widest in the
        view's font (sizeHintForColumn asked it for every row: half a second for 200 units).
        Rows the filter hides count too, so the columns keep still as the filter changes.
        """
        plain = self.view.fontMetrics()
        slanted_font = QFont(self.view.font())
        slanted_font.setItalic(True)
        slanted = QFontMetrics(slanted_font)
        widths = []
        for row in range(self.model.rowCount()):
            text, italic = self.model.display_text(row, section)
            widths.append(((slanted if italic else plain).horizontalAdvance(text), row))
        option = QStyleOptionViewItem()
        self.view.initViewItemOption(option)
        delegate = self.view.itemDelegateForColumn(section) or self.view.itemDelegate()
        grid = 1 if self.view.showGrid() else 0
        return max((delegate.sizeHint(option, self.model.index(row, section)).width() + grid
                    for _, row in heapq.nlargest(MEASURED_ROWS, widths)), default=0)


class NameColumnFollower(QObject):
    """Keeps `view`'s first column as wide as the view less `rest` pixels for the others."""

    def __init__(self, view: QTreeView, rest: int) -> None:
        super().__init__(view)
        self.view = view
        self.rest = rest
        self.followed = True
        self._applying = False
        header = view.header()
        header.setMinimumSectionSize(min(header.minimumSectionSize(), rest))
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.sectionResized.connect(self._resized)
        view.viewport().installEventFilter(self)
        self.apply()

    def apply(self) -> None:
        if not self.followed:
            return
        self._applying = True
        try:
            header = self.view.header()
            for section in range(1, header.count()):
                header.resizeSection(section, self.rest // (header.count() - 1))
            header.resizeSection(0, max(80, self.view.viewport().width() - self.rest))
        finally:
            self._applying = False

    def _resized(self, section: int, old: int, new: int) -> None:
        if section == 0 and not self._applying:
            self.followed = False  # the player's own width stays

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Resize:
            self.apply()
        return False


class ArmyNameDelegate(QStyledItemDelegate):
    """Army names elide in the middle, where "Bretonnian Expedition (…)" and "Bretonnian
    Errantry (…)" still differ; unit and ruleset names at the end, where "Grukk the Big…"
    still reads better than "Gru…oss"."""

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:  # Qt override
        super().initStyleOption(option, index)
        is_army = index.parent().isValid() and not index.parent().parent().isValid()
        option.textElideMode = (Qt.TextElideMode.ElideMiddle if is_army
                                else Qt.TextElideMode.ElideRight)

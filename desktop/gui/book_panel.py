"""The Army Book dock's panel: the selected unit's options as its catalogue defines them,
and the catalogue's limits the army breaks.

It shows what the engine answers (desktop.engine.bsdata.choices: prices before ticking,
groups that take one, why a choice is greyed) and says what the player asked for through
signals; it never changes an army itself. Check boxes are the player's "one more / none",
radio buttons a group that takes one, a spin box an option bought by the number.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QFont, QPainter, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionButton,
    QStyleOptionViewItem,
    QTreeWidgetItem,
    QWidget,
)

from desktop.gui.book_dialogs import tree_items
from desktop.gui.fields import SpinBox
from desktop.gui.forms.ui_bookpanel import Ui_BookPanel

if TYPE_CHECKING:
    from desktop.engine.bsdata.choices import Choice, UnitChoices

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
CONTAINER_ROLE = Qt.ItemDataRole.UserRole + 2
EXCLUSIVE_ROLE = Qt.ItemDataRole.UserRole + 3  # drawn as a radio button
UNIT_ROLE = Qt.ItemDataRole.UserRole + 4  # a limit's unit id
LEAST_ROLE = Qt.ItemDataRole.UserRole + 5  # a group's minimum: its radio buttons stay on
MAX_SPIN = 1000  # an option bought by the number with no limit of its own
PRICE_SHARE = 0.4
# The longest price shown whole; a longer one ("+2 Casting Dice, +2 Dispel Dice", a
# General's) is cut in the middle and read whole in its tool tip, so that it does not take
# the option names' room (a real-window try of issue 23 read "Sword … Quest").
LONG_PRICE = "+10 per model"


def _shown(value: Decimal | float) -> str:
    number = Decimal(str(value))
    return str(int(number)) if number == number.to_integral_value() else str(number.normalize())


class RadioDelegate(QStyledItemDelegate):
    """Check boxes of a group that takes one drawn as radio buttons."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:  # Qt override
        if not index.data(EXCLUSIVE_ROLE):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is None:
            super().paint(painter, option, index)
            return
        check = style.subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, opt,
                                     widget)
        text = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        # The item without its check box, its text where the check box layout put it.
        opt.features &= ~QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
        opt.rect.setLeft(text.left() - style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin,
                                                         None, widget) - 1)
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        radio = QStyleOptionButton()
        radio.rect = QRect(check)
        radio.state = opt.state & ~QStyle.StateFlag.State_HasFocus
        state = index.data(Qt.ItemDataRole.CheckStateRole)  # an enum or its number
        checked = state in (Qt.CheckState.Checked, Qt.CheckState.Checked.value)
        radio.state |= QStyle.StateFlag.State_On if checked else QStyle.StateFlag.State_Off
        style.drawPrimitive(QStyle.PrimitiveElement.PE_IndicatorRadioButton, radio, painter,
                            widget)


class BookPanel(QWidget):
    """The Army Book dock's contents (ui/bookpanel.ui)."""

    chosen = Signal(str, str, bool)  # container selection, entry id, wanted (one more/none)
    amount = Signal(str, str, int)  # container selection, entry id, how many
    models = Signal(str, str, int)  # unit selection, its model entry, how many
    unitChosen = Signal(str)  # a limit was clicked: the unit it concerns

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ui = Ui_BookPanel()
        self.ui.setupUi(self)
        tree = self.ui.optionTree
        tree.setItemDelegate(RadioDelegate(tree))
        header = tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # The prices get what they need up to PRICE_SHARE of the width, the rest elided: a
        # long one ("+2 Casting Dice, +2 Dispel Dice") must not squeeze the names away.
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        # Cut in the middle: "Sword o…Quest" and "Sword o…Lady" still differ, as do two
        # "Magic Weapons (…" groups (a real-window try of issue 23).
        tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        tree.itemChanged.connect(self._item_changed)
        tree.itemExpanded.connect(lambda item: self._expanded.add(item.data(0, ENTRY_ROLE)))
        tree.itemCollapsed.connect(
            lambda item: self._expanded.discard(item.data(0, ENTRY_ROLE)))
        self.ui.modelsSpin.what = "Models"
        # "5–15, 24 pts each (has 3: outside its size)" on one line widened the dock past
        # its 320 px at 1280x800 (a real-window try of issue 23): it wraps instead.
        self.ui.modelsRange.setWordWrap(True)
        self.ui.modelsSpin.valueChanged.connect(self._models_changed)
        self.ui.limitList.itemClicked.connect(self._limit_clicked)
        self.ui.limitList.itemActivated.connect(self._limit_clicked)
        self.ui.panelSplitter.setStretchFactor(0, 3)
        self.ui.panelSplitter.setStretchFactor(1, 1)
        self._filling = False
        self._shown: UnitChoices | None = None
        self._expanded: set[str] = set()
        self.show_unit(None, "")

    # What is shown

    def show_book(self, title: str) -> None:
        self.ui.bookTitle.setText(title)

    def show_limits(self, limits: Sequence[tuple[str, str]]) -> None:
        """(message, unit id) of every limit the army breaks ("" unit: the army)."""
        box = self.ui.limitList
        box.clear()
        for message, unit_id in limits:
            item = QListWidgetItem(f"⚠ {message}")
            item.setData(UNIT_ROLE, unit_id)
            item.setToolTip(message + ("\nClick to select the unit." if unit_id else ""))
            box.addItem(item)
        if not limits:
            item = QListWidgetItem("✓ Every limit of the army book is kept.")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            box.addItem(item)
        self.ui.limitsTitle.setText(f"<b>The army book's limits</b> ({len(limits)} broken)"
                                    if limits else "<b>The army book's limits</b>")

    def limits_shown(self) -> list[str]:
        return [self.ui.limitList.item(i).text() for i in range(self.ui.limitList.count())]

    def show_unit(self, choices: UnitChoices | None, note: str) -> None:
        """The options of one unit (None: `note` says why there are none to show)."""
        self._shown = choices
        tree = self.ui.optionTree
        self._filling = True
        try:
            tree.clear()
            if choices is None:
                self.ui.unitTitle.setText(note)
                self._show_models(None)
                tree.setEnabled(False)
                return
            tree.setEnabled(True)
            self.ui.unitTitle.setText(f"<b>{escape(choices.name)}</b> — "
                                      f"{_shown(choices.points)} points")
            self._show_models(choices)
            for choice in choices.choices:
                self._add(tree.invisibleRootItem(), choice)
        finally:
            self._filling = False
        self._fit_prices()

    def _fit_prices(self) -> None:
        tree = self.ui.optionTree
        metrics = tree.fontMetrics()
        widest = max((metrics.horizontalAdvance(item.text(1)) for _, item in tree_items(tree)),
                     default=0)
        room = min(int(tree.viewport().width() * PRICE_SHARE),
                   metrics.horizontalAdvance(LONG_PRICE) + 12)
        header = tree.header()
        # Never narrower than its title ("Points"), whatever the prices are.
        header.resizeSection(1, max(min(widest + 12, room), header.sectionSizeHint(1)))

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit_prices()

    def _show_models(self, choices: UnitChoices | None) -> None:
        models = choices.models if choices is not None else None
        for widget in (self.ui.modelsLabel, self.ui.modelsSpin, self.ui.modelsRange):
            widget.setVisible(models is not None)
        if models is None:
            return
        spin = self.ui.modelsSpin
        count = max(models.count, 1)
        low, high = max(models.minimum, 1), models.maximum or 10_000
        spin.blockSignals(True)
        # A unit made outside its size (the roster's Models cell takes any number; the
        # limits list names it) shows its own count, not the nearest one the book allows.
        spin.setRange(min(low, count), max(high, count))
        spin.setValue(count)
        spin.blockSignals(False)
        top = f"–{models.maximum}" if models.maximum else " or more"
        each = f", {_shown(models.points_each)} pts each" if models.points_each else ""
        outside = "" if models.within_size else f" (has {count}: outside its size)"
        self.ui.modelsRange.setText(f"{models.minimum}{top}{each}{outside}")
        spin.setToolTip(f"{models.name}: {models.minimum}{top}{each}{outside}")

    def _add(self, parent: QTreeWidgetItem, choice: Choice) -> None:
        item = QTreeWidgetItem(parent, [choice.name, ""])
        item.setData(0, ENTRY_ROLE, choice.entry_id)
        item.setData(0, CONTAINER_ROLE, choice.container_id)
        tree = self.ui.optionTree
        grey = QBrush(tree.palette().color(QPalette.ColorGroup.Disabled,
                                           QPalette.ColorRole.Text))
        if choice.is_group:
            font = QFont(item.font(0))
            font.setBold(True)
            item.setFont(0, font)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            item.setData(0, LEAST_ROLE, choice.minimum)
            bounds = _bounds(choice)
            if choice.points_limit is not None:
                item.setText(1, f"≤ {_shown(choice.points_limit)}")
                item.setToolTip(0, f"{choice.name}: up to {_shown(choice.points_limit)} "
                                   f"points ({_shown(choice.points_used)} used){bounds}")
                item.setToolTip(1, item.toolTip(0))
            else:
                item.setToolTip(0, f"{choice.name}{bounds}")
            for child in choice.children:
                self._add(item, child)
            chosen_below = _chosen_below(choice)
            key = choice.entry_id
            if key in self._expanded or chosen_below or choice.depth == 0:
                item.setExpanded(True)
            return
        item.setText(1, choice.price_text)
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        tip = f"{choice.name}: {choice.price_text}{_bounds(choice)}"
        many = choice.maximum is None or choice.maximum > 1
        if many and not choice.exclusive:
            self._spin(item, choice)
        else:
            item.setData(0, EXCLUSIVE_ROLE, choice.exclusive)
            item.setCheckState(0, Qt.CheckState.Checked if choice.count else
                               Qt.CheckState.Unchecked)
            can_change = (not choice.required) if choice.count else not choice.blocked
            flags = Qt.ItemFlag.ItemIsEnabled
            if can_change:
                flags |= Qt.ItemFlag.ItemIsUserCheckable
            item.setFlags(flags)
        if choice.blocked and not choice.count:
            item.setForeground(0, grey)
            item.setForeground(1, grey)
            tip += f"\nNot now: {choice.blocked}"
        elif choice.required and choice.count:
            tip += f"\nStays: {choice.required}"
        item.setToolTip(0, tip)
        item.setToolTip(1, tip)
        for child in choice.children:
            self._add(item, child)
        if choice.children:
            item.setExpanded(True)

    def _spin(self, item: QTreeWidgetItem, choice: Choice) -> None:
        spin = SpinBox(what=choice.name)
        top = choice.maximum if choice.maximum is not None else MAX_SPIN
        spin.setRange(0, max(top, choice.count))
        spin.setValue(choice.count)
        spin.setSuffix(f" × {choice.name}")
        spin.setMinimum(choice.minimum if choice.count >= choice.minimum else 0)
        spin.setObjectName(f"amount:{choice.entry_id}")
        entry, container = choice.entry_id, choice.container_id
        spin.valueChanged.connect(lambda value: self.amount.emit(container, entry, value))
        item.setText(0, "")
        self.ui.optionTree.setItemWidget(item, 0, spin)

    def _item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling or column != 0 or not item.flags() & Qt.ItemFlag.ItemIsUserCheckable:
            return
        wanted = item.checkState(0) == Qt.CheckState.Checked
        if item.data(0, EXCLUSIVE_ROLE) and not wanted:
            # A radio button is not unticked by clicking it again unless none is allowed.
            parent = item.parent()
            if parent is not None and _group_needs_one(parent):
                self._filling = True
                item.setCheckState(0, Qt.CheckState.Checked)
                self._filling = False
                return
        entry = str(item.data(0, ENTRY_ROLE))
        container = str(item.data(0, CONTAINER_ROLE))
        self.chosen.emit(container, entry, wanted)

    def _models_changed(self, value: int) -> None:
        shown = self._shown
        if shown is None or shown.models is None:
            return
        self.models.emit(shown.selection_id, shown.models.entry_id, value)

    def _limit_clicked(self, item: QListWidgetItem) -> None:
        unit_id = item.data(UNIT_ROLE)
        if unit_id:
            self.unitChosen.emit(str(unit_id))

    # For tests and readers

    def option_item(self, name: str) -> QTreeWidgetItem:
        """The row of an option by its name (the first, depth first)."""
        for _, item in tree_items(self.ui.optionTree):
            if item.text(0) == name or self._spin_name(item) == name:
                return item
        raise LookupError(name)

    def option_item_by_entry(self, entry_id: str) -> str:
        """The name of the option shown for `entry_id`."""
        for _, item in tree_items(self.ui.optionTree):
            if item.data(0, ENTRY_ROLE) == entry_id:
                return item.text(0) or self._spin_name(item)
        raise LookupError(entry_id)

    def _spin_name(self, item: QTreeWidgetItem) -> str:
        widget = self.ui.optionTree.itemWidget(item, 0)
        return widget.what if isinstance(widget, SpinBox) else ""

    def amount_spin(self, name: str) -> SpinBox:
        widget = self.ui.optionTree.itemWidget(self.option_item(name), 0)
        assert isinstance(widget, SpinBox)
        return widget

    def sizeHint(self) -> QSize:  # Qt override
        return QSize(260, 400)


def _bounds(choice: Choice) -> str:
    if choice.maximum == 1 and choice.minimum == 1:
        return " (exactly one)"
    if choice.minimum and choice.maximum is not None:
        return f" ({choice.minimum} to {choice.maximum})"
    if choice.minimum:
        return f" (at least {choice.minimum})"
    if choice.maximum is not None and choice.maximum != 1:
        return f" (up to {choice.maximum})"
    return ""


def _chosen_below(choice: Choice) -> bool:
    return any(child.count or _chosen_below(child) for child in choice.children)


def _group_needs_one(item: QTreeWidgetItem) -> bool:
    return bool(item.data(0, LEAST_ROLE))

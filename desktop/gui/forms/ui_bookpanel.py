# -*- coding: utf-8 -*-

################################################################################
## Form generated from reading UI file 'bookpanel.ui'
##
## Created by: Qt User Interface Compiler version 6.11.3
##
## WARNING! All changes made in this file will be lost when recompiling UI file!
################################################################################

from PySide6.QtCore import (QCoreApplication, QDate, QDateTime, QLocale,
    QMetaObject, QObject, QPoint, QRect,
    QSize, QTime, QUrl, Qt)
from PySide6.QtGui import (QBrush, QColor, QConicalGradient, QCursor,
    QFont, QFontDatabase, QGradient, QIcon,
    QImage, QKeySequence, QLinearGradient, QPainter,
    QPalette, QPixmap, QRadialGradient, QTransform)
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QHBoxLayout, QHeaderView,
    QLabel, QListView, QListWidget, QListWidgetItem,
    QSizePolicy, QSpacerItem, QSplitter, QTreeWidget,
    QTreeWidgetItem, QVBoxLayout, QWidget)

from desktop.gui.fields import SpinBox

class Ui_BookPanel(object):
    def setupUi(self, BookPanel):
        if not BookPanel.objectName():
            BookPanel.setObjectName(u"BookPanel")
        self.panelLayout = QVBoxLayout(BookPanel)
        self.panelLayout.setSpacing(4)
        self.panelLayout.setObjectName(u"panelLayout")
        self.panelLayout.setContentsMargins(2, 2, 2, 2)
        self.bookTitle = QLabel(BookPanel)
        self.bookTitle.setObjectName(u"bookTitle")
        self.bookTitle.setWordWrap(True)

        self.panelLayout.addWidget(self.bookTitle)

        self.panelSplitter = QSplitter(BookPanel)
        self.panelSplitter.setObjectName(u"panelSplitter")
        self.panelSplitter.setOrientation(Qt.Orientation.Vertical)
        self.panelSplitter.setChildrenCollapsible(False)
        self.optionsPane = QWidget(self.panelSplitter)
        self.optionsPane.setObjectName(u"optionsPane")
        self.optionsLayout = QVBoxLayout(self.optionsPane)
        self.optionsLayout.setSpacing(4)
        self.optionsLayout.setObjectName(u"optionsLayout")
        self.optionsLayout.setContentsMargins(0, 0, 0, 0)
        self.unitTitle = QLabel(self.optionsPane)
        self.unitTitle.setObjectName(u"unitTitle")
        self.unitTitle.setWordWrap(True)

        self.optionsLayout.addWidget(self.unitTitle)

        self.modelsRow = QHBoxLayout()
        self.modelsRow.setObjectName(u"modelsRow")
        self.modelsLabel = QLabel(self.optionsPane)
        self.modelsLabel.setObjectName(u"modelsLabel")

        self.modelsRow.addWidget(self.modelsLabel)

        self.modelsSpin = SpinBox(self.optionsPane)
        self.modelsSpin.setObjectName(u"modelsSpin")
        self.modelsSpin.setMinimum(1)
        self.modelsSpin.setMaximum(10000)

        self.modelsRow.addWidget(self.modelsSpin)

        self.modelsRange = QLabel(self.optionsPane)
        self.modelsRange.setObjectName(u"modelsRange")

        self.modelsRow.addWidget(self.modelsRange)

        self.modelsSpacer = QSpacerItem(0, 0, QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)

        self.modelsRow.addItem(self.modelsSpacer)


        self.optionsLayout.addLayout(self.modelsRow)

        self.optionTree = QTreeWidget(self.optionsPane)
        self.optionTree.setObjectName(u"optionTree")
        self.optionTree.setUniformRowHeights(True)
        self.optionTree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.optionTree.setIndentation(12)

        self.optionsLayout.addWidget(self.optionTree)

        self.panelSplitter.addWidget(self.optionsPane)
        self.limitsPane = QWidget(self.panelSplitter)
        self.limitsPane.setObjectName(u"limitsPane")
        self.limitsLayout = QVBoxLayout(self.limitsPane)
        self.limitsLayout.setSpacing(2)
        self.limitsLayout.setObjectName(u"limitsLayout")
        self.limitsLayout.setContentsMargins(0, 0, 0, 0)
        self.limitsTitle = QLabel(self.limitsPane)
        self.limitsTitle.setObjectName(u"limitsTitle")

        self.limitsLayout.addWidget(self.limitsTitle)

        self.limitList = QListWidget(self.limitsPane)
        self.limitList.setObjectName(u"limitList")
        self.limitList.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.limitList.setWordWrap(True)
        self.limitList.setResizeMode(QListView.ResizeMode.Adjust)

        self.limitsLayout.addWidget(self.limitList)

        self.panelSplitter.addWidget(self.limitsPane)

        self.panelLayout.addWidget(self.panelSplitter)

#if QT_CONFIG(shortcut)
        self.modelsLabel.setBuddy(self.modelsSpin)
#endif // QT_CONFIG(shortcut)

        self.retranslateUi(BookPanel)

        QMetaObject.connectSlotsByName(BookPanel)
    # setupUi

    def retranslateUi(self, BookPanel):
        self.bookTitle.setText(QCoreApplication.translate("BookPanel", u"No army book", None))
        self.unitTitle.setText("")
        self.modelsLabel.setText(QCoreApplication.translate("BookPanel", u"&Models:", None))
        self.modelsRange.setText("")
        ___qtreewidgetitem = self.optionTree.headerItem()
        ___qtreewidgetitem.setText(1, QCoreApplication.translate("BookPanel", u"Points", None))
        ___qtreewidgetitem.setText(0, QCoreApplication.translate("BookPanel", u"Option", None))
        self.limitsTitle.setText(QCoreApplication.translate("BookPanel", u"<b>The army book's limits</b>", None))
        pass
    # retranslateUi


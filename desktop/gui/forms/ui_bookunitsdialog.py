# -*- coding: utf-8 -*-

################################################################################
## Form generated from reading UI file 'bookunitsdialog.ui'
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
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QApplication, QDialog,
    QDialogButtonBox, QHeaderView, QLabel, QLineEdit,
    QSizePolicy, QTreeView, QVBoxLayout, QWidget)

class Ui_BookUnitsDialog(object):
    def setupUi(self, BookUnitsDialog):
        if not BookUnitsDialog.objectName():
            BookUnitsDialog.setObjectName(u"BookUnitsDialog")
        BookUnitsDialog.resize(600, 560)
        self.dialogLayout = QVBoxLayout(BookUnitsDialog)
        self.dialogLayout.setObjectName(u"dialogLayout")
        self.searchEdit = QLineEdit(BookUnitsDialog)
        self.searchEdit.setObjectName(u"searchEdit")
        self.searchEdit.setClearButtonEnabled(True)

        self.dialogLayout.addWidget(self.searchEdit)

        self.unitTree = QTreeView(BookUnitsDialog)
        self.unitTree.setObjectName(u"unitTree")
        self.unitTree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.unitTree.setAlternatingRowColors(True)
        self.unitTree.setUniformRowHeights(True)

        self.dialogLayout.addWidget(self.unitTree)

        self.unitDetails = QLabel(BookUnitsDialog)
        self.unitDetails.setObjectName(u"unitDetails")
        self.unitDetails.setWordWrap(True)

        self.dialogLayout.addWidget(self.unitDetails)

        self.buttonBox = QDialogButtonBox(BookUnitsDialog)
        self.buttonBox.setObjectName(u"buttonBox")
        self.buttonBox.setStandardButtons(QDialogButtonBox.StandardButton.Cancel|QDialogButtonBox.StandardButton.Ok)

        self.dialogLayout.addWidget(self.buttonBox)


        self.retranslateUi(BookUnitsDialog)

        QMetaObject.connectSlotsByName(BookUnitsDialog)
    # setupUi

    def retranslateUi(self, BookUnitsDialog):
        BookUnitsDialog.setWindowTitle(QCoreApplication.translate("BookUnitsDialog", u"Add Units from the Army Book", None))
        self.searchEdit.setPlaceholderText(QCoreApplication.translate("BookUnitsDialog", u"Search the army book\u2026", None))
        self.unitDetails.setText("")
    # retranslateUi


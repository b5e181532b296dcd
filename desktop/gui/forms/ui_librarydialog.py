# -*- coding: utf-8 -*-

################################################################################
## Form generated from reading UI file 'librarydialog.ui'
##
## Created by: Qt User Interface Compiler version 6.12.0
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
    QDialogButtonBox, QLabel, QLineEdit, QListView,
    QSizePolicy, QVBoxLayout, QWidget)

class Ui_LibraryDialog(object):
    def setupUi(self, LibraryDialog):
        if not LibraryDialog.objectName():
            LibraryDialog.setObjectName(u"LibraryDialog")
        LibraryDialog.resize(520, 480)
        self.dialogLayout = QVBoxLayout(LibraryDialog)
        self.dialogLayout.setObjectName(u"dialogLayout")
        self.searchEdit = QLineEdit(LibraryDialog)
        self.searchEdit.setObjectName(u"searchEdit")
        self.searchEdit.setClearButtonEnabled(True)

        self.dialogLayout.addWidget(self.searchEdit)

        self.entryList = QListView(LibraryDialog)
        self.entryList.setObjectName(u"entryList")
        self.entryList.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.entryList.setAlternatingRowColors(True)

        self.dialogLayout.addWidget(self.entryList)

        self.entryDetails = QLabel(LibraryDialog)
        self.entryDetails.setObjectName(u"entryDetails")
        self.entryDetails.setWordWrap(True)

        self.dialogLayout.addWidget(self.entryDetails)

        self.buttonBox = QDialogButtonBox(LibraryDialog)
        self.buttonBox.setObjectName(u"buttonBox")
        self.buttonBox.setStandardButtons(QDialogButtonBox.StandardButton.Cancel|QDialogButtonBox.StandardButton.Ok)

        self.dialogLayout.addWidget(self.buttonBox)


        self.retranslateUi(LibraryDialog)

        QMetaObject.connectSlotsByName(LibraryDialog)
    # setupUi

    def retranslateUi(self, LibraryDialog):
        LibraryDialog.setWindowTitle(QCoreApplication.translate("LibraryDialog", u"Add Units from Library", None))
        self.searchEdit.setPlaceholderText(QCoreApplication.translate("LibraryDialog", u"Search the library\u2026", None))
        self.entryDetails.setText("")
    # retranslateUi


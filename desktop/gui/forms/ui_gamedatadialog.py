# -*- coding: utf-8 -*-

################################################################################
## Form generated from reading UI file 'gamedatadialog.ui'
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
from PySide6.QtWidgets import (QAbstractButton, QApplication, QDialog, QDialogButtonBox,
    QHBoxLayout, QHeaderView, QLabel, QPushButton,
    QSizePolicy, QSpacerItem, QTreeWidget, QTreeWidgetItem,
    QVBoxLayout, QWidget)

class Ui_GameDataDialog(object):
    def setupUi(self, GameDataDialog):
        if not GameDataDialog.objectName():
            GameDataDialog.setObjectName(u"GameDataDialog")
        GameDataDialog.resize(640, 480)
        self.dialogLayout = QVBoxLayout(GameDataDialog)
        self.dialogLayout.setObjectName(u"dialogLayout")
        self.introText = QLabel(GameDataDialog)
        self.introText.setObjectName(u"introText")
        self.introText.setWordWrap(True)
        self.introText.setOpenExternalLinks(True)

        self.dialogLayout.addWidget(self.introText)

        self.dataTree = QTreeWidget(GameDataDialog)
        self.dataTree.setObjectName(u"dataTree")
        self.dataTree.setAlternatingRowColors(True)
        self.dataTree.setUniformRowHeights(True)

        self.dialogLayout.addWidget(self.dataTree)

        self.detailsText = QLabel(GameDataDialog)
        self.detailsText.setObjectName(u"detailsText")
        self.detailsText.setWordWrap(True)
        self.detailsText.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.dialogLayout.addWidget(self.detailsText)

        self.buttonRow = QHBoxLayout()
        self.buttonRow.setObjectName(u"buttonRow")
        self.addFilesButton = QPushButton(GameDataDialog)
        self.addFilesButton.setObjectName(u"addFilesButton")

        self.buttonRow.addWidget(self.addFilesButton)

        self.addFolderButton = QPushButton(GameDataDialog)
        self.addFolderButton.setObjectName(u"addFolderButton")

        self.buttonRow.addWidget(self.addFolderButton)

        self.removeButton = QPushButton(GameDataDialog)
        self.removeButton.setObjectName(u"removeButton")

        self.buttonRow.addWidget(self.removeButton)

        self.buttonSpacer = QSpacerItem(0, 0, QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)

        self.buttonRow.addItem(self.buttonSpacer)

        self.buttonBox = QDialogButtonBox(GameDataDialog)
        self.buttonBox.setObjectName(u"buttonBox")
        self.buttonBox.setStandardButtons(QDialogButtonBox.StandardButton.Close)

        self.buttonRow.addWidget(self.buttonBox)


        self.dialogLayout.addLayout(self.buttonRow)


        self.retranslateUi(GameDataDialog)

        QMetaObject.connectSlotsByName(GameDataDialog)
    # setupUi

    def retranslateUi(self, GameDataDialog):
        GameDataDialog.setWindowTitle(QCoreApplication.translate("GameDataDialog", u"Game Data", None))
        self.introText.setText("")
        ___qtreewidgetitem = self.dataTree.headerItem()
        ___qtreewidgetitem.setText(3, QCoreApplication.translate("GameDataDialog", u"Warnings", None))
        ___qtreewidgetitem.setText(2, QCoreApplication.translate("GameDataDialog", u"Units", None))
        ___qtreewidgetitem.setText(1, QCoreApplication.translate("GameDataDialog", u"Revision", None))
        ___qtreewidgetitem.setText(0, QCoreApplication.translate("GameDataDialog", u"Game system / army book", None))
        self.detailsText.setText("")
        self.addFilesButton.setText(QCoreApplication.translate("GameDataDialog", u"Add &Files\u2026", None))
#if QT_CONFIG(tooltip)
        self.addFilesButton.setToolTip(QCoreApplication.translate("GameDataDialog", u"Game systems (.gst, .gstz), catalogues (.cat, .catz) or a .zip of a data repository", None))
#endif // QT_CONFIG(tooltip)
        self.addFolderButton.setText(QCoreApplication.translate("GameDataDialog", u"Add F&older\u2026", None))
#if QT_CONFIG(tooltip)
        self.addFolderButton.setToolTip(QCoreApplication.translate("GameDataDialog", u"A folder of game data, such as a cloned data repository (searched below)", None))
#endif // QT_CONFIG(tooltip)
        self.removeButton.setText(QCoreApplication.translate("GameDataDialog", u"&Remove\u2026", None))
    # retranslateUi


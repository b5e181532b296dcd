# -*- coding: utf-8 -*-

################################################################################
## Form generated from reading UI file 'welcomedialog.ui'
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
from PySide6.QtWidgets import (QApplication, QDialog, QHBoxLayout, QLabel,
    QPushButton, QSizePolicy, QVBoxLayout, QWidget)

class Ui_WelcomeDialog(object):
    def setupUi(self, WelcomeDialog):
        if not WelcomeDialog.objectName():
            WelcomeDialog.setObjectName(u"WelcomeDialog")
        self.dialogLayout = QVBoxLayout(WelcomeDialog)
        self.dialogLayout.setObjectName(u"dialogLayout")
        self.welcomeText = QLabel(WelcomeDialog)
        self.welcomeText.setObjectName(u"welcomeText")
        self.welcomeText.setWordWrap(True)

        self.dialogLayout.addWidget(self.welcomeText)

        self.buttonRow = QHBoxLayout()
        self.buttonRow.setObjectName(u"buttonRow")
        self.newArmyButton = QPushButton(WelcomeDialog)
        self.newArmyButton.setObjectName(u"newArmyButton")

        self.buttonRow.addWidget(self.newArmyButton)

        self.bookArmyButton = QPushButton(WelcomeDialog)
        self.bookArmyButton.setObjectName(u"bookArmyButton")

        self.buttonRow.addWidget(self.bookArmyButton)

        self.samplesButton = QPushButton(WelcomeDialog)
        self.samplesButton.setObjectName(u"samplesButton")

        self.buttonRow.addWidget(self.samplesButton)

        self.sampleBattlesButton = QPushButton(WelcomeDialog)
        self.sampleBattlesButton.setObjectName(u"sampleBattlesButton")

        self.buttonRow.addWidget(self.sampleBattlesButton)

        self.closeButton = QPushButton(WelcomeDialog)
        self.closeButton.setObjectName(u"closeButton")

        self.buttonRow.addWidget(self.closeButton)


        self.dialogLayout.addLayout(self.buttonRow)


        self.retranslateUi(WelcomeDialog)

        QMetaObject.connectSlotsByName(WelcomeDialog)
    # setupUi

    def retranslateUi(self, WelcomeDialog):
        WelcomeDialog.setWindowTitle(QCoreApplication.translate("WelcomeDialog", u"Welcome to Rout", None))
        self.welcomeText.setText(QCoreApplication.translate("WelcomeDialog", u"<h2>Welcome to Rout</h2><p>Build your army rosters here, then let Rout walk you through Break tests, fleeing and pursuit with the exact odds of every roll.</p><p>Start a new army (from Rout's own army lists, or from an army book of your BattleScribe game data), or look around with the sample armies for Warhammer Fantasy Battle 6th edition, Kensei and Breaks or Pursues, or with a sample battle already on the table.</p>", None))
        self.newArmyButton.setText(QCoreApplication.translate("WelcomeDialog", u"&New army\u2026", None))
#if QT_CONFIG(tooltip)
        self.bookArmyButton.setToolTip(QCoreApplication.translate("WelcomeDialog", u"An army built from your BattleScribe game data (File \u25b8 Game Data\u2026 stores it)", None))
#endif // QT_CONFIG(tooltip)
        self.bookArmyButton.setText(QCoreApplication.translate("WelcomeDialog", u"New army from an army &book\u2026", None))
        self.samplesButton.setText(QCoreApplication.translate("WelcomeDialog", u"Open &sample armies", None))
        self.sampleBattlesButton.setText(QCoreApplication.translate("WelcomeDialog", u"Open sample &battles", None))
        self.closeButton.setText(QCoreApplication.translate("WelcomeDialog", u"&Close", None))
    # retranslateUi


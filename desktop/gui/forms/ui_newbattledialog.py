# -*- coding: utf-8 -*-

################################################################################
## Form generated from reading UI file 'newbattledialog.ui'
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
    QFormLayout, QHBoxLayout, QLabel, QLineEdit,
    QListWidget, QListWidgetItem, QSizePolicy, QVBoxLayout,
    QWidget)

from desktop.gui.fields import (ComboBox, DoubleSpinBox)

class Ui_NewBattleDialog(object):
    def setupUi(self, NewBattleDialog):
        if not NewBattleDialog.objectName():
            NewBattleDialog.setObjectName(u"NewBattleDialog")
        self.dialogLayout = QVBoxLayout(NewBattleDialog)
        self.dialogLayout.setObjectName(u"dialogLayout")
        self.formLayout = QFormLayout()
        self.formLayout.setObjectName(u"formLayout")
        self.titleLabel = QLabel(NewBattleDialog)
        self.titleLabel.setObjectName(u"titleLabel")

        self.formLayout.setWidget(0, QFormLayout.ItemRole.LabelRole, self.titleLabel)

        self.titleEdit = QLineEdit(NewBattleDialog)
        self.titleEdit.setObjectName(u"titleEdit")
        self.titleEdit.setMaxLength(200)

        self.formLayout.setWidget(0, QFormLayout.ItemRole.FieldRole, self.titleEdit)

        self.rulesetLabel = QLabel(NewBattleDialog)
        self.rulesetLabel.setObjectName(u"rulesetLabel")

        self.formLayout.setWidget(1, QFormLayout.ItemRole.LabelRole, self.rulesetLabel)

        self.rulesetCombo = ComboBox(NewBattleDialog)
        self.rulesetCombo.setObjectName(u"rulesetCombo")

        self.formLayout.setWidget(1, QFormLayout.ItemRole.FieldRole, self.rulesetCombo)

        self.armiesLabel = QLabel(NewBattleDialog)
        self.armiesLabel.setObjectName(u"armiesLabel")

        self.formLayout.setWidget(2, QFormLayout.ItemRole.LabelRole, self.armiesLabel)

        self.armyList = QListWidget(NewBattleDialog)
        self.armyList.setObjectName(u"armyList")

        self.formLayout.setWidget(2, QFormLayout.ItemRole.FieldRole, self.armyList)

        self.tableLabel = QLabel(NewBattleDialog)
        self.tableLabel.setObjectName(u"tableLabel")

        self.formLayout.setWidget(3, QFormLayout.ItemRole.LabelRole, self.tableLabel)

        self.tableLayout = QHBoxLayout()
        self.tableLayout.setObjectName(u"tableLayout")
        self.widthSpin = DoubleSpinBox(NewBattleDialog)
        self.widthSpin.setObjectName(u"widthSpin")
        self.widthSpin.setDecimals(0)
        self.widthSpin.setMinimum(12.000000000000000)
        self.widthSpin.setMaximum(1000.000000000000000)

        self.tableLayout.addWidget(self.widthSpin)

        self.byLabel = QLabel(NewBattleDialog)
        self.byLabel.setObjectName(u"byLabel")

        self.tableLayout.addWidget(self.byLabel)

        self.depthSpin = DoubleSpinBox(NewBattleDialog)
        self.depthSpin.setObjectName(u"depthSpin")
        self.depthSpin.setDecimals(0)
        self.depthSpin.setMinimum(12.000000000000000)
        self.depthSpin.setMaximum(1000.000000000000000)

        self.tableLayout.addWidget(self.depthSpin)


        self.formLayout.setLayout(3, QFormLayout.ItemRole.FieldRole, self.tableLayout)

        self.zoneLabel = QLabel(NewBattleDialog)
        self.zoneLabel.setObjectName(u"zoneLabel")

        self.formLayout.setWidget(4, QFormLayout.ItemRole.LabelRole, self.zoneLabel)

        self.zoneSpin = DoubleSpinBox(NewBattleDialog)
        self.zoneSpin.setObjectName(u"zoneSpin")
        self.zoneSpin.setDecimals(0)
        self.zoneSpin.setMinimum(1.000000000000000)
        self.zoneSpin.setMaximum(500.000000000000000)

        self.formLayout.setWidget(4, QFormLayout.ItemRole.FieldRole, self.zoneSpin)


        self.dialogLayout.addLayout(self.formLayout)

        self.problemLabel = QLabel(NewBattleDialog)
        self.problemLabel.setObjectName(u"problemLabel")
        self.problemLabel.setWordWrap(True)

        self.dialogLayout.addWidget(self.problemLabel)

        self.buttonBox = QDialogButtonBox(NewBattleDialog)
        self.buttonBox.setObjectName(u"buttonBox")
        self.buttonBox.setStandardButtons(QDialogButtonBox.StandardButton.Cancel|QDialogButtonBox.StandardButton.Ok)

        self.dialogLayout.addWidget(self.buttonBox)

#if QT_CONFIG(shortcut)
        self.titleLabel.setBuddy(self.titleEdit)
        self.rulesetLabel.setBuddy(self.rulesetCombo)
        self.armiesLabel.setBuddy(self.armyList)
        self.tableLabel.setBuddy(self.widthSpin)
        self.zoneLabel.setBuddy(self.zoneSpin)
#endif // QT_CONFIG(shortcut)

        self.retranslateUi(NewBattleDialog)

        QMetaObject.connectSlotsByName(NewBattleDialog)
    # setupUi

    def retranslateUi(self, NewBattleDialog):
        NewBattleDialog.setWindowTitle(QCoreApplication.translate("NewBattleDialog", u"New Battle", None))
        self.titleLabel.setText(QCoreApplication.translate("NewBattleDialog", u"&Title", None))
        self.rulesetLabel.setText(QCoreApplication.translate("NewBattleDialog", u"&Ruleset", None))
        self.armiesLabel.setText(QCoreApplication.translate("NewBattleDialog", u"&Armies", None))
#if QT_CONFIG(tooltip)
        self.armyList.setToolTip(QCoreApplication.translate("NewBattleDialog", u"Tick two or more armies: each is one side, in its own colour", None))
#endif // QT_CONFIG(tooltip)
        self.tableLabel.setText(QCoreApplication.translate("NewBattleDialog", u"Ta&ble", None))
#if QT_CONFIG(accessibility)
        self.widthSpin.setAccessibleName(QCoreApplication.translate("NewBattleDialog", u"Table width", None))
#endif // QT_CONFIG(accessibility)
        self.byLabel.setText(QCoreApplication.translate("NewBattleDialog", u"\u00d7", None))
#if QT_CONFIG(accessibility)
        self.depthSpin.setAccessibleName(QCoreApplication.translate("NewBattleDialog", u"Table depth", None))
#endif // QT_CONFIG(accessibility)
        self.zoneLabel.setText(QCoreApplication.translate("NewBattleDialog", u"&Deployment zones", None))
#if QT_CONFIG(tooltip)
        self.zoneSpin.setToolTip(QCoreApplication.translate("NewBattleDialog", u"How deep each side's strip along its own table edge is", None))
#endif // QT_CONFIG(tooltip)
    # retranslateUi


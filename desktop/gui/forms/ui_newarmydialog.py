# -*- coding: utf-8 -*-

################################################################################
## Form generated from reading UI file 'newarmydialog.ui'
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
    QFormLayout, QLabel, QLineEdit, QPlainTextEdit,
    QSizePolicy, QVBoxLayout, QWidget)

from desktop.gui.fields import (ComboBox, SpinBox)

class Ui_NewArmyDialog(object):
    def setupUi(self, NewArmyDialog):
        if not NewArmyDialog.objectName():
            NewArmyDialog.setObjectName(u"NewArmyDialog")
        self.dialogLayout = QVBoxLayout(NewArmyDialog)
        self.dialogLayout.setObjectName(u"dialogLayout")
        self.formLayout = QFormLayout()
        self.formLayout.setObjectName(u"formLayout")
        self.nameLabel = QLabel(NewArmyDialog)
        self.nameLabel.setObjectName(u"nameLabel")

        self.formLayout.setWidget(0, QFormLayout.ItemRole.LabelRole, self.nameLabel)

        self.nameEdit = QLineEdit(NewArmyDialog)
        self.nameEdit.setObjectName(u"nameEdit")
        self.nameEdit.setMaxLength(200)

        self.formLayout.setWidget(0, QFormLayout.ItemRole.FieldRole, self.nameEdit)

        self.playerLabel = QLabel(NewArmyDialog)
        self.playerLabel.setObjectName(u"playerLabel")

        self.formLayout.setWidget(1, QFormLayout.ItemRole.LabelRole, self.playerLabel)

        self.playerEdit = QLineEdit(NewArmyDialog)
        self.playerEdit.setObjectName(u"playerEdit")
        self.playerEdit.setMaxLength(200)

        self.formLayout.setWidget(1, QFormLayout.ItemRole.FieldRole, self.playerEdit)

        self.rulesetLabel = QLabel(NewArmyDialog)
        self.rulesetLabel.setObjectName(u"rulesetLabel")

        self.formLayout.setWidget(2, QFormLayout.ItemRole.LabelRole, self.rulesetLabel)

        self.rulesetCombo = ComboBox(NewArmyDialog)
        self.rulesetCombo.setObjectName(u"rulesetCombo")

        self.formLayout.setWidget(2, QFormLayout.ItemRole.FieldRole, self.rulesetCombo)

        self.listLabel = QLabel(NewArmyDialog)
        self.listLabel.setObjectName(u"listLabel")

        self.formLayout.setWidget(3, QFormLayout.ItemRole.LabelRole, self.listLabel)

        self.listCombo = ComboBox(NewArmyDialog)
        self.listCombo.setObjectName(u"listCombo")

        self.formLayout.setWidget(3, QFormLayout.ItemRole.FieldRole, self.listCombo)

        self.limitLabel = QLabel(NewArmyDialog)
        self.limitLabel.setObjectName(u"limitLabel")

        self.formLayout.setWidget(4, QFormLayout.ItemRole.LabelRole, self.limitLabel)

        self.limitSpin = SpinBox(NewArmyDialog)
        self.limitSpin.setObjectName(u"limitSpin")
        self.limitSpin.setMaximum(1000000)
        self.limitSpin.setSingleStep(250)
        self.limitSpin.setValue(2000)

        self.formLayout.setWidget(4, QFormLayout.ItemRole.FieldRole, self.limitSpin)

        self.notesLabel = QLabel(NewArmyDialog)
        self.notesLabel.setObjectName(u"notesLabel")
        self.notesLabel.setAlignment(Qt.AlignmentFlag.AlignLeading|Qt.AlignmentFlag.AlignLeft|Qt.AlignmentFlag.AlignTop)

        self.formLayout.setWidget(5, QFormLayout.ItemRole.LabelRole, self.notesLabel)

        self.notesEdit = QPlainTextEdit(NewArmyDialog)
        self.notesEdit.setObjectName(u"notesEdit")
        self.notesEdit.setMinimumSize(QSize(320, 0))
        self.notesEdit.setTabChangesFocus(True)

        self.formLayout.setWidget(5, QFormLayout.ItemRole.FieldRole, self.notesEdit)


        self.dialogLayout.addLayout(self.formLayout)

        self.fieldMessage = QLabel(NewArmyDialog)
        self.fieldMessage.setObjectName(u"fieldMessage")
        self.fieldMessage.setWordWrap(True)

        self.dialogLayout.addWidget(self.fieldMessage)

        self.buttonBox = QDialogButtonBox(NewArmyDialog)
        self.buttonBox.setObjectName(u"buttonBox")
        self.buttonBox.setStandardButtons(QDialogButtonBox.StandardButton.Cancel|QDialogButtonBox.StandardButton.Ok)

        self.dialogLayout.addWidget(self.buttonBox)

#if QT_CONFIG(shortcut)
        self.nameLabel.setBuddy(self.nameEdit)
        self.playerLabel.setBuddy(self.playerEdit)
        self.rulesetLabel.setBuddy(self.rulesetCombo)
        self.listLabel.setBuddy(self.listCombo)
        self.limitLabel.setBuddy(self.limitSpin)
        self.notesLabel.setBuddy(self.notesEdit)
#endif // QT_CONFIG(shortcut)

        self.retranslateUi(NewArmyDialog)

        QMetaObject.connectSlotsByName(NewArmyDialog)
    # setupUi

    def retranslateUi(self, NewArmyDialog):
        NewArmyDialog.setWindowTitle(QCoreApplication.translate("NewArmyDialog", u"Army", None))
        self.nameLabel.setText(QCoreApplication.translate("NewArmyDialog", u"&Name", None))
        self.playerLabel.setText(QCoreApplication.translate("NewArmyDialog", u"&Player", None))
        self.rulesetLabel.setText(QCoreApplication.translate("NewArmyDialog", u"&Ruleset", None))
        self.listLabel.setText(QCoreApplication.translate("NewArmyDialog", u"Army &list", None))
#if QT_CONFIG(tooltip)
        self.listCombo.setToolTip(QCoreApplication.translate("NewArmyDialog", u"The army list its units come from: Add Units offers it first, and units from other lists are warned about", None))
#endif // QT_CONFIG(tooltip)
        self.limitLabel.setText(QCoreApplication.translate("NewArmyDialog", u"Points &limit", None))
        self.limitSpin.setSpecialValueText(QCoreApplication.translate("NewArmyDialog", u"No limit", None))
        self.notesLabel.setText(QCoreApplication.translate("NewArmyDialog", u"N&otes", None))
        self.notesEdit.setPlaceholderText(QCoreApplication.translate("NewArmyDialog", u"The general, deployment plans, house rules\u2026", None))
    # retranslateUi


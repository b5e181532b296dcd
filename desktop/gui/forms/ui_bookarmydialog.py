# -*- coding: utf-8 -*-

################################################################################
## Form generated from reading UI file 'bookarmydialog.ui'
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
    QFormLayout, QHeaderView, QLabel, QLineEdit,
    QSizePolicy, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
    QWidget)

from desktop.gui.fields import (ComboBox, SpinBox)

class Ui_BookArmyDialog(object):
    def setupUi(self, BookArmyDialog):
        if not BookArmyDialog.objectName():
            BookArmyDialog.setObjectName(u"BookArmyDialog")
        BookArmyDialog.resize(560, 520)
        self.dialogLayout = QVBoxLayout(BookArmyDialog)
        self.dialogLayout.setObjectName(u"dialogLayout")
        self.bookLabel = QLabel(BookArmyDialog)
        self.bookLabel.setObjectName(u"bookLabel")

        self.dialogLayout.addWidget(self.bookLabel)

        self.bookTree = QTreeWidget(BookArmyDialog)
        self.bookTree.setObjectName(u"bookTree")
        self.bookTree.setAlternatingRowColors(True)
        self.bookTree.setUniformRowHeights(True)
        self.bookTree.setHeaderHidden(True)

        self.dialogLayout.addWidget(self.bookTree)

        self.formLayout = QFormLayout()
        self.formLayout.setObjectName(u"formLayout")
        self.forceLabel = QLabel(BookArmyDialog)
        self.forceLabel.setObjectName(u"forceLabel")

        self.formLayout.setWidget(0, QFormLayout.ItemRole.LabelRole, self.forceLabel)

        self.forceCombo = ComboBox(BookArmyDialog)
        self.forceCombo.setObjectName(u"forceCombo")

        self.formLayout.setWidget(0, QFormLayout.ItemRole.FieldRole, self.forceCombo)

        self.limitLabel = QLabel(BookArmyDialog)
        self.limitLabel.setObjectName(u"limitLabel")

        self.formLayout.setWidget(1, QFormLayout.ItemRole.LabelRole, self.limitLabel)

        self.limitSpin = SpinBox(BookArmyDialog)
        self.limitSpin.setObjectName(u"limitSpin")
        self.limitSpin.setMaximum(1000000)
        self.limitSpin.setSingleStep(250)
        self.limitSpin.setValue(2000)

        self.formLayout.setWidget(1, QFormLayout.ItemRole.FieldRole, self.limitSpin)

        self.nameLabel = QLabel(BookArmyDialog)
        self.nameLabel.setObjectName(u"nameLabel")

        self.formLayout.setWidget(2, QFormLayout.ItemRole.LabelRole, self.nameLabel)

        self.nameEdit = QLineEdit(BookArmyDialog)
        self.nameEdit.setObjectName(u"nameEdit")
        self.nameEdit.setMaxLength(200)

        self.formLayout.setWidget(2, QFormLayout.ItemRole.FieldRole, self.nameEdit)

        self.playerLabel = QLabel(BookArmyDialog)
        self.playerLabel.setObjectName(u"playerLabel")

        self.formLayout.setWidget(3, QFormLayout.ItemRole.LabelRole, self.playerLabel)

        self.playerEdit = QLineEdit(BookArmyDialog)
        self.playerEdit.setObjectName(u"playerEdit")
        self.playerEdit.setMaxLength(200)

        self.formLayout.setWidget(3, QFormLayout.ItemRole.FieldRole, self.playerEdit)


        self.dialogLayout.addLayout(self.formLayout)

        self.problemLabel = QLabel(BookArmyDialog)
        self.problemLabel.setObjectName(u"problemLabel")
        self.problemLabel.setWordWrap(True)

        self.dialogLayout.addWidget(self.problemLabel)

        self.buttonBox = QDialogButtonBox(BookArmyDialog)
        self.buttonBox.setObjectName(u"buttonBox")
        self.buttonBox.setStandardButtons(QDialogButtonBox.StandardButton.Cancel|QDialogButtonBox.StandardButton.Ok)

        self.dialogLayout.addWidget(self.buttonBox)

#if QT_CONFIG(shortcut)
        self.bookLabel.setBuddy(self.bookTree)
        self.forceLabel.setBuddy(self.forceCombo)
        self.limitLabel.setBuddy(self.limitSpin)
        self.nameLabel.setBuddy(self.nameEdit)
        self.playerLabel.setBuddy(self.playerEdit)
#endif // QT_CONFIG(shortcut)

        self.retranslateUi(BookArmyDialog)

        QMetaObject.connectSlotsByName(BookArmyDialog)
    # setupUi

    def retranslateUi(self, BookArmyDialog):
        BookArmyDialog.setWindowTitle(QCoreApplication.translate("BookArmyDialog", u"New Army from an Army Book", None))
        self.bookLabel.setText(QCoreApplication.translate("BookArmyDialog", u"&Army book (the game data's catalogues, by game system):", None))
        ___qtreewidgetitem = self.bookTree.headerItem()
        ___qtreewidgetitem.setText(0, QCoreApplication.translate("BookArmyDialog", u"Army book", None))
        self.forceLabel.setText(QCoreApplication.translate("BookArmyDialog", u"&Force:", None))
#if QT_CONFIG(tooltip)
        self.forceCombo.setToolTip(QCoreApplication.translate("BookArmyDialog", u"The army's organisation, as the catalogue declares it (a grand army, a special list)", None))
#endif // QT_CONFIG(tooltip)
        self.limitLabel.setText(QCoreApplication.translate("BookArmyDialog", u"&Points limit:", None))
        self.nameLabel.setText(QCoreApplication.translate("BookArmyDialog", u"&Name:", None))
        self.playerLabel.setText(QCoreApplication.translate("BookArmyDialog", u"Pla&yer:", None))
        self.problemLabel.setText("")
    # retranslateUi


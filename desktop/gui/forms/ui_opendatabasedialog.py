# -*- coding: utf-8 -*-

################################################################################
## Form generated from reading UI file 'opendatabasedialog.ui'
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
    QHBoxLayout, QLabel, QLineEdit, QPushButton,
    QSizePolicy, QVBoxLayout, QWidget)

class Ui_OpenDatabaseDialog(object):
    def setupUi(self, OpenDatabaseDialog):
        if not OpenDatabaseDialog.objectName():
            OpenDatabaseDialog.setObjectName(u"OpenDatabaseDialog")
        self.dialogLayout = QVBoxLayout(OpenDatabaseDialog)
        self.dialogLayout.setObjectName(u"dialogLayout")
        self.explanation = QLabel(OpenDatabaseDialog)
        self.explanation.setObjectName(u"explanation")
        self.explanation.setWordWrap(True)

        self.dialogLayout.addWidget(self.explanation)

        self.locationRow = QHBoxLayout()
        self.locationRow.setObjectName(u"locationRow")
        self.locationEdit = QLineEdit(OpenDatabaseDialog)
        self.locationEdit.setObjectName(u"locationEdit")
        self.locationEdit.setMinimumSize(QSize(420, 0))
        self.locationEdit.setClearButtonEnabled(True)

        self.locationRow.addWidget(self.locationEdit)

        self.browseButton = QPushButton(OpenDatabaseDialog)
        self.browseButton.setObjectName(u"browseButton")
        self.browseButton.setAutoDefault(False)

        self.locationRow.addWidget(self.browseButton)


        self.dialogLayout.addLayout(self.locationRow)

        self.buttonBox = QDialogButtonBox(OpenDatabaseDialog)
        self.buttonBox.setObjectName(u"buttonBox")
        self.buttonBox.setStandardButtons(QDialogButtonBox.StandardButton.Cancel|QDialogButtonBox.StandardButton.Open)

        self.dialogLayout.addWidget(self.buttonBox)

#if QT_CONFIG(shortcut)
        self.explanation.setBuddy(self.locationEdit)
#endif // QT_CONFIG(shortcut)
        QWidget.setTabOrder(self.locationEdit, self.browseButton)

        self.retranslateUi(OpenDatabaseDialog)

        QMetaObject.connectSlotsByName(OpenDatabaseDialog)
    # setupUi

    def retranslateUi(self, OpenDatabaseDialog):
        OpenDatabaseDialog.setWindowTitle(QCoreApplication.translate("OpenDatabaseDialog", u"Open Database", None))
        self.explanation.setText(QCoreApplication.translate("OpenDatabaseDialog", u"A SQLite file, or a database URL such as postgresql+psycopg://user@host/rout:", None))
        self.browseButton.setText(QCoreApplication.translate("OpenDatabaseDialog", u"&Browse\u2026", None))
    # retranslateUi


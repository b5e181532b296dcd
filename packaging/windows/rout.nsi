; Rout's Windows installer, made with NSIS from PyInstaller's one-folder build on Windows
; (dist\rout\: rout.exe, routw.exe and _internal\). See packaging/README.md: it compiles
; with Debian's makensis, but no installer made from it has run on Windows yet.
;
;   makensis /DVERSION=0.1.0 packaging\windows\rout.nsi   ->  dist\rout-0.1.0-setup.exe
;
; Paths are relative to this file (makensis works from the script's folder).

!ifndef VERSION
  !define VERSION "0.1.0"
!endif
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Rout"

Unicode true
Name "Rout ${VERSION}"
OutFile "..\..\dist\rout-${VERSION}-setup.exe"
InstallDir "$PROGRAMFILES64\Rout"
InstallDirRegKey HKLM "Software\Rout" "InstallDir"
RequestExecutionLevel admin
SetCompressor /SOLID lzma

!include "MUI2.nsh"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Section "Rout"
  SetShellVarContext all
  SetOutPath "$INSTDIR"
  File /r "..\..\dist\rout\*.*"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  ; The Start menu starts routw.exe, which opens no console window; rout.exe is the same
  ; program for a terminal (rout odds ..., rout import ...).
  CreateShortcut "$SMPROGRAMS\Rout.lnk" "$INSTDIR\routw.exe" "" "$INSTDIR\routw.exe" 0
  WriteRegStr HKLM "Software\Rout" "InstallDir" "$INSTDIR"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayName" "Rout"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "Publisher" "Rout developers"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\routw.exe"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoRepair" 1
SectionEnd

Section "Uninstall"
  SetShellVarContext all
  Delete "$SMPROGRAMS\Rout.lnk"
  ; Only the installed program: the player's database and settings stay in their profile.
  RMDir /r "$INSTDIR"
  DeleteRegKey HKLM "${UNINSTALL_KEY}"
  DeleteRegKey HKLM "Software\Rout"
SectionEnd

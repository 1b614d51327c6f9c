@echo off
rem The hygiene shim for Windows shells that are not bash (PowerShell, cmd). Claude Code's Bash
rem tool runs Git Bash, which runs bin/hygiene itself; PowerShell resolves `hygiene` to this
rem file instead, which runs that same script with Git Bash, found as the client finds it:
rem CLAUDE_CODE_GIT_BASH_PATH, SHELL, Program Files, then next to git on PATH.
setlocal
set "HYGIENE_BASH="
if defined CLAUDE_CODE_GIT_BASH_PATH if exist "%CLAUDE_CODE_GIT_BASH_PATH%" set "HYGIENE_BASH=%CLAUDE_CODE_GIT_BASH_PATH%"
if not defined HYGIENE_BASH if defined SHELL if /i "%SHELL:~-8%"=="bash.exe" if exist "%SHELL%" set "HYGIENE_BASH=%SHELL%"
if not defined HYGIENE_BASH if exist "%ProgramFiles%\Git\bin\bash.exe" set "HYGIENE_BASH=%ProgramFiles%\Git\bin\bash.exe"
if not defined HYGIENE_BASH if exist "%ProgramFiles(x86)%\Git\bin\bash.exe" set "HYGIENE_BASH=%ProgramFiles(x86)%\Git\bin\bash.exe"
if not defined HYGIENE_BASH for /f "delims=" %%G in ('where git 2^>nul') do if not defined HYGIENE_BASH if exist "%%~dpG..\bin\bash.exe" set "HYGIENE_BASH=%%~dpG..\bin\bash.exe"
if not defined HYGIENE_BASH (
  echo hygiene: Git Bash not found; install Git for Windows from https://git-scm.com/download/win or set CLAUDE_CODE_GIT_BASH_PATH, and retry 1>&2
  exit /b 2
)
rem Forward slashes: bash takes C:/x/bin/hygiene as a path it can split into folders.
set "HYGIENE_SHIM=%~dp0hygiene"
"%HYGIENE_BASH%" "%HYGIENE_SHIM:\=/%" %*
exit /b %ERRORLEVEL%

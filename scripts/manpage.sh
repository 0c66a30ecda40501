#!/usr/bin/env bash
# Writes icskit(1) in roff from the built binary's own --help: the command's help, then each subcommand's, so that
# the page says what `icskit --help` says. Usage: scripts/manpage.sh ICSKIT > icskit.1
set -euo pipefail
icskit="$1"
version="$("$icskit" --version)"
# roff: a leading dot or quote would be a request, a backslash an escape.
escape() { sed -e 's/\\/\\e/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\\&'/"; }
cat <<HEAD
.TH ICSKIT 1 "" "icskit $version" "User Commands"
.SH NAME
icskit \- iCalendar files, an embedded calendar store, feeds and CalDAV sync
.SH SYNOPSIS
.B icskit
.I command
[\fIoptions\fR]
.SH DESCRIPTION
.nf
HEAD
"$icskit" --help | escape
echo ".fi"
echo ".SH COMMANDS"
# The subcommands as --help lists them: the first word of each indented line under SUBCOMMANDS.
commands=$("$icskit" --help | awk '/^SUBCOMMANDS:/ {on=1; next} on && /^  [a-z]/ {print $1} on && /^[A-Z]/ {on=0}')
for command in $commands; do
  echo ".SS $command"
  echo ".nf"
  "$icskit" help "$command" | escape
  echo ".fi"
done
cat <<TAIL
.SH FILES
.TP
.I \$XDG_DATA_HOME/icskit/store.sqlite
The store (\fI~/.local/share/icskit/store.sqlite\fR when XDG_DATA_HOME is not set); \fB\-\-store\fR names another.
.SH SEE ALSO
The README and docs/ of the ICSKit source.
TAIL

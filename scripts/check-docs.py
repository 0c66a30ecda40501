#!/usr/bin/env python3
"""Checks that what README.md, docs/*.md and the other reference documents name exists: every repository path in backticks (globs allowed), every
`icskit` command and each option given to it (asked of the built binary's --help), and every `make` target.
Usage: scripts/check-docs.py ICSKIT_BINARY. Prints each name that does not exist, file:line first; exits 1 if any."""
import glob, os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)
binary = sys.argv[1]


def help_of(words):
    env = dict(os.environ, COLUMNS="200", ICSKIT_CONFIG=os.path.join(root, ".build", "no-config.toml"))
    out = subprocess.run([binary, *words, "--help"], capture_output=True, text=True, env=env).stdout
    options, subcommands, section = set(), set(), None
    for line in out.splitlines():
        if re.match(r"^[A-Z][A-Z ]+:", line):
            section = line.split(":")[0]
            continue
        if section == "OPTIONS" or (section or "").endswith("OPTIONS"):
            head = line.strip().split("  ")[0]
            options.update(re.findall(r"(--[a-z0-9][a-z0-9-]*|-[a-zA-Z])\b", head))
        elif section == "SUBCOMMANDS":
            match = re.match(r"^  ([a-z][a-z0-9-]*)", line)
            if match:
                subcommands.add(match.group(1))
    return options, subcommands


commands = {}  # "agenda" or "share add" -> its options


def learn(words):
    options, subcommands = help_of(words)
    commands[" ".join(words)] = options
    for name in subcommands:
        if name != "help":
            learn(words + [name])


learn([])
targets = set()
for line in open("Makefile"):
    match = re.match(r"^([a-zA-Z0-9_.%-]+(?: [a-zA-Z0-9_.%-]+)*):(?!=)", line)
    if match:
        targets.update(match.group(1).split())
for line in open("Makefile"):
    if line.startswith(".PHONY:"):
        targets.update(line.split(":", 1)[1].split())

top = set(os.listdir("."))
problems = []


def check_command(words, where):
    """`icskit WORDS…` as written in the docs: its (sub)command and options."""
    rest = [w for w in words]
    path = []
    while rest and " ".join(path + [rest[0]]) in commands:
        path.append(rest.pop(0))
    if not path:
        if rest and not rest[0].startswith("-") and re.match(r"^[a-z][a-z-]*$", rest[0]):
            problems.append(f"{where}: icskit {rest[0]}: no such command")
        return
    known = commands[" ".join(path)] | commands[""]
    for word in rest:
        option = re.match(r"^(--[a-z0-9][a-z0-9-]*|-[a-zA-Z])(?:=.*)?$", word)
        if option and option.group(1) not in known:
            problems.append(f"{where}: icskit {' '.join(path)} has no option {option.group(1)}")


def check_path(text, where):
    text = text.rstrip(".,:;")
    parts = text.split("/")
    # Build output is no repository path; an all-capitals part is a placeholder (`Fixtures/fuzz-regressions/TARGET/`).
    if parts[0] not in top or "/" not in text or parts[0].startswith(".build"):
        return
    if any(re.fullmatch(r"[A-Z][A-Z_]+", part) for part in parts):
        return
    if "*" in text or "?" in text:
        if not glob.glob(text):
            problems.append(f"{where}: {text}: nothing matches")
    elif not os.path.exists(text.split("#")[0].split(":")[0]):
        problems.append(f"{where}: {text}: no such file or folder")


documents = ["README.md", "ARCHITECTURE.md", "SECURITY.md", "CONTRIBUTING.md", "TESTING.md", "BENCHMARKS.md"] + sorted(
    glob.glob("docs/*.md"))
for document in documents:
    in_block = False
    for number, line in enumerate(open(document), 1):
        where = f"{document}:{number}"
        if line.startswith("```"):
            in_block = not in_block
            continue
        # A code block's comments (`  # …`) are prose.
        spans = [re.sub(r"(^|\s)#\s.*$", "", line)] if in_block else re.findall(r"`([^`]+)`", line)
        for span in spans:
            for piece in re.split(r"\s*(?:\||&&|;|\$\(|\))\s*", span):
                words = piece.split()
                if len(words) >= 2 and words[0] == "icskit":
                    check_command([w.strip("'\"") for w in words[1:] if w != "\\"], where)
                if len(words) >= 2 and words[0] == "make":
                    target = words[1]
                    if not target.startswith("-") and "=" not in target and target not in targets:
                        problems.append(f"{where}: make {target}: no such target")
            if not in_block and " " not in span.strip():
                check_path(span.strip(), where)

for problem in problems:
    print(problem)
if problems:
    print(f"{len(problems)} names in the documents that do not exist", file=sys.stderr)
    sys.exit(1)
print(f"every path, command, option and make target the documents name exists ({len(documents)} files)")

#!/usr/bin/env python3
"""The manual cannot drift from the program: every UCI option that `quince uci` prints and every
subcommand that `quince --help` lists (with each --option of its usage line) must appear in both the man
page (docs/quince.6) and README.md. Exits non-zero naming every one that is missing.

    python3 tests/docs/manual_test.py build/quince docs/quince.6 README.md
"""
import re
import subprocess
import sys

engine, man_path, readme_path = sys.argv[1:4]
failures = []


def roff_text(line):
    """A roff line as plain text: font escapes dropped, \\- read as -."""
    line = re.sub(r"\\f[BIRP]", "", line).replace("\\-", "-").replace('\\(dq', '"')
    return re.sub(r"^\.(B|I|BI|IB|RB|BR|RI|IR)\s+", "", line)


man_lines = open(man_path, encoding="utf-8").read().splitlines()
readme = open(readme_path, encoding="utf-8").read()

# Man page sections: name -> list of lines.
sections, current = {}, None
for line in man_lines:
    if line.startswith(".SH "):
        current = line[4:].strip().strip('"')
        sections[current] = []
    elif current:
        sections[current].append(line)


def tagged_items(section):
    """The `.TP` item names of a man page section (the line after each .TP)."""
    lines = sections.get(section, [])
    return {roff_text(lines[i + 1]).strip() for i, l in enumerate(lines[:-1]) if l.strip() == ".TP"}


# --- UCI options -------------------------------------------------------------------------------------
uci = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True, timeout=60).stdout
options = [m.group(1) for m in re.finditer(r"^option name (.+?) type ", uci, re.M)]
if len(options) < 20:
    failures.append(f"`quince uci` printed only {len(options)} options:\n{uci}")
man_options = tagged_items("UCI OPTIONS")
readme_rows = {m.group(1).strip() for m in re.finditer(r"^\| ([^|`]+?) \|", readme, re.M)}
for name in options:
    if name not in man_options:
        failures.append(f"UCI option '{name}' is not an item of the man page's UCI OPTIONS section")
    if name not in readme_rows:
        failures.append(f"UCI option '{name}' has no row '| {name} |' in README.md's option table")

# --- subcommands -------------------------------------------------------------------------------------
help_text = subprocess.run([engine, "--help"], capture_output=True, text=True, timeout=60).stdout
usage = {}
in_list = False
for line in help_text.splitlines():
    if line.startswith("subcommands:"):
        in_list = True
    elif in_list and re.match(r"^  \S", line):
        name, _, args = line.strip().partition(" ")
        usage[name] = usage.get(name, "") + " " + args  # a subcommand with two forms (analyse) has two lines
    elif in_list and not line.strip():
        in_list = False
if len(usage) < 8:
    failures.append(f"`quince --help` listed only {sorted(usage)}")

synopsis = [roff_text(l) for l in sections.get("SYNOPSIS", [])]
man_subcommands = tagged_items("SUBCOMMANDS")
readme_commands = [l for l in readme.splitlines() if l.startswith("| `build/quince ")]
for name, args in usage.items():
    flags = sorted(set(re.findall(r"--[a-z][a-z-]*", args)))
    # The synopsis lines of this subcommand: from `quince NAME` up to the next .br.
    text, taking = "", False
    for line in synopsis:
        if line.startswith(f"quince {name}") and (len(line) == len(f"quince {name}") or line[len(f"quince {name}")] == " "):
            taking = True
        elif line.strip() == ".br":
            taking = False
        if taking:
            text += " " + line
    if not text:
        failures.append(f"subcommand '{name}' has no 'quince {name}' line in the man page's SYNOPSIS")
    if name not in man_subcommands:
        failures.append(f"subcommand '{name}' is not an item of the man page's SUBCOMMANDS section")
    rows = [l for l in readme_commands if re.match(rf"^\| `build/quince {re.escape(name)}[ `]", l)]
    if not rows:
        failures.append(f"subcommand '{name}' has no row '| `build/quince {name} …` |' in README.md's command table")
    for flag in flags:
        if flag not in re.findall(r"--[a-z][a-z-]*", text):
            failures.append(f"'quince {name} {flag}' is missing from the man page's SYNOPSIS")
        if rows and not any(flag in re.split(r"(?<!\\)\|", r)[1] for r in rows):
            failures.append(f"'quince {name} {flag}' is missing from README.md's command table")

for f in failures:
    print("FAIL:", f)
print(f"{len(options)} options, {len(usage)} subcommands checked; {len(failures)} missing")
sys.exit(1 if failures else 0)

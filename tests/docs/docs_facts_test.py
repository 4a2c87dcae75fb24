#!/usr/bin/env python3
"""Facts of the shipped documents that the program can check, so that they cannot go stale:

    python3 tests/docs/docs_facts_test.py readme-bench ENGINE README.md
        every bench signature README.md names (`currently N`, archive names `…-benchN.…`) is the one
        `quince --version` of this build prints (a build with the signature computed);
    python3 tests/docs/docs_facts_test.py man-page ENGINE docs/quince.6
        the man page renders its words apart: no font-alternating macro (.BR, .BI, …) glues two words
        together (`.BR \\-\\-profile ). With a` rendered "--profile).Witha"), and the default profile it
        names for `analyse` is EvalProfile's default in `quince uci`;
    python3 tests/docs/docs_facts_test.py polyglot-ini ENGINE docs/polyglot.ini
        every option of the [Engine] section is one `quince uci` lists, with a value it accepts, and the
        evaluation is left at the engine's default (no EvalProfile or EvalFile other than the default).

Exits 1 naming every failure.
"""
import re
import subprocess
import sys


def run(engine, args, stdin=""):
    return subprocess.run([engine, *args], input=stdin, capture_output=True, text=True, timeout=120).stdout


def uci_options(engine):
    """name -> (type, default, rest of the line) from `quince uci`."""
    options = {}
    for m in re.finditer(r"^option name (.+?) type (\w+)(?: default (\S*))?(.*)$", run(engine, [], "uci\nquit\n"), re.M):
        options[m.group(1)] = (m.group(2), m.group(3), m.group(4))
    return options


def readme_bench(engine, readme_path):
    failures = []
    version = run(engine, ["--version"])
    m = re.search(r"^bench signature: (\d+)", version, re.M)
    if not m:
        return [f"`quince --version` names no bench signature:\n{version}"]
    signature = m.group(1)
    text = open(readme_path, encoding="utf-8").read()
    named = re.findall(r"\(currently (\d+)\)", text) + re.findall(r"-bench(\d+)\.", text)
    if not named:
        failures.append("README.md names no bench signature ('(currently N)', '-benchN.' archive names)")
    for n in named:
        if n != signature:
            failures.append(f"README.md names bench {n}; this build's is {signature} (quince --version)")
    return failures


def macro_arguments(text):
    """The arguments of a roff macro line: words, or double-quoted strings (\"\" inside is one quote)."""
    args, i = [], 0
    while i < len(text):
        if text[i] == " ":
            i += 1
        elif text[i] == '"':
            j, arg = i + 1, ""
            while j < len(text) and not (text[j] == '"' and text[j + 1:j + 2] != '"'):
                arg += text[j]
                j += 2 if text[j:j + 2] == '""' else 1
            args.append(arg)
            i = j + 1
        else:
            j = text.find(" ", i)
            j = len(text) if j < 0 else j
            args.append(text[i:j])
            i = j
    return args


def visible(arg):
    """An argument's rendered characters, near enough to see its first and last: escapes dropped."""
    arg = re.sub(r"\\f[BIRP]", "", arg)
    arg = re.sub(r"\\\(..", '"', arg)  # \(dq, \(em: a sign, not a letter
    return arg.replace("\\-", "-").replace("\\&", "")


def man_page(engine, man_path):
    failures = []
    lines = open(man_path, encoding="utf-8").read().splitlines()
    for number, line in enumerate(lines, 1):
        m = re.match(r"^\.(BR|RB|BI|IB|IR|RI) (.*)$", line)
        if not m:
            continue
        args = [visible(a) for a in macro_arguments(m.group(2))]
        for a, b in zip(args, args[1:]):
            if a and b and a[-1].isalnum() and b[0].isalnum():
                failures.append(f"{man_path}:{number}: '.{m.group(1)}' glues '{a}' and '{b}' into one word: {line}")
    default = uci_options(engine).get("EvalProfile", (None, None, None))[1]
    text = "\n".join(lines)
    m = re.search(r"Defaults: one thread, 64 MB hash, profile\n\.BR? (\S+)", text)
    if not m:
        failures.append("the man page's analyse paragraph names no default profile ('Defaults: … profile')")
    elif m.group(1) != default and default == "nnue":  # a build without a net: the text names its default too
        failures.append(f"the man page names profile {m.group(1)} the default of analyse; EvalProfile's default is {default}")
    return failures


def polyglot_ini(engine, ini_path):
    failures = []
    options = uci_options(engine)
    section = None
    for number, raw in enumerate(open(ini_path, encoding="utf-8"), 1):
        line = raw.split(";")[0].split("#")[0].strip()
        if not line:
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        if section != "Engine":
            continue
        name, _, value = (part.strip() for part in line.partition("="))
        where = f"{ini_path}:{number}: {name} = {value}"
        if name not in options:
            failures.append(f"{where}: quince has no option '{name}'")
            continue
        kind, default, rest = options[name]
        if kind == "spin":
            low, high = (int(x) for x in re.search(r"min (-?\d+) max (-?\d+)", rest).groups())
            if not re.fullmatch(r"-?\d+", value) or not low <= int(value) <= high:
                failures.append(f"{where}: not an integer in {low}..{high}")
        elif kind == "check" and value not in ("true", "false"):
            failures.append(f"{where}: not true or false")
        elif kind == "combo" and value not in [default] + re.findall(r" var (\S+)", rest):
            failures.append(f"{where}: not one of the option's values")
        if name in ("EvalProfile", "EvalFile") and value != (default or ""):
            failures.append(f"{where}: xboard users would play with another evaluation than the default ({default})")
    if section is None:
        failures.append(f"{ini_path} has no sections")
    return failures


CHECKS = {"readme-bench": readme_bench, "man-page": man_page, "polyglot-ini": polyglot_ini}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in CHECKS:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    failures = CHECKS[sys.argv[1]](sys.argv[2], sys.argv[3])
    for f in failures:
        print("FAIL:", f)
    print(f"{sys.argv[1]}: {len(failures)} failures")
    sys.exit(1 if failures else 0)

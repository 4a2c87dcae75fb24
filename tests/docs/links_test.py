#!/usr/bin/env python3
"""Every relative Markdown link (file and #anchor) in the repository's *.md files resolves: a moved entry of
docs/results.md or a renamed heading cannot leave a folder README pointing nowhere. Anchors follow GitHub's
heading slugs. Usage: links_test.py REPO_ROOT (the tracked files; every *.md under it without git)."""
import os, re, subprocess, sys, unicodedata

root = sys.argv[1]
try:
    files = subprocess.run(["git", "-C", root, "ls-files", "*.md"], capture_output=True, text=True,
                           check=True).stdout.split()
except (OSError, subprocess.CalledProcessError):  # a copy without git: every *.md outside build folders
    files = [os.path.relpath(os.path.join(d, f), root) for d, dirs, names in os.walk(root)
             if not any(p.startswith("build") or p in (".git", "node_modules") for p in os.path.relpath(d, root).split(os.sep))
             for f in names if f.endswith(".md")]

def slug(text):
    text = re.sub(r"<[^>]+>", "", text)             # inline HTML
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links keep their text
    out = []
    for ch in text.lower():
        cat = unicodedata.category(ch)
        if ch in " -_" or cat[0] in "LN" or cat == "Mn" or cat == "Mc":
            out.append(ch)
    return "".join(out).replace(" ", "-")

anchors_cache = {}
def anchors(path):
    if path not in anchors_cache:
        seen, result = {}, set()
        in_code = False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.lstrip().startswith("```"):
                    in_code = not in_code
                    continue
                if in_code:
                    continue
                m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
                if not m:
                    continue
                s = slug(m.group(2).strip())
                n = seen.get(s, 0)
                result.add(s if n == 0 else f"{s}-{n}")
                seen[s] = n + 1
        anchors_cache[path] = result
    return anchors_cache[path]

LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
bad = 0
checked = 0
for rel in files:
    path = os.path.join(root, rel)
    in_code = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                checked += 1
                if not os.path.exists(dest):
                    print(f"{rel}:{number}: missing file {target}"); bad += 1; continue
                if anchor and dest.endswith(".md") and anchor not in anchors(dest):
                    print(f"{rel}:{number}: missing anchor {target}"); bad += 1
print(f"{checked} relative links checked in {len(files)} files, {bad} broken")
sys.exit(1 if bad else 0)

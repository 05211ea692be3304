#!/usr/bin/env python3
"""Resolves every relative markdown link (and #anchor) in README.md, docs/ and Sources/**/README.md; exit 1 on a broken one.
Run from the repository root: python3 docs/check-links.py (belongs in scripts/; kept here by the docs branch, which may not touch scripts/)."""
import re, os, sys, glob, unicodedata
root = sys.argv[1] if len(sys.argv) > 1 else '.'
os.chdir(root)
files = ['README.md'] + glob.glob('docs/**/*.md', recursive=True) + glob.glob('Sources/**/README.md', recursive=True) + glob.glob('Tests/**/README.md', recursive=True)
link = re.compile(r'(?<!\!)\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\!\[[^\]]*\]\(([^)\s]+)\)')
def anchors(path):
    out = set(); seen = {}
    inside = False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'): inside = not inside
        if inside: continue
        m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if m:
            t = m.group(2).lower()
            t = re.sub(r'[^\w\- ]', '', t, flags=re.UNICODE).replace(' ', '-')
            n = seen.get(t, 0); seen[t] = n + 1
            out.add(t if n == 0 else f'{t}-{n}')
        for a in re.findall(r'<a (?:name|id)="([^"]+)"', line): out.add(a)
    return out
bad = 0
for f in files:
    inside = False
    for no, line in enumerate(open(f, encoding='utf-8'), 1):
        if line.startswith('```'): inside = not inside
        if inside: continue
        for m in link.finditer(line):
            target = m.group(1) or m.group(2)
            if re.match(r'^[a-z]+:', target): continue
            path, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(dest):
                print(f'{f}:{no}: missing {target}'); bad += 1; continue
            if frag and dest.endswith('.md') and frag not in anchors(dest):
                print(f'{f}:{no}: no anchor #{frag} in {dest}'); bad += 1
print(f'{len(files)} files, {bad} broken links')
sys.exit(1 if bad else 0)

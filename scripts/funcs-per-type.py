#!/usr/bin/env python3
"""Counts the functions of each type (members declared with `func`, static ones included, initializers and local
functions not) across its declaration and all its extensions under a source folder; nested types count apart
(`Outer.Inner`). A quick text scan, not a parser. Usage: scripts/funcs-per-type.py DIR [TOP_N] [TYPE...]"""
import os, re, sys
from collections import Counter
decl = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*(struct|enum|class|actor|protocol|extension)\s+([A-Za-z_][\w.]*)')
func = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|static|class|final|override|mutating|nonisolated|@discardableResult)\s+)*func\s')
counts = Counter()
root = sys.argv[1]
for d, _, files in os.walk(root):
    for f in files:
        if not f.endswith('.swift'): continue
        stack = []  # (type name, depth at which its body opened)
        depth = 0
        for line in open(os.path.join(d, f), encoding='utf-8'):
            code = re.sub(r'"(?:\\.|[^"\\])*"', '""', line.split('//')[0] if '"' not in line else line)
            m = decl.match(code)
            if func.match(code) and stack and depth == stack[-1][1]:
                counts[stack[-1][0]] += 1
            if m and (not stack or depth == stack[-1][1]) and '{' in code:
                name = m.group(2)
                full = name if m.group(1) == 'extension' or not stack else stack[-1][0] + '.' + name
                stack.append((full, depth + 1))
            depth += code.count('{') - code.count('}')
            while stack and depth < stack[-1][1]:
                stack.pop()
n = int(sys.argv[2]) if len(sys.argv) > 2 else 15
for name, c in counts.most_common(n):
    print(f'{c:4d}  {name}')
for t in sys.argv[3:]:
    print(f'{counts[t]:4d}  {t} (asked)')

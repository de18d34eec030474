#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of how the performance suite imports (issue #54, item 2):
the import graph of its package (nft_concat_range/nftbench/, read with
ast, nothing imported) has no circle; every import of the suite's Python
files (the package, its scripts, guest/) sits at the top level of its
module, none inside a function, a class or an if; the T0 modules import
only those listed before them in t0/__init__.py.

A circle is a module that needs, through its imports, a module that
needs it: cli -> host -> cli was one (host ran t0.py through cli), and
t0cells -> t0breakdown -> t0run -> t0cells another; imports inside
functions hid them from Python (each ran after both modules had loaded)
but not from a reader.  No kernel.

python3 tests/unit/test_imports.py: TAP (lib/tap.py); -v: unittest's own
runner."""
import ast
import os
import re
import subprocess
import sys
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "lib"))
import tap  # noqa: E402

SUITE = os.path.join(TOP, "nft_concat_range")
PACKAGE = "nftbench"
T0_DOC_RE = re.compile(r"^  ([a-z_]+) {2,}\S", re.M)


def is_python(path):
    """A Python file by its name (*.py) or its first line (a #! naming
    python), as tests/pyflakes.sh decides."""
    if path.endswith(".py"):
        return True
    try:
        with open(path, "rb") as f:
            first = f.readline()
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def suite_files():
    """The suite's Python files, tracked or new (not ignored)."""
    out = subprocess.run(["git", "-C", TOP, "ls-files", "-z", "-co", "--exclude-standard", "nft_concat_range"],
                         check=True, stdout=subprocess.PIPE).stdout.decode()
    paths = [os.path.join(TOP, f) for f in out.split("\0") if f]
    return sorted(p for p in paths if os.path.isfile(p) and is_python(p))


def package_modules():
    """{module name: path} of the package, subpackages included."""
    mods = {}
    root = os.path.join(SUITE, PACKAGE)
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(d, f), SUITE)[:-3].split(os.sep)
            if rel[-1] == "__init__":
                rel = rel[:-1]
            mods[".".join(rel)] = os.path.join(d, f)
    return mods


def parse(path):
    with open(path) as f:
        return ast.parse(f.read(), path)


def imported(name, path, node, mods):
    """The package's modules that import statement NODE of module NAME
    (at PATH) loads: the module named and, for `from X import Y`, X.Y
    where that is a module."""
    if isinstance(node, ast.Import):
        targets = [a.name for a in node.names]
        return {t for t in targets if t in mods}
    if node.level:
        # a package's __init__ is its own base; a module's is its package
        base = name.split(".") if path.endswith("__init__.py") else name.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        src = ".".join(base + ([node.module] if node.module else []))
    else:
        src = node.module
    out = {src} if src in mods else set()
    out |= {"%s.%s" % (src, a.name) for a in node.names if "%s.%s" % (src, a.name) in mods}
    return out


def import_graph(mods):
    """{module: {modules it imports}} of the package."""
    graph = {}
    for name, path in mods.items():
        edges = set()
        for node in ast.walk(parse(path)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges |= imported(name, path, node, mods)
        edges.discard(name)
        graph[name] = edges
    return graph


def circles(graph):
    """The strongly connected components of GRAPH with more than one
    module (Tarjan's algorithm): each is a circle of imports."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def nested_imports(path):
    """["LINE: import ..."] of the imports of PATH that are not at the top
    level of its module."""
    tree = parse(path)
    top = {id(n) for n in tree.body}
    return ["%d: %s" % (n.lineno, ast.unparse(n)) for n in ast.walk(tree)
            if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in top]


class Graph(unittest.TestCase):
    """The package's import graph."""

    @classmethod
    def setUpClass(cls):
        cls.mods = package_modules()
        cls.graph = import_graph(cls.mods)

    def test_reads_the_package(self):
        """the graph holds the package's modules and the imports between them (cli -> host -> t0.cli)"""
        self.assertIn("nftbench.t0.cells", self.mods)
        self.assertIn("nftbench.host", self.graph["nftbench.cli"])
        self.assertIn("nftbench.t0.cli", self.graph["nftbench.host"])
        self.assertIn("nftbench.t0.breakdown", self.graph["nftbench.t0.cells"])

    def test_finds_a_circle(self):
        """a made-up circle a -> b -> c -> a is found, and a module that only imports is not in it"""
        graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
        self.assertEqual(circles(graph), [["a", "b", "c"]])

    def test_no_circle(self):
        """no module of the package imports, through others, a module that imports it"""
        self.assertEqual(circles(self.graph), [])

    def test_t0_order(self):
        """every T0 module imports only the T0 modules t0/__init__.py lists before it"""
        with open(self.mods["nftbench.t0"]) as f:
            order = T0_DOC_RE.findall(ast.get_docstring(ast.parse(f.read())))
        t0 = sorted(m.split(".")[-1] for m in self.mods if m.startswith("nftbench.t0."))
        self.assertEqual(sorted(order), t0, "t0/__init__.py lists every module of t0/, once")
        for i, m in enumerate(order):
            later = {"nftbench.t0." + x for x in order[i:]}
            self.assertEqual(sorted(self.graph["nftbench.t0." + m] & later), [], "t0/%s.py" % m)


class Nested(unittest.TestCase):
    """Imports at the top level only."""

    def test_finds_nested(self):
        """an import inside a function, a class or an if is found; a top-level one is not"""
        src = ("import os\n\n\ndef f():\n    import json\n\n\nclass C:\n    from re import match\n\n\n"
               "if os:\n    import sys\n")
        path = os.path.join(TOP, "build", "test_imports_nested.py")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(src)
        try:
            self.assertEqual(nested_imports(path), ["5: import json", "9: from re import match", "13: import sys"])
        finally:
            os.unlink(path)

    def test_suite_files(self):
        """every import of the suite's Python files (package, scripts, guest/) is at its module's top level"""
        files = suite_files()
        self.assertIn(os.path.join(SUITE, "bench"), files)
        self.assertIn(os.path.join(SUITE, "guest", "commit-cost.py"), files)
        bad = ["%s:%s" % (os.path.relpath(p, TOP), line) for p in files for line in nested_imports(p)]
        self.assertEqual(bad, [])


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))

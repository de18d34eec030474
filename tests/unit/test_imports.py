#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of how the performance suite imports (issue #54, item 2):
the import graph of its package (nft_concat_range/nftbench/, read with
ast, nothing imported) has no circle; every import of the suite's Python
files (the package, its scripts, guest/) and of the unit tests sits at
the top level of its module, none inside a function, a class or an if;
the T0 modules import only those listed before them in t0/__init__.py.
No Python file of the tree edits sys.path but lib/bootstrap.py, and the
directories it puts there hold no two modules of one name.

A circle is a module that needs, through its imports, a module that
needs it: cli -> host -> cli was one (host ran t0.py through cli), and
t0cells -> t0breakdown -> t0run -> t0cells another; imports inside
functions hid them from Python (each ran after both modules had loaded)
but not from a reader.  No kernel.

python3 tests/unit/test_imports.py: TAP (lib/tap.py); -v: unittest's own
runner."""
import ast
import contextlib
import os
import re
import runpy
import subprocess
import sys
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402

SUITE = os.path.join(TOP, "nft_concat_range")
BOOTSTRAP = os.path.join(TOP, "lib", "bootstrap.py")
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


def python_files(*dirs):
    """The Python files of the tree (under DIRS), tracked or new (not
    ignored), build/ aside: those tests/pyflakes.sh checks."""
    out = subprocess.run(["git", "-C", TOP, "ls-files", "-z", "-co", "--exclude-standard", "--"] + list(dirs),
                         check=True, stdout=subprocess.PIPE).stdout.decode()
    paths = [os.path.join(TOP, f) for f in out.split("\0") if f and not f.startswith("build/")]
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


SYS_PATH_EDITS = ("insert", "append", "extend", "remove", "pop", "clear", "__setitem__")


def is_sys_path(node):
    return (isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name)
            and node.value.id == "sys")


def sys_path_edits(path):
    """["LINE: ..."] of the statements of PATH that change sys.path: a call
    of one of its list methods, an assignment to it or to a slice of it,
    site.addsitedir()."""
    out = []
    for n in ast.walk(parse(path)):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            if ((is_sys_path(n.func.value) and n.func.attr in SYS_PATH_EDITS) or
                    (n.func.attr == "addsitedir" and isinstance(n.func.value, ast.Name) and n.func.value.id == "site")):
                out.append("%d: %s" % (n.lineno, ast.unparse(n)))
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AugAssign) else []
        for t in targets:
            if is_sys_path(t) or (isinstance(t, ast.Subscript) and is_sys_path(t.value)):
                out.append("%d: %s" % (n.lineno, ast.unparse(n)))
    return sorted(out, key=lambda e: int(e.split(":")[0]))


def top_level_names(d):
    """The names a directory on sys.path offers to import: its modules
    (NAME.py) and packages (NAME/__init__.py)."""
    names = set()
    for f in os.listdir(d):
        if f.endswith(".py") and f[:-3].isidentifier():
            names.add(f[:-3])
        elif f.isidentifier() and os.path.isfile(os.path.join(d, f, "__init__.py")):
            names.add(f)
    return names


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


@contextlib.contextmanager
def source_file(name, src):
    """A Python file NAME under build/ holding SRC, for the checkers to
    read, removed afterwards."""
    path = os.path.join(TOP, "build", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(src)
    try:
        yield path
    finally:
        os.unlink(path)


class Nested(unittest.TestCase):
    """Imports at the top level only."""

    def test_finds_nested(self):
        """an import inside a function, a class or an if is found; a top-level one is not"""
        src = ("import os\n\n\ndef f():\n    import json\n\n\nclass C:\n    from re import match\n\n\n"
               "if os:\n    import sys\n")
        with source_file("test_imports_nested.py", src) as path:
            self.assertEqual(nested_imports(path), ["5: import json", "9: from re import match", "13: import sys"])

    def test_suite_files(self):
        """every import of the suite's Python files (package, scripts, guest/) and unit tests is at its top level"""
        files = python_files("nft_concat_range", "tests/unit")
        self.assertIn(os.path.join(SUITE, "bench"), files)
        self.assertIn(os.path.join(SUITE, "guest", "commit-cost.py"), files)
        bad = ["%s:%s" % (os.path.relpath(p, TOP), line) for p in files for line in nested_imports(p)]
        self.assertEqual(bad, [])


class Bootstrap(unittest.TestCase):
    """lib/bootstrap.py, the one place that edits sys.path."""

    def test_finds_edits(self):
        """sys.path.insert, .append, a slice assignment and site.addsitedir are found; reading sys.path is not"""
        src = ("import site\nimport sys\n\nsys.path.insert(0, 'a')\nsys.path.append('b')\nsys.path[1:1] = ['c']\n"
               "site.addsitedir('d')\nprint(sys.path[0], 'x' in sys.path)\n")
        with source_file("test_imports_syspath.py", src) as path:
            self.assertEqual([e.split(":")[0] for e in sys_path_edits(path)], ["4", "5", "6", "7"])

    def test_only_the_bootstrap(self):
        """no Python file of the tree edits sys.path but lib/bootstrap.py"""
        bad = ["%s:%s" % (os.path.relpath(p, TOP), e) for p in python_files()
               if p != BOOTSTRAP for e in sys_path_edits(p)]
        self.assertEqual(bad, [])
        self.assertNotEqual(sys_path_edits(BOOTSTRAP), [], "the bootstrap itself does edit it")

    def test_roots(self):
        """the bootstrap's directories exist; no two of them, or one and the stdlib, offer one module name"""
        roots = runpy.run_path(BOOTSTRAP)["ROOTS"]
        seen = {}
        for r in roots:
            d = os.path.join(TOP, r)
            self.assertTrue(os.path.isdir(d), r)
            for name in sorted(top_level_names(d)):
                self.assertNotIn(name, seen, "%s: in %s and %s" % (name, seen.get(name), r))
                self.assertNotIn(name, sys.stdlib_module_names, "%s/%s shadows the standard library's" % (r, name))
                seen[name] = r
        self.assertIn("nftbench", seen)
        self.assertIn("tap", seen)


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))

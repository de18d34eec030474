#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of T0's code digests (nft_concat_range/nftbench/t0/code.py):
what the link decides (addresses, encodings, rip-relative, per-CPU and
absolute displacements) does not change a digest, the instructions do.
No kernel: objdump lines as text, and a stored run's t0.json for validate.

python3 tests/unit/test_t0code.py: TAP (lib/tap.py); -v: unittest's own runner."""
import contextlib
import io
import json
import os
import runpy
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
runpy.run_path(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "lib", "bootstrap.py"))
import tap  # noqa: E402
from nftbench.t0 import cells as t0cells, code as t0code  # noqa: E402

# one function as objdump -d -w prints it, linked at one address
LINKED_A = """
ffffffff8156d530 <fib_table_lookup>:
ffffffff8156d530:\tf3 0f 1e fa          \tendbr64
ffffffff8156d534:\t48 8b 05 c5 2a 4e 01 \tmov    0x14e2ac5(%rip),%rax        # ffffffff82a50000 <fib_props>
ffffffff8156d53b:\t44 8b 2c c5 20 22 86 81 \tmov    -0x7e79dde0(,%rax,8),%r13d
ffffffff8156d543:\t65 48 8b 05 bd 0c 8a 7e \tmov    %gs:0x7e8a0cbd(%rip),%rax
ffffffff8156d54b:\t48 c7 c7 40 0a a5 82 \tmov    $0xffffffff82a50a40,%rdi
ffffffff8156d552:\te8 a9 51 0c 00       \tcall   ffffffff81632700 <fib_lookup_good_nhc>
ffffffff8156d557:\t74 05                \tje     ffffffff8156d55e <fib_table_lookup+0x2e>
ffffffff8156d559:\t8b 47 10             \tmov    0x10(%rdi),%eax
ffffffff8156d55c:\t90                   \tnop
ffffffff8156d55d:\tc3                   \tret
"""

# the same code, linked elsewhere and against data that moved
LINKED_B = """
ffffffff8156e000 <fib_table_lookup>:
ffffffff8156e000:\tf3 0f 1e fa          \tendbr64
ffffffff8156e004:\t48 8b 05 f5 1f 4e 01 \tmov    0x14e1ff5(%rip),%rax        # ffffffff82a50000 <fib_props>
ffffffff8156e00b:\t44 8b 2c c5 a0 21 86 81 \tmov    -0x7e79de60(,%rax,8),%r13d
ffffffff8156e013:\t65 48 8b 05 ed 01 8a 7e \tmov    %gs:0x7e8a01ed(%rip),%rax
ffffffff8156e01b:\t48 c7 c7 80 0b a5 82 \tmov    $0xffffffff82a50b80,%rdi
ffffffff8156e022:\te8 d9 46 0c 00       \tcall   ffffffff81632700 <fib_lookup_good_nhc>
ffffffff8156e027:\t74 05                \tje     ffffffff8156e02e <fib_table_lookup+0x2e>
ffffffff8156e029:\t8b 47 10             \tmov    0x10(%rdi),%eax
ffffffff8156e02c:\t90                   \tnop
ffffffff8156e02d:\tc3                   \tret
"""


class Digest(unittest.TestCase):
    def test_link_does_not_change_it(self):
        """the same instructions at other addresses, against moved data, digest the same"""
        self.assertEqual(t0code.digest(LINKED_A), t0code.digest(LINKED_B))

    def test_struct_offset_changes_it(self):
        """a different struct offset is different code"""
        self.assertNotEqual(t0code.digest(LINKED_A), t0code.digest(LINKED_A.replace("0x10(%rdi)", "0x18(%rdi)")))

    def test_call_target_changes_it(self):
        """a call of another function is different code"""
        other = LINKED_A.replace("<fib_lookup_good_nhc>", "<fib_lookup_other>")
        self.assertNotEqual(t0code.digest(LINKED_A), t0code.digest(other))

    def test_branch_target_changes_it(self):
        """a branch to another offset in the function is different code"""
        other = LINKED_A.replace("<fib_table_lookup+0x2e>", "<fib_table_lookup+0x2d>")
        self.assertNotEqual(t0code.digest(LINKED_A), t0code.digest(other))

    def test_an_added_instruction_changes_it(self):
        """one instruction more is different code"""
        other = LINKED_A.replace("\tnop\n", "\tnop\nffffffff8156d55d:\t90 \tnop\n")
        self.assertNotEqual(t0code.digest(LINKED_A), t0code.digest(other))

    def test_headers_are_not_instructions(self):
        """the symbol header and blank lines are not part of the digest"""
        self.assertIsNone(t0code.normalize("ffffffff8156d530 <fib_table_lookup>:"))
        self.assertEqual(t0code.normalize("ffffffff8156d55d:\tc3                   \tret"), "ret")


# a stored run counted per function, with its code.json
STORED = os.path.join(HERE, "..", "..", "docs", "results", "t0-7.3-v5-p1-6-20261205T004912Z")


class Validate(unittest.TestCase):
    """t0.py validate of a run with code.json."""

    def validate(self, drop=None):
        with tempfile.TemporaryDirectory() as d:
            shutil.copytree(os.path.join(STORED, "t0"), os.path.join(d, "t0"))
            if drop:
                path = os.path.join(d, "t0", t0code.CODE_FILE)
                with open(path) as f:
                    code = json.load(f)
                del code["patched"]["functions"][drop]
                with open(path, "w") as f:
                    json.dump(code, f)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = t0cells.validate(d)
        return rc, out.getvalue()

    def test_complete_code_json_passes(self):
        """validate: a code.json with every counted function's digest passes"""
        rc, out = self.validate()
        self.assertEqual(rc, 0, out)
        self.assertIn("ok 11 - T0: code.json has the digest of every function", out)

    def test_missing_digest_fails(self):
        """validate: a code.json without one counted function's digest fails, naming it"""
        rc, out = self.validate(drop="nft_do_chain")
        self.assertNotEqual(rc, 0, out)
        self.assertIn("patched: nft_do_chain", out)


if __name__ == "__main__":
    sys.exit(tap.run_file(__file__))

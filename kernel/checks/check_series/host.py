# SPDX-License-Identifier: GPL-2.0
"""Where check-series meets the machine: the commands it runs, the files
and directories it writes, the tree lock it takes.  Host does all of it;
DryHost (--dry-run) prints each command instead of running it and writes
nothing.  Commands that only read (git queries on the base tree,
kernel/builder/build --print-path, a compiler's probe) go through query
and run in a dry run too.

Redirections are the shell's: stdout and stderr are our own unless a
command's are sent to a file (truncated, or appended to), to /dev/null, or
(stderr) to wherever stdout goes.  A program that cannot be run exits 127
(126: not executable) with the shell's kind of message, as it did when
check-series was a bash script."""
import fcntl
import os
import shlex
import shutil
import subprocess
import sys
from contextlib import contextmanager

DEVNULL = "/dev/null"
TO_STDOUT = "&1"   # stderr: 2>&1


def _flush():
    sys.stdout.flush()
    sys.stderr.flush()


def _not_started(argv, error, out, err):
    """The shell's status and message for ARGV that could not start
    (ERROR), the message where the command's stderr would have gone."""
    status = 127 if isinstance(error, FileNotFoundError) else 126
    message = "check-series: %s: %s\n" % (argv[0], "command not found" if status == 127 else error.strerror)
    if err == subprocess.STDOUT:
        target = sys.stdout if out in (None, subprocess.PIPE) else out
    else:
        target = sys.stderr if err is None else err
    if target in (sys.stdout, sys.stderr):
        target.write(message)
        target.flush()
    else:
        target.write(message.encode())
    return status


class Host:
    dry = False

    def log(self, message):
        """Progress on stderr, as kernel/lib.sh log prints it."""
        sys.stderr.write("[nftlab] %s\n" % message)
        sys.stderr.flush()

    def echo(self, text):
        """TEXT as it is on stdout (a file the shell would have cat)."""
        sys.stdout.write(text)
        sys.stdout.flush()

    # Commands.

    @staticmethod
    def _redirections(stdout, stderr, append, capture):
        """(stdout, stderr, the files opened) for subprocess.run; OSError
        as the shell's redirection fails."""
        files = []
        try:
            if capture:
                out = subprocess.PIPE
            elif stdout is None:
                out = None
            else:
                out = open(stdout, "ab" if append else "wb")
                files.append(out)
            if stderr is None:
                err = None
            elif stderr == TO_STDOUT:
                err = subprocess.STDOUT
            else:
                err = open(stderr, "wb")
                files.append(err)
        except OSError:
            for f in files:
                f.close()
            raise
        return out, err, files

    def _spawn(self, argv, stdout, stderr, append, env, capture):
        _flush()
        try:
            out, err, files = self._redirections(stdout, stderr, append, capture)
        except OSError as e:
            # the redirection failed: as in the shell, the command does not run
            sys.stderr.write("check-series: %s: %s\n" % (e.filename, e.strerror))
            sys.stderr.flush()
            return 1, ""
        try:
            r = subprocess.run(argv, stdout=out, stderr=err, env=dict(os.environ, **env) if env else None)
        except OSError as e:
            return _not_started(argv, e, out, err), ""
        finally:
            for f in files:
                f.close()
        return r.returncode, r.stdout.decode("utf-8", "surrogateescape") if capture else ""

    def run(self, argv, stdout=None, stderr=None, append=False, env=None, dry_status=0):
        """The exit status of ARGV, its output redirected as asked.
        DRY_STATUS: the status a dry run takes it to exit with (the one
        the check expects)."""
        return self._spawn(argv, stdout, stderr, append, env, False)[0]

    def output(self, argv, stderr=None, env=None, stand_in=""):
        """(exit status, stdout without its trailing newlines) of ARGV, as
        $(ARGV) gives them.  STAND_IN: what a dry run takes it to print
        (a string, or a function that returns one)."""
        rc, text = self._spawn(argv, None, stderr, False, env, True)
        return rc, text.rstrip("\n")

    def query(self, argv, stdout=None, stderr=None):
        """The exit status of ARGV, a command that only reads: run in a dry
        run too."""
        return self._spawn(argv, stdout, stderr, False, None, False)[0]

    def query_output(self, argv, stderr=None, strip=True):
        """(status, stdout) of a command that only reads, as output()
        (STRIP: without its trailing newlines)."""
        rc, text = self._spawn(argv, None, stderr, False, None, True)
        return rc, text.rstrip("\n") if strip else text

    # Files: the part's output directories and what is written there.

    def remove_tree(self, path):
        """rm -rf PATH."""
        if os.path.islink(path) or not os.path.isdir(path):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        else:
            shutil.rmtree(path, ignore_errors=True)

    def make_dirs(self, path):
        """mkdir -p PATH."""
        os.makedirs(path, exist_ok=True)

    def remove_files(self, directory, names):
        """(cd DIRECTORY && rm -f NAMES...)."""
        for name in names:
            try:
                os.unlink(os.path.join(directory, name))
            except FileNotFoundError:
                pass

    def copy(self, src, dst):
        """cp SRC DST: whether it worked."""
        try:
            shutil.copyfile(src, dst)
            return True
        except OSError as e:
            sys.stderr.write("cp: %s\n" % e)
            return False

    def write_text(self, path, text):
        with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write(text)

    def read_text(self, path):
        """The text of the file PATH, or None when it cannot be read."""
        try:
            with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
                return f.read()
        except OSError:
            return None

    def is_file(self, path):
        return os.path.isfile(path)

    @contextmanager
    def lock(self, path):
        """Holds the tree lock PATH (kernel/lib.sh tree_lock and
        with_tree_lock: the same flock(2) lock, so that a build of
        kernel/builder waits for us and we for it)."""
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self.log("waiting for another nftlab build to release %s" % path)
                fcntl.flock(f, fcntl.LOCK_EX)
            yield


def shown(argv, stdout=None, stderr=None, append=False, env=None):
    """ARGV as a shell command line, with its environment and redirections."""
    words = ["%s=%s" % (k, shlex.quote(v)) for k, v in (env or {}).items()]
    line = " ".join(words + [shlex.quote(a) for a in argv])
    if stdout is not None:
        line += " %s %s" % (">>" if append else ">", shlex.quote(stdout))
    if stderr == TO_STDOUT:
        line += " 2>&1"
    elif stderr is not None:
        line += " 2> %s" % shlex.quote(stderr)
    return line


class DryHost(Host):
    """--dry-run: every command printed ("+ CMD") and taken as succeeded;
    nothing written; what the commands would leave taken as passing
    (products.py asks dry)."""
    dry = True

    def _show(self, line):
        self.echo("+ %s\n" % line)

    def run(self, argv, stdout=None, stderr=None, append=False, env=None, dry_status=0):
        self._show(shown(argv, stdout, stderr, append, env))
        return dry_status

    def output(self, argv, stderr=None, env=None, stand_in=""):
        self._show(shown(argv, None, stderr, False, env))
        return 0, stand_in() if callable(stand_in) else stand_in

    def remove_tree(self, path):
        pass

    def make_dirs(self, path):
        pass

    def remove_files(self, directory, names):
        pass

    def copy(self, src, dst):
        return True

    def write_text(self, path, text):
        pass

    def read_text(self, path):
        # what a file holds now was not written by this run
        return None

    def is_file(self, path):
        return True

    @contextmanager
    def lock(self, path):
        yield

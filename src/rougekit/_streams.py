"""Closed and broken output streams: :func:`guard_streams`, the one place that
handles them: both command lines, :func:`rougekit.cli.main` and
:func:`rougekit.rouge155.cli.main`, run inside it, so every subcommand,
today's and later ones, ends the same way:

- stdout's reader went away (``rougekit score ... | head -1``): the command
  stops at its next write, prints nothing more, and exits 141, the status a
  shell reports for a Unix tool stopped by SIGPIPE (``cat big | head -1``).
  Python ignores SIGPIPE and raises ``BrokenPipeError`` instead; restoring
  the default handler would also kill an embedding program, so the status is
  given by hand. (Output small enough to be written before the reader
  closes ends with 0, as ``cat`` does.)
- stdout closed when the command starts (``>&-``): the command runs (its
  errors are still reported on stderr), stops at its first write to stdout
  with nothing printed, and exits 1, as Unix tools exit after a write error.
- stderr closed or broken: its messages are dropped (they have nowhere to
  go; they must not land on stdout, where ``print(file=None)`` would send
  them) and the command carries on; its exit status still says how it went.

No traceback and no message in any of these cases.
"""
import errno
import os
import sys
from typing import Any, Callable

#: The exit status when stdout's reader went away: 128 + SIGPIPE, as a shell
#: reports for a tool that SIGPIPE stopped.
EXIT_BROKEN_PIPE = 141
#: The exit status when stdout was closed: a write error.
EXIT_STDOUT_CLOSED = 1

# A write to a stream whose other end is gone: EPIPE; closed or never open: EBADF
# (EINVAL is what Windows gives for a pipe whose reader went away).
_GONE = (errno.EPIPE, errno.EBADF, errno.EINVAL)


class _StdoutGone(Exception):
    """stdout can take no more output. Not an ``OSError``, so that a
    command's own ``except OSError`` (a file it could not read) lets it
    through to :func:`guard_streams`."""

    def __init__(self, code: int) -> None:
        super().__init__(errno.errorcode.get(code, str(code)))
        self.errno = code


class _Guarded:
    """A standard stream (``sys.stdout`` or ``sys.stderr``, or None when it
    was closed at start), as a command sees it under :func:`guard_streams`:
    a write to it that fails because the stream is gone raises
    ``_StdoutGone`` (stdout) or is dropped (stderr). Anything else is the
    stream's own."""

    def __init__(self, stream: Any, fatal: bool, binary: bool = False) -> None:
        self._stream = stream
        self._fatal = fatal
        self._binary = binary
        self._gone = stream is None

    def _failed(self, code: int) -> None:
        self._gone = True
        if self._fatal:
            raise _StdoutGone(code)

    def write(self, data: Any) -> int:
        if not self._gone:
            try:
                if self._binary:
                    return self._write_all(data)
                return self._stream.write(data)
            except OSError as e:
                if e.errno not in _GONE:
                    raise
                self._failed(e.errno)
                return len(data)
        self._failed(errno.EBADF if self._stream is None else errno.EPIPE)
        return len(data)

    def _write_all(self, data: Any) -> int:
        """All of ``data``: under ``python -u`` or PYTHONUNBUFFERED the binary
        layer is the raw file, whose write may take only part of it (a pipe
        whose reader left mid-write takes what fitted and says so, without
        an error); the next write then meets the error, as a buffered
        writer's loop would."""
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            n = self._stream.write(view[done:])
            if not n:
                break               # a non-blocking stream that would block
            done += n
        return done

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._gone:
            return
        try:
            self._stream.flush()
        except OSError as e:
            if e.errno not in _GONE:
                raise
            self._failed(e.errno)

    @property
    def buffer(self) -> "_Guarded":
        if self._binary or (self._stream is not None and not hasattr(self._stream, "buffer")):
            raise AttributeError("buffer")
        inner = None if self._stream is None else self._stream.buffer
        return _Guarded(inner, self._fatal, binary=True)

    def isatty(self) -> bool:
        return False if self._stream is None else self._stream.isatty()

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError(errno.EBADF, "the stream was closed")
        return self._stream.fileno()

    @property
    def closed(self) -> bool:
        return self._stream is None or self._stream.closed

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str:
        return getattr(self._stream, "errors", None) or "strict"

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def guard_streams(command: Callable[..., int], *args: Any, **kwargs: Any) -> int:
    """``command(*args, **kwargs)`` (a command line's main, returning its exit
    status) with stdout and stderr guarded as the module docstring says;
    returns the exit status. Nested calls guard once."""
    if isinstance(sys.stdout, _Guarded):
        return command(*args, **kwargs)
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = _Guarded(stdout, fatal=True)
    sys.stderr = _Guarded(stderr, fatal=False)
    try:
        try:
            return command(*args, **kwargs)
        finally:
            # The last of the output is written here, inside the guard, and
            # not by the interpreter's exit, where a broken pipe would print
            # "Exception ignored ... BrokenPipeError" (also after SystemExit,
            # as --help ends).
            sys.stdout.flush()
            sys.stderr.flush()
    except (_StdoutGone, BrokenPipeError) as e:
        # BrokenPipeError: an output file given by path that is a pipe
        # (--per-item /dev/stdout), its reader gone.
        code = e.errno
        _silence(stdout)
        return EXIT_STDOUT_CLOSED if code == errno.EBADF else EXIT_BROKEN_PIPE
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def _silence(stream: Any) -> None:
    """Point the broken stream's file descriptor at the null device, so the
    interpreter's final flush of what is still buffered has somewhere to go."""
    if stream is None:
        return
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return                      # not a file (a test's StringIO): nothing to flush
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)

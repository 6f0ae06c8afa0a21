#!/usr/bin/env python3
"""Executes one notebook headless (nbclient, the engine behind `nbconvert --execute`) and writes the executed copy
to --output-dir even when a cell fails, so a failure keeps what the cell printed.

tslab reports a thrown error with an empty `ename`/`evalue` (nbconvert's message is a bare `<Error>:`) and writes
the message and stack to the cell's stderr stream; on a failure or a cell timeout this prints the failing cell's
number, its first source lines and everything it wrote (stdout, stderr, error outputs), then exits 1.

    execute-notebook.py --output-dir OUT [--timeout 300] [--kernel tslab] NOTEBOOK
"""
import argparse
import os
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

TAIL_LINES = 80


def joined(value):
    return "".join(value) if isinstance(value, list) else (value or "")


def cell_text(cell):
    """Everything a cell wrote, in order: streams (stderr marked), error outputs (traceback), text results."""
    parts = []
    for out in cell.get("outputs", []):
        kind = out.get("output_type")
        if kind == "stream":
            text = joined(out.get("text"))
            parts.append(text if out.get("name") != "stderr" else "".join(f"[stderr] {line}\n" for line in text.splitlines()))
        elif kind == "error":
            head = f"{out.get('ename', '')}: {out.get('evalue', '')}".strip(": ")
            trace = "\n".join(out.get("traceback") or [])
            parts.append("\n".join(p for p in (f"[error] {head}" if head else "", trace) if p) + "\n")
        elif kind in ("execute_result", "display_data"):
            text = joined(out.get("data", {}).get("text/plain"))
            if text:
                parts.append(text + "\n")
    lines = "".join(parts).splitlines()
    if len(lines) > TAIL_LINES:
        lines = [f"… {len(lines) - TAIL_LINES} earlier lines left out"] + lines[-TAIL_LINES:]
    return "\n".join(lines)


def failing_cell(nb, running):
    """The index of the cell that failed: the one running when it stopped, else the last with an error output."""
    if running is not None:
        return running
    for i in range(len(nb.cells) - 1, -1, -1):
        if any(o.get("output_type") == "error" for o in nb.cells[i].get("outputs", [])):
            return i
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook")
    parser.add_argument("--output-dir", required=True)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per cell")
    parser.add_argument("--kernel", default="tslab")
    parser.add_argument("--startup-timeout", type=int, default=120, help="seconds for the kernel to start")
    args = parser.parse_args()

    nb = nbformat.read(args.notebook, as_version=4)
    # The kernel's start gets its own budget: tslab compiles TypeScript as it starts, and under a full CI run on 2 cores
    # that once took over nbclient's default of 60 s ("Kernel didn't respond in 60 seconds").
    client = NotebookClient(
        nb,
        timeout=args.timeout,
        startup_timeout=args.startup_timeout,
        kernel_name=args.kernel,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(args.notebook))}},
    )
    running = {"index": None}
    client.on_cell_execute = lambda cell, cell_index: running.update(index=cell_index)
    client.on_cell_executed = lambda cell, cell_index, execute_reply: running.update(index=None if execute_reply.get("content", {}).get("status") == "ok" else cell_index)
    failure = None
    try:
        client.execute()
    except CellTimeoutError as err:
        failure = f"timed out after {args.timeout} s per cell ({str(err).splitlines()[0]})"
    except CellExecutionError:
        failure = "raised an error"
    except DeadKernelError as err:
        failure = f"killed the kernel ({err})"
    finally:
        os.makedirs(args.output_dir, exist_ok=True)
        nbformat.write(nb, os.path.join(args.output_dir, os.path.basename(args.notebook)))
    if failure is None:
        return 0
    index = failing_cell(nb, running["index"])
    print(f"=== {args.notebook}: cell {'?' if index is None else index + 1} of {len(nb.cells)} {failure}", file=sys.stderr)
    if index is not None:
        cell = nb.cells[index]
        source = cell.source.splitlines()
        print("--- source" + (f" (first 8 of {len(source)} lines)" if len(source) > 8 else ""), file=sys.stderr)
        print("\n".join(source[:8]), file=sys.stderr)
        print("--- output", file=sys.stderr)
        print(cell_text(cell) or "(the cell wrote nothing)", file=sys.stderr)
    print("===", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Stored notebook outputs: copy them from executed notebooks, and check that they are up to date.

   python3 scripts/notebook-outputs.py store DIR   # DIR: executed copies (scripts/run-notebooks.sh); writes notebooks/
   python3 scripts/notebook-outputs.py check DIR   # exit 1 when notebooks/ carries outputs other than DIR's

Both compare cells by id. `check` compares *normalised* outputs: the output kinds and MIME types per cell,
and their text with what changes from run to run masked (ports, temporary paths, durations, byte counts,
PNG bytes, also inside displayFigure's HTML output). A code cell whose fresh run prints something must carry the same in notebooks/, so a stale or
output-less notebook fails while a re-run on another machine passes."""
import json, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOKS = os.path.join(ROOT, "notebooks")

MASKS = [
    (re.compile(r"(127\.0\.0\.1|localhost|\[::1\]):\d+"), r"\1:<port>"),
    (re.compile(r"(/tmp|/var/folders|/private/var)/[^\s'\"`),\]]+"), "<tmp>"),
    (re.compile(re.escape(ROOT)), "<repo>"),
    (re.compile(r"\b\d+(\.\d+)?\s?(ms|s)\b"), "<duration>"),
    (re.compile(r"\b\d+ bytes\b"), "<n> bytes"),
]

# displayFigure's interactive output: the PNG inside it is masked like image/* outputs, its id (a hash) too, and
# the numbers of the figure data are compared to 4 significant digits (the last bits of model output vary by CPU).
FIGURE = re.compile(r'<div id="inferkit-fig-[0-9a-f]+"')
FIGURE_PNG = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")
FIGURE_ID = re.compile(r"inferkit-fig-[0-9a-f]+")
FLOAT = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?")

def mask_figure(s):
    if not FIGURE.search(s):
        return s
    s = FIGURE_ID.sub("inferkit-fig-<id>", FIGURE_PNG.sub("data:image/png;base64,<png>", s))
    return FLOAT.sub(lambda m: format(float(m.group()), ".4g"), s)

def text(v):
    return "".join(v) if isinstance(v, list) else (v or "")

def mask(s):
    for pattern, repl in MASKS:
        s = pattern.sub(repl, s)
    return s.rstrip()

def normalise(outputs):
    """A cell's outputs as comparable tuples; consecutive stream chunks of one stream are merged."""
    merged = []
    for o in outputs:
        kind = o.get("output_type")
        if kind == "stream":
            if merged and merged[-1][0] == "stream" and merged[-1][1] == o.get("name"):
                merged[-1] = ("stream", o.get("name"), merged[-1][2] + text(o.get("text")))
            else:
                merged.append(("stream", o.get("name"), text(o.get("text"))))
        elif kind in ("display_data", "execute_result"):
            data = o.get("data", {})
            merged.append(("display", tuple(sorted(data)), tuple(
                "<png>" if mime.startswith("image/") else mask_figure(text(data[mime])) for mime in sorted(data))))
        elif kind == "error":
            merged.append(("error", o.get("ename"), o.get("evalue")))
        else:
            merged.append((kind,))
    return [tuple(mask(x) if isinstance(x, str) else tuple(mask(y) for y in x) if isinstance(x, tuple) else x for x in m)
            for m in merged]

def clean(output):
    """An output as stored: no transient metadata."""
    o = {k: v for k, v in output.items() if k != "transient"}
    if "metadata" in o:
        o["metadata"] = {}
    return o

def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)

def pairs(executed_dir):
    names = sorted(f for f in os.listdir(NOTEBOOKS) if f.endswith(".ipynb"))
    for name in names:
        executed = os.path.join(executed_dir, name)
        if not os.path.exists(executed):
            raise SystemExit(f"{executed}: missing (run scripts/run-notebooks.sh with NOTEBOOK_OUT={executed_dir})")
        yield name, os.path.join(NOTEBOOKS, name), load(executed)

def store(executed_dir):
    for name, path, executed in pairs(executed_dir):
        fresh = {c.get("id"): c for c in executed["cells"]}
        nb = load(path)
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            run = fresh.get(cell.get("id"))
            if run is None or "".join(run["source"]) != "".join(cell["source"]):
                raise SystemExit(f"{name}: cell {cell.get('id')} was not executed from this source; rebuild and re-run")
            errors = [o for o in run.get("outputs", []) if o.get("output_type") == "error"]
            if errors:
                raise SystemExit(f"{name}: cell {cell.get('id')} failed: {errors[0].get('ename')}: {errors[0].get('evalue')}")
            cell["outputs"] = [clean(o) for o in run.get("outputs", [])]
            cell["execution_count"] = run.get("execution_count")
            cell["metadata"] = {}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(nb, f, indent=1, ensure_ascii=False)
            f.write("\n")
        size = os.path.getsize(path)
        print(f"stored {name} ({size // 1024} KiB)")

def check(executed_dir):
    problems = []
    for name, path, executed in pairs(executed_dir):
        stored = {c.get("id"): c for c in load(path)["cells"] if c["cell_type"] == "code"}
        for cell in executed["cells"]:
            if cell["cell_type"] != "code":
                continue
            cid = cell.get("id")
            want = normalise(cell.get("outputs", []))
            have = normalise(stored[cid].get("outputs", [])) if cid in stored else None
            if have != want:
                problems.append(f"{name} cell {cid}:\n  stored: {have}\n  fresh:  {want}"[:1500])
    if problems:
        print("stored notebook outputs are stale (regenerate: bash scripts/execute-notebooks.sh):\n" + "\n".join(problems),
              file=sys.stderr)
        return 1
    print("stored notebook outputs match a fresh run")
    return 0

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("store", "check"):
        raise SystemExit(__doc__)
    if sys.argv[1] == "store":
        store(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2]))

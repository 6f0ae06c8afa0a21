#!/usr/bin/env python3
"""Record the official ChronosBoltPipeline's answers for inferkit's conformance test.

Run on a machine with PyTorch (same packages as export-chronos-bolt.py):

    python scripts/record-chronos-bolt-conformance.py ./tiny-bolt ../shared/conformance/chronos-bolt

`model` is a hub id or a local Chronos-Bolt folder (a tiny random-weight model is enough: the test
checks semantics, not skill). It writes

    <out>/model/config.json, <out>/model/onnx/model.onnx, <out>/model/onnx/model.onnx.data
                     the ONNX export (export-chronos-bolt.py)
    <out>/cases.json {"chronos_forecasting", "torch", "cases": [{"name", "series", "prediction_length",
                     "quantile_levels", "quantiles", "mean"}]}

`series` holds one list per series (null = missing), `quantiles` is
[series][step][level] and `mean` [series][step], both from `pipeline.predict_quantiles` on the
PyTorch model. `test/conformance/chronos-bolt.test.ts` replays every case through inferkit on the
exported graph. Cases: model levels, interpolated levels, mixed lengths, NaN gaps, a constant
series, and a horizon past prediction_length (the rollout on all quantile paths).

Not run in inferkit's CI (no PyTorch there).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def series_cases(rng, context_length: int, prediction_length: int, levels: list[float]) -> list[dict]:
    """The recorded cases: name, series (lists with None), horizon, quantile levels."""

    def walk(n: int, scale: float = 10.0, level: float = 100.0) -> list:
        return [float(v) for v in (rng.standard_normal(n).cumsum() * scale / 10 + level)]

    def gaps(xs: list, every: int) -> list:
        return [None if i % every == 3 else x for i, x in enumerate(xs)]

    interpolated = [0.05, 0.15, 0.25, 0.5, 0.75, 0.95]
    mixed = [walk(5), walk(37, 3, 20), walk(context_length + 100, 50, 1000), walk(17, 1, -5)]
    return [
        {"name": "model-levels", "series": [walk(64), walk(200, 30, 10)], "prediction_length": prediction_length, "quantile_levels": levels},
        {"name": "interpolated-levels", "series": [walk(64)], "prediction_length": prediction_length, "quantile_levels": interpolated},
        {"name": "mixed-lengths", "series": mixed, "prediction_length": prediction_length, "quantile_levels": levels},
        {"name": "nan-gaps", "series": [gaps(walk(90), 5), [None] * 10 + walk(40)], "prediction_length": prediction_length, "quantile_levels": levels},
        {"name": "constant", "series": [[7.0] * 50, [0.0] * 30], "prediction_length": prediction_length, "quantile_levels": levels},
        {"name": "long-horizon", "series": [walk(300), gaps(walk(120, 5), 7)], "prediction_length": 3 * prediction_length + 5, "quantile_levels": levels},
    ]


def model_label(model: str) -> str:
    """What cases.json names the model by: a hub id as given, a local folder by its name (not its path on this machine)."""
    path = Path(model)
    return path.resolve().name if path.is_dir() else model


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description="Record ChronosBoltPipeline answers for inferkit's conformance test.")
    p.add_argument("model", help="hub id or local folder of a Chronos-Bolt model")
    p.add_argument("out", type=Path, help="output folder (model/ and cases.json are replaced)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    try:
        import numpy as np
        import torch
        from chronos import BaseChronosPipeline, __version__ as chronos_version
    except ImportError as err:
        sys.exit(f"record-chronos-bolt-conformance: missing Python package {err.name!r}; "
                 'pip install "torch>=2.6" onnx onnxscript chronos-forecasting')

    spec = importlib.util.spec_from_file_location("export_chronos_bolt", HERE / "export-chronos-bolt.py")
    exporter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(exporter)

    pipeline = BaseChronosPipeline.from_pretrained(args.model)
    model = pipeline.model.float().eval()
    exporter.export(model, args.out / "model", opset=18, max_batch=4096)

    cfg = model.chronos_config
    rng = np.random.default_rng(args.seed)
    cases = series_cases(rng, int(cfg.context_length), int(cfg.prediction_length), [float(q) for q in cfg.quantiles])
    for case in cases:
        inputs = [torch.tensor([math.nan if v is None else v for v in s], dtype=torch.float32) for s in case["series"]]
        quantiles, mean = pipeline.predict_quantiles(
            inputs, prediction_length=case["prediction_length"], quantile_levels=case["quantile_levels"]
        )
        case["quantiles"] = quantiles.tolist()
        case["mean"] = mean.tolist()
    record = {"chronos_forecasting": chronos_version, "torch": torch.__version__, "model": model_label(args.model), "cases": cases}
    (args.out / "cases.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {len(cases)} cases to {args.out / 'cases.json'}")


if __name__ == "__main__":
    main(sys.argv[1:])

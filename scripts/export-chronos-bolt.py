#!/usr/bin/env python3
"""Export a Chronos-Bolt model to an ONNX folder that inferkit loads.

Run this on your own machine (it needs PyTorch >= 2.6, onnxscript and chronos-forecasting):

    pip install "torch>=2.6" onnx onnxscript chronos-forecasting
    python scripts/export-chronos-bolt.py amazon/chronos-bolt-small ./models/chronos-bolt-small --check

It writes, in the layout inferkit reads (see docs/chronos-bolt.md):

    <out>/config.json             the model's config (chronos_config: context_length,
                                  prediction_length, quantiles, input_patch_size)
    <out>/onnx/model.onnx         the graph: input  context        float32 [batch, time]
                                             output quantile_preds float32 [batch, quantiles, prediction_length]
    <out>/onnx/model.onnx.data    the weights (ONNX external data)

How it exports: the legacy TorchScript exporter fails on `aten::nanmean`, so this uses
`torch.onnx.export(..., dynamo=True)` (opset 18, weights as external data). The traced graph keeps
no branch on the input length: the model's own left padding to a multiple of `input_patch_size`
and its cut to the last `context_length` values are NOT in the graph. Callers must do both before
calling it (inferkit does: NaN left padding per batch, most recent `context_length` values), so
`time` must be a multiple of `input_patch_size` and at most `context_length`.

`--check` compares the ONNX graph (onnxruntime) with the PyTorch model on random series with
missing values and prints the largest difference.

This script was not run in inferkit's CI (no PyTorch there); inferkit's tests use generated graphs
with the same inputs, outputs and external-data layout.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Export a Chronos-Bolt model to ONNX for inferkit.")
    p.add_argument("model", help="hub id (amazon/chronos-bolt-small) or local folder of a Chronos-Bolt model")
    p.add_argument("out", type=Path, help="output folder (created; config.json and onnx/ are replaced)")
    p.add_argument("--opset", type=int, default=18, help="ONNX opset (default 18)")
    p.add_argument("--check", action="store_true", help="compare onnxruntime with PyTorch after exporting")
    p.add_argument("--max-batch", type=int, default=4096, help="largest batch the graph accepts (default 4096)")
    return p.parse_args(argv)


def load_model(model_id: str):
    """The ChronosBoltModelForForecasting inside the official pipeline, float32, eval mode, on CPU."""
    from chronos import BaseChronosPipeline  # chronos-forecasting

    pipeline = BaseChronosPipeline.from_pretrained(model_id)
    model = getattr(pipeline, "model", None)
    config = getattr(model, "chronos_config", None)
    if model is None or config is None or not hasattr(config, "input_patch_size"):
        sys.exit(f"{model_id} is not a Chronos-Bolt model (ChronosBoltPipeline); inferkit runs Chronos-Bolt graphs only")
    return model.float().eval()


def export(model, out: Path, opset: int, max_batch: int) -> Path:
    import torch

    class QuantilePreds(torch.nn.Module):
        """context [batch, time] -> quantile_preds [batch, quantiles, prediction_length]."""

        def __init__(self, inner) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, context: torch.Tensor) -> torch.Tensor:
            return self.inner(context=context).quantile_preds

    cfg = model.chronos_config
    patch = int(cfg.input_patch_size)
    max_patches = int(cfg.context_length) // patch
    # time = patch * patches: the padding and truncation branches are false for every traced length.
    batch = torch.export.Dim("batch", min=1, max=max_batch)
    patches = torch.export.Dim("patches", min=1, max=max_patches)
    example = torch.randn(2, patch * min(4, max_patches))
    example[0, :3] = float("nan")

    graph_dir = out / "onnx"
    if graph_dir.exists():
        shutil.rmtree(graph_dir)
    graph_dir.mkdir(parents=True)
    target = graph_dir / "model.onnx"
    wrapper = QuantilePreds(model).eval()  # eval mode: no dropout, no "training mode" warning from the exporter
    with torch.no_grad():
        program = torch.onnx.export(
            wrapper,
            (example,),
            dynamo=True,
            input_names=["context"],
            output_names=["quantile_preds"],
            dynamic_shapes={"context": {0: batch, 1: patch * patches}},
            opset_version=opset,
            external_data=True,
        )
    program.save(str(target), external_data=True)
    model.config.save_pretrained(str(out))  # config.json with chronos_config
    return target


def check(model, target: Path) -> float:
    """Largest |onnxruntime - PyTorch| on random series with NaN gaps, over several lengths."""
    import numpy as np
    import onnxruntime as ort
    import torch

    cfg = model.chronos_config
    patch = int(cfg.input_patch_size)
    session = ort.InferenceSession(str(target), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    worst = 0.0
    for patches in sorted({1, 3, int(cfg.context_length) // patch}):
        x = (rng.standard_normal((5, patch * patches)).cumsum(axis=1) * 10 + 100).astype(np.float32)
        x[1, : patch // 2] = np.nan  # left padding
        x[2, ::7] = np.nan  # gaps
        got = session.run(["quantile_preds"], {"context": x})[0]
        with torch.no_grad():
            want = model(context=torch.from_numpy(x)).quantile_preds.numpy()
        worst = max(worst, float(np.nanmax(np.abs(got - want))))
    return worst


REQUIREMENTS = 'pip install "torch>=2.6" onnx onnxscript chronos-forecasting (and onnxruntime for --check)'


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    try:
        model = load_model(args.model)
    except ImportError as err:
        sys.exit(f"export-chronos-bolt: missing Python package {err.name!r}; {REQUIREMENTS}")
    target = export(model, args.out, args.opset, args.max_batch)
    files = sorted(str(p.relative_to(args.out)) for p in args.out.rglob("*") if p.is_file())
    print(json.dumps({"out": str(args.out), "files": files}, indent=2))
    if not (target.parent / "model.onnx.data").exists():
        print("note: no onnx/model.onnx.data was written (weights are inside model.onnx); inferkit loads both layouts")
    if args.check:
        try:
            print(f"max |onnxruntime - torch| = {check(model, target):.3g}")
        except ImportError as err:
            sys.exit(f"export-chronos-bolt: --check needs {err.name!r}; {REQUIREMENTS}")


if __name__ == "__main__":
    main(sys.argv[1:])

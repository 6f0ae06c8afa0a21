#!/usr/bin/env bash
# Packs what bench/gpu/gpu-bench.ts needs on a GPU machine that has no network and maybe no Node:
# the bundled bench, onnxruntime-node (Linux x64 binaries only) and onnxruntime-common, and this machine's
# node binary (xz). Output: .gpu/ (git-ignored). On the GPU machine: bash .gpu/run.sh OUT_DIR
set -euo pipefail
# `--bundle-only`: rebundle the bench into an existing .gpu/ (keeps the packed node and onnxruntime).
cd "$(dirname "$0")/../.."
bundle() {
  node_modules/.bin/esbuild bench/gpu/gpu-bench.ts --bundle --platform=node --format=esm --target=node20 \
    --external:onnxruntime-node --outfile=.gpu/gpu-bench.mjs --log-level=warning
}
if [ "${1:-}" = "--bundle-only" ] && [ -f .gpu/node.xz ] && [ -f .gpu/run.sh ]; then
  rm -f .gpu/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1 # unpacked by a local run.sh
  bundle && du -sh .gpu && exit 0
fi
rm -rf .gpu && mkdir -p .gpu/node_modules
bundle
ort=node_modules/onnxruntime-node
mkdir -p .gpu/node_modules/onnxruntime-node/bin/napi-v6/linux/x64
cp -r $ort/package.json $ort/dist .gpu/node_modules/onnxruntime-node/
cp $ort/bin/napi-v6/linux/x64/onnxruntime_binding.node .gpu/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/
xz -T0 -3 -c $ort/bin/napi-v6/linux/x64/libonnxruntime.so.1 > .gpu/libonnxruntime.so.1.xz
cp -r node_modules/onnxruntime-common .gpu/node_modules/
xz -T0 -3 -c "$(readlink -f "$(command -v node)")" > .gpu/node.xz
cat > .gpu/run.sh <<'RUN'
#!/usr/bin/env bash
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/out}"
xz -dc "$here/node.xz" > /tmp/node && chmod +x /tmp/node
xz -dc "$here/libonnxruntime.so.1.xz" > "$here/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
ldconfig -p | grep -E "libvulkan|libcuda.so" || true
cd "$here" && /tmp/node gpu-bench.mjs "$out" "${@:2}"
RUN
du -sh .gpu

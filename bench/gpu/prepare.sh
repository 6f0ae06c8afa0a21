#!/usr/bin/env bash
# Packs what bench/gpu/gpu-bench.ts needs on a GPU machine that has no network and maybe no Node:
# the bundled bench, onnxruntime-node (Linux x64 binaries only) and onnxruntime-common, and this machine's
# node binary (xz). Output: .gpu/ (git-ignored). On the GPU machine: bash .gpu/run.sh OUT_DIR
set -euo pipefail
# `--bundle-only`: rebundle the bench into an existing .gpu/ (keeps the packed node and onnxruntime).
cd "$(dirname "$0")/../.."
# The server benches (`run.sh OUT --serve …`: bench/server-limit.ts; `run.sh OUT --plans …`: bench/server-plans.ts) run in-process servers whose sessions live in worker
# threads and a load generator in a child process: each is a bundle of its own beside it. The banner gives the CommonJS
# packages bundled into ES modules a `require`, and worker-entry.ts the folder its worker scripts lie in (`__dirname`).
BANNER="import { createRequire as __ikReq } from 'node:module'; import { dirname as __ikDir } from 'node:path'; import { fileURLToPath as __ikPath } from 'node:url'; const require = __ikReq(import.meta.url); const __dirname = __ikDir(__ikPath(import.meta.url));"
bundle() {
  node_modules/.bin/esbuild bench/gpu/gpu-bench.ts --bundle --platform=node --format=esm --target=node20 \
    --external:onnxruntime-node --outfile=.gpu/gpu-bench.mjs --log-level=warning
  local one
  for one in bench/server-limit.ts:server-limit.mjs bench/server-plans.ts:server-plans.mjs bench/lib/load-process.ts:load-process.mjs \
    src/runtime/worker/session-worker.ts:session-worker.js src/runtime/worker/baseline-worker.ts:baseline-worker.js \
    src/runtime/worker/external-copy-worker.ts:external-copy-worker.js; do
    node_modules/.bin/esbuild "${one%%:*}" --bundle --platform=node --format=esm --target=node20 --banner:js="$BANNER" \
      --external:onnxruntime-node --external:tokenizers --external:@huggingface/transformers --external:@kubernetes/client-node \
      --external:playwright-core --minify-whitespace --minify-syntax --outfile=".gpu/${one##*:}" --log-level=warning
  done
  # worker-entry.ts takes a folder holding worker-entry.js as the one its worker scripts lie in.
  echo '// Marks this folder as the one holding the session worker scripts (src/runtime/worker/worker-entry.ts).' > .gpu/worker-entry.js
  echo '{ "type": "module" }' > .gpu/package.json
}
write_run() {
cat > .gpu/run.sh <<'RUN'
#!/usr/bin/env bash
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/out}"
xz -dc "$here/node.xz" > /tmp/node && chmod +x /tmp/node
xz -dc "$here/libonnxruntime.so.1.xz" > "$here/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
ldconfig -p | grep -E "libvulkan|libcuda.so|libGLX_nvidia" || true
# No system Vulkan loader: use the packed one. No ICD file for the NVIDIA driver: write one for its libGLX_nvidia.
if ! ldconfig -p | grep -q libvulkan.so.1 && [ -f "$here/lib/libvulkan.so.1" ]; then
  export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" && echo "Vulkan loader: packed copy"
fi
icd="$(ls /usr/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd*.json 2>/dev/null | head -1)"
glx="$(ldconfig -p | grep -o '/[^ ]*libGLX_nvidia.so.0' | head -1)"
if [ -n "$icd" ]; then
  export VK_DRIVER_FILES="$icd" && echo "Vulkan ICD: $icd"
elif [ -n "$glx" ]; then
  printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$glx" > /tmp/nvidia_icd.json
  export VK_DRIVER_FILES=/tmp/nvidia_icd.json && echo "Vulkan ICD: written for $glx"
else
  echo "Vulkan ICD: none found (WebGPU will find no adapter)"
fi
# `--serve F1,F2 …`: the server bench of those families (bench/server-limit.ts --family); `--plans …`: the session plans
# bench (bench/server-plans.ts), its flags passed on. Tables go to OUT/<bench>.md, progress to stderr.
if [ "${2:-}" = "--serve" ] || [ "${2:-}" = "--plans" ]; then
  bench=server-limit && args=(--family "$3" "${@:4}")
  [ "$2" = "--plans" ] && bench=server-plans && args=("${@:3}")
  mkdir -p "$out" && cd "$here" && INFERKIT_CONFORMANCE="$here/conformance" /tmp/node "$bench.mjs" "${args[@]}" > "$out/$bench.md"
  rc=$?; cat "$out/$bench.md"; exit $rc
fi
cd "$here" && /tmp/node gpu-bench.mjs "$out" "${@:2}"
RUN
}
if [ "${1:-}" = "--bundle-only" ] && [ -f .gpu/node.xz ] && [ -f .gpu/run.sh ]; then
  rm -f .gpu/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1 # unpacked by a local run.sh
  bundle && write_run && du -sh .gpu && exit 0
fi
rm -rf .gpu && mkdir -p .gpu/node_modules
bundle
ort=node_modules/onnxruntime-node
mkdir -p .gpu/node_modules/onnxruntime-node/bin/napi-v6/linux/x64
cp -r $ort/package.json $ort/dist .gpu/node_modules/onnxruntime-node/
cp $ort/bin/napi-v6/linux/x64/onnxruntime_binding.node .gpu/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/
xz -T0 -3 -c $ort/bin/napi-v6/linux/x64/libonnxruntime.so.1 > .gpu/libonnxruntime.so.1.xz
cp -r node_modules/onnxruntime-common .gpu/node_modules/
# tokenizers (native, for the served families' tokenizer.json): its Linux x64 binary only.
mkdir -p .gpu/node_modules/tokenizers
cp node_modules/tokenizers/{package.json,index.js} node_modules/tokenizers/tokenizers.linux-x64-gnu.node .gpu/node_modules/tokenizers/
# The served families' tokenizers (bench/lib/family-checkpoints.ts reads them from INFERKIT_CONFORMANCE).
for set in kserve-hf kserve-hf-distilbert kserve-hf-roberta kserve-hf-xlmr kserve-hf-deberta-v3; do
  mkdir -p ".gpu/conformance/$set/model"
  for f in tokenizer.json tokenizer_config.json vocab.txt; do
    [ -f "../shared/conformance/$set/model/$f" ] && cp "../shared/conformance/$set/model/$f" ".gpu/conformance/$set/model/"
  done
done
xz -T0 -3 -c "$(readlink -f "$(command -v node)")" > .gpu/node.xz
# Dawn (WebGPU) reaches the GPU through the Vulkan loader, which a bare GPU host may lack: Debian's libvulkan1 rides along.
mkdir -p .gpu/lib
(cd "$(mktemp -d)" && apt-get download libvulkan1 >/dev/null 2>&1 && dpkg-deb -x libvulkan1_*.deb x && cp -L x/usr/lib/x86_64-linux-gnu/libvulkan.so.1 "$OLDPWD/.gpu/lib/") \
  || echo "libvulkan1 could not be fetched: the GPU host must have libvulkan.so.1" >&2
write_run
du -sh .gpu

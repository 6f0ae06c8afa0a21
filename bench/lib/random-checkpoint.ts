import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';

/** How a generated tensor is filled: uniform noise of this standard deviation (mean 0), ones, zeros, or noise around a mean. */
export type Fill = number | 'ones' | 'zeros' | { mean: number; std: number };

/** One tensor of a generated checkpoint: name, PyTorch shape, fill. */
export type RandomTensor = [name: string, shape: number[], fill: Fill];

/** Bytes of the F32 weights of `tensors`. */
export function checkpointBytes(tensors: readonly RandomTensor[]): number {
  return tensors.reduce((n, [, shape]) => n + shape.reduce((a, b) => a * b, 1) * 4, 0);
}

/** Options of {@link writeRandomCheckpoint}. */
export interface RandomCheckpointOptions {
  /** Seed of the xorshift generator. @default 1 */
  seed?: number;
  /** Files copied into the folder beside the weights (tokenizer files …), by path. */
  copy?: readonly string[];
}

/**
 * Writes (once; reused when `dir` is complete) a random F32 checkpoint — `config.json` + `model.safetensors`
 * (+ `copy`) — streaming one tensor at a time into a temporary folder renamed into place, so a base-sized
 * model never sits in memory and a killed run leaves no half-written checkpoint. Returns the weights' bytes.
 */
export function writeRandomCheckpoint(dir: string, config: Record<string, unknown>, tensors: readonly RandomTensor[], options: RandomCheckpointOptions = {}): number {
  const bytes = checkpointBytes(tensors);
  if (existsSync(join(dir, 'complete'))) {
    return bytes;
  }
  const tmp = `${dir}.incomplete`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const header: Record<string, unknown> = {};
  let at = 0;
  for (const [name, shape] of tensors) {
    const n = shape.reduce((a, b) => a * b, 1) * 4;
    header[name] = { dtype: 'F32', shape, data_offsets: [at, at + n] };
    at += n;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const fd = openSync(join(tmp, 'model.safetensors'), 'w');
  try {
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(json.length));
    writeSync(fd, len);
    writeSync(fd, Buffer.from(json, 'utf8'));
    let state = options.seed === undefined ? 1 : options.seed >>> 0 || 1;
    for (const [, shape, fill] of tensors) {
      const v = new Float32Array(shape.reduce((a, b) => a * b, 1));
      const { mean, std } = fill === 'ones' ? { mean: 1, std: 0 } : fill === 'zeros' ? { mean: 0, std: 0 } : typeof fill === 'number' ? { mean: 0, std: fill } : fill;
      const scale = std * Math.sqrt(3); // uniform on [-scale, scale) has this standard deviation
      for (let i = 0; i < v.length; i++) {
        if (std > 0) {
          state ^= state << 13;
          state ^= state >>> 17;
          state ^= state << 5;
        }
        v[i] = mean + (std > 0 ? ((state >>> 0) / 2 ** 31 - 1) * scale : 0);
      }
      writeSync(fd, new Uint8Array(v.buffer));
    }
  } finally {
    closeSync(fd);
  }
  writeFileSync(join(tmp, 'config.json'), JSON.stringify(config, null, 2));
  for (const f of options.copy ?? []) {
    copyFileSync(f, join(tmp, basename(f)));
  }
  writeFileSync(join(tmp, 'complete'), '');
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return bytes;
}

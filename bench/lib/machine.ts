import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';

/** The machine and software a benchmark ran on. */
export interface MachineInfo {
  cores: number;
  cpuModel: string;
  totalMemoryGiB: number;
  platform: string;
  node: string;
  onnxruntime: string;
  transformers: string;
  /** 1-minute load average at start: near or above `cores` means other work shared the CPU (noisy numbers). */
  loadAverage: number;
}

const require = createRequire(import.meta.url);

/** Version of an installed package, or `not installed`. */
export function packageVersion(name: string): string {
  try {
    // Resolve the main entry and walk up to the package's own package.json (exports may hide it).
    let dir = dirname(require.resolve(name));
    for (let i = 0; i < 6; i++) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (pkg.name === name && pkg.version) {
          return pkg.version;
        }
      } catch {
        // not here, go up
      }
      dir = dirname(dir);
    }
    return 'unknown';
  } catch {
    return 'not installed';
  }
}

/** Cores, CPU model, memory, Node, onnxruntime-node and transformers.js versions. */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cores: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    totalMemoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: `${process.platform} ${process.arch}`,
    node: process.version,
    onnxruntime: packageVersion('onnxruntime-node'),
    transformers: packageVersion('@huggingface/transformers'),
    loadAverage: Math.round(loadavg()[0] * 100) / 100,
  };
}

/** One markdown line describing the machine (and its load average at start unless `withLoad` is false). */
export function machineLine(m: MachineInfo, withLoad = true): string {
  const line = `${m.cores} cores (${m.cpuModel}), ${m.totalMemoryGiB} GiB RAM, ${m.platform}, Node ${m.node}, onnxruntime-node ${m.onnxruntime}, @huggingface/transformers ${m.transformers}`;
  return withLoad ? `${line}, load average at start ${m.loadAverage}` : line;
}

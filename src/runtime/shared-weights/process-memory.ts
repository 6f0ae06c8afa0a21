import { readFileSync } from 'node:fs';

/** The process's memory: resident set, and on Linux its proportional set (shared pages split among their mappings). */
export interface ProcessMemory {
  /** Resident set size: every mapped page counted once per mapping (a file two sessions map counts twice). */
  rssBytes: number;
  /** Proportional set size (`/proc/self/smaps_rollup`): a page mapped n times counts 1/n per mapping; absent off Linux. */
  pssBytes?: number;
}

/** The process's RSS, and its PSS where `/proc/self/smaps_rollup` is readable. */
export function processMemory(): ProcessMemory {
  const rssBytes = process.memoryUsage.rss();
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'));
    return m === null ? { rssBytes } : { rssBytes, pssBytes: Number(m[1]) * 1024 };
  } catch {
    return { rssBytes };
  }
}

/** `bytes` in GiB with two decimals, e.g. `0.41 GiB`. */
export function formatGiB(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(2)} GiB`;
}

/** `bytes` for a reader: GiB with two decimals from 0.1 GiB up (`0.41 GiB`), else `12.3 MiB` or `4 KiB`. */
export function formatSize(bytes: number): string {
  if (bytes >= 0.1 * 2 ** 30) {
    return formatGiB(bytes);
  }
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/**
 * One line for `inferkit serve`'s start-up output: the process's RSS and PSS once its models are loaded.
 * Several sessions of a model map one copy of its weights: PSS counts it once, RSS once per session.
 */
export function memoryLine(models: number, memory: ProcessMemory = processMemory()): string {
  const pss = memory.pssBytes !== undefined ? `, PSS ${formatGiB(memory.pssBytes)}` : '';
  return `memory: RSS ${formatGiB(memory.rssBytes)}${pss} for ${models} model${models === 1 ? '' : 's'} (each model's sessions map one copy of its weights: PSS counts it once, RSS once per session)`;
}

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { InferkitError } from '../errors.js';

/** Where {@link availableCpus} found its answer. */
export type CpuSource = 'affinity' | 'cgroup-v2' | 'cgroup-v1';

/** CPUs this process may use, and why. */
export interface CpuBudget {
  /** Whole CPUs (at least 1): the smaller of the affinity count and the cgroup quota rounded up. */
  cpus: number;
  /** The limit that decided `cpus`. */
  source: CpuSource;
  /** CPUs the scheduler lets the process run on (`os.availableParallelism()`: affinity mask). */
  affinity: number;
  /** The cgroup CPU quota in CPUs (e.g. 1.5), when one is set. */
  quota?: number;
}

/** Options of {@link availableCpus} (tests point them at fixture text). */
export interface AvailableCpusOptions {
  /** CPUs of the affinity mask. @default os.availableParallelism() */
  affinity?: number;
  /** Reads a cgroup file, undefined when absent. @default reads /sys/fs/cgroup/… */
  readCgroupFile?: (path: string) => string | undefined;
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Parses cgroup v2 `cpu.max` (`"<quota> <period>"` in µs, or `"max <period>"`): the quota in CPUs,
 * undefined when unlimited or unreadable.
 */
export function parseCgroupV2CpuMax(text: string): number | undefined {
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === undefined || quota === 'max') {
    return undefined;
  }
  const q = Number(quota);
  const p = Number(period ?? '100000');
  return Number.isFinite(q) && Number.isFinite(p) && q > 0 && p > 0 ? q / p : undefined;
}

/** Parses cgroup v1 `cpu.cfs_quota_us` and `cpu.cfs_period_us`: the quota in CPUs, undefined for -1 or unreadable. */
export function parseCgroupV1Quota(quotaText: string, periodText: string): number | undefined {
  const q = Number(quotaText.trim());
  const p = Number(periodText.trim());
  return Number.isFinite(q) && Number.isFinite(p) && q > 0 && p > 0 ? q / p : undefined;
}

/**
 * The CPUs this process may use: the affinity mask (`os.availableParallelism()`), capped by the
 * cgroup CPU quota (v2 `cpu.max`, else v1 `cpu.cfs_quota_us`) rounded up. A container limited to
 * `1.5` CPUs on a 16-core host answers 2, not 16.
 */
export function availableCpus(options: AvailableCpusOptions = {}): CpuBudget {
  const affinity = Math.max(1, Math.floor(options.affinity ?? availableParallelism()));
  const read = options.readCgroupFile ?? readOrUndefined;
  const v2 = read('/sys/fs/cgroup/cpu.max');
  let quota: number | undefined;
  let source: CpuSource = 'affinity';
  if (v2 !== undefined) {
    quota = parseCgroupV2CpuMax(v2);
    source = 'cgroup-v2';
  } else {
    const q = read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us') ?? read('/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us');
    const p = read('/sys/fs/cgroup/cpu/cpu.cfs_period_us') ?? read('/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us');
    quota = q !== undefined && p !== undefined ? parseCgroupV1Quota(q, p) : undefined;
    source = 'cgroup-v1';
  }
  if (quota === undefined || Math.ceil(quota) >= affinity) {
    return { cpus: affinity, source: 'affinity', affinity, ...(quota !== undefined ? { quota } : {}) };
  }
  return { cpus: Math.max(1, Math.ceil(quota)), source, affinity, quota };
}

/**
 * A Kubernetes CPU quantity (`"2"`, `"500m"`, `"1.5"`, or a number) in CPUs. Throws `config`
 * naming `field` for anything else (`"two"`, `"-1"`, `"0"`).
 */
export function parseCpuQuantity(value: string | number, field = 'resources.limits.cpu'): number {
  const text = String(value).trim();
  const m = /^(\d+(?:\.\d+)?|\.\d+)(m?)$/.exec(text);
  const cpus = m ? Number(m[1]) / (m[2] === 'm' ? 1000 : 1) : Number.NaN;
  if (!(cpus > 0)) {
    throw new InferkitError('config', `${field}: expected a CPU quantity like "2", "1.5" or "500m", got ${JSON.stringify(value)}`, { param: field });
  }
  return cpus;
}

/** One model's claim on the CPU budget. */
export interface ThreadClaim {
  /** Most threads it may get (a manifest's CPU limit rounded up); undefined = no cap. */
  cap?: number;
  /** False for models without ONNX sessions (baselines): they get 0 threads and take no share. @default true */
  usesCores?: boolean;
}

/**
 * Splits `total` threads among models without oversubscription: each ONNX model gets an equal share
 * (at least 1), never above its cap, and what a capped model leaves goes to the others. With more
 * models than threads every model still gets 1 (the only oversubscription, unavoidable).
 */
export function planThreads(total: number, claims: readonly ThreadClaim[]): number[] {
  const out = claims.map(() => 0);
  let open = claims.map((c, i) => (c.usesCores === false ? -1 : i)).filter((i) => i >= 0);
  let left = Math.max(1, Math.floor(total));
  // Water-filling: at most one round per model, so bounded by the number of claims.
  for (let round = 0; round <= claims.length && open.length > 0; round++) {
    const share = Math.max(1, Math.floor(left / open.length));
    const capped = open.filter((i) => (claims[i].cap ?? Infinity) <= share);
    if (capped.length === 0) {
      const extra = Math.max(0, left - share * open.length);
      open.forEach((i, k) => (out[i] = share + (k < extra ? 1 : 0)));
      return out;
    }
    for (const i of capped) {
      out[i] = Math.max(1, Math.ceil(claims[i].cap ?? 1));
      left -= out[i];
    }
    open = open.filter((i) => !capped.includes(i));
    left = Math.max(open.length > 0 ? 1 : 0, left);
  }
  return out;
}

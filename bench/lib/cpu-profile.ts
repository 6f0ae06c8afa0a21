/** The parts of a V8 `.cpuprofile` used here. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Self time of one function, summed over every node (call site) of the profile. */
export interface SelfTime {
  /** `name (file:line)`, paths relative to `root`, `node_modules/` kept so libraries show. */
  fn: string;
  selfMs: number;
  /** Share of the profile's non-idle time, 0–100. */
  percent: number;
}

/**
 * Top functions by self time: each sample's time delta is charged to the node it hit, nodes are
 * grouped by function name + file + line; native frames (no URL: ONNX Runtime, tokenizers) are
 * charged to their nearest JavaScript caller; `(idle)`, `(program)` and `(garbage collector)` are kept
 * as their own rows (GC is part of the cost), idle is left out of the percentages.
 */
export function topSelfTime(profile: CpuProfile, root: string, limit = 15): { rows: SelfTime[]; busyMs: number; idleMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    for (const c of n.children ?? []) {
      parent.set(c, n.id);
    }
  }
  const fileOf = (url: string) => url.replace(/^file:\/\//, '').replace(`${root}/`, '');
  // Native (N-API) frames have no URL and unreliable names: charge them to the nearest JS caller.
  const nativeKey = (id: number): string => {
    let cur = parent.get(id);
    for (let k = 0; k < 50 && cur !== undefined; k++) {
      const p = byId.get(cur);
      if (p?.callFrame.url) {
        return `native, called from ${p.callFrame.functionName || '(anonymous)'} (${fileOf(p.callFrame.url)})`;
      }
      cur = parent.get(cur);
    }
    return 'native';
  };
  const self = new Map<string, number>();
  let idle = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!node) {
      return;
    }
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += dt;
      return;
    }
    const special = functionName.startsWith('(') && functionName.endsWith(')');
    const line = lineNumber > 0 ? `:${lineNumber + 1}` : '';
    const key = url ? `${functionName || '(anonymous)'} (${fileOf(url)}${line})` : special ? functionName : nativeKey(id);
    // The profiler's own start/stop calls are not part of the profiled work.
    if (key.includes('(node:inspector)')) {
      idle += dt;
      return;
    }
    busy += dt;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const rows = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([fn, ms]) => ({ fn, selfMs: ms, percent: busy > 0 ? (ms / busy) * 100 : 0 }));
  return { rows, busyMs: busy, idleMs: idle };
}

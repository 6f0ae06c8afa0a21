import { AsyncLocalStorage } from 'node:async_hooks';
import { processMemory, type ProcessMemory } from '../shared-weights/process-memory.js';
import { LoadMutex } from './load-mutex.js';
import { weightsBytesOf, type ModelMemory } from './model-memory.js';

/** One model load being measured: `pre` (downloading, building), `waiting` for the phase lock, in its `phase`, `done`. */
interface LoadScope {
  state: 'pre' | 'waiting' | 'phase' | 'done';
  /** The graphs its sessions opened (paths or bytes). */
  graphs: Array<string | Uint8Array>;
  /** How a pool of its sessions holds the weights ({@link noteSessionWeights}). */
  sessionWeights?: ModelMemory['sessionWeights'];
  /** Set by the first {@link enterMemoryPhase}: resolves once the phase has begun. */
  entered?: Promise<void>;
  release?: () => void;
  before?: ProcessMemory;
  startedAt?: string;
  order?: number;
  /** Other loads seen in their `pre` state while this one's phase ran. */
  alongside: Set<LoadScope>;
}

const scopes = new AsyncLocalStorage<LoadScope>();
const active = new Set<LoadScope>();
const phaseLock = new LoadMutex();
let phases = 0;
let current: LoadScope | undefined;

/**
 * Runs one model's `load` and measures its memory: the part of it from its first
 * {@link enterMemoryPhase} (`createSession` calls it; `loadTokenClassifier` before its tokenizer) to its
 * end — tokenizer, sessions, the runs made at load — runs while no other load's phase does, and the
 * process's RSS and PSS growth across it is the model's. What comes before (hub resolution, downloads,
 * graph builds) stays concurrent. `memory` is undefined when the load never entered its phase.
 * Called inside another measured load, `load` runs as part of that one (undefined memory).
 */
export async function measureModelLoad<T>(load: () => Promise<T>): Promise<{ value: T; memory: ModelMemory | undefined }> {
  const outer = scopes.getStore();
  if (outer !== undefined && outer.state !== 'done') {
    return { value: await load(), memory: undefined };
  }
  const scope: LoadScope = { state: 'pre', graphs: [], alongside: new Set() };
  active.add(scope);
  current?.alongside.add(scope);
  let value: T;
  try {
    value = await scopes.run(scope, load);
  } catch (e) {
    finish(scope);
    throw e;
  }
  return { value, memory: finish(scope) };
}

/** Whether the async context is tracked now (Node's `enabled`, undocumented; else: some load runs). For tests. */
export function tracksLoadContext(): boolean {
  return (scopes as unknown as { enabled?: boolean }).enabled ?? active.size > 0;
}

/**
 * Marks the start of the calling load's memory phase (see {@link measureModelLoad}); waits while another
 * load's phase runs. `graph` (a path or the bytes a session opens) counts toward the model's weights.
 * Outside a measured load, or after it, it does nothing.
 */
export async function enterMemoryPhase(graph?: string | Uint8Array): Promise<void> {
  const scope = scopes.getStore();
  if (scope === undefined || scope.state === 'done') {
    return;
  }
  if (graph !== undefined) {
    scope.graphs.push(graph);
  }
  scope.entered ??= begin(scope);
  await scope.entered;
}

/** Records, for the model whose load runs in this async context, how the sessions of its pool hold its weights. */
export function noteSessionWeights(kind: NonNullable<ModelMemory['sessionWeights']>): void {
  const scope = scopes.getStore();
  if (scope !== undefined && scope.state !== 'done') {
    scope.sessionWeights = kind;
  }
}

async function begin(scope: LoadScope): Promise<void> {
  scope.state = 'waiting';
  const release = await phaseLock.lock();
  if (scope.state !== 'waiting') {
    release(); // the load ended (failed) while it waited
    return;
  }
  scope.release = release;
  scope.state = 'phase';
  scope.order = ++phases;
  for (const other of active) {
    if (other.state === 'pre') {
      scope.alongside.add(other);
    }
  }
  current = scope;
  scope.startedAt = new Date().toISOString();
  scope.before = processMemory();
}

function finish(scope: LoadScope): ModelMemory | undefined {
  const was = scope.state;
  scope.state = 'done';
  active.delete(scope);
  if (active.size === 0) {
    // No load runs: stop tracking the async context (the next load's `run` starts it again). While an
    // AsyncLocalStorage is enabled, Node 20 runs a hook on every promise the process makes: a served
    // request's main-thread CPU, V1 on the small BERT, went 165 → 150 µs without it (bench/server-overhead.ts).
    scopes.disable();
  }
  // The scope outlives the load (timers and workers started in it keep it as their async context): drop what it holds.
  const { graphs, alongside, before, startedAt, order, sessionWeights } = scope;
  scope.graphs = [];
  scope.alongside = new Set();
  if (was !== 'phase' || before === undefined || startedAt === undefined || order === undefined) {
    return undefined;
  }
  const after = processMemory();
  const endedAt = new Date().toISOString();
  current = undefined;
  scope.release?.();
  const weightsBytes = weightsBytesOf(graphs);
  return {
    rssGrowthBytes: after.rssBytes - before.rssBytes,
    ...(after.pssBytes !== undefined && before.pssBytes !== undefined ? { pssGrowthBytes: after.pssBytes - before.pssBytes } : {}),
    ...(weightsBytes !== undefined ? { weightsBytes } : {}),
    ...(sessionWeights !== undefined ? { sessionWeights } : {}),
    alongside: alongside.size,
    phase: { order, startedAt, endedAt },
  };
}

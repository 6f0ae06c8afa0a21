import type { Frequency } from '../../contract/enums.js';
import type { BaselineSpec } from '../forecast/baseline-spec.js';

/** `workerData.inferkitBaselineWorker` of a baseline worker: the model to build. */
export interface BaselineWorkerInit {
  spec: BaselineSpec;
}

/** Main thread → baseline worker: forecast `series` (buffers transferred). */
export interface BaselineTask {
  kind: 'predict';
  id: number;
  series: Float32Array[];
  horizon: number;
  frequencies?: Frequency[];
}

/** Baseline worker → main thread. */
export type FromBaselineWorker =
  | { kind: 'ready' }
  | { kind: 'load-failed'; code: string; message: string }
  | { kind: 'result'; id: number; levels: number[]; values: Float32Array[]; mean?: Float32Array[] }
  | { kind: 'failed'; id: number; code: string; message: string; param?: string };

/** The distinct ArrayBuffers behind `arrays` (each a whole buffer), to transfer rather than copy. */
export function buffersOf(arrays: readonly Float32Array[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const a of arrays) {
    if (a.buffer instanceof ArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) {
      out.add(a.buffer);
    }
  }
  return [...out];
}

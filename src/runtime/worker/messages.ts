import type { OrtValueMetadata, SessionOptions } from '../ort-types.js';

/** A tensor on the wire between the main thread and a session worker (its buffer is transferred). */
export interface WireTensor {
  type: string;
  dims: number[];
  data: ArrayBufferView;
}

/** `workerData` of a session worker: the model and the in-thread session options. */
export interface WorkerInit {
  model: string | Uint8Array;
  options: Omit<SessionOptions, 'worker'>;
}

/** Worker → main thread. */
export type FromWorker =
  | { kind: 'ready'; inputNames: string[]; outputNames: string[]; outputMetadata: OrtValueMetadata[] }
  | { kind: 'load-failed'; code: string; message: string }
  | { kind: 'result'; id: number; outputs: Record<string, WireTensor>; busyMs: number }
  | { kind: 'run-failed'; id: number; message: string; busyMs: number };

/** Main thread → worker. */
export type ToWorker = { kind: 'run'; id: number; feeds: Record<string, WireTensor> } | { kind: 'release' };

/**
 * Buffers of `tensors` that can move to the other thread without a copy: whole, unshared
 * ArrayBuffers. A view over part of a buffer is copied first (moving the buffer would detach the
 * rest of it), so the returned tensors may hold copies.
 */
export function transferable(tensors: Record<string, WireTensor>): { tensors: Record<string, WireTensor>; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const out: Record<string, WireTensor> = {};
  for (const [name, t] of Object.entries(tensors)) {
    let data = t.data;
    const whole = data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    if (!whole) {
      data = (data as unknown as { slice(): ArrayBufferView }).slice();
    }
    if (data.buffer instanceof ArrayBuffer && !transfer.includes(data.buffer)) {
      transfer.push(data.buffer);
    }
    out[name] = { type: t.type, dims: [...t.dims], data };
  }
  return { tensors: out, transfer };
}

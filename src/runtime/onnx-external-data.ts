import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InferkitError } from '../errors.js';

/** Cap on nested messages (subgraphs in attributes) followed while scanning. */
const MAX_DEPTH = 32;

/**
 * The external-data files an ONNX ModelProto refers to: the `location` of every tensor whose
 * `external_data` names one (initializers, sparse initializers, `Constant`-style tensor attributes,
 * subgraphs), unique, in order of appearance — paths relative to the graph file, as written
 * (e.g. `model.onnx.data`). Large `raw_data` fields are skipped, not copied. Throws
 * `model_load_failed` when the bytes are not a well-formed protobuf.
 */
export function externalDataLocations(model: Uint8Array): string[] {
  return scanModel(new Reader({ length: model.length, at: (i) => model[i], slice: (start, end) => model.subarray(start, end) }));
}

/**
 * {@link externalDataLocations} of the graph file at `path`, read in small pages around the fields it visits: a
 * graph with gigabytes of inline weights is scanned without reading them (nor leaving them for the garbage
 * collector: a served model's process would hold that memory until the next major GC).
 */
export function externalDataLocationsOfFile(path: string): string[] {
  const fd = openSync(path, 'r');
  try {
    return scanModel(new Reader(pagedFile(fd, fstatSync(fd).size)));
  } finally {
    closeSync(fd);
  }
}

function scanModel(r: Reader): string[] {
  const found = new Set<string>();
  forEachField(r, 0, r.length, (field, start, end) => {
    if (field === 7) {
      scanGraph(r, start, end, found, 0);
    }
  });
  return [...found];
}

// GraphProto: node=1, initializer=5, sparse_initializer=15.
function scanGraph(r: Reader, from: number, to: number, found: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH) {
    throw new InferkitError('model_load_failed', `ONNX graph nests subgraphs deeper than ${MAX_DEPTH} levels`);
  }
  forEachField(r, from, to, (field, start, end) => {
    if (field === 1) {
      // NodeProto.attribute=5 → AttributeProto: t=5, g=6, tensors=10, graphs=11.
      forEachField(r, start, end, (nf, ns, ne) => {
        if (nf === 5) {
          forEachField(r, ns, ne, (af, as, ae) => {
            if (af === 5 || af === 10) {
              scanTensor(r, as, ae, found);
            } else if (af === 6 || af === 11) {
              scanGraph(r, as, ae, found, depth + 1);
            }
          });
        }
      });
    } else if (field === 5) {
      scanTensor(r, start, end, found);
    } else if (field === 15) {
      // SparseTensorProto: values=1, indices=2 (both TensorProto).
      forEachField(r, start, end, (sf, ss, se) => {
        if (sf === 1 || sf === 2) {
          scanTensor(r, ss, se, found);
        }
      });
    }
  });
}

// TensorProto.external_data=13 → StringStringEntryProto{key=1, value=2}.
function scanTensor(r: Reader, from: number, to: number, found: Set<string>): void {
  forEachField(r, from, to, (field, start, end) => {
    if (field !== 13) {
      return;
    }
    let key = '';
    let value = '';
    forEachField(r, start, end, (ef, es, ee) => {
      if (ef === 1) {
        key = r.text(es, ee);
      } else if (ef === 2) {
        value = r.text(es, ee);
      }
    });
    if (key === 'location') {
      found.add(value);
    }
  });
}

/** Calls `visit(field, start, end)` for every length-delimited field in [from, to); other wire types are skipped. */
function forEachField(r: Reader, from: number, to: number, visit: (field: number, start: number, end: number) => void): void {
  let at = from;
  while (at < to) {
    const [tag, afterTag] = r.varint(at, to);
    const wire = tag % 8;
    const field = Math.floor(tag / 8);
    if (wire === 0) {
      at = r.varint(afterTag, to)[1];
    } else if (wire === 1 || wire === 5) {
      at = afterTag + (wire === 1 ? 8 : 4);
    } else if (wire === 2) {
      const [length, start] = r.varint(afterTag, to);
      at = start + length;
      if (at > to) {
        break;
      }
      visit(field, start, at);
    } else {
      throw new InferkitError('model_load_failed', `not an ONNX model: unsupported protobuf wire type ${wire} at byte ${at}`);
    }
    if (at > to) {
      break;
    }
  }
  if (at !== to) {
    throw new InferkitError('model_load_failed', `not an ONNX model: a protobuf field runs past its message end (byte ${at} of ${to})`);
  }
}

/** Random access to the bytes being scanned. */
interface ByteSource {
  readonly length: number;
  at(i: number): number;
  slice(start: number, end: number): Uint8Array;
}

const PAGE = 16 * 1024;

/** The bytes of open file `fd` (`size` long), read a page at a time; the last few pages are kept. */
function pagedFile(fd: number, size: number): ByteSource {
  const pages = new Map<number, Uint8Array>();
  const page = (n: number): Uint8Array => {
    let p = pages.get(n);
    if (p === undefined) {
      p = new Uint8Array(Math.min(PAGE, size - n * PAGE));
      readSync(fd, p, 0, p.length, n * PAGE);
      if (pages.size >= 8) {
        pages.delete(pages.keys().next().value as number);
      }
      pages.set(n, p);
    }
    return p;
  };
  return {
    length: size,
    at: (i) => page(Math.floor(i / PAGE))[i % PAGE],
    slice: (start, end) => {
      const out = new Uint8Array(end - start);
      readSync(fd, out, 0, out.length, start);
      return out;
    },
  };
}

class Reader {
  private readonly decoder = new TextDecoder();
  constructor(private readonly bytes: ByteSource) {}

  get length(): number {
    return this.bytes.length;
  }

  /** A varint at `at` (below `to`): its value (as a safe double) and the offset after it. */
  varint(at: number, to: number): [number, number] {
    let value = 0;
    let scale = 1;
    for (let i = at; i < to && i < at + 10; i++) {
      const b = this.bytes.at(i);
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (b < 0x80) {
        return [value, i + 1];
      }
    }
    throw new InferkitError('model_load_failed', `not an ONNX model: truncated varint at byte ${at}`);
  }

  text(start: number, end: number): string {
    return this.decoder.decode(this.bytes.slice(start, end));
  }
}

/**
 * A pickle reader that builds data, never runs code: the opcodes of protocols 0–5 that plain data uses (torch.save writes 2)
 * (numbers, strings, bytes, None/bools, tuples, lists, dicts, memo, persistent ids, REDUCE/BUILD/NEWOBJ), and
 * globals only through `globals`, a table the caller fills with what it allows. Anything else — a global not in
 * the table, sets, extension codes, out-of-band buffers — fails naming it. Python values map to JavaScript as:
 * dict → Map, list → Array, tuple → frozen Array, str → string, bytes → Uint8Array, int → number (bigint past
 * 2^53), float → number, None → null.
 */

/** A global the pickle may name: called by REDUCE/NEWOBJ with the arguments tuple, or a plain value. */
export type PickleGlobal = { call: (args: readonly unknown[]) => unknown } | { value: unknown };

/** What {@link unpickle} needs from its caller. */
export interface UnpickleOptions {
  /** `module.name` → what that global is; any other global is an error. */
  globals: Readonly<Record<string, PickleGlobal>>;
  /** Resolves a persistent id (BINPERSID/PERSID); without it, one is an error. */
  persistentLoad?: (pid: unknown) => unknown;
  /** BUILD on an object the caller made (`obj`, `state`): return nothing to accept it; throw to refuse. BUILD on a dict with dict state is accepted and ignored. */
  build?: (obj: unknown, state: unknown) => void;
}

/** Thrown for a pickle inferkit will not or cannot read; the caller adds the file's name. */
export class PickleError extends Error {
  override name = 'PickleError';

  /** True when the bytes end before the pickle does (more of the file may complete it). */
  constructor(
    message: string,
    readonly cutShort = false,
  ) {
    super(message);
  }
}

const MAX_CONTAINER = 50_000_000;

/** Reads one pickle from `bytes`. */
export function unpickle(bytes: Uint8Array, options: UnpickleOptions): unknown {
  return unpickleAt(bytes, 0, options).value;
}

/** Reads one pickle from `bytes` starting at byte `start`; `end` is the byte after its STOP (where the next pickle or data begins). */
export function unpickleAt(bytes: Uint8Array, start: number, options: UnpickleOptions): { value: unknown; end: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stack: unknown[] = [];
  const marks: number[] = [];
  const memo = new Map<number, unknown>();
  let pos = start;

  const need = (n: number): number => {
    if (n < 0 || pos + n > buf.length) {
      throw new PickleError(`the pickle is cut short at byte ${pos}`, true);
    }
    const at = pos;
    pos += n;
    return at;
  };
  const u8 = (): number => buf[need(1)];
  const u16 = (): number => buf.readUInt16LE(need(2));
  const u32 = (): number => buf.readUInt32LE(need(4));
  const u64 = (): number => {
    const v = buf.readBigUInt64LE(need(8));
    if (v > BigInt(MAX_CONTAINER) * 64n) {
      throw new PickleError(`a length of ${v} at byte ${pos - 8} is past the pickle`);
    }
    return Number(v);
  };
  const line = (): string => {
    const end = buf.indexOf(0x0a, pos);
    if (end < 0) {
      throw new PickleError(`the pickle is cut short at byte ${pos} (no end of line)`, true);
    }
    const s = buf.toString('latin1', pos, end);
    pos = end + 1;
    return s;
  };
  const pop = (): unknown => {
    if (stack.length === 0 || stack.length <= (marks.at(-1) ?? -1)) {
      throw new PickleError(`the pickle pops an empty stack at byte ${pos - 1}`);
    }
    return stack.pop();
  };
  const top = (): unknown => {
    if (stack.length === 0) {
      throw new PickleError(`the pickle reads an empty stack at byte ${pos - 1}`);
    }
    return stack[stack.length - 1];
  };
  const popMark = (): unknown[] => {
    const m = marks.pop();
    if (m === undefined) {
      throw new PickleError(`the pickle closes a mark it never opened at byte ${pos - 1}`);
    }
    return stack.splice(m);
  };
  const get = (key: number): unknown => {
    if (!memo.has(key)) {
      throw new PickleError(`the pickle reads memo ${key}, never stored`);
    }
    return memo.get(key);
  };
  const global = (module: string, name: string): unknown => {
    const g = options.globals[`${module}.${name}`];
    if (g === undefined) {
      throw new PickleError(`it names the global ${module}.${name}, which inferkit does not load (it reads data only, and never runs code from a checkpoint)`);
    }
    return g;
  };
  const call = (fn: unknown, args: unknown): unknown => {
    if (fn === null || typeof fn !== 'object' || !('call' in fn) || !Array.isArray(args)) {
      throw new PickleError(`it calls something that is not an allowed global at byte ${pos - 1}`);
    }
    return (fn as { call: (a: readonly unknown[]) => unknown }).call(args);
  };
  const text = (n: number): string => buf.toString('utf8', need(n), pos);
  const binary = (n: number): Uint8Array => new Uint8Array(buf.subarray(need(n), pos));
  const tuple = (items: unknown[]): readonly unknown[] => Object.freeze(items);
  const setItems = (dict: unknown, items: unknown[]): void => {
    if (!(dict instanceof Map) || items.length % 2 !== 0) {
      throw new PickleError(`it sets items on something that is not a dict at byte ${pos - 1}`);
    }
    for (let i = 0; i < items.length; i += 2) {
      dict.set(items[i], items[i + 1]);
    }
  };
  const append = (list: unknown, items: unknown[]): void => {
    if (!Array.isArray(list) || Object.isFrozen(list)) {
      throw new PickleError(`it appends to something that is not a list at byte ${pos - 1}`);
    }
    if (list.length + items.length > MAX_CONTAINER) {
      throw new PickleError('a list in the pickle is too long');
    }
    for (const item of items) {
      list.push(item);
    }
  };
  const signedLittle = (b: Uint8Array): number | bigint => {
    if (b.length === 0) {
      return 0;
    }
    let v = 0n;
    for (let i = b.length - 1; i >= 0; i--) {
      v = (v << 8n) | BigInt(b[i]);
    }
    if (b[b.length - 1] & 0x80) {
      v -= 1n << BigInt(8 * b.length);
    }
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  };
  const intText = (s: string): number | bigint | boolean => {
    if (s === '01') {
      return true;
    }
    if (s === '00') {
      return false;
    }
    const t = s.endsWith('L') ? s.slice(0, -1) : s;
    if (!/^[+-]?\d+$/.test(t)) {
      throw new PickleError(`bad integer ${JSON.stringify(s)} in the pickle`);
    }
    const v = BigInt(t);
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  };

  for (;;) {
    const op = u8();
    switch (op) {
      case 0x80: // PROTO
        if (u8() > 5) {
          throw new PickleError('its pickle protocol is newer than 5');
        }
        break;
      case 0x95: // FRAME
        u64();
        break;
      case 0x2e: // STOP
        if (stack.length !== 1 || marks.length !== 0) {
          throw new PickleError(`the pickle stops with ${stack.length} values on its stack`);
        }
        return { value: stack[0], end: pos };
      case 0x28: // MARK
        marks.push(stack.length);
        break;
      case 0x30: // POP
        if (marks.length > 0 && marks.at(-1) === stack.length) {
          marks.pop();
        } else {
          pop();
        }
        break;
      case 0x31: // POP_MARK
        popMark();
        break;
      case 0x32: // DUP
        stack.push(top());
        break;
      case 0x4e: // NONE
        stack.push(null);
        break;
      case 0x88: // NEWTRUE
        stack.push(true);
        break;
      case 0x89: // NEWFALSE
        stack.push(false);
        break;
      case 0x4b: // BININT1
        stack.push(u8());
        break;
      case 0x4d: // BININT2
        stack.push(u16());
        break;
      case 0x4a: // BININT
        stack.push(buf.readInt32LE(need(4)));
        break;
      case 0x49: // INT
        stack.push(intText(line()));
        break;
      case 0x4c: // LONG
        stack.push(intText(line()));
        break;
      case 0x8a: // LONG1
        stack.push(signedLittle(binary(u8())));
        break;
      case 0x8b: // LONG4
        stack.push(signedLittle(binary(u32())));
        break;
      case 0x47: // BINFLOAT
        stack.push(buf.readDoubleBE(need(8)));
        break;
      case 0x46: {
        // FLOAT (repr text: `1.5`, `inf`, `-inf`, `nan`)
        const t = line();
        stack.push(t === 'inf' ? Infinity : t === '-inf' ? -Infinity : t === 'nan' ? NaN : Number(t));
        break;
      }
      case 0x58: // BINUNICODE
        stack.push(text(u32()));
        break;
      case 0x8c: // SHORT_BINUNICODE
        stack.push(text(u8()));
        break;
      case 0x8d: // BINUNICODE8
        stack.push(text(u64()));
        break;
      case 0x56: // UNICODE (raw-unicode-escape: latin-1 with \uXXXX and \UXXXXXXXX escapes)
        stack.push(line().replace(/\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})/g, (_m, u: string | undefined, U: string | undefined) => String.fromCodePoint(parseInt(u ?? U ?? '0', 16))));
        break;
      case 0x54: // BINSTRING (Python 2 str)
        stack.push(buf.toString('latin1', need(u32()), pos));
        break;
      case 0x55: // SHORT_BINSTRING
        stack.push(buf.toString('latin1', need(u8()), pos));
        break;
      case 0x42: // BINBYTES
        stack.push(binary(u32()));
        break;
      case 0x43: // SHORT_BINBYTES
        stack.push(binary(u8()));
        break;
      case 0x8e: // BINBYTES8
        stack.push(binary(u64()));
        break;
      case 0x96: // BYTEARRAY8
        stack.push(binary(u64()));
        break;
      case 0x29: // EMPTY_TUPLE
        stack.push(tuple([]));
        break;
      case 0x85: // TUPLE1
        stack.push(tuple([pop()]));
        break;
      case 0x86: {
        // TUPLE2
        const b = pop();
        stack.push(tuple([pop(), b]));
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop();
        const b = pop();
        stack.push(tuple([pop(), b, c]));
        break;
      }
      case 0x74: // TUPLE
        stack.push(tuple(popMark()));
        break;
      case 0x5d: // EMPTY_LIST
        stack.push([]);
        break;
      case 0x6c: // LIST
        stack.push(popMark());
        break;
      case 0x7d: // EMPTY_DICT
        stack.push(new Map());
        break;
      case 0x64: {
        // DICT
        const d = new Map();
        setItems(d, popMark());
        stack.push(d);
        break;
      }
      case 0x61: {
        // APPEND
        const v = pop();
        append(top(), [v]);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popMark();
        append(top(), items);
        break;
      }
      case 0x73: {
        // SETITEM
        const v = pop();
        const k = pop();
        setItems(top(), [k, v]);
        break;
      }
      case 0x75: {
        // SETITEMS
        const items = popMark();
        setItems(top(), items);
        break;
      }
      case 0x71: // BINPUT
        memo.set(u8(), top());
        break;
      case 0x72: // LONG_BINPUT
        memo.set(u32(), top());
        break;
      case 0x70: // PUT
        memo.set(Number(line()), top());
        break;
      case 0x94: // MEMOIZE
        memo.set(memo.size, top());
        break;
      case 0x68: // BINGET
        stack.push(get(u8()));
        break;
      case 0x6a: // LONG_BINGET
        stack.push(get(u32()));
        break;
      case 0x67: // GET
        stack.push(get(Number(line())));
        break;
      case 0x63: {
        // GLOBAL
        const module = line();
        stack.push(unwrap(global(module, line())));
        break;
      }
      case 0x93: {
        // STACK_GLOBAL
        const name = pop();
        const module = pop();
        if (typeof module !== 'string' || typeof name !== 'string') {
          throw new PickleError('STACK_GLOBAL without a module and name');
        }
        stack.push(unwrap(global(module, name)));
        break;
      }
      case 0x52: {
        // REDUCE
        const args = pop();
        stack.push(call(pop(), args));
        break;
      }
      case 0x81: {
        // NEWOBJ
        const args = pop();
        stack.push(call(pop(), args));
        break;
      }
      case 0x62: {
        // BUILD
        const state = pop();
        const obj = top();
        if (obj instanceof Map && state instanceof Map) {
          break; // an OrderedDict's attributes (a state dict's `_metadata`): not data inferkit reads
        }
        if (options.build === undefined) {
          throw new PickleError(`it sets the state of an object at byte ${pos - 1}`);
        }
        options.build(obj, state);
        break;
      }
      case 0x51: {
        // BINPERSID
        const pid = pop();
        if (options.persistentLoad === undefined) {
          throw new PickleError('it holds a persistent id');
        }
        stack.push(options.persistentLoad(pid));
        break;
      }
      case 0x50: // PERSID
        if (options.persistentLoad === undefined) {
          throw new PickleError('it holds a persistent id');
        }
        stack.push(options.persistentLoad(line()));
        break;
      default:
        throw new PickleError(`pickle opcode 0x${op.toString(16).padStart(2, '0')} at byte ${pos - 1} is not one inferkit reads`);
    }
  }
}

/** A global's value as it sits on the stack: callables stay wrapped (REDUCE calls them), values unwrap. */
function unwrap(g: unknown): unknown {
  return g !== null && typeof g === 'object' && 'value' in g ? (g as { value: unknown }).value : g;
}

/**
 * Bytes a UTF-8 text can hold: a Precompiled normaliser looks its text's bytes up in the charsmap's trie, one at a time
 * (NUL ends the lookup; 0xC0, 0xC1 and 0xF5–0xFF never occur).
 */
const TEXT_BYTES = Array.from({ length: 256 }, (_, b) => b).filter((b) => b !== 0 && b !== 0xc0 && b !== 0xc1 && b < 0xf5);

/**
 * Why `tokenizers`' Precompiled normaliser cannot use `bytes` as a `precompiled_charsmap`, or undefined when it can.
 * `tokenizers` does not return an error for such a charsmap: it aborts the whole process (a Rust panic across its
 * binding), when the tokenizer loads (the layout) or when a text first reaches a bad trie entry. So a charsmap is
 * checked before it is handed over: its layout (a little-endian u32 trie size, that many bytes of 32-bit darts-clone
 * units, then the NUL-ended replacements as UTF-8), and every trie walk a text can make from the root: each child
 * index in the trie, and each replacement's start inside the replacements, on a character boundary.
 */
export function precompiledCharsmapProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length < 4) {
    return `${bytes.length} bytes, fewer than its 4-byte trie size`;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const trieBytes = view.getUint32(0, true);
  const units = Math.floor(trieBytes / 4);
  if (4 + units * 4 > bytes.length) {
    return `a trie of ${trieBytes} bytes in ${bytes.length - 4} bytes`;
  }
  if (units === 0) {
    return 'an empty trie';
  }
  const replacements = bytes.subarray(4 + units * 4);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(replacements);
  } catch {
    return 'replacements that are not UTF-8';
  }
  const unit = (i: number): number => view.getUint32(4 + i * 4, true);
  // darts-clone's unit: label (low byte; the top bit set on value units), has-leaf bit 8, offset from bit 10 (scaled by bit 9).
  const offset = (u: number): number => (u >>> 10) * ((u & 0x200) !== 0 ? 256 : 1);
  const seen = new Set<number>();
  const bases = [0 ^ offset(unit(0))];
  while (bases.length > 0) {
    const base = bases.pop() as number;
    if (seen.has(base)) {
      continue;
    }
    seen.add(base);
    for (const c of TEXT_BYTES) {
      const at = base ^ c;
      if (at >= units) {
        return `a trie entry ${at} past its ${units} units`;
      }
      const u = unit(at);
      if ((u & 0x800000ff) >>> 0 !== c) {
        continue;
      }
      const next = at ^ offset(u);
      if (((u >>> 8) & 1) === 1) {
        if (next >= units) {
          return `a trie value entry ${next} past its ${units} units`;
        }
        const start = unit(next) & 0x7fffffff;
        if (start > replacements.length || (start < replacements.length && (replacements[start] & 0xc0) === 0x80)) {
          return `a replacement starting at byte ${start} of ${replacements.length}, not at a character`;
        }
      }
      bases.push(next);
    }
  }
  return undefined;
}

/** Standard base64 with padding, as `tokenizers` decodes a tokenizer.json's `precompiled_charsmap`. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Why a tokenizer.json Precompiled normaliser step (`where` names it) would abort the process in `tokenizers` (see
 * {@link precompiledCharsmapProblem}), or undefined; any other step: undefined.
 */
export function precompiledStepProblem(step: unknown, where: string): string | undefined {
  const node = step as { type?: unknown; precompiled_charsmap?: unknown } | null | undefined;
  if (node?.type !== 'Precompiled') {
    return undefined;
  }
  const charsmap = node.precompiled_charsmap;
  if (typeof charsmap !== 'string' || !BASE64.test(charsmap)) {
    return `${where}.precompiled_charsmap is ${typeof charsmap === 'string' ? 'not base64' : `${charsmap === null ? 'null' : typeof charsmap}, not a base64 string`}`;
  }
  const problem = precompiledCharsmapProblem(new Uint8Array(Buffer.from(charsmap, 'base64')));
  return problem === undefined ? undefined : `${where}.precompiled_charsmap holds ${problem}`;
}

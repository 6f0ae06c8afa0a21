/** One tokenized text. Offsets are UTF-16 indices into the original text; special tokens have `[0, 0]`. */
export interface EncodedText {
  /** Token ids, `[CLS]` … `[SEP]`. */
  ids: number[];
  /**
   * True when the text had more tokens than `maxLength` and was cut. (The `tokenizers` engine misses
   * some cuts when no special tokens are added: its Encoding loses the overflowing parts.)
   */
  truncated: boolean;
  /** `[start, end)` per token (only with `details`). */
  offsets: Array<[number, number]>;
  /** The same spans counted in Unicode code points, as Python (and KServe) count them (only with `details`). */
  codePointOffsets: Array<[number, number]>;
  /** Word index per token, null for special tokens (only with `details`). */
  wordIds: Array<number | null>;
}

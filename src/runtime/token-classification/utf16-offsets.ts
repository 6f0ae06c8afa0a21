/**
 * Converts `[start, end)` offsets counted in Unicode code points (what the native tokenizer
 * reports) to JavaScript string indices (UTF-16 code units), so `text.slice(start, end)` is the
 * token's span. Texts without astral characters (emoji, rare CJK) are returned unchanged.
 */
export function codePointToUtf16Offsets(text: string, offsets: ReadonlyArray<readonly number[]>): Array<[number, number]> {
  if (!/[\uD800-\uDBFF]/.test(text)) {
    return offsets.map((o) => [o[0], o[1]]);
  }
  // unit[i] = UTF-16 index of code point i; one extra entry for the end of the text.
  const unit: number[] = [];
  for (let i = 0; i < text.length; i++) {
    unit.push(i);
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
      }
    }
  }
  unit.push(text.length);
  const at = (cp: number): number => unit[Math.min(cp, unit.length - 1)];
  return offsets.map((o) => [at(o[0]), at(o[1])]);
}

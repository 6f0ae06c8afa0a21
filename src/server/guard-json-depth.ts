import { InferkitError } from '../errors.js';

/** Deepest nesting of arrays/objects a request body may have. @default 64 */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * Throws `invalid_request` when the JSON text nests arrays/objects deeper than `maxDepth`. A
 * linear scan before `JSON.parse`, so a deeply nested body (a 12 KB `[[[[…` in V2 `data` or
 * forecast `metadata`) is a 400 naming the problem, never a stack overflow and a 500 later on.
 */
export function assertJsonDepth(text: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) {
        i++; // skip the escaped character
      } else if (c === 0x22) {
        inString = false;
      }
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > maxDepth) {
        throw new InferkitError('invalid_request', `request body nests arrays/objects more than ${maxDepth} levels deep (at character ${i}); flatten it`);
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
}

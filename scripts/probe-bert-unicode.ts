/**
 * Runs every Unicode code point through the native `tokenizers` and inferkit's BERT WordPiece on
 * the KServe conformance tokenizer (lower-cased and cased) and prints the code points whose
 * encodings differ, as ranges. Empty output means `bert-unicode-flips.ts` matches this Node's
 * Unicode tables; otherwise update the flips. Run: `npx tsx scripts/probe-bert-unicode.ts` (~2 min).
 */
import { join } from 'node:path';
import { loadTextTokenizer } from '../src/runtime/token-classification/load-text-tokenizer.js';

const dir = join(process.cwd(), '../shared/conformance/kserve-hf/model');
const files = { dir, config: '', model: '', tokenizerJson: join(dir, 'tokenizer.json'), vocabTxt: undefined, tokenizerConfig: join(dir, 'tokenizer_config.json') };

function ranges(cps: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < cps.length; ) {
    let j = i;
    while (j + 1 < cps.length && cps[j + 1] === cps[j] + 1) {
      j++;
    }
    out.push(i === j ? cps[i].toString(16) : `${cps[i].toString(16)}-${cps[j].toString(16)}`);
    i = j + 1;
  }
  return out.join(' ');
}

async function main(): Promise<void> {
  for (const disableLowerCase of [false, true]) {
    const native = await loadTextTokenizer(files, {}, { disableLowerCase, tokenizerEngine: 'tokenizers' });
    const ours = await loadTextTokenizer(files, {}, { disableLowerCase });
    const differing: number[] = [];
    for (let base = 0; base < 0x110000; base += 4096) {
      const cps = Array.from({ length: 4096 }, (_, k) => base + k).filter((cp) => cp < 0xd800 || cp > 0xdfff);
      const texts = cps.map((cp) => {
        const c = String.fromCodePoint(cp);
        return `a${c}b ${c} x${c}${c}`;
      });
      const want = await native.encode(texts, true);
      const got = await ours.encode(texts, true);
      cps.forEach((cp, i) => {
        if (JSON.stringify(want[i]) !== JSON.stringify(got[i])) {
          differing.push(cp);
        }
      });
    }
    process.stdout.write(`disableLowerCase=${disableLowerCase}: ${differing.length} differing code points ${ranges(differing)}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`);
  process.exitCode = 1;
});

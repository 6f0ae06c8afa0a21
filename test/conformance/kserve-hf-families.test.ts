import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTokenClassifier } from '../../src/runtime/token-classification/load-token-classifier.js';
import type { TokenClassifier } from '../../src/runtime/token-classification/token-classifier.js';
import type { V1PredictRequest } from '../../src/contract/v1.js';
import type { V2InferRequest } from '../../src/contract/v2.js';
import { loadExchanges, type Exchange } from './exchanges.js';
import { compare, expectReplayed } from './kserve-compare.js';
import { INTENDED_DIFFERENCES } from './kserve-differences.js';
import { BPE_VOCAB_SETS, exchangeTexts, FAMILY_SETS, float32Retokenizes, LONG_TEXT_REASON, longTextCounterpart, readLogits, safetensorsOnlyCopy, setDir, SPM_SETS, TRANSFORMERS4_SETS } from './kserve-families.js';
import { ReplayServers } from './kserve-replay.js';

// Every recorded exchange of every token-classification family (BERT, DistilBERT, RoBERTa, XLM-R, DeBERTa-v3), replayed
// against inferkit loading the model from config.json + model.safetensors alone (the onnx/ folder is not
// copied): served on 127.0.0.1 and in-kernel. Raw logits are compared with transformers' (logits.json). DeBERTa-v3 and
// XLM-R run twice more: with only their SentencePiece model file for a tokenizer (SPM_SETS), and with the tokenizer.json
// transformers 4 wrote (TRANSFORMERS4_SETS); RoBERTa once more from vocab.json + merges.txt alone (BPE_VOCAB_SETS).
const LOGIT_TOLERANCE = 1e-4; // the sets' READMEs: "about 1e-4 (absolute)"

for (const set of [...FAMILY_SETS, ...SPM_SETS, ...TRANSFORMERS4_SETS, ...BPE_VOCAB_SETS]) {
  const tokenizer = 'tokenizer' in set ? (set as (typeof SPM_SETS | typeof TRANSFORMERS4_SETS | typeof BPE_VOCAB_SETS)[number]).tokenizer : 'tokenizer.json';
  const exchanges = loadExchanges(setDir(set.folder));
  const byId = new Map(exchanges.map((e) => [e.id, e]));
  const copy = safetensorsOnlyCopy(set.folder, tokenizer);
  // From a SentencePiece model file, a text whose Unigram segmentation is a near-tie that float32 scores flip is held to that
  // segmentation's shape, not to KServe's recording of the doubles (float32Retokenizes); the rest to KServe's answer.
  const retokenizes = tokenizer === 'spm.model' || tokenizer.startsWith('sentencepiece.bpe.model') ? float32Retokenizes(set.folder) : undefined;
  /** Whether `text` is such a near-tie (never, from tokenizer.json). */
  const nearTie = async (text: string, disableLowerCase: boolean, recordedIds?: readonly number[]): Promise<boolean> =>
    retokenizes !== undefined && (await (await retokenizes)(text, disableLowerCase, recordedIds));
  const flipped = new Set<string>();
  const flips = async (e: Exchange): Promise<boolean> => {
    if (retokenizes === undefined || e.own_tokens === undefined) {
      return false;
    }
    const texts = exchangeTexts(e);
    const disable = e.server_args.includes('--disable_lower_case');
    for (const [i, text] of texts.entries()) {
      if (await nearTie(text, disable, e.own_tokens.input_ids[i])) {
        flipped.add(e.id);
        return true;
      }
    }
    return false;
  };
  const servers = new ReplayServers({ modelDir: copy.modelDir, cacheDir: copy.cacheDir });
  const classifiers = new Map<string, Promise<TokenClassifier>>();
  const classifier = (e: Exchange, extra: { returnRawLogits?: boolean } = {}): Promise<TokenClassifier> => {
    const disableLowerCase = e.server_args.includes('--disable_lower_case');
    const key = `${disableLowerCase}-${extra.returnRawLogits === true}`;
    let c = classifiers.get(key);
    if (c === undefined) {
      const modelName = (e.server_args.find((a) => a.startsWith('--model_name=')) ?? '=model').split('=')[1];
      c = loadTokenClassifier(copy.modelDir, { cacheDir: copy.cacheDir, modelName, disableLowerCase, ...extra });
      classifiers.set(key, c);
    }
    return c;
  };
  afterAll(async () => {
    await servers.close();
    await Promise.all([...classifiers.values()].map(async (c) => (await c).dispose()));
    rmSync(dirname(copy.modelDir), { recursive: true, force: true });
  });

  const tokenizerNote = tokenizer === 'tokenizer.json' ? '' : tokenizer === 'tokenizer.json (transformers 4)' ? ` and a ${tokenizer}` : ` and ${tokenizer} (no tokenizer.json)`;
  describe(`${set.folder} (${set.family}) from model.safetensors${tokenizerNote}`, () => {
    it('builds the graph from the checkpoint and matches transformers\' logits within 1e-4, alone and in a padded batch', async () => {
      const first = exchanges.find((e) => e.kind === 'v1_predict') as Exchange;
      const c = await classifier(first, { returnRawLogits: true });
      expect(c.info).toMatchObject({ graph: { from: 'checkpoint', family: set.family } });
      const recorded = readLogits(set.folder);
      let worst = 0;
      const check = (ours: Array<Record<string, number>>, theirs: number[][], what: string): void => {
        expect(ours, what).toHaveLength(theirs.length);
        theirs.forEach((row, t) => row.forEach((v, k) => (worst = Math.max(worst, Math.abs(ours[t][String(k)] - v)))));
      };
      const disable = first.server_args.includes('--disable_lower_case');
      for (const s of recorded.singles) {
        if (await nearTie(s.text, disable, s.input_ids)) {
          continue; // a float32 near-tie (see `flips`)
        }
        const answer = await c.predictV1({ instances: [s.text] });
        check(answer.predictions[0] as Array<Record<string, number>>, s.logits, s.name);
      }
      const batch = await c.predictV1({ instances: recorded.padded_batch.texts });
      const flippedTexts = await Promise.all(recorded.padded_batch.texts.map((t) => nearTie(t, disable)));
      recorded.padded_batch.logits.forEach((rows, j) => {
        if (flippedTexts[j]) {
          return;
        }
        const own = rows.filter((_, t) => recorded.padded_batch.attention_mask[j][t] === 1);
        check(batch.predictions[j] as Array<Record<string, number>>, own, `padded batch text ${j}`);
      });
      expect(worst).toBeLessThan(LOGIT_TOLERANCE);
    });

    it('has every recorded exchange', () => {
      expect(exchanges).toHaveLength(set.exchanges);
    });

    if (retokenizes !== undefined) {
      it('float32 scores flip the segmentation of few texts: at most 1 exchange in 20 is held to its shape only', async () => {
        for (const e of exchanges) {
          await flips(e);
        }
        expect(flipped.size, [...flipped].join(', ')).toBeLessThanOrEqual(exchanges.length / 20);
      });
    }

    it.each(exchanges.map((e) => [e.id, e] as const))('served: %s', async (_id, e) => {
      const r = await servers.send(e);
      if (await flips(e)) {
        expect(r.status).toBe(200);
        return;
      }
      const twin = longTextCounterpart(e, byId);
      if (twin !== undefined) {
        expect(r.status, `${e.id}: ${LONG_TEXT_REASON}`).toBe(200);
        compare(twin, 200, r.json());
        return;
      }
      expectReplayed(e, r, set.family === 'bert' && set.folder === 'kserve-hf' ? INTENDED_DIFFERENCES[e.id] : undefined);
    });

    const inKernel = exchanges.filter((e) => e.kind === 'v1_predict' || e.kind === 'v2_infer');
    it.each(inKernel.map((e) => [e.id, e] as const))('in-kernel: %s', async (_id, e) => {
      const expected = longTextCounterpart(e, byId) ?? e;
      if (expected.response.status !== 200) {
        return; // BERT's bad-input exchanges of these kinds are the served test's
      }
      const c = await classifier(e);
      if (await flips(e)) {
        return;
      }
      const body = e.request.body as V1PredictRequest & { inputs?: string[] };
      const answer = e.kind === 'v1_predict' ? await c.predictV1(body.inputs !== undefined ? { instances: body.inputs } : body) : await c.inferV2(e.request.body as V2InferRequest);
      compare(expected, 200, JSON.parse(JSON.stringify(answer)));
    });
  });
}

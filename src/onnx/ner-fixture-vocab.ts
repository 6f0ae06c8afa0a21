/** The 9 CoNLL-2003 labels in dslim/bert-base-NER's id order (id = index). */
export const CONLL_LABELS = ['O', 'B-MISC', 'I-MISC', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC'] as const;

/** One CoNLL label. */
export type ConllLabel = (typeof CONLL_LABELS)[number];

/**
 * The entity tokens of the NER fixture (lower-case; with `lowercase: false` the capitalised form,
 * e.g. `Paris`, is in the vocabulary too with the same label). Every other token is `O`. The
 * label is per token, not per context: `smith` alone is still I-PER, `new` is always B-LOC.
 *
 * | token | label | | token | label |
 * |---|---|---|---|---|
 * | john, mary, angela, wolfgang, barack | B-PER | | smith, merkel, obama | I-PER |
 * | google, microsoft, united | B-ORG | | nations | I-ORG |
 * | paris, berlin, london, germany, france, new, washing | B-LOC | | york, ##ton | I-LOC |
 * | german, english, french | B-MISC | | | |
 *
 * So "My name is Wolfgang and I live in Berlin" → Wolfgang B-PER, Berlin B-LOC;
 * "Washington" → `washing` B-LOC + `##ton` I-LOC; "New York" → B-LOC I-LOC;
 * "Angela Merkel" → B-PER I-PER; "United Nations" → B-ORG I-ORG.
 */
export const NER_FIXTURE_ENTITIES: Readonly<Record<string, ConllLabel>> = {
  john: 'B-PER',
  mary: 'B-PER',
  angela: 'B-PER',
  wolfgang: 'B-PER',
  barack: 'B-PER',
  smith: 'I-PER',
  merkel: 'I-PER',
  obama: 'I-PER',
  google: 'B-ORG',
  microsoft: 'B-ORG',
  united: 'B-ORG',
  nations: 'I-ORG',
  paris: 'B-LOC',
  berlin: 'B-LOC',
  london: 'B-LOC',
  germany: 'B-LOC',
  france: 'B-LOC',
  new: 'B-LOC',
  washing: 'B-LOC',
  york: 'I-LOC',
  '##ton': 'I-LOC',
  german: 'B-MISC',
  english: 'B-MISC',
  french: 'B-MISC',
};

const COMMON_WORDS = `the a an and or but of in on at to from for with by about as into is are was were be been
am i you he she it we they my your his her our their me him us them this that these those there here what who
where when why how not no yes have has had do does did will would can could should may go went going come came
say said see saw know think make made take took get got give gave tell told work works worked live lived name
visit visited meet met speak speaks call called city country company people person man woman year years day days
week time today yesterday tomorrow morning evening hello hi world good great big small old first last next one two
three many much more most very also just only all some any every other than then now after before over under
between near president minister chancellor ceo capital river university house street office news report said language
team game government market bank`.split(/\s+/);

const SUBWORDS = ['##s', '##es', '##ed', '##ing', '##er', '##ly', '##ist', '##ian', '##n', '##a', '##e'];
const PUNCTUATION = ['.', ',', '!', '?', ';', ':', "'", '"', '(', ')', '-', '/', '&', '$', '%'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');

/** Special tokens at BERT's ids: [PAD] 0, [UNK] 100, [CLS] 101, [SEP] 102, [MASK] 103. */
export const BERT_SPECIAL_TOKENS = { pad: '[PAD]', unk: '[UNK]', cls: '[CLS]', sep: '[SEP]', mask: '[MASK]' } as const;

/**
 * The fixture vocabulary (index = token id): BERT's special ids with `[unusedN]` filler in 1–99,
 * then punctuation, digits, single letters and `##` letters (so any ASCII word tokenizes without
 * [UNK]), common English words, sub-word pieces and the entity tokens. With `lowercase: false`
 * capitalised forms of every word and letter are added too. 386 tokens lower-case, 609 cased.
 */
export function nerFixtureVocab(lowercase: boolean): string[] {
  const vocab: string[] = [BERT_SPECIAL_TOKENS.pad];
  for (let i = 0; i < 99; i++) {
    vocab.push(`[unused${i}]`);
  }
  vocab.push(BERT_SPECIAL_TOKENS.unk, BERT_SPECIAL_TOKENS.cls, BERT_SPECIAL_TOKENS.sep, BERT_SPECIAL_TOKENS.mask);
  const words = [...COMMON_WORDS, ...Object.keys(NER_FIXTURE_ENTITIES).filter((t) => !t.startsWith('##'))];
  const pieces = [...SUBWORDS, ...LETTERS.map((l) => `##${l}`), '##ton'];
  const cased = lowercase ? [] : [...LETTERS, ...words].map((w) => w[0].toUpperCase() + w.slice(1));
  const seen = new Set(vocab);
  for (const token of [...PUNCTUATION, ...'0123456789'.split(''), ...LETTERS, ...words, ...pieces, ...cased]) {
    if (!seen.has(token)) {
      seen.add(token);
      vocab.push(token);
    }
  }
  return vocab;
}

/**
 * The [vocab.length, 9] label table for {@link nerFixtureVocab}: `logit` at the token's label
 * (entity label, matched case-insensitively, else `O`) and 0 elsewhere.
 */
export function nerFixtureLabelTable(vocab: readonly string[], logit = 10): Float32Array {
  const n = CONLL_LABELS.length;
  const table = new Float32Array(vocab.length * n);
  vocab.forEach((token, id) => {
    const label = NER_FIXTURE_ENTITIES[token.toLowerCase()] ?? 'O';
    table[id * n + CONLL_LABELS.indexOf(label)] = logit;
  });
  return table;
}

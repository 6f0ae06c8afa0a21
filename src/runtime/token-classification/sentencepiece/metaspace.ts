/**
 * The Metaspace step (`▁` for spaces, split on it) a SentencePiece-style class builds as its pre-tokenizer and its
 * decoder: `▁` before every word, or, with tokenizer_config.json's `add_prefix_space` false, the class's own
 * `withoutPrefix` scheme (`never`: XLM-R's and CamemBERT's; `first`, the text's first word only: DeBERTa-v2's).
 */
export function metaspace(tokConfig: Record<string, unknown>, withoutPrefix: 'never' | 'first'): Record<string, unknown> {
  return { type: 'Metaspace', replacement: '\u2581', prepend_scheme: tokConfig.add_prefix_space === false ? withoutPrefix : 'always', split: true };
}

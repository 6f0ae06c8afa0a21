import { SPM_MODEL_FILE, XLMR_SPM_MODEL_FILE } from '../../../hub/file-spec.js';
import type { TokenizerConfig } from '../model-files.js';
import { debertaV2TokenizerJson } from './deberta-v2-tokenizer-json.js';
import type { SentencePieceModel } from './sentencepiece-model.js';
import { xlmRobertaTokenizerJson } from './xlm-roberta-tokenizer-json.js';

/** How one family's SentencePiece model file becomes the tokenizer.json transformers makes of it. */
export interface SentencePieceTokenizer {
  /** The file transformers' class reads (its `vocab_file`). */
  file: string;
  /** transformers' tokenizer class (what AutoTokenizer takes for the model type). */
  tokenizerClass: string;
  build(model: SentencePieceModel, tokConfig: TokenizerConfig & Record<string, unknown>, path: string): Record<string, unknown>;
}

/** The families inferkit reads a SentencePiece model file for, by config.json `model_type`. */
export const SENTENCEPIECE_TOKENIZERS: Readonly<Record<string, SentencePieceTokenizer>> = {
  'deberta-v2': { file: SPM_MODEL_FILE, tokenizerClass: 'DebertaV2Tokenizer', build: debertaV2TokenizerJson },
  'xlm-roberta': { file: XLMR_SPM_MODEL_FILE, tokenizerClass: 'XLMRobertaTokenizer', build: xlmRobertaTokenizerJson },
};

/** "DeBERTa-v2/v3 (spm.model) and XLM-RoBERTa (sentencepiece.bpe.model)" style list, for errors. */
export function sentencePieceFamilies(): string {
  return Object.entries(SENTENCEPIECE_TOKENIZERS)
    .map(([type, t]) => `${JSON.stringify(type)} (${t.file})`)
    .join(', ');
}

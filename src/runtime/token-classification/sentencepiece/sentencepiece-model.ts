import { InferkitError } from '../../../errors.js';

/** A piece's type in a SentencePiece model (`SentencePiece.Type`). */
export const PIECE_TYPES = { normal: 1, unknown: 2, control: 3, userDefined: 4, unused: 5, byte: 6 } as const;

/** One vocabulary entry: its text, its log-probability score and its type; its id is its index. */
export interface SentencePiece {
  piece: string;
  score: number;
  type: number;
}

/** What inferkit reads of a SentencePiece `ModelProto` (an `spm.model` file). */
export interface SentencePieceModel {
  pieces: SentencePiece[];
  /** `TrainerSpec.model_type`: 1 Unigram, 2 BPE, 3 word, 4 char. @default 1 */
  modelType: number;
  /** `TrainerSpec.unk_id` (the UNKNOWN piece's id where the file marks one). @default 0 */
  unkId: number;
  /** `NormalizerSpec.precompiled_charsmap`: the normaliser's rules compiled (a trie and its replacements); undefined when absent or empty. */
  precompiledCharsmap: Uint8Array | undefined;
}

/** The model types by `TrainerSpec.model_type`. */
export const SPM_MODEL_TYPES: Readonly<Record<number, string>> = { 1: 'Unigram', 2: 'BPE', 3: 'word', 4: 'char' };

// Field numbers of sentencepiece_model.proto (proto2).
const MODEL = { pieces: 1, trainerSpec: 2, normalizerSpec: 3 } as const;
const PIECE = { piece: 1, score: 2, type: 3 } as const;
const TRAINER = { modelType: 3, unkId: 40 } as const;
const NORMALIZER = { precompiledCharsmap: 2 } as const;

const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

/** One decoder for every text field (a deberta-v3 file has 128,000 pieces). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads protobuf wire format: one message's fields in order. */
class Reader {
  at: number;

  constructor(
    readonly bytes: Uint8Array,
    private readonly view: DataView,
    start: number,
    readonly end: number,
    readonly path: string,
  ) {
    this.at = start;
  }

  /** The next length-delimited field's bytes (a copy). */
  bytesField(): Uint8Array {
    const [start, end] = this.span();
    return this.bytes.slice(start, end);
  }

  /** A reader of the next length-delimited field (a nested message). */
  message(): Reader {
    const [start, end] = this.span();
    return new Reader(this.bytes, this.view, start, end, this.path);
  }

  /** The next field's number and wire type, or undefined at the end of the message. */
  tag(): { field: number; wire: number } | undefined {
    if (this.at >= this.end) {
      return undefined;
    }
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: key % 8 };
  }

  /** An unsigned varint as a number (exact below 2^53; int32 fields are taken from its low 32 bits). */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.at >= this.end) {
        throw this.fail('the file ends inside a number');
      }
      const b = this.bytes[this.at++];
      value += (b & 0x7f) * scale;
      if (b < 0x80) {
        return value;
      }
      scale *= 128;
    }
    throw this.fail('a number runs past 10 bytes');
  }

  int32(): number {
    // Negative int32 values are written as 10-byte varints of their 64-bit two's complement.
    return Number(BigInt.asIntN(32, BigInt(this.varint())));
  }

  float(): number {
    if (this.at + 4 > this.end) {
      throw this.fail('the file ends inside a float');
    }
    const v = this.view.getFloat32(this.at, true);
    this.at += 4;
    return v;
  }

  /** The next length-delimited field as [start, end) of the buffer. */
  span(): [number, number] {
    const length = this.varint();
    if (this.at + length > this.end) {
      throw this.fail('a field runs past the end of its message');
    }
    const start = this.at;
    this.at += length;
    return [start, this.at];
  }

  string(): string {
    const [start, end] = this.span();
    try {
      return UTF8.decode(this.bytes.subarray(start, end));
    } catch {
      this.at = start;
      throw this.fail('a text field is not UTF-8');
    }
  }

  skip(wire: number): void {
    if (wire === WIRE.varint) {
      this.varint();
    } else if (wire === WIRE.fixed64) {
      this.at += 8;
    } else if (wire === WIRE.bytes) {
      this.span();
    } else if (wire === WIRE.fixed32) {
      this.at += 4;
    } else {
      throw this.fail(`unknown wire type ${wire}`);
    }
    if (this.at > this.end) {
      throw this.fail('a field runs past the end of its message');
    }
  }

  fail(why: string): InferkitError {
    return new InferkitError('model_load_failed', `${this.path} is not a SentencePiece model (${why} at byte ${this.at})`);
  }
}

/**
 * Reads a SentencePiece model file's vocabulary and what the tokenizer classes take of it (model type, unk id,
 * precompiled charsmap). `path` names the file in errors: a file that is not protobuf, or has no pieces, fails naming it.
 */
export function readSentencePieceModel(bytes: Uint8Array, path: string): SentencePieceModel {
  const top = new Reader(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.length, path);
  const model: SentencePieceModel = { pieces: [], modelType: 1, unkId: 0, precompiledCharsmap: undefined };
  for (let tag = top.tag(); tag !== undefined; tag = top.tag()) {
    if (tag.wire !== WIRE.bytes) {
      top.skip(tag.wire);
    } else if (tag.field === MODEL.pieces) {
      model.pieces.push(readPiece(top.message()));
    } else if (tag.field === MODEL.trainerSpec) {
      readTrainer(top.message(), model);
    } else if (tag.field === MODEL.normalizerSpec) {
      const r = top.message();
      for (let t = r.tag(); t !== undefined; t = r.tag()) {
        if (t.field === NORMALIZER.precompiledCharsmap && t.wire === WIRE.bytes) {
          const charsmap = r.bytesField();
          model.precompiledCharsmap = charsmap.length > 0 ? charsmap : undefined;
        } else {
          r.skip(t.wire);
        }
      }
    } else {
      top.skip(tag.wire);
    }
  }
  if (model.pieces.length === 0) {
    throw new InferkitError('model_load_failed', `${path} is not a SentencePiece model (no vocabulary pieces)`);
  }
  const unknown = model.pieces.findIndex((p) => p.type === PIECE_TYPES.unknown);
  if (unknown >= 0) {
    model.unkId = unknown;
  }
  if (model.unkId < 0 || model.unkId >= model.pieces.length) {
    throw new InferkitError('model_load_failed', `${path}: unk_id ${model.unkId} is not a piece of its ${model.pieces.length}`);
  }
  return model;
}

function readPiece(r: Reader): SentencePiece {
  const out: SentencePiece = { piece: '', score: 0, type: PIECE_TYPES.normal };
  for (let t = r.tag(); t !== undefined; t = r.tag()) {
    if (t.field === PIECE.piece && t.wire === WIRE.bytes) {
      out.piece = r.string();
    } else if (t.field === PIECE.score && t.wire === WIRE.fixed32) {
      out.score = r.float();
    } else if (t.field === PIECE.type && t.wire === WIRE.varint) {
      out.type = r.int32();
    } else {
      r.skip(t.wire);
    }
  }
  return out;
}

function readTrainer(r: Reader, model: SentencePieceModel): void {
  for (let t = r.tag(); t !== undefined; t = r.tag()) {
    if (t.wire !== WIRE.varint) {
      r.skip(t.wire);
    } else if (t.field === TRAINER.modelType) {
      model.modelType = r.int32();
    } else if (t.field === TRAINER.unkId) {
      model.unkId = r.int32();
    } else {
      r.skip(t.wire);
    }
  }
}

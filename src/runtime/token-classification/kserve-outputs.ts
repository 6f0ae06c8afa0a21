import { randomUUID } from 'node:crypto';
import type { V1PredictResponse } from '../../contract/v1.js';
import type { V2InferRequest, V2InferResponse, V2ModelMetadata } from '../../contract/v2.js';
import { ValidationError, type ValidationIssue } from '../../errors.js';

/** Name of the V2 output tensor (KServe's). */
export const V2_OUTPUT_NAME = 'output-0';

/** Name of the offsets output (`--return_offsets_mapping`), as KServe names it. */
export const OFFSET_MAPPING_NAME = 'offset_mapping';

/**
 * KServe's `offset_mapping` tensor: INT64 `[N, T, 2]`, T the longest text's token count, each
 * token's `[start, end)` in Unicode code points; special tokens and padding are `[0, 0]`.
 */
export function offsetMappingTensor(encoded: ReadonlyArray<{ codePointOffsets: ReadonlyArray<readonly [number, number]> }>): V2InferResponse['outputs'][number] {
  const width = encoded.reduce((m, e) => Math.max(m, e.codePointOffsets.length), 0);
  const data = new Array<number>(encoded.length * width * 2).fill(0);
  encoded.forEach((e, i) => {
    e.codePointOffsets.forEach(([start, end], t) => {
      data[(i * width + t) * 2] = start;
      data[(i * width + t) * 2 + 1] = end;
    });
  });
  return { name: OFFSET_MAPPING_NAME, shape: [encoded.length, width, 2], datatype: 'INT64', parameters: null, data };
}

/** V1 `predictions`: per text `[[class id per token]]`, `[CLS]`/`[SEP]` included, that text's tokens only. */
export function toV1Response(classIds: readonly number[][]): V1PredictResponse {
  return { predictions: classIds.map((ids) => [ids]) };
}

/**
 * What a V1 entry holds: argmax ids (`[[id, …]]`, KServe's default), or per token a
 * `{class id: value}` object of softmax probabilities rounded to 4 decimals
 * (`--return_probabilities`) or of raw logits (`--return_raw_logits`).
 */
export type V1OutputKind = 'class_ids' | 'probabilities' | 'raw_logits';

/** A V1 entry of per-token scores: one `{"<class id>": value}` object per token. */
export type TokenScoresEntry = Array<Record<string, number>>;

/**
 * V1 `predictions` of per-token scores, KServe's `--return_probabilities` / `--return_raw_logits`
 * shape: per text a list (not extra-nested) of `{"0": v0, "1": v1, …}` per token, `[CLS]`/`[SEP]`
 * included, that text's tokens only. `rows`: per text float32 [tokens, numLabels] row-major —
 * probabilities (rounded here to 4 decimals, like KServe's `float(f"{p:.4f}")`) or raw logits (kept).
 */
export function toV1ScoresResponse(rows: readonly Float32Array[], numLabels: number, kind: 'probabilities' | 'raw_logits'): V1PredictResponse {
  const value = kind === 'probabilities' ? (v: number) => Number(v.toFixed(4)) : (v: number) => v;
  const predictions = rows.map((row): TokenScoresEntry => {
    const entry: TokenScoresEntry = [];
    for (let base = 0; base < row.length; base += numLabels) {
      const token: Record<string, number> = {};
      for (let c = 0; c < numLabels; c++) {
        token[String(c)] = value(row[base + c]);
      }
      entry.push(token);
    }
    return entry;
  });
  return { predictions };
}

/**
 * The V2 response: `output-0` INT64 `[N, 1, T]`, T = longest token count, row-major data with -1
 * past each text's own tokens; `model_version` and `parameters` null; `id` = the request's or a UUID.
 */
export function toV2Response(modelName: string, classIds: readonly number[][], requestId?: string): V2InferResponse {
  const width = classIds.reduce((m, ids) => Math.max(m, ids.length), 0);
  const data = new Array<number>(classIds.length * width).fill(-1);
  classIds.forEach((ids, i) => {
    for (let t = 0; t < ids.length; t++) {
      data[i * width + t] = ids[t];
    }
  });
  return {
    model_name: modelName,
    model_version: null,
    id: requestId ?? randomUUID(),
    parameters: null,
    outputs: [{ name: V2_OUTPUT_NAME, shape: [classIds.length, 1, width], datatype: 'INT64', parameters: null, data }],
  };
}

/**
 * The texts of a V2 request: exactly one input tensor, `datatype` `BYTES`, `shape` `[N]` matching
 * `data`'s N strings; requested outputs, if any, only `output-0`. Throws a ValidationError naming the field.
 */
export function textsFromV2Request(request: V2InferRequest): string[] {
  const issues: ValidationIssue[] = [];
  if (request.inputs.length !== 1) {
    issues.push({ path: 'inputs', message: `expected exactly one input tensor (the texts), got ${request.inputs.length}` });
  }
  const input = request.inputs[0];
  if (input === undefined) {
    throw new ValidationError(issues, { context: 'V2 inference request' });
  }
  if (input.datatype !== 'BYTES') {
    issues.push({ path: 'inputs[0].datatype', message: `expected BYTES (texts), got ${input.datatype}` });
  }
  if (input.shape.length !== 1 || input.shape[0] !== input.data.length) {
    issues.push({ path: 'inputs[0].shape', message: `expected [${input.data.length}] for ${input.data.length} texts, got [${input.shape.join(', ')}]` });
  }
  const bad = input.data.findIndex((v) => typeof v !== 'string');
  if (bad >= 0) {
    issues.push({ path: `inputs[0].data[${bad}]`, message: 'expected a string' });
  }
  (request.outputs ?? []).forEach((o, i) => {
    if (o.name !== V2_OUTPUT_NAME && o.name !== OFFSET_MAPPING_NAME) {
      issues.push({ path: `outputs[${i}].name`, message: `unknown output "${o.name}"; this model has "${V2_OUTPUT_NAME}" (and "${OFFSET_MAPPING_NAME}" with --return_offsets_mapping)` });
    }
  });
  if (issues.length > 0) {
    throw new ValidationError(issues, { context: 'V2 inference request' });
  }
  return input.data as string[];
}

/** Facts about a loaded model shown in its V2 metadata `parameters`. */
export interface TokenClassMetadataFacts {
  labels: readonly string[];
  maxLength: number;
  lowercase: boolean;
}

/**
 * V2 model metadata: input `text` BYTES `[-1]`, output `output-0` INT64 `[-1, 1, -1]`, platform
 * `onnxruntime`, and `parameters` with the task, labels, max length and lower-casing.
 */
export function tokenClassMetadata(modelName: string, facts: TokenClassMetadataFacts): V2ModelMetadata {
  return {
    name: modelName,
    versions: [],
    platform: 'onnxruntime',
    inputs: [{ name: 'text', datatype: 'BYTES', shape: [-1] }],
    outputs: [{ name: V2_OUTPUT_NAME, datatype: 'INT64', shape: [-1, 1, -1] }],
    parameters: { task: 'token_classification', labels: [...facts.labels], max_length: facts.maxLength, lowercase: facts.lowercase },
  };
}

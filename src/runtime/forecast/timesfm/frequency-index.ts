import type { Frequency } from '../../../contract/enums.js';
import { frequencySpec, type FrequencyUnit } from '../../../contract/frequency.js';

const INDEX: Readonly<Record<FrequencyUnit, number>> = { second: 0, minute: 0, hour: 0, day: 0, week: 1, month: 1, quarter: 2, year: 2 };

/**
 * TimesFM's frequency index of a request's frequency, as KServe's huggingfaceserver maps it: second, minute,
 * hour, day → 0 (high); week, month → 1 (medium); quarter, year → 2 (low). A multiple (`15min`, `2W`, `ME`)
 * takes its unit's index. Without a frequency: 0, transformers' default.
 */
export function timesFmFrequencyIndex(frequency: Frequency | undefined): number {
  return frequency === undefined ? 0 : INDEX[frequencySpec(frequency).unit];
}

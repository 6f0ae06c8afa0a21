import { formatGiB, formatSize } from '../shared-weights/process-memory.js';
import type { ModelMemory } from './model-memory.js';

/** Signed size: `+0.42 GiB` from 0.1 GiB up, else `+12 MiB`. */
export function formatGrowth(bytes: number): string {
  const sign = bytes < 0 ? '-' : '+';
  const abs = Math.abs(bytes);
  return abs >= 0.1 * 2 ** 30 ? `${sign}${formatGiB(abs)}` : `${sign}${Math.round(abs / 2 ** 20)} MiB`;
}

function ratio(growth: number, weights: number): string {
  const r = growth / weights;
  return `${Math.abs(r) >= 100 ? Math.round(r) : r.toFixed(2)}×`;
}

/**
 * One line of `inferkit serve`'s "models loaded:" block for model `name`, e.g.
 * `    bert memory at load: RSS +0.42 GiB, PSS +0.41 GiB (weights 0.41 GiB: RSS 1.02×, PSS 1.00×)`;
 * a baseline says `no weights`, a model measured while other loads downloaded says how many.
 */
export function modelMemoryLine(name: string, memory: ModelMemory | undefined): string {
  if (memory === undefined) {
    return `    ${name} memory at load: not measured (it opened no ONNX session at load)`;
  }
  const pss = memory.pssGrowthBytes !== undefined ? `, PSS ${formatGrowth(memory.pssGrowthBytes)}` : '';
  const w = memory.weightsBytes;
  const weights =
    w === undefined || w === 0
      ? 'no weights'
      : `weights ${formatSize(w)}: RSS ${ratio(memory.rssGrowthBytes, w)}${memory.pssGrowthBytes !== undefined ? `, PSS ${ratio(memory.pssGrowthBytes, w)}` : ''}`;
  const beside = memory.alongside > 0 ? `; ${memory.alongside} other load${memory.alongside === 1 ? ' was' : 's were'} downloading or building meanwhile` : '';
  const shared = memory.sessionWeights === undefined ? '' : `; ${SESSION_WEIGHTS[memory.sessionWeights]}`;
  return `    ${name} memory at load: RSS ${formatGrowth(memory.rssGrowthBytes)}${pss} (${weights})${shared}${beside}`;
}

/** How a pool's sessions hold the weights, as the memory line says it. */
const SESSION_WEIGHTS: Record<NonNullable<ModelMemory['sessionWeights']>, string> = {
  packed: 'its sessions map one packed copy of the weights, paged in by the first runs',
  mapped: 'its sessions map one unpacked copy of the weights (slower runs)',
  own: 'each session holds its own copy of the weights',
};

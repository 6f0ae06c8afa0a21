import { describe, expect, it } from 'vitest';
import { formatProgress, notebookProgress, terminalProgress } from './progress-bar.js';

describe('terminalProgress', () => {
  it('redraws one line and ends it when done', () => {
    const out: string[] = [];
    const bar = terminalProgress((s) => out.push(s), { width: 10 });
    bar({ done: 0, total: 4, failed: 0 });
    bar({ done: 4, total: 4, failed: 1 });
    expect(out).toEqual(['\rforecast [··········] 0% 0/4 series', '\rforecast [██████████] 100% 4/4 series, 1 failed\n']);
    expect(formatProgress({ done: 0, total: 0, failed: 0 }, { width: 2, label: 'x' })).toBe('x [██] 100% 0/0 series');
  });
});

describe('notebookProgress', () => {
  it('overwrites one display, throttled, always showing the final state, label escaped', () => {
    const shown: string[] = [];
    const update = notebookProgress({ html: (s) => shown.push(s) }, { intervalMs: 60_000, label: '<b>' });
    update({ done: 0, total: 3, failed: 0 });
    update({ done: 1, total: 3, failed: 0 });
    update({ done: 3, total: 3, failed: 2 });
    expect(shown).toHaveLength(2);
    expect(shown[1]).toContain('<progress value="3" max="3"');
    expect(shown[1]).toContain('&#60;b&#62; 3/3 series');
    expect(shown[1]).toContain('2 failed');
  });
});

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * bench/RESULTS.md is one current report: a hand-kept header and summary, then one section per
 * bench between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`. Regenerating a bench replaces
 * its section only; every other section (and the header) is kept as it was.
 */

const startMarker = (name: string) => `<!-- bench:${name} -->`;
const endMarker = (name: string) => `<!-- /bench:${name} -->`;

/** What a fresh RESULTS.md starts with when the file does not exist yet. */
export const RESULTS_HEADER = [
  '# inferkit benchmark results',
  '',
  'One current section per bench: its latest tables, when and on what machine they were measured. Regenerate one with',
  '`npm run bench -- --only <name>`: that section is replaced, the others are kept. History: `git log -p bench/RESULTS.md`.',
  '',
].join('\n');

/** Names of the bench sections in a RESULTS.md text, in document order. */
export function sectionNames(doc: string): string[] {
  return [...doc.matchAll(/^<!-- bench:([\w.-]+) -->$/gm)].map((m) => m[1] as string);
}

/**
 * `doc` with the section of `name` set to `body` (markers added here). An existing section is
 * replaced in place; a new one goes before the first later bench of `order` already in the
 * document, or at the end.
 */
export function upsertSection(doc: string, name: string, body: string, order: readonly string[] = []): string {
  const block = `${startMarker(name)}\n${body.trim()}\n${endMarker(name)}`;
  const start = doc.indexOf(`${startMarker(name)}\n`);
  if (start >= 0) {
    const end = doc.indexOf(endMarker(name), start);
    if (end < 0) {
      throw new Error(`RESULTS: section ${name} has no end marker ${endMarker(name)}`);
    }
    return doc.slice(0, start) + block + doc.slice(end + endMarker(name).length);
  }
  const present = new Set(sectionNames(doc));
  const later = order.slice(order.indexOf(name) + 1).find((n) => present.has(n));
  if (order.includes(name) && later !== undefined) {
    const at = doc.indexOf(`${startMarker(later)}\n`);
    return `${doc.slice(0, at)}${block}\n\n${doc.slice(at)}`;
  }
  return `${doc.trimEnd()}\n\n${block}\n`;
}

const SAYS = '**What it says:**';
const STALE = '_(written for an earlier run: check it against the tables below)_';

/** The hand-written "What it says" paragraph of `name`'s section in `doc`, if there is one. */
export function sectionSays(doc: string, name: string): string | undefined {
  const start = doc.indexOf(`${startMarker(name)}\n`);
  const end = doc.indexOf(endMarker(name), start);
  if (start < 0 || end < 0) {
    return undefined;
  }
  const body = doc.slice(start, end);
  const at = body.indexOf(SAYS);
  return at < 0 ? undefined : body.slice(at).split(/\n\s*\n/)[0]?.trim();
}

/** What one bench section says about its run. */
export interface SectionRun {
  name: string;
  title: string;
  /** When the run finished. */
  measured: Date;
  /** One line: cores, CPU, memory, versions (machineLine). */
  machine: string;
  /** 1-minute load average at the start of the bench. */
  loadAverage: number;
  threads: number;
  quick: boolean;
  seconds: number;
  /** Markdown blocks (tables), or the reason it did not run. */
  blocks: readonly string[];
  peak?: string;
  /** The section's "What it says" paragraph (kept from the previous run, marked as written for it). */
  says?: string;
}

/** The body of one bench section: title, regenerate command, date, machine and load, then its tables. */
export function renderSection(run: SectionRun): string {
  const day = run.measured.toISOString().slice(0, 10);
  const meta = [
    `\`npm run bench -- --only ${run.name}${run.quick ? ' --quick' : ''}\``,
    `measured ${day} (${run.measured.toISOString()})`,
    `${run.seconds} s`,
    ...(run.peak ? [`peak RSS ${run.peak}`] : []),
    `ONNX Runtime threads per session ${run.threads}`,
  ].join(' · ');
  const says = run.says === undefined ? [] : [run.says.includes(STALE) ? run.says : `${run.says} ${STALE}`, ''];
  return [`## ${run.title}`, '', meta, '', `**Machine:** ${run.machine} (load average ${run.loadAverage} when the bench started).`, '', ...says, ...run.blocks.flatMap((b) => [b, ''])].join('\n');
}

/**
 * Reads `path` (or starts from {@link RESULTS_HEADER}), replaces the section of `run`, writes it back.
 * The section's hand-written "What it says" paragraph is carried over, marked as written for an earlier run.
 */
export async function writeSection(path: string, run: SectionRun, order: readonly string[]): Promise<void> {
  let doc: string;
  try {
    doc = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw e;
    }
    doc = RESULTS_HEADER;
  }
  await mkdir(dirname(path), { recursive: true });
  const says = run.says ?? sectionSays(doc, run.name);
  await writeFile(path, upsertSection(doc, run.name, renderSection({ ...run, ...(says === undefined ? {} : { says }) }), order));
}

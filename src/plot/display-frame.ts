import type { HtmlDisplay } from '../data/progress-bar.js';
import { InferkitError } from '../errors.js';
import { denoDisplay, denoJupyter, type MimeBundle } from './deno-jupyter.js';
import { frameHtml, type FrameHtmlOptions, type TableLike } from './frame-html.js';

/** The parts of the kernel's display (tslab's `display`, or `Deno.jupyter.display`) that inferkit's display helpers use. */
export interface KernelDisplay extends HtmlDisplay {
  html(html: string): void | Promise<void>;
  png(bytes: Uint8Array): void | Promise<void>;
  /** One output of several MIME types (Deno's kernel; tslab has no such call). */
  bundle?(bundle: MimeBundle): void | Promise<void>;
}

/** Options of {@link displayFrame}. */
export interface DisplayFrameOptions extends FrameHtmlOptions {
  /** Where to show the table. @default the kernel's display (inside a tslab or Deno Jupyter kernel) */
  display?: HtmlDisplay;
}

/**
 * Shows a DataFrame in a notebook as an HTML table (see `frameHtml`) instead of danfojs' console
 * table. Returns nothing, so a cell that ends with it prints nothing else. Works in tslab's and in Deno's
 * Jupyter kernel (where a cell ending in an inferkit `Frame` shows the same table). Outside a kernel, pass
 * `display` (any object with `html(html)`); without it this throws an InferkitError `config`.
 */
export async function displayFrame(frame: TableLike, options: DisplayFrameOptions = {}): Promise<void> {
  const display: HtmlDisplay = options.display ?? (await kernelDisplay('displayFrame', 'an object with html(html: string), or call frameHtml(frame) for the HTML'));
  await display.html(frameHtml(frame, options));
}

/**
 * The kernel's display for the helper named `caller`: `Deno.jupyter.display` in Deno's Jupyter kernel, else
 * tslab's `display`. Where there is no running kernel (not Deno's, and tslab cannot be loaded or its display is
 * not connected to a cell), this throws at once — before the caller does any
 * work, such as rendering a PNG — an InferkitError `config` (param `display`) saying so and what to pass as
 * `{ display }` instead (`instead`). Where tslab cannot tell beforehand, showing throws it instead of
 * tslab's "Not ready".
 */
export async function kernelDisplay(caller: string, instead: string): Promise<KernelDisplay> {
  const noKernel = (cause: unknown, why = ''): InferkitError =>
    new InferkitError('config', `${caller} needs a running Jupyter kernel (tslab, or Deno's)${why}; outside one, pass { display }: ${instead}`, { cause, param: 'display' });
  const deno = denoJupyter();
  if (deno !== undefined) {
    return denoDisplay(deno);
  }
  let tslab: { display: KernelDisplay };
  try {
    tslab = await import('tslab');
  } catch (e) {
    throw noKernel(e, `, and the tslab package could not be loaded (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
  }
  if ((await displayConnected()) === false) {
    throw noKernel(undefined);
  }
  const show = (draw: () => void): void => {
    try {
      draw();
    } catch (e) {
      throw e instanceof Error && e.message === 'Not ready' ? noKernel(e) : e;
    }
  };
  return {
    html: (html) => show(() => tslab.display.html(html)),
    png: (bytes) => show(() => tslab.display.png(bytes)),
  };
}

/** What {@link displayConnected} reads of tslab's `jupyter` module. */
interface TslabJupyter {
  lastWriteDisplayData?: unknown;
}

/**
 * Whether tslab's display is connected to a running cell: tslab's kernel sets `lastWriteDisplayData` of its
 * `jupyter` module for each cell it runs, and `display` throws "Not ready" while it is unset (1.0.x). Read
 * live from the CommonJS exports object (`default` when imported as ESM; named exports would be a copy taken
 * at load). Undefined when it cannot be read (another tslab layout): showing then tells.
 */
async function displayConnected(): Promise<boolean | undefined> {
  let ns: TslabJupyter & { default?: TslabJupyter };
  try {
    ns = await import('tslab/dist/jupyter.js');
  } catch {
    return undefined;
  }
  const jupyter = ns.default ?? ns;
  return 'lastWriteDisplayData' in jupyter ? jupyter.lastWriteDisplayData != null : undefined;
}

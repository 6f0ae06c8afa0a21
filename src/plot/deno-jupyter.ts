/**
 * Deno's Jupyter kernel (`deno jupyter`): inferkit's display helpers show through `Deno.jupyter.display`
 * there, and inferkit's objects carry `Symbol.for('Jupyter.display')`, which that kernel calls for a cell's last
 * value (see https://docs.deno.com/runtime/reference/cli/jupyter/).
 */

/** A Jupyter MIME bundle: MIME type → data (`text/html` a string, `image/png` base64, JSON types as objects). */
export type MimeBundle = Record<string, unknown>;

/**
 * The key Deno's kernel looks for on a cell's value: a method returning the {@link MimeBundle} to show (or a
 * promise of it). Registered with `Symbol.for`, so it is the same symbol in every copy of inferkit and in Deno.
 */
export const JUPYTER_DISPLAY = Symbol.for('Jupyter.display');

/** The part of `Deno.jupyter` that inferkit uses. */
export interface DenoJupyter {
  /** Sends a `display_data` message; with `raw: true` a plain object is taken as the MIME bundle itself. */
  display(obj: unknown, options?: { raw?: boolean }): Promise<void>;
}

/** What inferkit's display helpers show through: HTML, a PNG, and (where the kernel takes it) a whole MIME bundle. */
export interface BundleDisplay {
  html(html: string): void | Promise<void>;
  png(bytes: Uint8Array): void | Promise<void>;
  /** Shows one output with several representations; the front end picks the richest it can render. */
  bundle(bundle: MimeBundle): void | Promise<void>;
}

/**
 * `Deno.jupyter` when this code runs in Deno's Jupyter kernel; undefined under Node (tslab included) and under
 * `deno run`, where reading `Deno.jupyter` throws ("only available in `deno jupyter` subcommand").
 */
export function denoJupyter(): DenoJupyter | undefined {
  try {
    const jupyter = (globalThis as { Deno?: { jupyter?: Partial<DenoJupyter> } }).Deno?.jupyter;
    return typeof jupyter?.display === 'function' ? (jupyter as DenoJupyter) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How long a display waits after handing its message to Deno's kernel. Deno 2.9's kernel passes a cell's outputs
 * from the thread that runs it to an IOPub drainer on its main thread, and publishes the cell's "idle" status from
 * that main thread without waiting for the drainer: a large output (a chart) still being signed when the cell ends
 * arrives after "idle", and Jupyter clients (nbclient, the notebook UIs) drop it. Measured on 2 cores at load 18:
 * 3 of 30 cells showing 150 kB lost it with no wait, none with a 20 ms wait.
 */
const DENO_PUBLISH_WAIT_MS = 50;

/**
 * A display that sends each output through `Deno.jupyter.display` as a raw MIME bundle; each call resolves once
 * sent and {@link DENO_PUBLISH_WAIT_MS} later, so that a cell ending right after it keeps the output.
 */
export function denoDisplay(jupyter: DenoJupyter): BundleDisplay {
  const show = async (bundle: MimeBundle): Promise<void> => {
    await jupyter.display(bundle, { raw: true });
    await new Promise((resolve) => setTimeout(resolve, DENO_PUBLISH_WAIT_MS));
  };
  return {
    html: (html) => show({ 'text/html': html }),
    png: (bytes) => show({ 'image/png': Buffer.from(bytes).toString('base64') }),
    bundle: show,
  };
}

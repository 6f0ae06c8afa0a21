import { frameHtml, type FrameHtmlOptions, type TableLike } from './frame-html.js';

/** The part of tslab's `Display` that shows HTML (`tslab.display`, `tslab.newDisplay()`). */
export interface HtmlDisplay {
  html(html: string): void;
}

/** Options of {@link displayFrame}. */
export interface DisplayFrameOptions extends FrameHtmlOptions {
  /** Where to show the table. @default tslab's `display` (inside a tslab kernel) */
  display?: HtmlDisplay;
}

/**
 * Shows a DataFrame in a notebook as an HTML table (see `frameHtml`) instead of danfojs' console
 * table. Returns nothing, so a cell that ends with it prints nothing else.
 */
export async function displayFrame(frame: TableLike, options: DisplayFrameOptions = {}): Promise<void> {
  const display: HtmlDisplay = options.display ?? (await import('tslab')).display;
  display.html(frameHtml(frame, options));
}

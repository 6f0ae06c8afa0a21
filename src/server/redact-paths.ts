import type { ForecastResponse } from '../contract/forecast.js';
import { maskSecretText } from '../manifest/secret-text.js';
import { clipQuoted, clipText } from './clip-echo.js';

/**
 * An absolute POSIX path with at least one folder, not part of a URL (`https://host/a/b` is kept)
 * and not one of the server's own routes (`/v1/…`, `/v2/…`, `/inferkit/…`).
 */
const POSIX_PATH = /(?<![\w.:/~-])\/(?!(?:v1|v2|inferkit)\/)(?:[^\s'"`:,;()[\]{}<>/]+\/)+([^\s'"`:,;()[\]{}<>/]+)/g;
/** An absolute Windows path (`C:\Users\…\model.onnx`). */
const WINDOWS_PATH = /\b[A-Za-z]:\\(?:[^\s'"`:,;()[\]{}<>\\]+\\)*([^\s'"`:,;()[\]{}<>\\]+)/g;

/**
 * `message` with absolute file paths cut to their last part (`/home/me/.cache/…/model.onnx` →
 * `…/model.onnx`) and credentials masked (`hf_…`, `Bearer …`, URI userinfo; manifest/secret-text.ts),
 * for what HTTP answers show: they must not tell a caller the user name, the home folder or the
 * cache layout of the machine, nor a token. Logs keep the paths (credentials are masked there too).
 */
export function redactPaths(message: string): string {
  return maskSecretText(message.replace(POSIX_PATH, '…/$1').replace(WINDOWS_PATH, '…\\$1'));
}

/**
 * A forecast error body with file paths cut out of its top-level message, and quoted input in the
 * message and the echoed `model` cut at 200 characters (`clip-echo.ts`).
 */
export function redactForecastError(body: ForecastResponse): ForecastResponse {
  if (body.error) {
    body.error = { ...body.error, message: clipQuoted(redactPaths(body.error.message)) };
  }
  if (typeof body.model === 'string') {
    body.model = clipText(body.model);
  }
  return body;
}

/** Most characters of a caller's input (a path, a model name, a quoted value) an answer or log line repeats. */
export const ECHO_CHARS = 200;

/** `text` cut to `max` characters with an ellipsis, so an answer never repeats unbounded input. */
export function clipText(text: string, max: number = ECHO_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A double-quoted string (JSON escapes included) of more than ECHO_CHARS characters. */
const LONG_QUOTED = new RegExp(`"((?:[^"\\\\]|\\\\.){${ECHO_CHARS}})(?:[^"\\\\]|\\\\.)+"`, 'g');

/**
 * `message` with every quoted value longer than {@link ECHO_CHARS} characters cut with an ellipsis
 * (`unknown frequency "QQQ…"`): error messages quote what the caller sent, which may be megabytes.
 */
export function clipQuoted(message: string): string {
  return message.replace(LONG_QUOTED, '"$1…"');
}

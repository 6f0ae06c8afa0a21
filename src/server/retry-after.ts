import type { FastifyReply } from 'fastify';

/** `Retry-After` (s) of a 503 for a busy model or a full body budget: capacity frees up within a batch. */
export const BUSY_RETRY_AFTER_S = 1;
/** `Retry-After` (s) of a 503 for a model still loading. */
export const LOADING_RETRY_AFTER_S = 1;
/** `Retry-After` (s) of a 503 while the server shuts down: about the time a replica takes to restart. */
export const SHUTDOWN_RETRY_AFTER_S = 5;

/** Whole seconds until `at` (ISO 8601), at least 1: the `Retry-After` of a model waiting for a load retry. */
export function secondsUntil(at: string, now: number = Date.now()): number {
  const ms = Date.parse(at) - now;
  return Number.isFinite(ms) ? Math.max(1, Math.ceil(ms / 1000)) : LOADING_RETRY_AFTER_S;
}

/** Sets `Retry-After: seconds` on a reply (delta-seconds form, RFC 9110 §10.2.3). */
export function setRetryAfter(reply: FastifyReply | undefined, seconds: number): void {
  reply?.header('retry-after', String(seconds));
}

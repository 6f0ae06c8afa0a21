import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';

/** A running attack: stop it to close its sockets; `opened` counts every connection it made. */
export interface Attack {
  stop(): void;
  opened(): number;
}

/**
 * `count` connections to `port`. `reconnect`: each one closed is opened again (the reconnecting idle
 * flood of issue 28); `drip`: each sends one header byte per `dripMs` and never finishes (slowloris).
 */
export function attack(port: number, count: number, options: { reconnect: boolean; drip?: boolean; dripMs?: number }): Attack {
  let running = true;
  let opened = 0;
  const sockets = new Set<Socket>();
  const open = (): void => {
    if (!running) {
      return;
    }
    const s = connect(port, '127.0.0.1');
    opened++;
    sockets.add(s);
    let timer: NodeJS.Timeout | undefined;
    s.on('error', () => undefined);
    if (options.drip) {
      s.on('connect', () => {
        s.write('GET /v2/health/live HTTP/1.1\r\n');
        timer = setInterval(() => s.writable && s.write('X'), options.dripMs ?? 1000);
      });
    }
    s.on('close', () => {
      clearInterval(timer);
      sockets.delete(s);
      if (options.reconnect) {
        setTimeout(open, 1);
      }
    });
  };
  for (let i = 0; i < count; i++) {
    open();
  }
  return {
    opened: () => opened,
    stop: () => {
      running = false;
      for (const s of sockets) {
        s.destroy();
      }
    },
  };
}

/** One exchange's outcome: its status (0 = no answer) and time, or the error code. */
export interface Outcome {
  status: number;
  ms: number;
  error?: string;
}

/** One request on a new connection (as a client without a pool, or a probe), bounded by `timeoutMs`. */
export function once(port: number, path: string, body: string | undefined, timeoutMs: number, agent: Agent | false = false): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number, error?: string): void => resolve({ status, ms: performance.now() - started, ...(error ? { error } : {}) });
    const req = request(
      { host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', agent, timeout: timeoutMs, headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', (e: NodeJS.ErrnoException) => done(0, e.code ?? e.message));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => done(0, e.code ?? e.message));
    req.end(body);
  });
}

/** Runs `send` back to back (or every `everyMs`) until `signal` aborts; the outcomes. */
export async function loop(signal: AbortSignal, send: () => Promise<Outcome>, everyMs = 0): Promise<Outcome[]> {
  const out: Outcome[] = [];
  while (!signal.aborted) {
    const started = performance.now();
    out.push(await send());
    const rest = everyMs - (performance.now() - started);
    if (rest > 0 && !signal.aborted) {
      await new Promise((r) => setTimeout(r, rest));
    }
  }
  return out;
}

/** `concurrency` pooled keep-alive clients sending back to back until `signal` aborts. */
export async function keepAliveLoad(port: number, path: string, body: string, concurrency: number, signal: AbortSignal): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const all = await Promise.all(Array.from({ length: concurrency }, () => loop(signal, () => once(port, path, body, 10_000, agent))));
  agent.destroy();
  return all.flat();
}

/** A server process and what it printed. */
export interface ServerProcess {
  proc: ChildProcess;
  /** The pid of the node process serving (under npx: the leaf of npm → sh → node). */
  pid: number;
  port: number;
  output: { text: string };
}

/** Starts `inferkit serve` from source (plain node, or through `npm exec` as `npx` does) and waits for "models loaded". */
export async function startServer(args: readonly string[], env: Record<string, string>, viaNpx = false): Promise<ServerProcess> {
  const serve = ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args];
  const proc = viaNpx ? spawn('npm', ['exec', '--yes=false', '--', 'node', ...serve], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(process.execPath, serve, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { text: '' };
  proc.stdout?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  proc.stderr?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  for (let i = 0; i < 1200 && !/models loaded:/.test(output.text); i++) {
    if (proc.exitCode !== null) {
      throw new Error(`inferkit serve exited: ${output.text}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const port = Number(/serving on http:\/\/127\.0\.0\.1:(\d+)/.exec(output.text)?.[1] ?? Number.NaN);
  return { proc, pid: leafPid(proc.pid ?? 0), port, output };
}

function leafPid(pid: number): number {
  let at = pid;
  for (let i = 0; i < 5; i++) {
    let next: number | undefined;
    try {
      next = Number(readFileSync(`/proc/${at}/task/${at}/children`, 'utf8').trim().split(/\s+/)[0]) || undefined;
    } catch {
      next = undefined;
    }
    if (next === undefined) {
      break;
    }
    at = next;
  }
  return at;
}

/** Resident memory of a process, bytes (Linux), or NaN. */
export function rssOf(pid: number): number {
  try {
    const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
    return kb * 1024;
  } catch {
    return Number.NaN;
  }
}

/** True while a process exists (one helper for the benches and the tests). */
export { alive } from '../../test/fixtures/processes.js';

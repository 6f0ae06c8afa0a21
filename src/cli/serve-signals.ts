import { readFileSync } from 'node:fs';

/** The signals a process manager stops a server with; each one stops `inferkit serve` gracefully. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How often the npm watcher looks at the processes above this one (ms). */
const WATCH_MS = 250;

/**
 * Calls `stop(why)` once on SIGINT, SIGTERM or SIGHUP, and, when started by npm (`npx inferkit`,
 * `npm exec`, `npm run`; `launchedByNpm`), also when a signal sent to npm would not reach this
 * process (see {@link watchNpm}).
 */
export function installStopSignals(stop: (why: string) => void, launchedByNpm: boolean): void {
  for (const signal of STOP_SIGNALS) {
    process.once(signal, () => stop(signal));
  }
  if (launchedByNpm) {
    watchNpm(stop);
  }
}

/** The fields of `/proc/PID/stat` this module reads, or undefined (no such process, no /proc). */
interface ProcStat {
  comm: string;
  ppid: number;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "PID (comm) STATE PPID …": comm may hold spaces and parentheses, so split at the last ')'.
    const close = text.lastIndexOf(')');
    const rest = text.slice(close + 2).split(' ');
    return { comm: text.slice(text.indexOf('(') + 1, close), ppid: Number(rest[1]) };
  } catch {
    return undefined;
  }
}

/** Context switches of a process so far: it changes only when the process wakes up. */
function wakeups(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const count = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
    return count('voluntary_ctxt_switches') + count('nonvoluntary_ctxt_switches');
  } catch {
    return undefined;
  }
}

const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'busybox']);

/** The shell npm started the command in: the parent, or an ancestor up to 3 levels (`npm run` → sh → tsx → node). */
function shellAbove(parent: number): number | undefined {
  let pid = parent;
  for (let level = 0; level < 3 && pid > 1; level++) {
    const stat = procStat(pid);
    if (stat === undefined) {
      return undefined;
    }
    if (SHELLS.has(stat.comm)) {
      return pid;
    }
    pid = stat.ppid;
  }
  return undefined;
}

/**
 * npm runs a bin through `sh -c`, which waits for it. On SIGTERM npm signals that shell, which dies
 * and leaves this process re-parented; on SIGHUP npm itself dies and the shell is re-parented; on
 * SIGINT npm passes it to the shell, which (as every POSIX shell waiting for a foreground command)
 * keeps it until its command exits — so this process never hears of it, and npm waits forever
 * (issue 28: 585 s until a SIGTERM). The watcher therefore stops the server when its parent changes,
 * when the shell's parent (npm) changes, or when the shell wakes up while this process runs: a
 * waiting shell wakes only for a signal or for a change of this process's state, and the latter
 * (a stop and continue, e.g. Ctrl-Z then `fg`) is recognised by SIGCONT or a stall of this
 * process's own timers and ignored. Linux only (reads `/proc`); elsewhere only the parent change is seen.
 */
export function watchNpm(stop: (why: string) => void): void {
  const parent = process.ppid;
  const shell = shellAbove(parent);
  const npm = shell === undefined ? undefined : procStat(shell)?.ppid;
  let baseline = shell === undefined ? undefined : wakeups(shell);
  let suspect = false;
  let last = Date.now();
  // After a continue, the shell's own wake-up for it (SIGCHLD) may come after this process has handled SIGCONT
  // (a busy machine schedules the shell later): wake-ups within this grace are absorbed, not taken for a signal.
  let graceUntil = 0;
  const rebase = (): void => {
    suspect = false;
    graceUntil = Date.now() + 4 * WATCH_MS;
    baseline = shell === undefined ? undefined : wakeups(shell);
  };
  process.on('SIGCONT', rebase);
  const timer = setInterval(() => {
    const now = Date.now();
    const stalled = now - last > 4 * WATCH_MS;
    last = now;
    if (process.ppid !== parent) {
      finish('npm exited');
      return;
    }
    if (shell === undefined || npm === undefined) {
      return;
    }
    if (procStat(shell)?.ppid !== npm) {
      finish('npm exited');
      return;
    }
    if (stalled) {
      rebase();
      return;
    }
    const seen = wakeups(shell);
    if (now < graceUntil) {
      baseline = seen;
      return;
    }
    if (seen !== undefined && baseline !== undefined && seen !== baseline) {
      // Confirmed one tick later, so a SIGCONT handled in between (this process was continued) wins.
      if (suspect) {
        finish('signal to npm');
        return;
      }
      suspect = true;
    }
  }, WATCH_MS);
  timer.unref();
  function finish(why: string): void {
    clearInterval(timer);
    process.off('SIGCONT', rebase);
    stop(why);
  }
}

/**
 * Runs one attack of attack-load.ts in its own process, so its sockets do not slow the bench's
 * clients: `node --import tsx bench/lib/attack-process.ts PORT COUNT reconnect|held|drip`. On
 * SIGTERM it closes its sockets, prints how many connections it made and exits.
 */
import { attack } from './attack-load.js';

const [port, count, mode] = process.argv.slice(2);
const running = attack(Number(port), Number(count), { reconnect: mode !== 'held', drip: mode === 'drip' });
process.once('SIGTERM', () => {
  running.stop();
  process.stdout.write(`${running.opened()}\n`);
  process.exit(0);
});

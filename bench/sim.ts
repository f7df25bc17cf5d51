/**
 * The target simulator as a bench service: its own process, so that serving the pages costs
 * no contender CPU and shares no event loop with any of them.
 *   node --import tsx bench/sim.ts   (standalone: prints the origin)
 */
import { startSimulator } from '../test/sites/server.js';
import { onStop, tell } from './child.js';

const sim = await startSimulator();
onStop(() => sim.close());
if (process.send) await tell({ type: 'ready', info: { origin: sim.origin } });
else console.log(`simulator listening on ${sim.origin}`);

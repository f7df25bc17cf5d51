/**
 * The single executable's main script: the boot step (extract the private files) first, then
 * the CLI, exactly as `bin/gleaner.js` runs it from a checkout.
 */
import './boot.js';
import '../gateway/cli.js';

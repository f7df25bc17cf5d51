#!/usr/bin/env node
// The installed entry point: runs the compiled CLI (`npm run build` writes dist/).
import('../dist/gateway/cli.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    console.error('gleaner: dist/ is missing; run `npm run build` first');
    process.exit(1);
  }
  throw err;
});

#!/usr/bin/env node
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const dist = join(__dirname, '..', 'dist', 'cli');
if (!existsSync(join(dist, 'main.js')) || !existsSync(join(dist, 'launch.js'))) {
  console.error('freshet: not built yet; run `npm run build` (npm run demo and npm test build it for you)');
  process.exit(1);
}
// Re-runs itself once with the Node flags of src/cli/node-flags.ts (FRESHET_NODE_FLAGS replaces them).
try {
  require(join(dist, 'launch.js')).launch({ script: __filename, env: process.env, runHere: () => require(join(dist, 'main.js')).main(process.argv) });
} catch (err) {
  console.error(`freshet: ${err.message}`);
  process.exit(1);
}

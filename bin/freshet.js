#!/usr/bin/env node
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const entry = join(__dirname, '..', 'dist', 'cli', 'main.js');
if (!existsSync(entry)) {
  console.error('freshet: not built yet; run `npm run build` (npm run demo and npm test build it for you)');
  process.exit(1);
}
require(entry).main(process.argv);

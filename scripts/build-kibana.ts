/**
 * Writes kibana/freshet.ndjson from scripts/kibana/spec.ts: `npm run kibana:build`.
 * Objects are ordered so that everything an object references comes before it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { dashboardObject, dataViewObject, searchObject, visualisationObject } from './kibana/saved-objects';
import { dashboards, dataViews, searches, visualisations } from './kibana/spec';

function projectRoot(): string {
  let dir = resolve(__dirname, '..');
  while (dir.includes(`${sep}.state`)) dir = dirname(dir);
  return dir;
}

const objects = [...dataViews.map(dataViewObject), ...visualisations.map(visualisationObject), ...searches.map(searchObject), ...dashboards.map(dashboardObject)];
const out = join(projectRoot(), 'kibana', 'freshet.ndjson');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, objects.map((o) => JSON.stringify(o)).join('\n') + '\n');
process.stderr.write(`wrote ${objects.length} saved objects to ${out}\n`);

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Integration tests run against the real services: start them, or reuse running ones. */
export default function globalSetup(): void {
  execFileSync('bash', [join(__dirname, '..', '..', 'scripts', 'services.sh'), 'up'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

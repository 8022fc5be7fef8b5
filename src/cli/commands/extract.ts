import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import type { RegisterCommand } from '../context';

/** gzip is recognised by its magic bytes, not by the file name. */
function maybeGunzip(bytes: Uint8Array): Uint8Array {
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}

/** One JSON line per file, in argument order; a file that cannot be read is an error line. */
export async function extractFiles(files: string[], write: (line: string) => void, opts: { meta: boolean }): Promise<number> {
  const { extract } = require('../../extractors/text-density') as typeof import('../../extractors/text-density');
  let failures = 0;
  for (const file of files) {
    try {
      const page = extract(maybeGunzip(await readFile(file)));
      const meta = opts.meta ? { author: page.author, published_at: page.published_at, modified_at: page.modified_at, lang: page.lang } : {};
      write(JSON.stringify({ file, title: page.title, text: page.text, ...meta }));
    } catch (err) {
      failures++;
      write(JSON.stringify({ file, error: (err as Error).message }));
    }
  }
  return failures;
}

export const register: RegisterCommand = (program) => {
  program.command('extract')
    .description('extract title and main text (text_density) from HTML files; one JSON line per file, gzip accepted')
    .argument('<file...>', 'HTML files (raw bytes in any charset, optionally gzip-compressed)')
    .option('--meta', 'also print author, published_at, modified_at and lang', false)
    .action(async (files: string[], opts: { meta: boolean }) => {
      const failures = await extractFiles(files, (line) => process.stdout.write(`${line}\n`), opts);
      if (failures > 0) process.exitCode = 1;
    });
};

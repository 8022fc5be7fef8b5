import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runParseTypes } from '../../../src/cli/launch';
import { CRAWLER_NODE_FLAGS, configuredFlags, defaultFlags, flagName, missingFlags, relaunchArgs } from '../../../src/cli/node-flags';

const WEB = ['web_pages'];

describe('the Node flags the CLI runs with', () => {
  it('caps the semi-space by default for crawls of web pages only: API crawls and other commands run on V8\'s defaults', () => {
    expect(CRAWLER_NODE_FLAGS).toEqual(['--max-semi-space-size=2']);
    expect(missingFlags({}, [], WEB)).toEqual(['--max-semi-space-size=2']);
    expect(defaultFlags(['weibo_api', 'web_pages'])).toEqual(['--max-semi-space-size=2']);
    expect(defaultFlags(['weibo_api'])).toEqual([]);
    expect(defaultFlags(['zhihu_api'])).toEqual([]);
    expect(defaultFlags([])).toEqual([]);
    expect(missingFlags({ FRESHET_NODE_FLAGS: '--max-semi-space-size=4' }, [], ['weibo_api'])).toEqual(['--max-semi-space-size=4']);
  });

  it('reads the parser of the pipeline files `run` is given; other commands and unreadable files give none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'freshet-flags-'));
    const web = join(dir, 'news.yaml');
    const api = join(dir, 'weibo.yml');
    const bad = join(dir, 'bad.yaml');
    writeFileSync(web, 'name: news\nparse:\n  type: web_pages\n');
    writeFileSync(api, 'name: w\nparse: { type: weibo_api, base_url: "${SIMSITE_URL}" }\n');
    writeFileSync(bad, 'name: [unclosed\n');
    expect(runParseTypes(['run', web, '--until-idle'])).toEqual(['web_pages']);
    expect(runParseTypes(['run', '--var', 'A=b', api])).toEqual(['weibo_api']);
    expect(runParseTypes(['run', bad])).toEqual([]);
    expect(runParseTypes(['run', join(dir, 'missing.yaml')])).toEqual([]);
    expect(runParseTypes(['validate', web])).toEqual([]);
    expect(runParseTypes(['--version'])).toEqual([]);
  });

  it('names a flag the way V8 does: dashes or underscores, with or without a value', () => {
    expect(flagName('--max_semi_space_size=8')).toBe('--max-semi-space-size');
    expect(flagName('--max-semi-space-size')).toBe('--max-semi-space-size');
    expect(flagName('--expose-gc')).toBe('--expose-gc');
  });

  it('adds nothing the process already has, so the re-run runs in place and never loops', () => {
    expect(missingFlags({}, ['--max-semi-space-size=2'], WEB)).toEqual([]);
    expect(missingFlags({}, ['--enable-source-maps', '--max_semi_space_size=16'], WEB)).toEqual([]);
  });

  it('lets NODE_OPTIONS win over the default', () => {
    expect(missingFlags({ NODE_OPTIONS: '--max-old-space-size=512 --max-semi-space-size=8' }, [], WEB)).toEqual([]);
    expect(missingFlags({ NODE_OPTIONS: '--max-old-space-size=512' }, [], WEB)).toEqual(['--max-semi-space-size=2']);
  });

  it('FRESHET_NODE_FLAGS replaces the list; empty means none', () => {
    expect(missingFlags({ FRESHET_NODE_FLAGS: '' }, [], WEB)).toEqual([]);
    expect(missingFlags({ FRESHET_NODE_FLAGS: '  ' }, [], WEB)).toEqual([]);
    expect(missingFlags({ FRESHET_NODE_FLAGS: '--max-semi-space-size=4  --max-old-space-size=300' }, [], WEB)).toEqual(['--max-semi-space-size=4', '--max-old-space-size=300']);
    expect(missingFlags({ FRESHET_NODE_FLAGS: '--max-semi-space-size=4 --max-old-space-size=300', NODE_OPTIONS: '--max-old-space-size=1024' }, [], WEB)).toEqual(['--max-semi-space-size=4']);
  });

  it('refuses a value that is not an option, naming the variable', () => {
    expect(() => configuredFlags('4', WEB)).toThrow(/FRESHET_NODE_FLAGS: "4" is not a node option/);
    expect(() => configuredFlags('--max-semi-space-size= 4', WEB)).toThrow(/"4"/);
  });

  it('re-runs the script with the flags first, then the process\'s own flags, then its arguments', () => {
    expect(relaunchArgs(['--max-semi-space-size=2'], ['--enable-source-maps'], '/x/bin/freshet.js', ['run', 'p.yaml', '--until-idle']))
      .toEqual(['--max-semi-space-size=2', '--enable-source-maps', '/x/bin/freshet.js', 'run', 'p.yaml', '--until-idle']);
  });
});

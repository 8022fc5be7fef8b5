import { CRAWLER_NODE_FLAGS, configuredFlags, flagName, missingFlags, relaunchArgs } from '../../../src/cli/node-flags';

describe('the Node flags the CLI runs with', () => {
  it('caps the semi-space by default', () => {
    expect(CRAWLER_NODE_FLAGS).toEqual(['--max-semi-space-size=2']);
    expect(missingFlags({}, [])).toEqual(['--max-semi-space-size=2']);
  });

  it('names a flag the way V8 does: dashes or underscores, with or without a value', () => {
    expect(flagName('--max_semi_space_size=8')).toBe('--max-semi-space-size');
    expect(flagName('--max-semi-space-size')).toBe('--max-semi-space-size');
    expect(flagName('--expose-gc')).toBe('--expose-gc');
  });

  it('adds nothing the process already has, so the re-run runs in place and never loops', () => {
    expect(missingFlags({}, ['--max-semi-space-size=2'])).toEqual([]);
    expect(missingFlags({}, ['--enable-source-maps', '--max_semi_space_size=16'])).toEqual([]);
  });

  it('lets NODE_OPTIONS win over the default', () => {
    expect(missingFlags({ NODE_OPTIONS: '--max-old-space-size=512 --max-semi-space-size=8' }, [])).toEqual([]);
    expect(missingFlags({ NODE_OPTIONS: '--max-old-space-size=512' }, [])).toEqual(['--max-semi-space-size=2']);
  });

  it('FRESHET_NODE_FLAGS replaces the list; empty means none', () => {
    expect(missingFlags({ FRESHET_NODE_FLAGS: '' }, [])).toEqual([]);
    expect(missingFlags({ FRESHET_NODE_FLAGS: '  ' }, [])).toEqual([]);
    expect(missingFlags({ FRESHET_NODE_FLAGS: '--max-semi-space-size=4  --max-old-space-size=300' }, [])).toEqual(['--max-semi-space-size=4', '--max-old-space-size=300']);
    expect(missingFlags({ FRESHET_NODE_FLAGS: '--max-semi-space-size=4 --max-old-space-size=300', NODE_OPTIONS: '--max-old-space-size=1024' }, [])).toEqual(['--max-semi-space-size=4']);
  });

  it('refuses a value that is not an option, naming the variable', () => {
    expect(() => configuredFlags('4')).toThrow(/FRESHET_NODE_FLAGS: "4" is not a node option/);
    expect(() => configuredFlags('--max-semi-space-size= 4')).toThrow(/"4"/);
  });

  it('re-runs the script with the flags first, then the process\'s own flags, then its arguments', () => {
    expect(relaunchArgs(['--max-semi-space-size=2'], ['--enable-source-maps'], '/x/bin/freshet.js', ['run', 'p.yaml', '--until-idle']))
      .toEqual(['--max-semi-space-size=2', '--enable-source-maps', '/x/bin/freshet.js', 'run', 'p.yaml', '--until-idle']);
  });
});

import { BIG_PAGE_NODE_FLAGS, configuredFlags, flagName, missingFlags, relaunchArgs } from '../../../src/cli/node-flags';

const CAP = { FRESHET_NODE_FLAGS: '--max-semi-space-size=2' };

describe('the Node flags the CLI runs with', () => {
  it('adds no flag by default (one process on V8\'s defaults); the big-page cap is an opt-in', () => {
    expect(BIG_PAGE_NODE_FLAGS).toEqual(['--max-semi-space-size=2']);
    expect(missingFlags({}, [])).toEqual([]);
    expect(missingFlags({ FRESHET_NODE_FLAGS: BIG_PAGE_NODE_FLAGS.join(' ') }, [])).toEqual(['--max-semi-space-size=2']);
  });

  it('names a flag the way V8 does: dashes or underscores, with or without a value', () => {
    expect(flagName('--max_semi_space_size=8')).toBe('--max-semi-space-size');
    expect(flagName('--max-semi-space-size')).toBe('--max-semi-space-size');
    expect(flagName('--expose-gc')).toBe('--expose-gc');
  });

  it('adds nothing the process already has, so the re-run runs in place and never loops', () => {
    expect(missingFlags(CAP, ['--max-semi-space-size=2'])).toEqual([]);
    expect(missingFlags(CAP, ['--enable-source-maps', '--max_semi_space_size=16'])).toEqual([]);
  });

  it('lets NODE_OPTIONS win over the list', () => {
    expect(missingFlags({ ...CAP, NODE_OPTIONS: '--max-old-space-size=512 --max-semi-space-size=8' }, [])).toEqual([]);
    expect(missingFlags({ ...CAP, NODE_OPTIONS: '--max-old-space-size=512' }, [])).toEqual(['--max-semi-space-size=2']);
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

/**
 * The CLI registers its commands without loading what they run: `freshet --help`, `validate` or
 * `plan` should not pay for the crawler, the search and Redis clients, the extractor and the
 * sentiment models (2 s of start-up before, under load). Each module below is made to fail if it
 * is loaded while the commands are registered and the help is printed.
 */
const HEAVY = [
  '../../../src/cli/runtime',
  '../../../src/cli/clients',
  '../../../src/cli/services',
  '../../../src/cli/serve',
  '../../../src/cli/progress',
  '../../../src/runner/build',
  '../../../src/schedule/planner',
  '../../../src/schedule/core-bridge',
  '../../../src/extractors/text-density',
  '../../../src/enrichers/sentiment/model',
  '../../../src/pipeline/load',
  '../../../src/simsite',
];

describe('CLI start-up', () => {
  afterEach(() => {
    for (const path of HEAVY) jest.dontMock(path);
  });

  it('registers every command and prints help without loading what the commands run', () => {
    jest.isolateModules(() => {
      for (const path of HEAVY) {
        jest.doMock(path, () => {
          throw new Error(`${path} loaded at start-up`);
        });
      }
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { buildProgram } = require('../../../src/cli/main') as typeof import('../../../src/cli/main');
      const program = buildProgram(() => {
        throw new Error('settings read at start-up');
      });
      const names = program.commands.map((c) => c.name());
      expect(names).toEqual(expect.arrayContaining(['demo', 'run', 'serve', 'validate', 'status', 'plan', 'search', 'sentiment', 'extract', 'simsite']));
      expect(program.helpInformation()).toContain('plan');
      const plan = program.commands.find((c) => c.name() === 'plan');
      expect(plan?.helpInformation()).toContain('--budget-per-hour');
    });
  });

  it('loads a command\'s modules when it runs', async () => {
    let loaded = false;
    await jest.isolateModulesAsync(async () => {
      jest.doMock('../../../src/pipeline/load', () => {
        loaded = true;
        return { loadPipeline: () => { throw new Error('no such file: x.yaml'); } };
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { buildProgram } = require('../../../src/cli/main') as typeof import('../../../src/cli/main');
      const program = buildProgram(() => ({}) as never);
      const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        await program.parseAsync(['node', 'freshet', 'validate', 'x.yaml']);
        expect(errors).toHaveBeenCalledWith('no such file: x.yaml');
      } finally {
        errors.mockRestore();
        process.exitCode = undefined;
      }
    });
    expect(loaded).toBe(true);
  });
});

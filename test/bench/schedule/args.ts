/** Command-line flags of the scheduling benchmark. */
export interface BenchArgs {
  subjects: number;
  sigma: number;
  /** Budgets as multiples of one uniform visit per subject per day. */
  budgets: number[];
  seeds: number[];
  /** Amplitude of the diurnal world (0 skips it). */
  diurnal: number;
  /** Days of warm-up and of measurement. */
  warmupDays: number;
  measureDays: number;
  /** Scenarios to run. */
  scenarios: Set<'homogeneous' | 'cold' | 'diurnal'>;
  /** Write the JSON (off for exploratory runs with other flags). */
  write: boolean;
}

const USAGE = `usage: run.js [--n 10000] [--sigma 1.5] [--budget 1,3] [--seeds 1,2,3] [--diurnal 0.8]
       [--warmup-days 7] [--measure-days 7] [--scenarios homogeneous,cold,diurnal] [--no-write]`;

export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = {
    subjects: 10_000, sigma: 1.5, budgets: [1, 3], seeds: [1, 2, 3], diurnal: 0.8, warmupDays: 7, measureDays: 7,
    scenarios: new Set(['homogeneous', 'cold', 'diurnal']), write: true,
  };
  const nums = (v: string): number[] => v.split(',').map((x) => {
    const n = Number(x);
    if (!Number.isFinite(n)) throw new Error(`not a number: ${x}\n${USAGE}`);
    return n;
  });
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--no-write') {
      args.write = false;
      continue;
    }
    if (flag === '--help') {
      console.log(USAGE);
      process.exit(0);
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    switch (flag) {
      case '--n': args.subjects = nums(value)[0]!; break;
      case '--sigma': args.sigma = nums(value)[0]!; break;
      case '--budget': args.budgets = nums(value); break;
      case '--seeds': args.seeds = nums(value); break;
      case '--seed': args.seeds = nums(value); break;
      case '--diurnal': args.diurnal = nums(value)[0]!; break;
      case '--warmup-days': args.warmupDays = nums(value)[0]!; break;
      case '--measure-days': args.measureDays = nums(value)[0]!; break;
      case '--scenarios': {
        const names = value.split(',');
        for (const s of names) if (s !== 'homogeneous' && s !== 'cold' && s !== 'diurnal') throw new Error(`unknown scenario ${s}\n${USAGE}`);
        args.scenarios = new Set(names as ('homogeneous' | 'cold' | 'diurnal')[]);
        break;
      }
      default: throw new Error(`unknown flag ${flag}\n${USAGE}`);
    }
  }
  return args;
}

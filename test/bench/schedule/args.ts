/** Command-line flags of the scheduling benchmark. */
import { REALISTIC_WORLDS, type RealisticWorld } from './worlds';

export type Suite = 'legacy' | 'realistic';
export type LegacyScenario = 'homogeneous' | 'cold' | 'diurnal';

export interface BenchArgs {
  suites: Set<Suite>;
  /** Issue 6's stationary worlds. */
  legacy: {
    subjects: number;
    sigma: number;
    /** Budgets as multiples of one uniform visit per subject per day. */
    budgets: number[];
    seeds: number[];
    /** Amplitude of the diurnal world (0 skips it). */
    diurnal: number;
    scenarios: Set<LegacyScenario>;
  };
  /** Issue 21's worlds: cold starts, heavy tails, bursts, drift. */
  realistic: {
    subjects: number;
    budgets: number[];
    /** Seeds methods were chosen on. */
    devSeeds: number[];
    /** Seeds kept aside: never tuned on, reported separately. */
    heldOutSeeds: number[];
    worlds: Set<RealisticWorld>;
  };
  /** Days of warm-up and of measurement. */
  warmupDays: number;
  measureDays: number;
  tailDays: number;
  /** Write the JSON (off for exploratory runs with other flags). */
  write: boolean;
  /** Only these policies (exploration). */
  policies: Set<string> | null;
  /** Run only, saving the runs as shard NAME (.state/schedule-shards/NAME.json) for a later --merge. */
  shard: string | null;
  /** Write the report from these shards (given the same suite flags), running nothing. */
  merge: string[] | null;
  /** Retake only the planner's forecasts, against the committed report's runs (forecast-only.ts); written with --write. */
  forecastOnly: boolean;
  /** Exploration: take the forecast at this day instead of the warm-up's end (never written). */
  forecastAtDays: number | null;
  /** Files under src/schedule/ the caller vouches change no run since the report's commit (--forecast-only). */
  allowChanged: string[];
  /** Scheduler settings for the freshet policies (exploration: `--config halfLifeHours=72,changeProbability=0`). */
  config: Record<string, number | boolean | string>;
}

const USAGE = `usage: run.js [--quick] [--suite legacy,realistic] [--no-write] [--policies freshet,oracle]
       legacy:    [--n 10000] [--sigma 1.5] [--budget 1,3] [--seeds 1,2,3] [--diurnal 0.8] [--scenarios homogeneous,cold,diurnal]
       realistic: [--rn 20000] [--rbudget 0.25,0.5,1,2] [--dev-seeds 11,12,13] [--held-out-seeds 14] [--worlds ${REALISTIC_WORLDS.join(',')}]
       [--warmup-days 10] [--measure-days 7] [--tail-days 3] [--config key=value,...]
       [--shard NAME] (run, save the runs) / [--merge NAME,NAME...] (write the report from shards: 2 cores, 2 shards)
       [--forecast-only [--write] [--allow-changed FILE,...] [--forecast-at-days D]] (retake the planner's forecasts only, against schedule.json's runs)
  --quick: realistic suite only, 4,000 subjects (the full days: shorter windows hide the quiet subjects' delays), dev seed 11, never written.`;

export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = {
    suites: new Set(['legacy', 'realistic']),
    legacy: { subjects: 10_000, sigma: 1.5, budgets: [1, 3], seeds: [1, 2, 3], diurnal: 0.8, scenarios: new Set(['homogeneous', 'cold', 'diurnal']) },
    realistic: { subjects: 20_000, budgets: [0.25, 0.5, 1, 2], devSeeds: [11, 12, 13], heldOutSeeds: [14], worlds: new Set(REALISTIC_WORLDS) },
    warmupDays: 10, measureDays: 7, tailDays: 3, write: true, policies: null, config: {}, shard: null, merge: null, forecastOnly: false, allowChanged: [], forecastAtDays: null,
  };
  const nums = (v: string): number[] => v.split(',').filter((x) => x !== '').map((x) => {
    const n = Number(x);
    if (!Number.isFinite(n)) throw new Error(`not a number: ${x}\n${USAGE}`);
    return n;
  });
  if (argv.includes('--quick')) {
    args.suites = new Set(['realistic']);
    args.realistic = { ...args.realistic, subjects: 4000, devSeeds: [11], heldOutSeeds: [] };
    args.warmupDays = 10;
    args.measureDays = 7;
    args.tailDays = 3;
    args.write = false;
  }
  if (argv.includes('--forecast-only')) {
    args.suites = new Set(['realistic']);
    args.forecastOnly = true;
    args.write = argv.includes('--write');
  }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--quick' || flag === '--forecast-only' || flag === '--write') continue;
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
      case '--suite': {
        const names = value.split(',');
        for (const s of names) if (s !== 'legacy' && s !== 'realistic') throw new Error(`unknown suite ${s}\n${USAGE}`);
        args.suites = new Set(names as Suite[]);
        break;
      }
      case '--n': args.legacy.subjects = nums(value)[0]!; break;
      case '--sigma': args.legacy.sigma = nums(value)[0]!; break;
      case '--budget': args.legacy.budgets = nums(value); break;
      case '--seeds': case '--seed': args.legacy.seeds = nums(value); break;
      case '--diurnal': args.legacy.diurnal = nums(value)[0]!; break;
      case '--scenarios': {
        const names = value.split(',');
        for (const s of names) if (s !== 'homogeneous' && s !== 'cold' && s !== 'diurnal') throw new Error(`unknown scenario ${s}\n${USAGE}`);
        args.legacy.scenarios = new Set(names as LegacyScenario[]);
        break;
      }
      case '--rn': args.realistic.subjects = nums(value)[0]!; break;
      case '--rbudget': args.realistic.budgets = nums(value); break;
      case '--dev-seeds': args.realistic.devSeeds = nums(value); break;
      case '--held-out-seeds': args.realistic.heldOutSeeds = nums(value); break;
      case '--worlds': {
        const names = value.split(',');
        for (const s of names) if (!(REALISTIC_WORLDS as readonly string[]).includes(s)) throw new Error(`unknown world ${s}\n${USAGE}`);
        args.realistic.worlds = new Set(names as RealisticWorld[]);
        break;
      }
      case '--policies': args.policies = new Set(value.split(',')); break;
      case '--shard': args.shard = value; break;
      case '--allow-changed': args.allowChanged = value.split(','); break;
      case '--forecast-at-days': args.forecastAtDays = nums(value)[0]!; break;
      case '--merge': args.merge = value.split(','); break;
      case '--config':
        for (const kv of value.split(',')) {
          const [k, v] = kv.split('=');
          if (!k || v === undefined) throw new Error(`--config wants key=value pairs, got ${kv}\n${USAGE}`);
          args.config[k] = v === 'true' ? true : v === 'false' ? false : Number.isFinite(Number(v)) ? Number(v) : v;
        }
        args.write = false;
        break;
      case '--warmup-days': args.warmupDays = nums(value)[0]!; break;
      case '--measure-days': args.measureDays = nums(value)[0]!; break;
      case '--tail-days': args.tailDays = nums(value)[0]!; break;
      default: throw new Error(`unknown flag ${flag}\n${USAGE}`);
    }
  }
  return args;
}

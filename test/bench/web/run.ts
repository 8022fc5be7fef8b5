import { goal, writeReport, type ResultRow } from '../lib/results';
import { services } from './crawl';
import { feeds } from './feeds';
import { forums } from './forums';
import { editsViaSitemaps } from './edits';
import { conditionalGet, deletions, duplicates, traps } from './news';

/**
 * `npm run bench web`: news and forums monitored like a serious web crawler (issue 20), against
 * simsite. One row per goal of the issue, all from this run:
 * - conditional GET: daily revisits of a news site with edits (304 share, requests and bytes saved,
 *   unchanged pages not re-indexed, edits kept at daily revisits);
 * - edits: the shipped news-monitor.yaml (sitemaps and feed as subjects, Poisson), edits kept as versions;
 * - feeds: the RSS feed alone as the seed, Poisson scheduler, a clock stepped while freshet is idle;
 * - duplicates: tracking parameters, session ids (path and query), AMP copies, dot segments;
 * - traps: endless calendar, facets, repeating path;
 * - deletions and moves with 5xx and timeouts injected;
 * - forums: boards monitored with web_pages thread_lists.
 * `--seed N` (default 31: the tests use other seeds), `--only a,b` runs a subset.
 */
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i > 0 ? new Set(process.argv[i + 1]!.split(',')) : null;
})();
const run = (name: string): boolean => only === null || only.has(name);

async function main(): Promise<void> {
  const seed = arg('seed', 31);
  const params = {
    seed, revisit_rounds: 3, deletion_rounds: 4, feed: { step_secs: arg('step-secs', 30), warmup_hours: 6, measure_hours: 36, budget_per_hour: arg('feed-budget-per-hour', 180), articles_per_day: arg('feed-articles-per-day', 144), retire_after_quiet_hours: arg('feed-retire-after-quiet-hours', 0) },
    forums: { threads_per_board: 40, steps: 9, step_hours: 6 },
    edits: { step_secs: arg('edits-step-secs', 60), warmup_hours: 6, measure_hours: 24, budget_per_hour: 120, edit_share: 0.6 },
  };
  const svc = await services();
  const rows: ResultRow[] = [];
  const log = (what: string): void => void process.stderr.write(`[bench web] ${what}\n`);
  try {
    let cond = null;
    if (run('conditional')) {
      log('conditional GET and versions');
      cond = await conditionalGet(svc, seed, params.revisit_rounds);
      rows.push(...cond.rows);
    }
    let edits = null;
    if (run('edits')) {
      log('edits through sitemaps and feed');
      edits = await editsViaSitemaps(svc, seed, { stepSecs: params.edits.step_secs, warmupHours: params.edits.warmup_hours, measureHours: params.edits.measure_hours, budgetPerHour: params.edits.budget_per_hour });
      rows.push(...edits.rows);
    }
    let feed = null;
    if (run('feeds')) {
      log('feeds');
      feed = await feeds(svc, seed, { stepSecs: params.feed.step_secs, warmupHours: params.feed.warmup_hours, measureHours: params.feed.measure_hours, budgetPerHour: params.feed.budget_per_hour, articlesPerDay: params.feed.articles_per_day, retireAfterQuietHours: params.feed.retire_after_quiet_hours });
      rows.push(...feed.rows);
    }
    let dup = null;
    if (run('duplicates')) {
      log('duplicates');
      const a = await duplicates(svc, seed, 'path');
      const b = await duplicates(svc, seed, 'query');
      rows.push(...a.rows, ...b.rows);
      dup = a.duplicates + b.duplicates;
    }
    let trap = null;
    if (run('traps')) {
      log('traps');
      trap = await traps(svc, seed);
      rows.push(...trap.rows);
    }
    let gone = null;
    if (run('deletions')) {
      log('deletions');
      gone = await deletions(svc, seed, params.deletion_rounds);
      rows.push(...gone.rows);
    }
    let forum = null;
    if (run('forums')) {
      log('forums');
      forum = await forums(svc, seed, { threadsPerBoard: params.forums.threads_per_board, steps: params.forums.steps, stepHours: params.forums.step_hours });
      rows.push(...forum.rows);
    }
    writeReport('web', params, rows, [
      goal('revisits of unchanged pages answered 304 (share)', '>=', 0.95, cond?.notModifiedShare),
      goal('unchanged pages re-indexed', '<=', 0, cond?.unchangedReindexed),
      goal('feed: mean publication-to-index delay / feed poll interval', '<=', 0.6, feed?.delayOverInterval),
      goal('feed: new articles captured (share)', '>=', 0.995, feed?.captured),
      goal('duplicate or missing documents across tracking parameters, session ids and canonical variants', '<=', 0, dup),
      goal('trap site: pages fetched / real pages (crawl ends by itself)', '<=', 1.05, trap?.ratio),
      goal('trap site: real articles captured (share)', '>=', 1, trap?.captured),
      goal('article edits kept as versions with the right text and time (share; news-monitor.yaml: sitemaps and feed drive revisits)', '>=', 0.99, edits?.keptShare),
      goal('false deletion or move marks with 5xx and timeouts injected', '<=', 0, gone?.falseMarks),
      goal('forums: replies of the monitored boards indexed exactly once (share)', '>=', 1, forum?.exactlyOnce),
      goal('forums: fewer requests per revisit than re-reading whole threads (share)', '>=', 0.8, forum?.reduction),
    ], { note: 'simsite in-process on a manual clock (feeds: stepped while idle); seed 31 by default, the integration tests use seed 11' });
  } finally {
    await svc.close();
  }
}

main().catch((err: unknown) => {
  console.error(`bench web: ${(err as Error).stack ?? String(err)}`);
  process.exit(1);
});

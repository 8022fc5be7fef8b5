import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import type { RegisterCommand } from '../context';
import { firstStop } from '../signals';
import { FAULT_PRESETS, parseFaultSpec } from '../../simsite/fault-presets';
import { DEFAULT_LIFECYCLE, type LifecycleOptions } from '../../simsite/lifecycle';
import { ROBOTS_PRESETS } from '../../simsite/robots';
import { DEFAULT_SITE_OPTIONS } from '../../simsite/sites';
import { ERAS, type Era } from '../../simsite/weibo/era';
import { nonNegativeInt, positiveNumber } from '../options';

function positiveInt(value: string): number {
  const n = nonNegativeInt(value);
  if (n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function era(value: string): Era {
  if (!(ERAS as readonly string[]).includes(value)) throw new InvalidArgumentError(`one of ${ERAS.join(', ')}`);
  return value as Era;
}

function startTime(value: string): number {
  const ms = value === 'now' ? Date.now() : Date.parse(value);
  if (!Number.isFinite(ms)) throw new InvalidArgumentError('expected an ISO date or "now"');
  return ms;
}

interface SimsiteFlags {
  host: string;
  port: number;
  users: number;
  seed: number;
  speed: number;
  /** An ISO date or 'now'. */
  start: string;
  historyDays: number;
  zombieShare: number;
  articlesPerDay: number;
  diurnal?: boolean;
  era: Era;
  faults: string;
  robots: string;
  responseCacheMs: number;
  news: string;
  /** true (defaults) or a JSON LifecycleOptions. */
  lifecycle?: boolean | string;
  countFloors?: boolean;
  breakouts: number;
}

export const register: RegisterCommand = (program) => {
  program.command('simsite')
    .description('run the local simulated social site (microblog JSON API, Q&A API, forums, articles) with ground truth')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 = any free port)', nonNegativeInt, 8620)
    .option('--users <n>', 'number of simulated users', positiveInt, 1000)
    .option('--seed <n>', 'world seed: the same seed always gives the same users, graph and posts', nonNegativeInt, 1)
    .option('--speed <x>', 'simulated ms per real ms (3600 = one simulated hour per real second)', positiveNumber, 1)
    .option('--start <iso|now>', 'simulated time at startup; history is generated back from here (fix it to get the same posts on every run)', 'now')
    .option('--history-days <n>', 'days of posting history before --start', positiveNumber, 30)
    .option('--zombie-share <x>', 'share of near-inactive accounts with few followers', Number, 0.2)
    .option('--articles-per-day <n>', 'news articles published per simulated day (~17 KB pages)', positiveNumber, DEFAULT_SITE_OPTIONS.articlesPerDay)
    .option('--diurnal', 'modulate posting rates by time of day (peak 21:00 China time)')
    .option('--era <era>', `microblog API era: ${ERAS.join(' | ')} (dates, count typing, envelope)`, era, 'modern2022')
    .option('--faults <spec>', `fault presets, comma-separated (${Object.keys(FAULT_PRESETS).join(', ')}), a JSON FaultConfig, or @file.json`, 'none')
    .option('--robots <preset>', `robots.txt for every host: ${Object.keys(ROBOTS_PRESETS).join(' | ')}`, 'open')
    .option('--response-cache-ms <n>', 'reuse a rendered list page this long while its content is unchanged (0 = off)', nonNegativeInt, 10_000)
    .option('--news <spec>', 'news site parts, comma-separated: monitor (all), validators, sitemaps, edits[=share], deletes[=share], moves[=share], tracking, sessions=path|query, traps', 'none')
    .option('--lifecycle [json]', 'posts get deleted, removed, restricted and edited, some carry videos (defaults, or a JSON LifecycleOptions); truth at /_truth/deletions, /_truth/edits, /_truth/media')
    .option('--breakouts <n>', 'inject n topics that break out over the 2 days after --start (a new hashtag spreading through the follow graph); truth at /_truth/breakouts', nonNegativeInt, 0)
    .option('--count-floors', 'print counts of a million or more as "100万+" in every era')
    .addHelpText('after', `
Endpoints (see README "Simulated site"):
  microblog  /api/container/getIndex?type=uid&value=UID[&containerid=107603UID&page=N|since_id=ID]
             containerid=231051_-_fans_-_UID&since_id=N, /statuses/extend?id=MID, /comments/hotflow?id=MID
  Q&A        /api/v4/members/TOKEN[/followees|/followers]?include=&offset=&limit=
  forums     Discuz /forum/forum-FID-PAGE.html, /forum/thread-TID-PAGE-1.html; phpBB /phpbb/index.php,
             /phpbb/viewforum.php?f=, /phpbb/viewtopic.php?f=&t=&start=|?p=PID, /forum.php?mod=redirect&goto=lastpost&tid=
  news       /news/[?page=N|section=S], /news/ID.html (/news/amp/ID.html, /news/YYYY/MM/ID.html once moved),
             feeds /news/rss.xml|atom.xml|feed.json, sitemaps /sitemap.xml (index), /sitemap-news.xml,
             /sitemaps/news-YYYY-MM.xml.gz, /sitemaps/pages.xml, /sitemaps/forum.xml; with --news traps:
             /news/calendar/YYYY/MM/[DD/], facets /news/?sort=&view=&period=, /news/news/…
  scripted   /ajax/thread-TID.html (posts loaded by script from /ajax/api/thread/TID/posts; for fetch.render)
  truth      /_truth/world, /_truth/users, /_truth/posts?user=UID[&since=&until=], /_truth/comments?post=MID,
             /_truth/forum/boards|threads|posts?thread=TID, /_truth/articles, /_truth/ajax/posts?thread=TID,
             /_truth/news/articles (versions, deleted, moved), /_truth/news/pages (the real pages),
             /_truth/requests?client=ID, /_truth/deletions|edits|media[?uid=UID] (with --lifecycle),
             /_truth/breakouts (with --breakouts: start, hashtag, mix and post ids of each break-out),
             /_truth/requests/summary (rows as JSON arrays, or NDJSON with &format=ndjson)
  control    POST /_control/faults (JSON FaultConfig), POST /_control/robots?host=H (body = robots.txt),
             POST /_control/clock {"advanceMs":N,"speed":X} (jump ahead / re-gear; never back)
Clients are told apart by the x-client-id header (else the SUB cookie, else ?client_id=, else the remote address).
/_truth/requests/politeness?client=ID reports request gaps, Retry-After violations and backoff after rate limits.`)
    .action(async (flags: SimsiteFlags) => {
      const { createWorld, defaultBreakouts, parseNewsSpec, startSimsite } = require('../../simsite') as typeof import('../../simsite');
      const faultSpec = flags.faults.startsWith('@') ? readFileSync(flags.faults.slice(1), 'utf8') : flags.faults;
      const robots = (ROBOTS_PRESETS as Record<string, string>)[flags.robots];
      if (robots === undefined) throw new Error(`unknown robots preset "${flags.robots}"`);
      const t0 = Date.now();
      const world = createWorld({
        seed: flags.seed, users: flags.users, startMs: startTime(flags.start), historyDays: flags.historyDays,
        zombieShare: flags.zombieShare, diurnal: flags.diurnal ?? false,
        lifecycle: lifecycleOf(flags.lifecycle),
        ...(flags.breakouts > 0 ? { breakouts: defaultBreakouts(startTime(flags.start), 2, flags.breakouts) } : {}),
      });
      const site = await startSimsite({
        world, host: flags.host, port: flags.port, speed: flags.speed, faults: parseFaultSpec(faultSpec),
        robots: { '*': robots }, weibo: { era: flags.era, responseCacheMs: flags.responseCacheMs, countFloors: flags.countFloors ?? false },
        sites: { articlesPerDay: flags.articlesPerDay, news: parseNewsSpec(flags.news) },
      });
      const sample = world.users.find((u) => !u.zombie) ?? world.users[0]!;
      console.log(`simsite listening on ${site.url} (${flags.users} users, seed ${flags.seed}, speed ${flags.speed}, era ${flags.era}, built in ${Date.now() - t0} ms)`);
      console.log(`  try: curl '${site.url}/api/container/getIndex?type=uid&value=${sample.uid}'`);
      console.log(`  truth: ${site.url}/_truth/world`);
      await firstStop();
      await site.close();
    });
};

/** `--lifecycle` alone: the default shares; with a value: a JSON LifecycleOptions (unknown keys are errors). */
function lifecycleOf(flag: boolean | string | undefined): LifecycleOptions | null {
  if (flag === undefined || flag === false) return null;
  if (flag === true) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(flag);
  } catch {
    throw new Error(`--lifecycle: not JSON: ${flag}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('--lifecycle: expected a JSON object');
  const unknown = Object.keys(parsed).filter((k) => !(k in DEFAULT_LIFECYCLE));
  if (unknown.length > 0) throw new Error(`--lifecycle: unknown key(s) ${unknown.join(', ')} (known: ${Object.keys(DEFAULT_LIFECYCLE).join(', ')})`);
  return parsed as LifecycleOptions;
}

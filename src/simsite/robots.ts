/** robots.txt bodies, chosen per Host header; `*` is the fallback for hosts not listed. */
export type RobotsConfig = Record<string, string>;

export const ROBOTS_PRESETS = {
  /** Lets a polite crawler fetch every site path, but never the truth and control endpoints. */
  open: 'User-agent: *\nDisallow: /_truth/\nDisallow: /_control/\nDisallow: /signin/\n',
  /** What the microblog site is assumed to serve (spec §4): everything disallowed. */
  microblog: 'User-agent: *\nDisallow: /\n',
  /** Discuz! X3 defaults (spec §4): thread pages allowed. */
  discuz: [
    'User-agent: *', 'Disallow: /api/', 'Disallow: /data/', 'Disallow: /source/', 'Disallow: /install/',
    'Disallow: /template/', 'Disallow: /config/', 'Disallow: /uc_client/', 'Disallow: /uc_server/', 'Disallow: /static/',
    'Disallow: /admin.php', 'Disallow: /search.php', 'Disallow: /member.php', 'Disallow: /api.php', 'Disallow: /misc.php',
    'Disallow: /connect.php', 'Disallow: /forum.php?mod=redirect*', 'Disallow: /forum.php?mod=post*',
    'Disallow: /home.php?mod=spacecp*', 'Disallow: /userapp.php?mod=app&*', 'Disallow: /*?mod=misc*',
    'Disallow: /*?mod=attachment*', 'Disallow: /*mobile=yes*', 'Disallow: /_truth/', 'Disallow: /_control/', '',
  ].join('\n'),
} as const;

export const DEFAULT_ROBOTS: RobotsConfig = { '*': ROBOTS_PRESETS.open };

export function robotsFor(config: RobotsConfig, host: string): string | null {
  return config[host] ?? config['*'] ?? null;
}

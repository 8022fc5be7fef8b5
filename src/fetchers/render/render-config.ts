import { z } from 'zod';
import { regexString } from '../../core/regex-string';
import { timerMs } from '../../core/timers';

/** Resource types a renderer can skip without changing the page's text. */
export const BLOCKABLE_RESOURCES = ['image', 'font', 'media', 'stylesheet'] as const;

/**
 * `fetch.render`: pages whose URL matches a pattern are rendered by headless Chromium (for content
 * loaded by scripts); every other URL keeps the plain HTTP fetch. Never on unless listed here.
 */
export const renderConfigSchema = z.strictObject({
  /** URLs matching any of these regular expressions are rendered (JSON requests never are). */
  url_patterns: z.array(regexString).min(1),
  /** Debian's chromium (scripts/lib/ensure-chromium.sh installs it). */
  executable_path: z.string().min(1).default('/usr/bin/chromium'),
  /** Pages rendering at once: each holds a credit, the rest wait. */
  max_pages: z.number().int().min(1).max(64).default(2),
  /** Whole budget of one render (navigation, waits, reading the DOM); past it the page counts as hung. */
  page_timeout_ms: timerMs(100).default(20_000),
  /** What "rendered" means: the load event, then each condition given, in this order. */
  wait: z.strictObject({
    until: z.enum(['load', 'domcontentloaded']).default('load'),
    /** A CSS selector that must be present in the DOM. */
    selector: z.string().min(1).optional(),
    /** No request in flight for `network_idle_ms`. */
    network_idle: z.boolean().default(false),
    network_idle_ms: timerMs(0).default(500),
    /** A fixed pause before the DOM is read. */
    delay_ms: timerMs(0).default(0),
  }).prefault({}),
  /** Resource types never requested (counted as blocked). */
  block_resources: z.array(z.enum(BLOCKABLE_RESOURCES)).default(['image', 'font', 'media']),
  /** A fresh browser (and profile) after this many pages, which bounds what a long crawl leaks. */
  pages_per_browser: z.number().int().min(1).default(1_000),
  launch_timeout_ms: timerMs(1_000).default(30_000),
  /** Chromium flags added to the built-in ones. */
  extra_args: z.array(z.string().regex(/^--[a-z0-9-]+(=.*)?$/, 'a --flag')).default([]),
});

export type RenderConfig = z.infer<typeof renderConfigSchema>;
export type RenderConfigInput = z.input<typeof renderConfigSchema>;

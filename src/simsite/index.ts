/** simsite: a seeded, local imitation of a microblog, a Q&A site, forums and news pages, with ground truth. */

// The world and the server.
export { createWorld, World, DEFAULT_START_MS, type WorldOptions } from './world';
export { defaultBreakouts, spreadBreakout, type BreakoutPost, type BreakoutSpec } from './breakouts';
export { startSimsite, type SimsiteHandle, type SimsiteOptions } from './server';
export { AcceleratedClock } from './clock';
export { diurnalFactor, DEFAULT_DIURNAL, type DiurnalOptions } from './posting';
export { DEFAULT_LIFECYCLE, Lifecycle, type LifecycleOptions, type PostLife, type GoneKind } from './lifecycle';
export type { SimUser } from './users';
export type { SimPost } from './posts';
export { findPostByMid } from './posts';

// Site options.
export { ERAS, type Era } from './weibo/era';
export { DEFAULT_WEIBO_OPTIONS, type WeiboOptions } from './weibo/routes';
export { DEFAULT_SITE_OPTIONS, type SiteOptions, type SiteOptionsInput } from './sites';
export type { QaOptions } from './qa';
export { DEFAULT_NEWS_OPTIONS, parseNewsSpec, type NewsOptions } from './pages/news-lifecycle';
export { ROBOTS_PRESETS, type RobotsConfig } from './robots';

// Faults.
export type { FaultConfig, FaultDecision, SoftErrorKind } from './faults';
export { FAULT_PRESETS, mergeFaults, parseFaultSpec } from './fault-presets';

// Ground truth and the request log.
export { truthPost, truthPostsOf, truthAllPosts, truthUser, truthComments, type TruthPost, type TruthUser } from './truth';
export { forumPostTruth, forumThreadTruth, articleTruth } from './pages/truth';
export { newsArticleTruth, newsPageTruth } from './pages/web-truth';
export { truthDeletions, truthEdits, truthMedia, type TruthDeletion, type TruthEdit, type TruthMedia } from './monitoring-truth';
export { RequestLog, type RequestLogEntry, type ClientSummary } from './request-log';
export { politeness, type PolitenessReport } from './politeness';

// Formats, for comparing what a crawler parsed with the truth.
export { makeMid, parseMid, midToBid, bidToMid } from './ids';
export { absoluteDate, relativeDate, countString } from './format';

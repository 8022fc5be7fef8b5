/** simsite: a seeded, local imitation of a microblog, a Q&A site, forums and news pages, with ground truth. */
export { createWorld, World, DEFAULT_START_MS, type WorldOptions } from './world';
export { startSimsite, type SimsiteHandle, type SimsiteOptions } from './server';
export { AcceleratedClock } from './clock';
export type { FaultConfig } from './faults';
export type { RequestLogEntry, ClientSummary } from './request-log';
export { RequestLog } from './request-log';
export type { SimUser } from './users';
export type { SimPost } from './posts';
export { findPostByMid } from './posts';
export { truthPost, truthPostsOf, truthAllPosts, truthUser, type TruthPost, type TruthUser } from './truth';
export { ERAS, type Era } from './weibo/era';
export { DEFAULT_WEIBO_OPTIONS, type WeiboOptions } from './weibo/routes';
export { ROBOTS_PRESETS, type RobotsConfig } from './robots';
export { makeMid, parseMid, midToBid, bidToMid } from './ids';
export { absoluteDate, relativeDate, countString } from './format';
export { FAULT_PRESETS, mergeFaults, parseFaultSpec } from './fault-presets';
export { politeness, type PolitenessReport } from './politeness';
export { diurnalFactor, DEFAULT_DIURNAL, type DiurnalOptions } from './posting';

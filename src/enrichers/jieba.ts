import { createRequire } from 'node:module';
import type * as JiebaModule from '@node-rs/jieba';
import type * as JiebaDict from '@node-rs/jieba/dict';

/**
 * jieba's native module and its dictionaries (~17 MiB) load on first use, not with the stage
 * modules: a thread that never segments text (the main thread of a pipeline whose stages run on
 * page worker threads, a JSON crawl without these stages) never holds them.
 */
const load = createRequire(__filename);

export const jiebaModule = (): typeof JiebaModule => load('@node-rs/jieba') as typeof JiebaModule;
export const jiebaDicts = (): typeof JiebaDict => load('@node-rs/jieba/dict') as typeof JiebaDict;

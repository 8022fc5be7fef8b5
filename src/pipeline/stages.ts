import { z } from 'zod';
import type { StageDefinition } from '../core/stage';
import { languageStage } from '../enrichers/language';
import { sentimentStage } from '../enrichers/sentiment';
import { keywordsStage } from '../enrichers/keywords';
import { simhashStage } from '../enrichers/simhash';
import { contentSignatureStage } from '../enrichers/content-signature';
import { matchStage } from '../filters/match';
import { textDensityStage } from '../extractors/text-density-stage';

/**
 * Every document stage a pipeline's `stages:` list may name, in the order `--help` and the JSON
 * Schema list them. Add a stage: one file in its kind's folder, one entry here.
 */
export const documentStages = [textDensityStage, languageStage, sentimentStage, keywordsStage, simhashStage, matchStage, contentSignatureStage] as const;

type SchemasOf<T extends readonly { schema: z.ZodType }[]> = { -readonly [K in keyof T]: T[K]['schema'] };

/** The `stages:` entry schema: one strict schema per stage type, told apart by `type`. */
export const documentStageSchema = z.discriminatedUnion('type', documentStages.map((s) => s.schema) as SchemasOf<typeof documentStages>);
export type DocumentStageConfig = z.infer<typeof documentStageSchema>;

export function stageDefinition(type: string): StageDefinition {
  const def = documentStages.find((s) => s.type === type);
  if (!def) throw new Error(`unknown stage type ${type}`);
  return def as unknown as StageDefinition;
}

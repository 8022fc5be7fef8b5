import { z } from 'zod';
import type { StageDefinition } from '../core/stage';
import { languageStage } from '../enrichers/language';
import { sentimentStage } from '../enrichers/sentiment';
import { keywordsStage } from '../enrichers/keywords';
import { simhashStage } from '../enrichers/simhash';
import { contentSignatureStage } from '../enrichers/content-signature';
import { matchStage } from '../filters/match';
import { textDensityStage } from '../extractors/text-density-stage';

/** Every document stage a pipeline's `stages:` list may name. Add a stage: one file, one entry. */
export const documentStages = [textDensityStage, languageStage, sentimentStage, keywordsStage, simhashStage, matchStage, contentSignatureStage] as const;

export const documentStageSchema = z.discriminatedUnion('type', [
  textDensityStage.schema, languageStage.schema, sentimentStage.schema, keywordsStage.schema, simhashStage.schema, matchStage.schema, contentSignatureStage.schema,
]);
export type DocumentStageConfig = z.infer<typeof documentStageSchema>;

export function stageDefinition(type: string): StageDefinition {
  const def = documentStages.find((s) => s.type === type);
  if (!def) throw new Error(`unknown stage type ${type}`);
  return def as unknown as StageDefinition;
}

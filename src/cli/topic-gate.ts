import { topicOpinion, type TopicOpinion } from '../alerts/topics';
import { loadPipeline } from '../pipeline/load';

/**
 * How the pipeline that labelled the posts gated its zh calls (its sentiment stage's `model_dir`
 * and `zh_no_opinion_below`), so a topic's sentiment mix reads the labels the way they were made.
 * Without a pipeline: the shipped models and the stage's defaults.
 */
export function topicGateOf(file: string | undefined, vars: Record<string, string | undefined>): TopicOpinion {
  if (file === undefined) return topicOpinion();
  const config = loadPipeline(file, vars);
  const stage = config.stages.find((s) => s.type === 'sentiment');
  if (!stage || stage.type !== 'sentiment') throw new Error(`--pipeline ${file}: no sentiment stage, so its posts carry no labels to mix`);
  return topicOpinion({ model_dir: stage.model_dir, zh_no_opinion_below: stage.zh_no_opinion_below });
}

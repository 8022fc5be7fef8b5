import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topicGateOf } from '../../../src/cli/topic-gate';
import { ZH_NO_OPINION_BELOW } from '../../../src/enrichers/sentiment/neutral';

const demo = readFileSync(join(__dirname, '../../../pipelines/demo.yaml'), 'utf8');

function pipelineFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'topic-gate-'));
  const file = join(dir, 'p.yaml');
  writeFileSync(file, text);
  return file;
}

describe('topicGateOf', () => {
  it("reads the pipeline's sentiment stage gate, not the default", () => {
    const file = pipelineFile(demo.replace('- { type: sentiment }', '- { type: sentiment, zh_no_opinion_below: 0.7 }'));
    expect(topicGateOf(file, {}).below).toBe(0.7);
  });

  it("reads the words from the stage's model_dir", () => {
    const models = mkdtempSync(join(tmpdir(), 'topic-gate-models-'));
    writeFileSync(join(models, 'zh-opinion-words.txt'), '');
    const file = pipelineFile(demo.replace('- { type: sentiment }', `- { type: sentiment, model_dir: "${models}", zh_no_opinion_below: 0 }`));
    const gate = topicGateOf(file, {});
    expect(gate.below).toBe(0);
    expect(gate.words()).toBeDefined();
  });

  it('takes the stage default when the pipeline does not set one, and the default without a pipeline', () => {
    expect(topicGateOf(pipelineFile(demo), {}).below).toBe(ZH_NO_OPINION_BELOW);
    expect(topicGateOf(undefined, {}).below).toBe(ZH_NO_OPINION_BELOW);
  });

  it('says so when the pipeline has no sentiment stage', () => {
    const file = pipelineFile(demo.replace(/ *- { type: sentiment }\n/, ''));
    expect(() => topicGateOf(file, {})).toThrow(/no sentiment stage/);
  });
});

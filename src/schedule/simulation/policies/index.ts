/** The selectable policies, by the names pipelines, the CLI and the benchmark use. */
import { FreshetPolicy } from './freshet';
import { OraclePolicy } from './oracle';
import type { PolicyContext, SchedulingPolicy } from './policy';
import { SeedHeuristicPolicy } from './seed-heuristic';
import { UniformPolicy } from './uniform';

export const POLICY_NAMES = [
  'freshet', 'freshet-diurnal', 'freshet-freshness', 'oracle', 'oracle-diurnal', 'oracle-current', 'uniform', 'seed-heuristic',
] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

export function isPolicyName(name: string): name is PolicyName {
  return (POLICY_NAMES as readonly string[]).includes(name);
}

export function createPolicy(name: PolicyName, ctx: PolicyContext): SchedulingPolicy {
  switch (name) {
    case 'freshet':
      return new FreshetPolicy({ ...ctx, config: { ...ctx.config, timeOfDay: false, objective: 'delay' } }, name);
    case 'freshet-diurnal':
      return new FreshetPolicy({ ...ctx, config: { ...ctx.config, timeOfDay: true, objective: 'delay' } }, name);
    case 'freshet-freshness':
      return new FreshetPolicy({ ...ctx, config: { ...ctx.config, timeOfDay: false, objective: 'freshness' } }, name);
    case 'oracle':
      return new OraclePolicy(ctx, { useProfiles: false });
    case 'oracle-diurnal':
      return new OraclePolicy(ctx, { useProfiles: true });
    case 'oracle-current':
      return new OraclePolicy(ctx, { useProfiles: true, current: true });
    case 'uniform':
      return new UniformPolicy(ctx);
    case 'seed-heuristic':
      return new SeedHeuristicPolicy(ctx);
  }
}

export type { PolicyContext, SchedulingPolicy } from './policy';

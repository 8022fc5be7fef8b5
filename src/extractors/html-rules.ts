/**
 * The `html_rules` extractor: per-site declarative rules (URL patterns select a rule set;
 * fields by CSS selector with regex post-processing; list fields for one document per post;
 * pagination and out-link selectors). Rule sets come from the pipeline file and are validated
 * with `parseRuleSets`; `forumRuleSets()` are the built-in Discuz and phpBB ones.
 */
export { applyRules, applyRuleSet, selectRuleSet, type FieldValue, type RulesResult } from './rules/apply';
export { forumRuleSets } from './rules/forums';
export { parseRuleSets, ruleSetSchema, ruleSetsSchema, type Field, type FieldRule, type RuleSet, type RuleSetInput } from './rules/schema';

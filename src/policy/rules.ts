// The policy evaluates compiled rules only, compiled by the one rule grammar (recipe/rules.ts)
// that validate uses too.
export { compileRule, formatRule, ruleAppliesTo, ruleProblem, ruleWhere, type CompiledRule } from '../recipe/rules.js';
import { ruleProblem } from '../recipe/rules.js';
import type { PolicyRule } from '../recipe/types.js';

/** For recipe validation: why the rule cannot be used, or null. */
export function checkRule(rule: PolicyRule): string | null {
  return ruleProblem(rule.tool, rule.pattern);
}

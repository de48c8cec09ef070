/** Valibot's issues as the one-line errors tune2048 prints (configs of runs and of learning). */
import type * as v from 'valibot';

/**
 * The first problem valibot found as "field "a.b": message" (unknown keys named together, as
 * "unknown key(s) "x", "y"", like the config errors before valibot).
 */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  const pathOf = (i: v.BaseIssue<unknown>) => (i.path ?? []).map((p) => String(p.key));
  const where = (p: string[]) => (p.length > 0 ? `field "${p.join('.')}"` : 'top level');
  const isUnknownKey = (i: v.BaseIssue<unknown>) => i.type === 'strict_object' && i.expected === 'never';
  const issue = issues[0];
  const path = pathOf(issue);
  if (isUnknownKey(issue)) {
    const parent = path.slice(0, -1);
    const keys = issues.filter((i) => isUnknownKey(i) && pathOf(i).slice(0, -1).join('.') === parent.join('.')).map((i) => `"${pathOf(i).at(-1)}"`);
    return `${where(parent)}: unknown key(s) ${keys.join(', ')}`;
  }
  if (issue.type === 'strict_object' && issue.input === undefined) return `${where(path)}: missing`;
  // valibot's own messages start "Invalid type: Expected …"; ours (checks) are sentences of their own.
  const own = !/^Invalid \w+: /.test(issue.message);
  return `${where(path)}: ${own ? issue.message : `invalid input: expected ${issue.expected === 'Object' ? 'object' : issue.expected}, received ${issue.received}`}`;
}

/** Valibot's issues as the one-line errors tune2048 prints (configs of runs and of learning). */
import { closest, distance } from 'fastest-levenshtein';
import type * as v from 'valibot';

/**
 * The first problem valibot found as "field "a.b": message" (unknown keys named together, as
 * "unknown key(s) "x", "y"", like the config errors before valibot; given the schema, a mistyped key
 * gets the known one it is closest to: "generatons" → did you mean "generations"?).
 */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[], schema?: unknown): string {
  const pathOf = (i: v.BaseIssue<unknown>) => (i.path ?? []).map((p) => String(p.key));
  const where = (p: string[]) => (p.length > 0 ? `field "${p.join('.')}"` : 'top level');
  const isUnknownKey = (i: v.BaseIssue<unknown>) => i.type === 'strict_object' && i.expected === 'never';
  const issue = issues[0];
  const path = pathOf(issue);
  if (isUnknownKey(issue)) {
    const parent = path.slice(0, -1);
    const keys = issues.filter((i) => isUnknownKey(i) && pathOf(i).slice(0, -1).join('.') === parent.join('.')).map((i) => `"${pathOf(i).at(-1)}"`);
    const known = schema === undefined ? null : keysAt(schema, parent);
    const guess = known && known.length > 0 ? didYouMean(String(pathOf(issue).at(-1)), known) : '';
    return `${where(parent)}: unknown key(s) ${keys.join(', ')}${guess}`;
  }
  if (issue.type === 'strict_object' && issue.input === undefined) return `${where(path)}: missing`;
  // valibot's own messages start "Invalid type: Expected …"; ours (checks) are sentences of their own.
  const own = !/^Invalid \w+: /.test(issue.message);
  return `${where(path)}: ${own ? issue.message : (checkMessage(issue) ?? `invalid input: expected ${issue.expected === 'Object' ? 'object' : issue.expected}, received ${issue.received}`)}`;
}

/** A failed check (a whole number, a bound) in words: valibot gives no `expected` type for these ("expected null"). */
function checkMessage(issue: v.BaseIssue<unknown>): string | null {
  const bound = issue.requirement;
  const got = issue.received;
  switch (issue.type) {
    case 'integer':
      return `must be a whole number, received ${got}`;
    case 'min_value':
      return `must be at least ${bound}, received ${got}`;
    case 'max_value':
      return `must be at most ${bound}, received ${got}`;
    case 'gt_value':
      return `must be greater than ${bound}, received ${got}`;
    case 'lt_value':
      return `must be less than ${bound}, received ${got}`;
    case 'min_length':
      return `must have at least ${bound} item(s) or character(s), received ${got}`;
    default:
      return issue.expected === null ? issue.message.replace(/^Invalid (\w+): /, (_m, what: string) => `invalid ${what}: `) : null;
  }
}

/** " (did you mean "x"?)" when one of `known` is a likely typo of `word` (at most a third of it changed), else "". */
export function didYouMean(word: string, known: readonly string[]): string {
  if (known.length === 0) return '';
  const best = closest(word, known as string[]);
  return distance(word, best) <= Math.max(1, Math.floor(best.length / 3)) ? ` (did you mean "${best}"?)` : '';
}

/** The keys an object schema knows at a path (through optional and piped wrappers, arrays, and the options of a variant together), or null. */
function keysAt(schema: unknown, path: readonly string[]): string[] | null {
  type Node = { entries?: Record<string, unknown>; wrapped?: unknown; item?: unknown; options?: unknown[]; pipe?: unknown[] } | undefined;
  const unwrap = (s: Node): Node => {
    for (let hops = 0; s && !s.entries && hops < 16; hops++) {
      if (s.options) return { entries: Object.assign({}, ...s.options.map((o) => unwrap(o as Node)?.entries ?? {})) };
      const inner = s.wrapped ?? s.pipe?.find((p) => p !== s && !!((p as Node)?.entries || (p as Node)?.options || (p as Node)?.wrapped));
      if (!inner) return s;
      s = inner as Node;
    }
    return s;
  };
  let node = unwrap(schema as Node);
  for (const key of path) {
    node = unwrap((/^\d+$/.test(key) && node?.item ? node.item : node?.entries?.[key]) as Node);
    if (!node) return null;
  }
  return node?.entries ? Object.keys(node.entries) : null;
}

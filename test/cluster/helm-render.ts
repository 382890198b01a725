// The subset of Helm's Go templates the chart uses, rendered for tests (helm itself is not installable here):
// {{ .Values.x }} / .Release.* / .Chart.*, pipes `quote` and `nindent N`, `toYaml`, `join "sep" list`,
// if / if not / else / end, range over a list with {{ . }}, and {{- -}} whitespace trimming. Anything else throws.
import { stringify } from 'yaml';

type Scope = Record<string, unknown>;
type Node = { text: string } | { expr: string } | { if: string; then: Node[]; else: Node[] } | { range: string; body: Node[] };

function tokenize(src: string): (string | { action: string })[] {
  const out: (string | { action: string })[] = [];
  const re = /\{\{(-?)\s*(.*?)\s*(-?)\}\}/gs;
  let last = 0;
  let trimNext = false;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    let text = src.slice(last, m.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (m[1] === '-') text = text.replace(/\s+$/, '');
    out.push(text, { action: m[2] ?? '' });
    trimNext = m[3] === '-';
    last = re.lastIndex;
  }
  let tail = src.slice(last);
  if (trimNext) tail = tail.replace(/^\s+/, '');
  out.push(tail);
  return out;
}

function parse(tokens: (string | { action: string })[], pos: { i: number }, stopAt: string[]): { nodes: Node[]; stop: string } {
  const nodes: Node[] = [];
  while (pos.i < tokens.length) {
    const t = tokens[pos.i++];
    if (typeof t === 'string') {
      if (t) nodes.push({ text: t });
      continue;
    }
    const a = t?.action ?? '';
    if (stopAt.includes(a)) return { nodes, stop: a };
    if (a.startsWith('if ')) {
      const then = parse(tokens, pos, ['else', 'end']);
      const other = then.stop === 'else' ? parse(tokens, pos, ['end']).nodes : [];
      nodes.push({ if: a.slice(3), then: then.nodes, else: other });
    } else if (a.startsWith('range ')) {
      nodes.push({ range: a.slice(6), body: parse(tokens, pos, ['end']).nodes });
    } else {
      nodes.push({ expr: a });
    }
  }
  if (stopAt.length > 0) throw new Error(`template: missing {{ ${stopAt.join(' / ')} }}`);
  return { nodes, stop: '' };
}

function lookup(path: string, scope: Scope, dot: unknown): unknown {
  if (path === '.') return dot;
  if (!path.startsWith('.')) throw new Error(`template: unsupported operand ${path}`);
  return path
    .slice(1)
    .split('.')
    .reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), scope);
}

function truthy(v: unknown): boolean {
  return !(v === undefined || v === null || v === false || v === '' || v === 0 || (Array.isArray(v) && v.length === 0));
}

function operand(term: string, scope: Scope, dot: unknown): unknown {
  const words = term.trim().match(/"[^"]*"|\S+/g) ?? [];
  const [head, ...args] = words;
  if (head === 'not' && args.length === 1) return !truthy(lookup(args[0] ?? '', scope, dot));
  if (head === 'toYaml' && args.length === 1) return stringify(lookup(args[0] ?? '', scope, dot)).trimEnd();
  if (head === 'join' && args.length === 2) return (lookup(args[1] ?? '', scope, dot) as unknown[]).join(JSON.parse(args[0] ?? '""') as string);
  if (args.length > 0 || !head) throw new Error(`template: unsupported expression ${term}`);
  return lookup(head, scope, dot);
}

function evaluate(expr: string, scope: Scope, dot: unknown): unknown {
  const [first, ...pipes] = expr.split('|');
  let v = operand(first ?? '', scope, dot);
  for (const pipe of pipes) {
    const [fn, arg] = pipe.trim().split(/\s+/);
    if (fn === 'quote') v = JSON.stringify(String(v));
    else if (fn === 'nindent') v = `\n${String(v).replace(/^/gm, ' '.repeat(Number(arg)))}`;
    else throw new Error(`template: unsupported function ${fn}`);
  }
  return v;
}

function run(nodes: Node[], scope: Scope, dot: unknown): string {
  return nodes
    .map((n) => {
      if ('text' in n) return n.text;
      if ('expr' in n) {
        const v = evaluate(n.expr, scope, dot);
        if (v === undefined || v === null) throw new Error(`template: ${n.expr} has no value`);
        return String(v);
      }
      if ('if' in n) return run(truthy(evaluate(n.if, scope, dot)) ? n.then : n.else, scope, dot);
      const list = evaluate(n.range, scope, dot);
      if (!Array.isArray(list)) return '';
      return list.map((item) => run(n.body, scope, item)).join('');
    })
    .join('');
}

/** Renders one template file with Helm's top-level objects (.Values, .Release, .Chart). */
export function renderTemplate(src: string, scope: Scope): string {
  return run(parse(tokenize(src), { i: 0 }, []).nodes, scope, scope);
}

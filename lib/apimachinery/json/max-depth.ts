// How deeply a request body may nest. Go's scanner refuses JSON nested more than 10000 levels (`exceeded max depth`);
// our decoders, patchers and the YAML library recurse, so bodies stop earlier, with Go's texts (a listed difference).

/** Most nested objects/arrays a JSON body may open (Go's encoding/json: 10000). */
export const MAX_NESTING_DEPTH = 1000;

/** Most levels a YAML body may nest, as estimated below (yaml.v2: 10000; the `yaml` library overflows near 400). */
export const MAX_YAML_DEPTH = 200;

/** Go's scanner context when a value opens one level too many (`invalid character '[' exceeded max depth`). */
export const EXCEEDED_MAX_DEPTH = 'exceeded max depth';

/** True when valid JSON `text` nests deeper than MAX_NESTING_DEPTH (strings skipped; iterative, so any depth is safe). */
export function jsonNestsTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_NESTING_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** Indentation, `- ` and `? ` indicators each count as a level (an over-estimate for block YAML). */
const YAML_LINE_LEVELS = /^ *|[-?](?= |$)/g;

/**
 * yaml.v2's depth error (`yaml: line N: exceeded max depth of 200`) for YAML that may nest deeper than
 * MAX_YAML_DEPTH, else undefined. The estimate never counts low: flow brackets (quotes ignored), plus each
 * line's indentation and block indicators. The `yaml` library recurses per level and can even abort the
 * process when it overflows the stack while compiling a regular expression, so it must not see such input.
 */
export function yamlNestingError(text: string): string | undefined {
  let flow = 0;
  let line = 0;
  for (const content of text.split('\n')) {
    line++;
    let block = 0;
    for (const m of content.matchAll(YAML_LINE_LEVELS))
      block += m[0].length === 0 ? 0 : m[0] === '-' || m[0] === '?' ? 1 : m[0].length;
    let deepest = flow;
    for (let i = 0; i < content.length; i++) {
      const c = content.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++flow);
      else if ((c === 0x7d || c === 0x5d) && flow > 0) flow--;
    }
    if (block + deepest > MAX_YAML_DEPTH) return `yaml: line ${line}: exceeded max depth of ${MAX_YAML_DEPTH}`;
  }
  return undefined;
}

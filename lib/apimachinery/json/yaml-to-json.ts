// YAML → JSON text as Kubernetes' YAML serializer does it (sigs.k8s.io/yaml on gopkg.in/yaml.v2), with yaml.v2's strict duplicate-key errors.
import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  type Node as YamlNode,
  type Tags,
  type YAMLError,
} from 'yaml';
import { goQuote } from '../field/errors';
import { yamlNestingError } from './max-depth';
import { yamlAliasError } from './yaml-aliases';
import { applyGoYamlTypes } from './yaml-go-values';

/** A YAML body that does not parse (the message is the `yaml` library's). */
export class YamlSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlSyntaxError';
  }
}

export interface YamlConversion {
  /** The document as JSON text; a repeated key keeps its last value, as yaml.v2's lenient decoding does. */
  json: string;
  /**
   * yaml.v2 UnmarshalStrict's error for repeated keys, `yaml: unmarshal errors:\n  line 5: key "name" already set in map`,
   * or undefined (also when not asked for). Kubernetes reports it whole as one strict decoding error.
   */
  duplicateKeysError: string | undefined;
}

// gopkg.in/yaml.v2 yaml.go TypeError.Error() (items indented by two spaces); sigs.k8s.io/yaml YAMLToJSONStrict returns it unwrapped.
export const YAML_UNMARSHAL_ERRORS = 'yaml: unmarshal errors:\n';

/**
 * yaml.v2 resolves plain scalars by YAML 1.1 rules (`yes`/`on` are booleans, `010` is octal) but leaves
 * timestamps and base-60 numbers as strings when decoding into interface{}.
 */
const goYamlTags = (tags: Tags): Tags =>
  tags.filter(
    (tag) => typeof tag === 'string' || !(tag.tag === 'tag:yaml.org,2002:timestamp' || tag.format === 'TIME'),
  );

/** yaml.v2's text for the errors whose wording is known (a tab indenting a line); the `yaml` library's otherwise. */
function goSyntaxErrorText(error: YAMLError): string {
  if (error.code === 'TAB_AS_INDENT' && error.linePos)
    return `yaml: line ${error.linePos[0].line}: found character that cannot start any token`;
  return error.message;
}

/** Go's `%#v` of a decoded YAML key. */
function goSyntax(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (value === null || value === undefined) return '<nil>';
  return String(value);
}

/**
 * The `line N: key K already set in map` items, in yaml.v2's order: a mapping's value is decoded (and its
 * own repeats reported) before its key is checked; N is the line of the repeated key's value.
 */
function collectDuplicateKeys(node: YamlNode | null | undefined, lines: LineCounter, out: string[]): void {
  if (isSeq(node)) {
    for (const item of node.items) collectDuplicateKeys(item as YamlNode, lines, out);
    return;
  }
  if (!isMap(node)) return;
  const seen = new Set<string>();
  for (const pair of node.items) {
    if (!isPair(pair)) continue;
    const value = pair.value as YamlNode | null;
    collectDuplicateKeys(value, lines, out);
    if (!isScalar(pair.key)) continue; // a collection key, which yaml.v2 refuses (yaml-go-values.ts)
    const key = pair.key.value;
    if (typeof key === 'symbol') continue; // the `<<` merge key, which yaml.v2 merges rather than sets
    const identity = `${typeof key}:${String(key)}`;
    if (!seen.has(identity)) {
      seen.add(identity);
      continue;
    }
    const offset = value?.range?.[0] ?? (pair.key as YamlNode | null)?.range?.[0] ?? 0;
    out.push(`line ${lines.linePos(offset).line}: key ${goSyntax(key)} already set in map`);
  }
}

/**
 * What sigs.k8s.io/yaml's json.Marshal makes of yaml.v2's values: `!!binary` decodes to the string of its bytes, and
 * `.inf`/`.nan` have no JSON form (`json: unsupported value: +Inf`, which fails the conversion).
 */
function toGoJson(value: unknown): string {
  const exactInts: bigint[] = [];
  const marker = `\u0000int${Math.random().toString(36).slice(2)}:`;
  function goJsonValue(this: Record<string, unknown>, key: string, item: unknown): unknown {
    const original = this[key]; // a Buffer's own toJSON has already run on `item`
    if (original instanceof Uint8Array) return Buffer.from(original).toString('utf8');
    if (typeof item === 'bigint') return `${marker}${exactInts.push(item) - 1}`; // int64/uint64 beyond 2^53: exact digits
    if (typeof item === 'number' && !Number.isFinite(item)) {
      const text = Number.isNaN(item) ? 'NaN' : item > 0 ? '+Inf' : '-Inf';
      throw new YamlSyntaxError(`json: unsupported value: ${text}`);
    }
    return item;
  }
  const json = JSON.stringify(value, goJsonValue) ?? 'null';
  if (exactInts.length === 0) return json;
  const quotedMarker = JSON.stringify(marker).slice(0, -1);
  return json.replace(new RegExp(`${escapeRegExp(quotedMarker)}(\\d+)"`, 'g'), (_, index: string) =>
    String(exactInts[Number(index)]),
  );
}

const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/** Converts a YAML body; `strict` also collects repeated keys. Throws YamlSyntaxError when it does not parse. */
export function yamlToJson(text: string, options: { strict: boolean }): YamlConversion {
  const tooDeep = yamlNestingError(text);
  if (tooDeep !== undefined) throw new YamlSyntaxError(tooDeep);
  const lineCounter = new LineCounter();
  // yaml.v2's Unmarshal reads the first document only; what follows a `---` is neither decoded nor checked.
  const docs = parseAllDocuments(text, { version: '1.1', customTags: goYamlTags, uniqueKeys: false, lineCounter });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (doc === undefined) return { json: 'null', duplicateKeysError: undefined };
  const error = doc.errors[0];
  if (error) throw new YamlSyntaxError(goSyntaxErrorText(error));
  const aliasError = yamlAliasError(doc);
  if (aliasError !== undefined) throw new YamlSyntaxError(aliasError);
  let duplicateKeysError: string | undefined;
  if (options.strict) {
    const items: string[] = [];
    collectDuplicateKeys(doc.contents, lineCounter, items);
    if (items.length > 0) duplicateKeysError = `${YAML_UNMARSHAL_ERRORS}  ${items.join('\n  ')}`;
  }
  // yaml.v2 fails on a mistyped scalar or a collection key before it reports repeated keys; the keys' own form comes last.
  const typeError = applyGoYamlTypes(doc);
  if (typeError !== undefined) throw new YamlSyntaxError(typeError);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: -1 });
  } catch (err) {
    // What the checks above leave to the yaml library (a `<<` it merges where yaml.v2 would not) fails as yaml.v2 fails merges.
    if (err instanceof Error && err.message.startsWith('Merge sources'))
      throw new YamlSyntaxError('yaml: map merge requires map or sequence of maps as the value');
    throw new YamlSyntaxError(err instanceof Error ? err.message : String(err));
  }
  const json = toGoJson(value);
  return { json, duplicateKeysError };
}

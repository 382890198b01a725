// Gives a parsed YAML document yaml.v2's scalar types and sigs.k8s.io/yaml's map keys, or the error either gives:
// `yaml: cannot decode !!str `foo` as a !!int`, `yaml: invalid map key: …`, `Unsupported map key of type: …`.
import { isAlias, isMap, isPair, isScalar, isSeq, Scalar, visit, type Document, type Node as YamlNode } from 'yaml';
import {
  goFormatFloat,
  goResolvePlain,
  goSharpV,
  goTypeName,
  isUint64,
  type GoYamlScalar,
  type GoYamlValue,
} from './go-yaml-resolve';

const CORE_TAG_PREFIX = 'tag:yaml.org,2002:';
const CHECKED_TAGS = new Set(['str', 'int', 'float', 'bool', 'null']);

class GoYamlError extends Error {}

/** The Go value of a scalar node, failing as resolve() does when an explicit core tag cannot hold it. */
function scalarValue(node: Scalar): GoYamlScalar | undefined {
  const text = typeof node.source === 'string' ? node.source : String(node.value);
  const explicit = typeof node.tag === 'string' && node.tag.startsWith(CORE_TAG_PREFIX) ? node.tag.slice(18) : '';
  if (explicit === '') {
    if (node.tag !== undefined) return undefined; // another tag: yaml.v2 keeps the text, as the yaml library does
    return node.type === 'PLAIN' ? goResolvePlain(text) : { tag: 'str', value: text };
  }
  if (!CHECKED_TAGS.has(explicit)) return undefined; // !!binary, !!timestamp, !!map…: left to the yaml library
  if (explicit === 'str') return { tag: 'str', value: text };
  const resolved = goResolvePlain(text);
  if (resolved.tag === explicit) return resolved;
  if (explicit === 'float' && resolved.tag === 'int') return { tag: 'float', value: Number(resolved.value) };
  throw new GoYamlError(`yaml: cannot decode !!${resolved.tag} \`${text}\` as a !!${explicit}`);
}

/** The whole Go value of a node (for error texts only: aliases are followed). */
function goValue(node: unknown, doc: Document): GoYamlValue {
  if (isAlias(node)) return goValue(node.resolve(doc), doc);
  if (isScalar(node)) {
    const typed = scalarValue(node);
    if (typed) return typed;
    return { tag: 'str', value: String(node.value) };
  }
  if (isMap(node)) {
    const entries: Array<[GoYamlValue, GoYamlValue]> = [];
    for (const pair of node.items) entries.push([goValue(pair.key, doc), goValue(pair.value, doc)]);
    return { tag: 'map', entries };
  }
  if (isSeq(node)) return { tag: 'seq', items: node.items.map((item) => goValue(item, doc)) };
  return { tag: 'null', value: null };
}

/** Ints beyond 2^53 stay bigints (written as their digits); the rest become what the yaml library would give. */
function setScalar(node: Scalar, typed: GoYamlScalar): void {
  if (typed.tag === 'int') {
    const int = typed.value as bigint;
    node.value = Number.isSafeInteger(Number(int)) ? Number(int) : int;
  } else {
    node.value = typed.value;
  }
}

/** The string sigs.k8s.io/yaml makes of a map key, or its error. */
function keyString(key: GoYamlValue, value: () => GoYamlValue): string {
  switch (key.tag) {
    case 'str':
      return key.value as string;
    case 'bool':
      return String(key.value);
    case 'int':
      if (!isUint64(key.value as bigint)) return (key.value as bigint).toString();
      break;
    case 'float': {
      const text = goFormatFloat(key.value as number, 32);
      return text === '+Inf' ? '.inf' : text === '-Inf' ? '-.inf' : text === 'NaN' ? '.nan' : text;
    }
    default:
  }
  throw new GoYamlError(
    `Unsupported map key of type: ${goTypeName(key)}, key: ${goSharpV(key)}, value: ${goSharpV(value())}`,
  );
}

/** yaml.v2's parser refuses an alias without an anchor before anything is decoded. */
function unknownAnchorError(doc: Document): string | undefined {
  let error: string | undefined;
  visit(doc, {
    Alias(_, node) {
      if (node.resolve(doc) !== undefined) return undefined;
      error = `yaml: unknown anchor '${node.source}' referenced`;
      return visit.BREAK;
    },
  });
  return error;
}

const isMergeKey = (key: unknown): boolean =>
  isScalar(key) && (typeof key.value === 'symbol' || key.tag === 'tag:yaml.org,2002:merge');

/** decode.go merge(): the value of `<<` is a map, an alias of one, or a list of those. */
function checkMergeValue(value: unknown, doc: Document): void {
  const isMapNode = (node: unknown): boolean => isMap(isAlias(node) ? node.resolve(doc) : node);
  const ok = isSeq(value) ? value.items.every(isMapNode) : isMapNode(value);
  if (!ok) throw new GoYamlError('yaml: map merge requires map or sequence of maps as the value');
}

/**
 * Types every scalar as yaml.v2 does (in document order, so the first error is yaml.v2's), then turns map keys into
 * sigs.k8s.io/yaml's strings. Returns the error text, or undefined with the document rewritten in place.
 */
export function applyGoYamlTypes(doc: Document): string | undefined {
  const keys: Array<{ pair: { key: unknown; value: unknown } }> = [];
  const walk = (node: unknown): void => {
    if (isScalar(node)) {
      const typed = scalarValue(node);
      if (typed) setScalar(node, typed);
    } else if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
        if (isMap(key) || isSeq(key)) throw new GoYamlError(`yaml: invalid map key: ${goSharpV(goValue(key, doc))}`);
        if (isMergeKey(pair.key)) checkMergeValue(pair.value, doc);
        if (!isAlias(pair.key)) walk(pair.key);
        walk(pair.value);
        keys.push({ pair });
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item);
    }
  };
  const anchorError = unknownAnchorError(doc);
  if (anchorError !== undefined) return anchorError;
  try {
    walk(doc.contents);
    for (const { pair } of keys) {
      const node = (isAlias(pair.key) ? pair.key.resolve(doc) : pair.key) as YamlNode | null;
      if (isScalar(node) && typeof node.value === 'symbol') continue; // the `<<` merge key
      const key = node === null ? ({ tag: 'null', value: null } as const) : goValue(node, doc);
      pair.key = new Scalar(keyString(key, () => goValue(pair.value, doc)));
    }
  } catch (err) {
    if (err instanceof GoYamlError) return err.message;
    throw err;
  }
  return undefined;
}

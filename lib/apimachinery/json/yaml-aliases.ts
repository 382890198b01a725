// yaml.v2's limit on alias expansion ("billion laughs"), checked before a YAML document is turned into values.
import { isAlias, isMap, isPair, isSeq, type Document, type Node as YamlNode } from 'yaml';

// gopkg.in/yaml.v2 decode.go: below 400,000 decode operations 99 % may come from aliases, above 4,000,000 only 10 %,
// linearly in between; the check starts once more than 100 aliased and 1,000 operations in all were decoded.
const RATIO_RANGE_LOW = 400_000;
const RATIO_RANGE_HIGH = 4_000_000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - (0.89 * (decodeCount - RATIO_RANGE_LOW)) / (RATIO_RANGE_HIGH - RATIO_RANGE_LOW);
}

class AliasLimitExceeded extends Error {}

/**
 * Counts the nodes yaml.v2 would decode, aliases expanded, and stops as it does: `yaml: document contains excessive
 * aliasing` once expansion dominates, `yaml: anchor 'x' value contains itself` for an alias inside its own anchor.
 * The walk ends at yaml.v2's limit, so a small document of nested aliases costs microseconds, not minutes.
 */
export function yamlAliasError(doc: Document): string | undefined {
  let decodeCount = 0;
  let aliasCount = 0;
  let aliasDepth = 0;
  const expanding = new Set<YamlNode>();

  const visit = (node: unknown): void => {
    decodeCount++;
    if (aliasDepth > 0) aliasCount++;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount))
      throw new AliasLimitExceeded('yaml: document contains excessive aliasing');
    if (isAlias(node)) {
      const target = node.resolve(doc) as YamlNode | undefined;
      if (target === undefined) return;
      if (expanding.has(target)) throw new AliasLimitExceeded(`yaml: anchor '${node.source}' value contains itself`);
      aliasDepth++;
      visit(target);
      aliasDepth--;
      return;
    }
    if (!isMap(node) && !isSeq(node)) return;
    expanding.add(node);
    for (const item of node.items) {
      if (isPair(item)) {
        visit(item.key);
        visit(item.value);
      } else visit(item);
    }
    expanding.delete(node);
  };

  try {
    visit(doc.contents);
    return undefined;
  } catch (err) {
    if (err instanceof AliasLimitExceeded) return err.message;
    throw err;
  }
}

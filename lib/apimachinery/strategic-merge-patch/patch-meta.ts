// PatchMeta: what strategic merge patch needs to know about a field (strategies, merge key, element and field types).
import { StrategicMergePatchError } from './errors';

/**
 * Schema facts for one field as its parent declares it (strategicpatch.LookupPatchMeta plus PatchMeta):
 * `patchStrategies` and `patchMergeKey` come from the parent's struct tags; `field` and `items`
 * describe the field's own value. A field the schema does not know has no metadata, so its maps
 * merge and its lists are replaced, as for Kubernetes' untagged fields.
 */
export interface PatchMeta {
  /** `['merge']`, `['retainKeys']`, `['merge', 'retainKeys']` or none. */
  readonly patchStrategies: readonly string[];
  readonly patchMergeKey?: string;
  /** Go kind of the value's element type, named in `cannot merge lists without merge key for <kind>`. */
  readonly goKind: string;
  /** A property of this object, or the value of any key when this is a map. */
  field(name: string): PatchMeta | undefined;
  /** The element of this list. */
  items(): PatchMeta | undefined;
}

const RETAIN_KEYS = 'retainKeys';

/** The strategy other than retainKeys (`merge`, `replace` or ''), as extractRetainKeysPatchStrategy does. */
export function listOrMapStrategy(meta: PatchMeta | undefined): string {
  const strategies = meta?.patchStrategies ?? [];
  const [first = '', second = ''] = strategies;
  if (strategies.length <= 1) return first === RETAIN_KEYS ? '' : first;
  if (strategies.length === 2 && first === RETAIN_KEYS) return second;
  if (strategies.length === 2 && second === RETAIN_KEYS) return first;
  throw new StrategicMergePatchError(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

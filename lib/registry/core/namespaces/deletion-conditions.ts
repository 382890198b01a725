// The status conditions Kubernetes 1.26's namespace deleter keeps on a terminating namespace (status_condition_utils.go):
// one of each type, the failing variant while content or finalizers remain, the healthy one otherwise.
import { nowTimestamp } from '../../generic/system-metadata';

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** What is left in a namespace after one cleanup pass, keyed as Kubernetes prints them. */
export interface RemainingContent {
  /** `<resource>.<group>` → objects left. */
  byResource: Map<string, number>;
  /** finalizer → objects carrying it. */
  byFinalizer: Map<string, number>;
}

const CONTENT_REMAINING = 'NamespaceContentRemaining';
const FINALIZERS_REMAINING = 'NamespaceFinalizersRemaining';

/** Condition types in the order the deleter writes them, with the healthy reason and message of each. */
const HEALTHY: ReadonlyArray<readonly [type: string, reason: string, message: string]> = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  [
    'NamespaceDeletionContentFailure',
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  [CONTENT_REMAINING, 'ContentRemoved', 'All content successfully removed'],
  [FINALIZERS_REMAINING, 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
];

/** `a has 1 resource instances, b has 2 …` sorted, as the deleter sorts them for stable updates. */
function listing(counts: Map<string, number>, describe: (key: string, n: number) => string): string {
  return [...counts]
    .filter(([, n]) => n > 0)
    .map(([key, n]) => describe(key, n))
    .sort()
    .join(', ');
}

function failures(remaining: RemainingContent): Map<string, Pick<NamespaceCondition, 'reason' | 'message'>> {
  const out = new Map<string, Pick<NamespaceCondition, 'reason' | 'message'>>();
  const resources = listing(remaining.byResource, (resource, n) => `${resource} has ${n} resource instances`);
  if (resources !== '')
    out.set(CONTENT_REMAINING, {
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${resources}`,
    });
  const finalizers = listing(remaining.byFinalizer, (finalizer, n) => `${finalizer} in ${n} resource instances`);
  if (finalizers !== '')
    out.set(FINALIZERS_REMAINING, {
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${finalizers}`,
    });
  return out;
}

function isCondition(value: unknown): value is NamespaceCondition {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/**
 * The namespace's conditions after a cleanup pass (updateConditions): each deleter type is added or updated in
 * place, its lastTransitionTime moving only when its status flips; other conditions are kept. Undefined when
 * nothing changed, so no status write is needed.
 */
export function updateDeletionConditions(
  current: unknown,
  remaining: RemainingContent,
  now = nowTimestamp(),
): unknown[] | undefined {
  const conditions: unknown[] = Array.isArray(current)
    ? current.map((c: unknown) => (isCondition(c) ? { ...c } : c))
    : [];
  const failing = failures(remaining);
  let changed = false;
  for (const [type, okReason, okMessage] of HEALTHY) {
    const failure = failing.get(type);
    const next = {
      type,
      status: failure ? 'True' : 'False',
      reason: failure?.reason ?? okReason,
      message: failure?.message ?? okMessage,
    } as const;
    const old = conditions.find((c): c is NamespaceCondition => isCondition(c) && c.type === type);
    if (!old) {
      conditions.push({
        type,
        status: next.status,
        lastTransitionTime: now,
        reason: next.reason,
        message: next.message,
      }); // Go's field order
      changed = true;
    } else if (old.status !== next.status || old.reason !== next.reason || old.message !== next.message) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      Object.assign(old, next);
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}

// The ownership algorithms of structured-merge-diff's merge.Updater: Update (take what changed) and Apply (merge, prune, conflicts).
import { jsonEqual as isDeepStrictEqual } from './go-json';
import type { SchemaNode } from '../schema/node';
import type { Comparison } from './compare';
import { trackedComparison } from './create-comparison';
import { FieldSet } from './field-set';
import { mergeValues } from './merge';
import type { Path } from './path-element';
import { ensureNamedFieldsAreMembers, removeItems } from './remove-items';
import { toFieldSet } from './to-field-set';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Manager identifier → what it owns. */
export type ManagedFieldsMap = Map<string, VersionedSet>;

export interface Conflict {
  manager: string;
  path: Path;
}

export class Conflicts extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super('conflicts');
  }
}

/** Another served version of the kind: its schema and a conversion of an object into it. */
export interface VersionView {
  schema: SchemaNode | undefined;
  convert: (obj: unknown) => unknown;
}

export interface UpdaterOptions {
  schema: SchemaNode | undefined;
  /** Fields this write path never records (reset fields such as `status` on the main resource). */
  ignored: FieldSet;
  /** The kind in another apiVersion (undefined: not a version of the kind); absent for single-version kinds. */
  atVersion?: (apiVersion: string) => VersionView | undefined;
}

function filterComparison(c: Comparison, ignored: FieldSet): Comparison {
  return {
    added: c.added.recursiveDifference(ignored),
    removed: c.removed.recursiveDifference(ignored),
    modified: c.modified.recursiveDifference(ignored),
  };
}

/**
 * The comparison each manager's entry is read against: in its own apiVersion (structured-merge-diff converts old and
 * new object into it); null when that version is not one of the kind's (the entry is dropped, as upstream).
 */
function comparisonsByVersion(
  live: unknown,
  next: unknown,
  apiVersion: string,
  options: UpdaterOptions,
  goShape: boolean,
): (version: string) => Comparison | null {
  const byVersion = new Map<string, Comparison | null>([
    [apiVersion, filterComparison(trackedComparison(live, next, options.schema, goShape), options.ignored)],
  ]);
  return (version) => {
    const known = byVersion.get(version);
    if (known !== undefined) return known;
    const view = options.atVersion?.(version);
    const at =
      view === undefined
        ? null
        : filterComparison(
            trackedComparison(view.convert(live), view.convert(next), view.schema, goShape),
            options.ignored,
          );
    byVersion.set(version, at);
    return at;
  };
}

/** `goShape`: live and next are compared as their Go round trips (goShaped) would be. */
function settle(
  live: unknown,
  next: unknown,
  apiVersion: string,
  managers: ManagedFieldsMap,
  self: string,
  force: boolean,
  options: UpdaterOptions,
  goShape: boolean,
): Comparison {
  const comparisonAt = comparisonsByVersion(live, next, apiVersion, options, goShape);
  const comparison = comparisonAt(apiVersion) as Comparison;
  const conflicts = new Map<string, FieldSet>();
  const removed = new Map<string, FieldSet>();
  for (const [manager, vs] of managers) {
    if (manager === self) continue;
    // Without other versions every entry is read in the request's version.
    const at = options.atVersion ? comparisonAt(vs.apiVersion) : comparison;
    if (at === null) {
      managers.delete(manager);
      continue;
    }
    const conflictSet = vs.set.intersection(at.modified.union(at.added));
    if (!conflictSet.isEmpty()) conflicts.set(manager, conflictSet);
    if (!at.removed.isEmpty()) removed.set(manager, at.removed);
  }
  if (!force && conflicts.size > 0) {
    const list: Conflict[] = [];
    for (const manager of [...conflicts.keys()].sort())
      for (const path of (conflicts.get(manager) as FieldSet).paths()) list.push({ manager, path });
    throw new Conflicts(list);
  }
  for (const [manager, set] of [...conflicts, ...removed]) {
    const vs = managers.get(manager) as VersionedSet;
    managers.set(manager, { ...vs, set: vs.set.difference(set) });
  }
  for (const [manager, vs] of managers) if (vs.set.isEmpty()) managers.delete(manager);
  return comparison;
}

/**
 * An update by `manager`: it owns what it changed or added, others lose what changed. Never conflicts.
 * `live` and `next` are read as goShaped would make them (already go-shaped values read the same).
 */
export function updateManagers(
  live: unknown,
  next: unknown,
  apiVersion: string,
  managers: ManagedFieldsMap,
  manager: string,
  options: UpdaterOptions,
): ManagedFieldsMap {
  const out: ManagedFieldsMap = new Map(managers);
  const comparison = settle(live, next, apiVersion, out, manager, true, options, true);
  const previous = out.get(manager)?.set ?? new FieldSet();
  const set = previous
    .difference(comparison.removed)
    .union(comparison.modified)
    .union(comparison.added)
    .recursiveDifference(options.ignored);
  if (set.isEmpty()) out.delete(manager);
  else out.set(manager, { set, apiVersion, applied: false });
  return out;
}

export interface ApplyOutcome {
  /** undefined when the apply changes nothing. */
  object: unknown;
  managers: ManagedFieldsMap;
}

/** An apply by `manager`: merge, prune what it no longer applies, and fail on conflicts unless forced. */
export function applyManagers(
  live: unknown,
  config: unknown,
  apiVersion: string,
  managers: ManagedFieldsMap,
  manager: string,
  force: boolean,
  options: UpdaterOptions,
): ApplyOutcome {
  const out: ManagedFieldsMap = new Map(managers);
  let merged = mergeValues(live, config, options.schema);
  const lastSet = out.get(manager);
  const set = toFieldSet(config, options.schema, true).recursiveDifference(options.ignored);
  out.set(manager, { set, apiVersion, applied: true });
  merged = prune(merged, out, manager, lastSet, apiVersion, options);
  settle(live, merged, apiVersion, out, manager, force, options, false);
  return { object: isDeepStrictEqual(live, merged) ? undefined : merged, managers: out };
}

/**
 * The kind in `version` (undefined: not a version of the kind). Without other versions every entry is read in the
 * request's version, as settle reads them.
 */
function viewAt(version: string, options: UpdaterOptions): VersionView | undefined {
  if (options.atVersion) return options.atVersion(version);
  return { schema: options.schema, convert: (obj) => obj };
}

/**
 * Removes what `manager` applied last time, no longer applies, and nobody else owns (Updater.prune). Each set is read
 * in its own apiVersion: the pruning happens in the version of the manager's last apply, the owned items of every
 * version are added back after converting into that version, and the result is converted back to the request's.
 */
function prune(
  merged: unknown,
  managers: ManagedFieldsMap,
  manager: string,
  lastSet: VersionedSet | undefined,
  apiVersion: string,
  options: UpdaterOptions,
): unknown {
  if (!lastSet || lastSet.set.isEmpty()) return merged;
  const lastView = viewAt(lastSet.apiVersion, options);
  if (lastView === undefined) return merged;
  const mergedAtLast = lastView.convert(merged);
  const ensure = (s: FieldSet, schema: SchemaNode | undefined): FieldSet => ensureNamedFieldsAreMembers(s, schema);
  let pruned = removeItems(mergedAtLast, ensure(lastSet.set, lastView.schema), lastView.schema);
  pruned = addBackOwnedItems(mergedAtLast, pruned, lastSet.apiVersion, managers, options);
  // addBackDanglingItems: only what this applier owned last time may go.
  const prunedAtLast = lastView.convert(pruned);
  const mergedSet = ensure(toFieldSet(mergedAtLast, lastView.schema), lastView.schema);
  const prunedSet = ensure(toFieldSet(prunedAtLast, lastView.schema), lastView.schema);
  const result = removeItems(
    mergedAtLast,
    mergedSet.difference(prunedSet).intersection(ensure(lastSet.set, lastView.schema)),
    lastView.schema,
  );
  const ownView = viewAt(managers.get(manager)?.apiVersion ?? apiVersion, options);
  return ownView === undefined ? result : ownView.convert(result);
}

/**
 * addBackOwnedItems: whatever anybody (this applier's new configuration included) owns comes back, each version's
 * owners read in their version (the pruned version first, as upstream, so that conversions see what it kept).
 */
function addBackOwnedItems(
  merged: unknown,
  pruned: unknown,
  prunedVersion: string,
  managers: ManagedFieldsMap,
  options: UpdaterOptions,
): unknown {
  const managedAtVersion = new Map<string, FieldSet>();
  for (const vs of managers.values())
    managedAtVersion.set(vs.apiVersion, (managedAtVersion.get(vs.apiVersion) ?? new FieldSet()).union(vs.set));
  const versions = [...managedAtVersion.keys()].sort(
    (a, b) => Number(b === prunedVersion) - Number(a === prunedVersion),
  );
  let out = pruned;
  let full = merged;
  for (const version of versions) {
    const view = viewAt(version, options);
    if (view === undefined) continue;
    full = view.convert(full);
    out = view.convert(out);
    const ensure = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, view.schema);
    const fullSet = ensure(toFieldSet(full, view.schema));
    const outSet = ensure(toFieldSet(out, view.schema));
    out = removeItems(
      full,
      fullSet.difference(outSet.union(ensure(managedAtVersion.get(version) as FieldSet))),
      view.schema,
    );
  }
  return out;
}

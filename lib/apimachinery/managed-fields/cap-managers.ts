// capManagersManager: at most 10 Update entries; the oldest are merged into `ancient-changes` per apiVersion.
import type { Managed } from './entries';
import { managerIdentifier } from './entries';

const MAX_UPDATE_MANAGERS = 10;
const OLD_UPDATES_MANAGER = 'ancient-changes';

const seconds = (time: string | undefined): number => (time ? Math.floor(Date.parse(time) / 1000) : 0);

export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): Managed {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return managed;
  updaters.sort(
    (a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i] as string;
    const vs = managed.fields.get(id);
    if (!vs) continue;
    const bucket = managerIdentifier({ manager: OLD_UPDATES_MANAGER, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!managed.fields.has(bucket)) {
      const firstSet = managed.fields.get(first);
      managed.fields.delete(first);
      if (firstSet) managed.fields.set(bucket, firstSet);
    }
    const bucketSet = managed.fields.get(bucket);
    managed.fields.set(bucket, { ...vs, set: bucketSet ? vs.set.union(bucketSet.set) : vs.set });
    managed.fields.delete(id);
    length--;
    managed.times.set(bucket, managed.times.get(id));
  }
  return managed;
}

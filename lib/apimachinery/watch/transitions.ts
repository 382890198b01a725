// Which event a filtered watcher sees for a change (Kubernetes' rules): an object that starts matching is
// ADDED, one that stops matching is DELETED with its previous content at the change's revision.
import type { ApiObject } from '../meta/types';
import { withResourceVersion } from '../serializers/served-json';
import type { CachedEvent } from './cached-event';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface FilteredEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: ApiObject;
}

export function filterEvent(
  event: CachedEvent,
  matches: ((obj: ApiObject) => boolean) | undefined,
): FilteredEvent | undefined {
  if (matches === undefined) return event;
  if (event.type === 'DELETED') return matches(event.object) ? event : undefined;
  const now = matches(event.object);
  if (event.type === 'ADDED') return now ? event : undefined;
  const before = event.previous !== undefined && matches(event.previous);
  if (now && before) return event;
  if (now) return { type: 'ADDED', object: event.object };
  if (before && event.previous)
    return { type: 'DELETED', object: withResourceVersion(event.previous, String(event.revision)) };
  return undefined;
}

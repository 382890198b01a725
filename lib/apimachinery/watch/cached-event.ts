// A change as the watch cache holds it: the new state (or, for DELETED, the last state at the delete's
// revision) and the state before, with each encoded event line computed once for all watchers.
import type { ApiObject } from '../meta/types';

export interface CachedEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  object: ApiObject;
  /** The state before this change (MODIFIED), used for selector transitions. */
  previous?: ApiObject;
  revision: number;
  /** When the cache applied it (ms since epoch), for the window's minimum age. */
  time: number;
  /** Encoded forms shared by every watcher that receives the same bytes, by encoding name. */
  encoded?: Map<string, string | Buffer>;
}

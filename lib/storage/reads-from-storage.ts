// The reads by resourceVersion of a storage without a watch cache, answered over its own get/list/watch (etcd's,
// or a wrapper's that converts what it reads): EtcdStorage and ForwardingStorage extend it.
import type { ApiObject } from '../apimachinery/meta/types';
import type {
  GetOptions,
  ListOptions,
  ListPage,
  ListRequest,
  ListResult,
  StartedWatch,
  VersionedReads,
  WatchHandle,
  WatchRequest,
  WatchSink,
} from './storage';
import { startDirectWatch } from './direct-watch';
import { getFromStorage, listFromStorage } from './versioned-reads';

export abstract class ReadsFromStorage implements VersionedReads {
  abstract get(key: string, options?: GetOptions): Promise<ApiObject>;
  abstract list(prefix: string, options?: ListOptions): Promise<ListResult>;
  abstract watch(prefix: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle>;
  abstract currentRevision(): Promise<number>;

  getAtResourceVersion(key: string, resourceVersion: number | undefined): Promise<ApiObject> {
    return getFromStorage(this, key, resourceVersion);
  }

  getList(prefix: string, request: ListRequest): Promise<ListPage> {
    return listFromStorage(this, prefix, request);
  }

  startWatch(prefix: string, request: WatchRequest): Promise<StartedWatch> {
    return startDirectWatch(this, prefix, request);
  }

  /** No decoded objects are kept (the watch cache's CachedStorage keeps them). */
  knownObject(_key: string, _resourceVersion: string): ApiObject | undefined {
    return undefined;
  }

  /** No watch cache here: a Most Recent get reads storage. */
  latestFromCache(_key: string): Promise<ApiObject | undefined> {
    return Promise.resolve(undefined);
  }
}

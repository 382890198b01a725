// Watch: a chunked 200 stream of {type, object} lines, with initial ADDED events unless a resourceVersion is given.
import { badRequest, isStatusError, notAcceptable, resourceExpired, type Status } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { StorageEvent } from '../../storage/storage';
import { isStorageError } from '../../storage/storage-error';
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace } from './api-request';
import { parseIntegerParam, parseListParams } from './list-options';
import { NOT_ACCEPTABLE_WATCH_TEXT } from '../negotiation';
import { isTruthyQueryFlag } from '../request-info';
import { servedJson } from '../../storage/stored-json';

/** Without timeoutSeconds a watch lasts a random 30–60 minutes (kube-apiserver's min-request-timeout rule). */
const MIN_REQUEST_TIMEOUT_SECONDS = 1800;
/** A client this far behind is cut off; it will re-watch. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const BOOKMARK_INTERVAL_MS = 60_000;
const WATCH_TOO_OLD_TEXT = 'The resourceVersion for the provided watch is too old.';

type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

function acceptsJsonStream(accept: string | undefined): boolean {
  if (!accept || accept.trim() === '') return true;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]?.trim().toLowerCase() ?? '';
    return (type === 'application/json' || type === '*/*' || type === 'application/*') && !part.includes('as=');
  });
}

/** Event type for a watcher whose selector may match the old and new state differently (Kubernetes' rules). */
function filteredEvent(event: StorageEvent, matches: (o: ApiObject) => boolean): { type: WatchEventType; object: ApiObject } | undefined {
  if (event.type === 'DELETED') return matches(event.object) ? { type: 'DELETED', object: event.object } : undefined;
  const now = matches(event.object);
  const before = event.previous !== undefined && matches(event.previous);
  if (event.type === 'ADDED') return now ? { type: 'ADDED', object: event.object } : undefined;
  if (now && before) return { type: 'MODIFIED', object: event.object };
  if (now) return { type: 'ADDED', object: event.object };
  if (before && event.previous) return { type: 'DELETED', object: { ...event.previous, metadata: { ...event.previous.metadata, resourceVersion: String(event.revision) } } };
  return undefined;
}

export async function handleWatch(r: ApiRequest): Promise<void> {
  if (!acceptsJsonStream(r.req.headers.accept)) throw notAcceptable(NOT_ACCEPTABLE_WATCH_TEXT);
  r.negotiated = { mediaType: 'application/json' };
  if (r.info.name !== '') {
    const pinned = r.query.get('fieldSelector');
    const byName = `metadata.name=${r.info.name}`;
    if (pinned && pinned !== byName && !pinned.split(',').includes(byName)) throw badRequest("fieldSelector metadata.name doesn't match requested name");
    r.query.set('fieldSelector', pinned ? `${pinned},${byName}` : byName);
  }
  const params = parseListParams(r.query, { watch: true, listChunking: false, selectors: r.served.selectors });
  const timeoutSeconds = parseIntegerParam(r.query.get('timeoutSeconds'));
  const bookmarks = isTruthyQueryFlag(r.query.get('allowWatchBookmarks'));
  const matches = params.predicate ?? (() => true);
  const namespace = requestNamespace(r);

  let initial: ApiObject[] = [];
  let revision: number;
  if (params.resourceVersion === undefined || params.resourceVersion === 0) {
    const { resourceVersion: _startAt, ...current } = params;
    const listed = await r.store.list(namespace, { ...current, limit: 0, continueToken: '' });
    initial = listed.items;
    revision = Number(listed.resourceVersion);
  } else {
    revision = params.resourceVersion;
  }

  const res = r.res;
  const write = (type: WatchEventType, object: unknown): void => {
    if (res.writableEnded) return;
    const reused = type === 'ERROR' || type === 'BOOKMARK' ? undefined : servedJson(object as ApiObject);
    res.write(reused === undefined ? `${JSON.stringify({ type, object })}\n` : `{"type":"${type}","object":${reused}}\n`);
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      r.log.warn({ resource: r.info.resource }, 'closing a watch whose client cannot keep up');
      res.destroy();
    }
  };
  const served = (o: ApiObject): ApiObject => asServed(r, o);
  let lastRevision = revision;

  const handle = await r.store
    .watch(namespace, revision, {
      event: (event) => {
        lastRevision = event.revision;
        const out = filteredEvent(event, matches);
        if (out) write(out.type, served(out.object));
      },
      error: (err) => {
        const status: Status = isStorageError(err, 'Compacted') ? resourceExpired(WATCH_TOO_OLD_TEXT).status : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, reason: 'InternalError', code: 500 };
        write('ERROR', status);
        res.end();
      },
    })
    .catch((err: unknown) => {
      throw isStatusError(err) ? err : isStorageError(err, 'Compacted') ? resourceExpired(WATCH_TOO_OLD_TEXT) : err;
    });

  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  for (const obj of initial) if (matches(obj)) write('ADDED', served(obj));

  const seconds = timeoutSeconds !== undefined && timeoutSeconds > 0 ? timeoutSeconds : MIN_REQUEST_TIMEOUT_SECONDS * (1 + Math.random());
  await new Promise<void>((resolve) => {
    const deadline = setTimeout(() => res.end(), seconds * 1000);
    const bookmarkTimer = bookmarks
      ? setInterval(() => write('BOOKMARK', { kind: r.served.definition.kind, apiVersion: served({ metadata: {} }).apiVersion, metadata: { resourceVersion: String(lastRevision) } }), BOOKMARK_INTERVAL_MS)
      : undefined;
    const finish = (): void => {
      clearTimeout(deadline);
      if (bookmarkTimer) clearInterval(bookmarkTimer);
      void handle.cancel();
      resolve();
    };
    res.once('close', finish);
    res.once('finish', finish);
  });
}

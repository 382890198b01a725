// The moment a watch has sent its initial state: API Priority and Fairness frees the watch's seat then (1.26's
// WatchInitializationSignal), while the stream itself stays open.
import type { ServerResponse } from 'node:http';

const listeners = new WeakMap<ServerResponse, () => void>();

/** Registers what to do once the watch answered on `res` has produced its initial events. */
export function onWatchInitialized(res: ServerResponse, listener: () => void): void {
  listeners.set(res, listener);
}

/** Called by the watch handler after the initial events were written. */
export function signalWatchInitialized(res: ServerResponse): void {
  const listener = listeners.get(res);
  if (!listener) return;
  listeners.delete(res);
  listener();
}

// In-process consumers (controllers, the garbage collector) watch through the watch cache like clients do: the
// cache has already decoded each change, so a controller watch costs no etcd watch and no second decode.
import type { WatchSink } from '../storage';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';

/** A WatchDelivery that hands each event to `sink` as it is dispatched (no batching, no bytes). */
export function sinkDelivery(sink: WatchSink): WatchDelivery {
  return {
    send(type, object, source) {
      const revision = source?.revision ?? Number(object.metadata.resourceVersion);
      const previous = type === 'DELETED' ? undefined : source?.previous;
      sink.event(previous ? { type, object, previous, revision } : { type, object, revision });
    },
    flush() {},
    bookmark() {},
    fail(err) {
      sink.error(err);
    },
    end() {},
  };
}

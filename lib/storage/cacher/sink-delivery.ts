// In-process consumers (controllers, the garbage collector) watch through the watch cache like clients do: the
// cache has already decoded each change, so a controller watch costs no etcd watch and no second decode.
import type { WatchSink } from '../storage';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';

/** A WatchDelivery that hands each event to `sink` as it is dispatched (no batching, no bytes). */
export function sinkDelivery(sink: WatchSink): WatchDelivery {
  return {
    send(type, object, source) {
      if (type === 'DELETED')
        sink.event({ type, object, revision: source?.revision ?? Number(object.metadata.resourceVersion) });
      else
        sink.event({
          type,
          object,
          ...(source?.previous ? { previous: source.previous } : {}),
          revision: source?.revision ?? Number(object.metadata.resourceVersion),
        });
    },
    flush() {},
    bookmark() {},
    fail(err) {
      sink.error(err);
    },
    end() {},
  };
}

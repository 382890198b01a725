// apiserver_current_inflight_requests and apiserver_current_inqueue_requests (k8s.io/apiserver 1.26
// pkg/server/filters/maxinflight.go requestWatermark, pkg/endpoints/metrics UpdateInflightRequestMetrics): each
// second, the highest count of executing (or, with priority and fairness, queued) requests of each kind noted in
// that second; the highest marks start again from zero every second.
import { Gauge, type Registry } from 'prom-client';
import { annotatedHelp } from './stability';

const PUBLISH_EVERY_MS = 1000;
const NON_MUTATING_VERBS = new Set(['get', 'list', 'watch']);

export type RequestKind = 'readOnly' | 'mutating';

/** `readOnly` for get, list and watch (the request info's verb), `mutating` for every other verb. */
export function requestKind(verb: string): RequestKind {
  return NON_MUTATING_VERBS.has(verb) ? 'readOnly' : 'mutating';
}

/** One phase's counts and their highest marks since the last publication. */
export class RequestWatermark {
  readonly current = { readOnly: 0, mutating: 0 };
  readonly #highest = { readOnly: 0, mutating: 0 };

  /** Changes the count of `kind` by `delta` and notes the new count. */
  note(kind: RequestKind, delta: number): void {
    this.current[kind] += delta;
    this.record(kind, this.current[kind]);
  }

  /** Notes a count of `kind` observed now (the max-in-flight filter's occupancy of its pool). */
  record(kind: RequestKind, value: number): void {
    if (value > this.#highest[kind]) this.#highest[kind] = value;
  }

  /** The highest marks since the last call, which start again from zero. */
  take(): { readOnly: number; mutating: number } {
    const marks = { ...this.#highest };
    this.#highest.readOnly = 0;
    this.#highest.mutating = 0;
    return marks;
  }
}

export class InflightWatermarks {
  readonly executing = new RequestWatermark();
  readonly waiting = new RequestWatermark();
  readonly #timer: NodeJS.Timeout;

  /** `queues`: priority and fairness is on, so the waiting phase is published too (max-in-flight never queues). */
  constructor(registry: Registry, queues: boolean) {
    const inflight = new Gauge({
      name: 'apiserver_current_inflight_requests',
      help: annotatedHelp(
        'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
        { stability: 'STABLE' },
      ),
      labelNames: ['request_kind'],
      registers: [registry],
    });
    // Without priority and fairness nothing queues; 1.26 registers the gauge but never sets it, so none is shown.
    const inqueue = queues
      ? new Gauge({
          name: 'apiserver_current_inqueue_requests',
          help: annotatedHelp('Maximal number of queued requests in this apiserver per request kind in last second.', {
            stability: 'ALPHA',
          }),
          labelNames: ['request_kind'],
          registers: [registry],
        })
      : undefined;
    const publish = (gauge: Gauge, watermark: RequestWatermark): void => {
      const marks = watermark.take();
      gauge.labels({ request_kind: 'readOnly' }).set(marks.readOnly);
      gauge.labels({ request_kind: 'mutating' }).set(marks.mutating);
    };
    this.#timer = setInterval(() => {
      publish(inflight, this.executing);
      if (inqueue) publish(inqueue, this.waiting);
    }, PUBLISH_EVERY_MS).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

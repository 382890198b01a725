// The server's own events, recorded as client-go's events.k8s.io/v1 recorder records them (tools/events): one
// Event per occurrence named `<object>.<hex nanoseconds>`, reportingController naming the component and
// reportingInstance `<controller>-<host>`; a repeat of the same action/reason/object becomes a series (count 2 at
// once, later counts written every refresh interval) until it has been quiet for the series window.
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { GenericStore } from '../../generic/store';
import { trackedAs } from '../../generic/internal-field-manager';
import { convertObject } from '../../../apis/conversion';
import { EVENT_CONVERSIONS } from '../../../apis/events/v1/conversion';

/** client-go: series last up to 6 minutes without a new occurrence; their counts are written every 30 minutes. */
const SERIES_WINDOW_MS = 6 * 60_000;
const SERIES_REFRESH_MS = 30 * 60_000;
const DEFAULT_NAMESPACE = 'default';

export type EventType = 'Normal' | 'Warning';

/** The object an event is about (an ObjectReference). */
export interface EventReference {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

/** The reference of a stored object. */
export function referenceTo(obj: ApiObject, apiVersion: string, kind: string): EventReference {
  const ref: EventReference = { apiVersion, kind, name: obj.metadata.name ?? '' };
  if (obj.metadata.namespace) ref.namespace = obj.metadata.namespace;
  if (obj.metadata.uid) ref.uid = obj.metadata.uid;
  if (obj.metadata.resourceVersion) ref.resourceVersion = obj.metadata.resourceVersion;
  return ref;
}

interface Series {
  namespace: string;
  name: string;
  count: number;
  lastObservedTime: string;
  /** The count last written. */
  written: number;
}

/** MicroTime as Kubernetes writes it: RFC 3339 with six fractional digits. */
function microTime(now: Date): string {
  return now.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export class EventRecorder {
  readonly #store: GenericStore;
  readonly #controller: string;
  readonly #instance: string;
  readonly #log: Logger;
  readonly #series = new Map<string, Series>();
  readonly #track: ReturnType<typeof trackedAs>;
  #timer: NodeJS.Timeout | undefined;

  /** `store`: the events.orch.io/v1 store (strict v1 validation, as the v1 recorder's writes get). */
  constructor(store: GenericStore, reportingController: string, log: Logger, manager: string) {
    this.#store = store;
    this.#controller = reportingController;
    this.#instance = `${reportingController}-${hostname()}`;
    this.#log = log;
    this.#track = trackedAs(manager, store.definition);
  }

  /** Records an occurrence; never throws (events are best effort), failures are logged. */
  record(regarding: EventReference, type: EventType, reason: string, action: string, note: string): void {
    void this.#record(regarding, type, reason, action, note).catch((err: unknown) =>
      this.#log.warn({ err, reason, regarding: regarding.name }, 'recording an event failed'),
    );
  }

  async #record(
    regarding: EventReference,
    type: EventType,
    reason: string,
    action: string,
    note: string,
  ): Promise<void> {
    const now = new Date();
    const key = JSON.stringify([
      action,
      reason,
      this.#controller,
      regarding.apiVersion,
      regarding.kind,
      regarding.namespace ?? '',
      regarding.name,
      regarding.uid ?? '',
    ]);
    const existing = this.#series.get(key);
    if (existing && now.getTime() - Date.parse(existing.lastObservedTime) < SERIES_WINDOW_MS) {
      existing.count += 1;
      existing.lastObservedTime = microTime(now);
      // The first repeat is written at once; later ones with the periodic refresh.
      if (existing.count === 2) await this.#writeSeries(existing);
      this.#schedule();
      return;
    }
    const namespace = regarding.namespace || DEFAULT_NAMESPACE;
    const name = `${regarding.name}.${(BigInt(now.getTime()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n)).toString(16)}`;
    const event = {
      apiVersion: 'events.orch.io/v1',
      kind: 'Event',
      metadata: { name, namespace },
      eventTime: microTime(now),
      reportingController: this.#controller,
      reportingInstance: this.#instance,
      action,
      reason,
      regarding,
      note,
      type,
    };
    this.#series.set(key, { namespace, name, count: 1, lastObservedTime: event.eventTime, written: 1 });
    // The store works on the stored form (core v1), whichever API it serves.
    const stored = convertObject(EVENT_CONVERSIONS, event as unknown as ApiObject, '', 'Event', 'v1');
    await this.#store.create(namespace, stored, { dryRun: false, transform: this.#track });
    this.#schedule();
  }

  async #writeSeries(series: Series): Promise<void> {
    const count = series.count;
    const lastObservedTime = series.lastObservedTime;
    await this.#store.patch(
      series.namespace,
      series.name,
      (current) => ({ ...current, series: { count, lastObservedTime } }),
      { dryRun: false, transform: this.#track },
    );
    series.written = count;
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        void this.#refresh();
      },
      Math.min(SERIES_REFRESH_MS, SERIES_WINDOW_MS),
    );
    this.#timer.unref();
  }

  /** Writes pending series counts and forgets series quiet for longer than the window. */
  async #refresh(): Promise<void> {
    const now = Date.now();
    for (const [key, series] of this.#series) {
      try {
        if (series.count > series.written && series.count >= 2) await this.#writeSeries(series);
      } catch (err) {
        this.#log.warn({ err, event: series.name }, 'updating an event series failed');
      }
      if (now - Date.parse(series.lastObservedTime) >= SERIES_WINDOW_MS) this.#series.delete(key);
    }
    if (this.#series.size > 0) this.#schedule();
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

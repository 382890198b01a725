// Keeps each FlowSchema's `Dangling` condition in step with whether its priority level exists (apf_controller's status writes).
import type { Logger } from 'pino';
import { StatusError } from '../../apimachinery/errors';
import { goQuote } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { WatchHandle } from '../../storage/storage';
import { WorkQueue } from '../rest/work-queue';
import type { GenericStore } from '../generic/store';
import { LIST_EVERYTHING } from '../generic/list';
import { nowTimestamp } from '../generic/system-metadata';
import { APF_CONFIG_CONSUMER_MANAGER, appliedAs } from '../generic/internal-field-manager';
import { apiVersionOfDefinition } from '../rest/resource';
import { referenceTo, type EventRecorder } from '../core/events/recorder';

export const DANGLING_CONDITION_TYPE = 'Dangling';
/** Missed events (a watch that ended) are caught up by this periodic re-list. */
const RESYNC_INTERVAL_MS = 30_000;
/** After a watch ends, it is restarted this soon rather than at the next resync. */
const WATCH_RESTART_DELAY_MS = 1000;
/** Kubernetes skips a FlowSchema written more than 5 times in the past minute, retrying after 30–75 s. */
const MAX_WRITES_PER_MINUTE = 5;

export interface DanglingCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

/** The condition Kubernetes 1.26 wants for a FlowSchema referencing `plName` (without its time). */
export function desiredDanglingCondition(plName: string, exists: boolean): DanglingCondition {
  return exists
    ? { type: DANGLING_CONDITION_TYPE, status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${goQuote(plName)} and it exists` }
    : { type: DANGLING_CONDITION_TYPE, status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${goQuote(plName)} but there is no such object` };
}

function priorityLevelOf(fs: ApiObject): string {
  const spec = fs['spec'];
  const ref = isPlainObject(spec) ? spec['priorityLevelConfiguration'] : undefined;
  return isPlainObject(ref) && typeof ref['name'] === 'string' ? ref['name'] : '';
}

function conditionsOf(fs: ApiObject): unknown[] {
  const status = fs['status'];
  return isPlainObject(status) && Array.isArray(status['conditions']) ? status['conditions'] : [];
}

/** What Kubernetes' config consumer applies (ApplyStatus, forced): the name and the one Dangling condition. */
export function danglingApplyConfiguration(fs: ApiObject, apiVersion: string): Record<string, unknown> {
  const condition = conditionsOf(fs).find((c) => isPlainObject(c) && c['type'] === DANGLING_CONDITION_TYPE);
  return { apiVersion, kind: 'FlowSchema', metadata: { name: fs.metadata.name }, status: { conditions: condition === undefined ? [] : [condition] } };
}

/** The FlowSchema with its condition set, or undefined when status, reason and message already match (no write). */
export function withDanglingCondition(fs: ApiObject, exists: boolean, now: string): ApiObject | undefined {
  const want = desiredDanglingCondition(priorityLevelOf(fs), exists);
  const conditions = conditionsOf(fs);
  const index = conditions.findIndex((c) => isPlainObject(c) && c['type'] === DANGLING_CONDITION_TYPE);
  const have = conditions[index];
  if (isPlainObject(have) && have['status'] === want.status && have['reason'] === want.reason && have['message'] === want.message) return undefined;
  // Like upstream, every write stamps the time: writes only happen when status, reason or message change.
  const condition: DanglingCondition = { type: want.type, status: want.status, lastTransitionTime: now, reason: want.reason, message: want.message };
  const next = index < 0 ? [...conditions, condition] : conditions.map((c, i) => (i === index ? condition : c));
  const status = isPlainObject(fs['status']) ? fs['status'] : {};
  return { ...fs, status: { ...status, conditions: next } };
}

export interface DanglingConditionControllerDeps {
  flowSchemas: GenericStore;
  /** The `status` view of the FlowSchema store: what the condition is written through. */
  flowSchemaStatus: GenericStore;
  priorityLevels: GenericStore;
  log: Logger;
  /** Records each change of the Dangling condition as an event on the FlowSchema. */
  recorder?: EventRecorder;
}

export class DanglingConditionController {
  readonly #deps: DanglingConditionControllerDeps;
  /** Names of existing priority levels, and each FlowSchema's reference, as last seen on list or watch. */
  #priorityLevels = new Set<string>();
  readonly #references = new Map<string, string>();
  readonly #queue = new WorkQueue(
    (name) => this.#sync(name),
    (name, err) => {
      this.#deps.log.warn({ err, flowSchema: name }, 'writing the Dangling condition failed; will retry');
      this.#later(WATCH_RESTART_DELAY_MS, () => this.#queue.add(name));
    },
    () => this.#stopped,
  );
  /** Recent write times per FlowSchema, for Kubernetes' rate limit. */
  readonly #writes = new Map<string, number[]>();
  readonly #timers = new Set<NodeJS.Timeout>();
  /** FlowSchemas waiting out the rate limit (one timer each). */
  readonly #delayed = new Set<string>();
  #fsWatch: WatchHandle | undefined;
  #plWatch: WatchHandle | undefined;
  #resyncTimer: NodeJS.Timeout | undefined;
  #stopped = true;

  /** Status writes are recorded as Kubernetes' config consumer records them (a forced Apply to the status subresource). */
  readonly #track: ReturnType<typeof appliedAs>;

  constructor(deps: DanglingConditionControllerDeps) {
    this.#deps = deps;
    const apiVersion = apiVersionOfDefinition(deps.flowSchemaStatus.definition);
    this.#track = appliedAs(APF_CONFIG_CONSUMER_MANAGER, deps.flowSchemaStatus.definition, 'status', (fs) => danglingApplyConfiguration(fs, apiVersion));
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#resyncTimer = setInterval(() => void this.#resync(), RESYNC_INTERVAL_MS);
    this.#resyncTimer.unref();
    void this.#resync();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#resyncTimer) clearInterval(this.#resyncTimer);
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#delayed.clear();
    this.#queue.clear();
    void this.#fsWatch?.cancel();
    void this.#plWatch?.cancel();
    this.#fsWatch = undefined;
    this.#plWatch = undefined;
  }

  #later(ms: number, fn: () => void): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Re-lists both kinds, (re)starts any ended watch from the list's revision, and re-checks every FlowSchema. */
  async #resync(): Promise<void> {
    if (this.#stopped) return;
    try {
      const pls = await this.#deps.priorityLevels.list('', LIST_EVERYTHING);
      this.#priorityLevels = new Set(pls.items.map((pl) => pl.metadata.name ?? ''));
      if (!this.#plWatch) this.#plWatch = this.#keep(await this.#watchPriorityLevels(Number(pls.resourceVersion)));
      const fss = await this.#deps.flowSchemas.list('', LIST_EVERYTHING);
      this.#references.clear();
      for (const fs of fss.items) this.#references.set(fs.metadata.name ?? '', priorityLevelOf(fs));
      if (!this.#fsWatch) this.#fsWatch = this.#keep(await this.#watchFlowSchemas(Number(fss.resourceVersion)));
      this.#queue.add(...this.#references.keys());
      await this.#queue.drain();
    } catch (err) {
      this.#deps.log.warn({ err }, 'FlowSchema Dangling resync failed');
    }
  }

  /** A watch that finished starting after stop() is cancelled at once rather than leaked. */
  #keep(handle: WatchHandle): WatchHandle | undefined {
    if (!this.#stopped) return handle;
    void handle.cancel();
    return undefined;
  }

  #watchEnded(which: 'fs' | 'pl', err: Error): void {
    this.#deps.log.warn({ err }, 'FlowSchema Dangling watch ended; restarting');
    if (which === 'fs') this.#fsWatch = undefined;
    else this.#plWatch = undefined;
    this.#later(WATCH_RESTART_DELAY_MS, () => void this.#resync());
  }

  #watchPriorityLevels(afterRevision: number): Promise<WatchHandle> {
    return this.#deps.priorityLevels.watch('', afterRevision, {
      event: (event) => {
        const name = event.object.metadata.name ?? '';
        // Only existence matters, so only ADDED/DELETED change anything.
        if (event.type === 'DELETED') this.#priorityLevels.delete(name);
        else this.#priorityLevels.add(name);
        if (event.type === 'MODIFIED') return;
        this.#queue.add(...[...this.#references].filter(([, pl]) => pl === name).map(([fs]) => fs));
      },
      error: (err) => this.#watchEnded('pl', err),
    });
  }

  #watchFlowSchemas(afterRevision: number): Promise<WatchHandle> {
    return this.#deps.flowSchemas.watch('', afterRevision, {
      event: (event) => {
        const name = event.object.metadata.name ?? '';
        if (event.type === 'DELETED') {
          this.#references.delete(name);
          this.#writes.delete(name);
          return;
        }
        this.#references.set(name, priorityLevelOf(event.object));
        // Our own status writes come back here too; the sync finds nothing to change and writes nothing.
        this.#queue.add(name);
      },
      error: (err) => this.#watchEnded('fs', err),
    });
  }

  async #sync(name: string): Promise<void> {
    let current: ApiObject;
    try {
      current = await this.#deps.flowSchemas.get('', name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
    if (withDanglingCondition(current, this.#priorityLevels.has(priorityLevelOf(current)), nowTimestamp()) === undefined) return;
    if (this.#rateLimited(name)) {
      if (this.#delayed.has(name)) return;
      this.#delayed.add(name);
      this.#later(30_000 + Math.floor(Math.random() * 45_000), () => {
        this.#delayed.delete(name);
        this.#queue.add(name);
      });
      return;
    }
    let wrote = false;
    try {
      // Re-decided on the stored object at compare-and-swap time; interference is retried by the store.
      await this.#deps.flowSchemaStatus.patch('', name, (latest) => {
        const next = withDanglingCondition(latest, this.#priorityLevels.has(priorityLevelOf(latest)), nowTimestamp());
        wrote = next !== undefined;
        return next ?? latest;
      }, { dryRun: false, transform: this.#track });
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return; // deleted meanwhile; the watch says so too
      throw err;
    }
    if (!wrote) return;
    this.#writes.set(name, [...(this.#writes.get(name) ?? []), Date.now()]);
    // An event when the reference breaks, and when a broken one is mended (not for every FlowSchema found at start).
    const condition = desiredDanglingCondition(priorityLevelOf(current), this.#priorityLevels.has(priorityLevelOf(current)));
    const wasDangling = conditionsOf(current).some((c) => isPlainObject(c) && c['type'] === DANGLING_CONDITION_TYPE && c['status'] === 'True');
    if (condition.status === 'False' && !wasDangling) return;
    const type = condition.status === 'True' ? 'Warning' : 'Normal';
    this.#deps.recorder?.record(referenceTo(current, apiVersionOfDefinition(this.#deps.flowSchemas.definition), 'FlowSchema'), type, condition.reason, 'UpdateStatus', condition.message);
  }

  #rateLimited(name: string): boolean {
    const recent = (this.#writes.get(name) ?? []).filter((t) => t > Date.now() - 60_000);
    this.#writes.set(name, recent);
    return recent.length > MAX_WRITES_PER_MINUTE;
  }
}

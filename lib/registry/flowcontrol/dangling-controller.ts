// Keeps each FlowSchema's `Dangling` condition in step with whether its priority level exists (apf_controller's status writes).
import type { Logger } from 'pino';
import { StatusError } from '../../apimachinery/errors';
import { goQuote } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { WorkQueue } from '../../controllers/work-queue';
import { Informer } from '../../controllers/informer';
import type { GenericStore } from '../generic/store';
import { nowTimestamp } from '../generic/system-metadata';
import { APF_CONFIG_CONSUMER_MANAGER, appliedAs } from '../generic/internal-field-manager';
import { apiVersionOfDefinition } from '../rest/resource';
import { referenceTo, type EventRecorder } from '../core/events/recorder';

export const DANGLING_CONDITION_TYPE = 'Dangling';
/** Every FlowSchema is re-checked this often (the informer's resync). */
const RESYNC_INTERVAL_MS = 30_000;
/** A failed status write is retried this soon. */
const RETRY_DELAY_MS = 1000;
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
    ? {
        type: DANGLING_CONDITION_TYPE,
        status: 'False',
        reason: 'Found',
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${goQuote(plName)} and it exists`,
      }
    : {
        type: DANGLING_CONDITION_TYPE,
        status: 'True',
        reason: 'NotFound',
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${goQuote(plName)} but there is no such object`,
      };
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
  return {
    apiVersion,
    kind: 'FlowSchema',
    metadata: { name: fs.metadata.name },
    status: { conditions: condition === undefined ? [] : [condition] },
  };
}

/** The FlowSchema with its condition set, or undefined when status, reason and message already match (no write). */
export function withDanglingCondition(fs: ApiObject, exists: boolean, now: string): ApiObject | undefined {
  const want = desiredDanglingCondition(priorityLevelOf(fs), exists);
  const conditions = conditionsOf(fs);
  const index = conditions.findIndex((c) => isPlainObject(c) && c['type'] === DANGLING_CONDITION_TYPE);
  const have = conditions[index];
  if (
    isPlainObject(have) &&
    have['status'] === want.status &&
    have['reason'] === want.reason &&
    have['message'] === want.message
  )
    return undefined;
  // Like upstream, every write stamps the time: writes only happen when status, reason or message change.
  const condition: DanglingCondition = {
    type: want.type,
    status: want.status,
    lastTransitionTime: now,
    reason: want.reason,
    message: want.message,
  };
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
  /** The priority levels and FlowSchemas of the current leadership term (a stopped informer does not restart). */
  #priorityLevels: Informer | undefined;
  #flowSchemas: Informer | undefined;
  readonly #queue = new WorkQueue(
    (name) => this.#sync(name),
    (name, err) => {
      this.#deps.log.warn({ err, flowSchema: name }, 'writing the Dangling condition failed; will retry');
      this.#later(RETRY_DELAY_MS, () => this.#queue.add(name));
    },
    () => this.#stopped,
  );
  /** Recent write times per FlowSchema, for Kubernetes' rate limit. */
  readonly #writes = new Map<string, number[]>();
  readonly #timers = new Set<NodeJS.Timeout>();
  /** FlowSchemas waiting out the rate limit (one timer each). */
  readonly #delayed = new Set<string>();
  #stopped = true;

  /** Status writes are recorded as Kubernetes' config consumer records them (a forced Apply to the status subresource). */
  readonly #track: ReturnType<typeof appliedAs>;

  constructor(deps: DanglingConditionControllerDeps) {
    this.#deps = deps;
    const apiVersion = apiVersionOfDefinition(deps.flowSchemaStatus.definition);
    this.#track = appliedAs(APF_CONFIG_CONSUMER_MANAGER, deps.flowSchemaStatus.definition, 'status', (fs) =>
      danglingApplyConfiguration(fs, apiVersion),
    );
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const log = this.#deps.log;
    const priorityLevels = new Informer(this.#deps.priorityLevels, { log, resource: 'prioritylevelconfigurations' });
    // The periodic resync re-checks every FlowSchema (catches up anything missed).
    const flowSchemas = new Informer(this.#deps.flowSchemas, {
      log,
      resource: 'flowschemas',
      resyncPeriodMs: RESYNC_INTERVAL_MS,
    });
    this.#priorityLevels = priorityLevels;
    this.#flowSchemas = flowSchemas;
    // FlowSchemas are checked only once the priority levels are known (else every reference would look dangling).
    const check = (fs: ApiObject): void => {
      if (priorityLevels.hasSynced()) this.#queue.add(fs.metadata.name ?? '');
    };
    // Only existence matters, so only adds and deletes of priority levels change anything.
    const referencing = (pl: ApiObject): void =>
      this.#queue.add(
        ...[...flowSchemas.objects.values()]
          .filter((fs) => priorityLevelOf(fs) === pl.metadata.name)
          .map((fs) => fs.metadata.name ?? ''),
      );
    priorityLevels.addHandler({
      add: referencing,
      delete: referencing,
      synced: () => this.#queue.add(...flowSchemas.objects.keys()),
    });
    flowSchemas.addHandler({
      add: check,
      // Our own status writes come back here too; the sync finds nothing to change and writes nothing.
      update: (_old, fs) => check(fs),
      delete: (fs) => void this.#writes.delete(fs.metadata.name ?? ''),
    });
    void priorityLevels.start();
    void flowSchemas.start();
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#delayed.clear();
    this.#queue.clear();
    void this.#priorityLevels?.stop();
    void this.#flowSchemas?.stop();
    this.#priorityLevels = undefined;
    this.#flowSchemas = undefined;
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

  #plExists(name: string): boolean {
    return this.#priorityLevels?.objects.has(name) ?? false;
  }

  async #sync(name: string): Promise<void> {
    let current: ApiObject;
    try {
      current = await this.#deps.flowSchemas.get('', name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
    if (withDanglingCondition(current, this.#plExists(priorityLevelOf(current)), nowTimestamp()) === undefined) return;
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
      await this.#deps.flowSchemaStatus.patch(
        '',
        name,
        (latest) => {
          const next = withDanglingCondition(latest, this.#plExists(priorityLevelOf(latest)), nowTimestamp());
          wrote = next !== undefined;
          return next ?? latest;
        },
        { dryRun: false, transform: this.#track },
      );
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return; // deleted meanwhile; the watch says so too
      throw err;
    }
    if (!wrote) return;
    this.#writes.set(name, [...(this.#writes.get(name) ?? []), Date.now()]);
    // An event when the reference breaks, and when a broken one is mended (not for every FlowSchema found at start).
    const condition = desiredDanglingCondition(priorityLevelOf(current), this.#plExists(priorityLevelOf(current)));
    const wasDangling = conditionsOf(current).some(
      (c) => isPlainObject(c) && c['type'] === DANGLING_CONDITION_TYPE && c['status'] === 'True',
    );
    if (condition.status === 'False' && !wasDangling) return;
    const type = condition.status === 'True' ? 'Warning' : 'Normal';
    this.#deps.recorder?.record(
      referenceTo(current, apiVersionOfDefinition(this.#deps.flowSchemas.definition), 'FlowSchema'),
      type,
      condition.reason,
      'UpdateStatus',
      condition.message,
    );
  }

  #rateLimited(name: string): boolean {
    const recent = (this.#writes.get(name) ?? []).filter((t) => t > Date.now() - 60_000);
    this.#writes.set(name, recent);
    return recent.length > MAX_WRITES_PER_MINUTE;
  }
}

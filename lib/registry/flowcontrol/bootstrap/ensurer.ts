// Keeps the APF bootstrap FlowSchemas and priority levels in place (kube-apiserver's priority-and-fairness-config-producer).
import type { Logger } from 'pino';
import { StatusError } from '../../../apimachinery/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { semanticEqual } from '../../../apimachinery/validation/semantic-equal';
import type { GenericStore } from '../../generic/store';
import { LIST_EVERYTHING } from '../../generic/list';
import { APF_CONFIG_PRODUCER_MANAGER, trackedAs } from '../../generic/internal-field-manager';
import {
  AUTO_UPDATE_ANNOTATION,
  BOOTSTRAP_FLOW_SCHEMA_NAMES,
  BOOTSTRAP_PRIORITY_LEVEL_NAMES,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
  flowSchemaObject,
  priorityLevelObject,
  type BootstrapObject,
} from './configuration';

/** Kubernetes: first run retried every second for up to five minutes, then once a minute for the server's life. */
const INITIAL_RETRY_MS = 1000;
const INITIAL_TIMEOUT_MS = 5 * 60_000;
const RESYNC_INTERVAL_MS = 60_000;
/** Re-reads after AlreadyExists/Conflict/NotFound from a concurrent writer before giving up until the next run. */
const MAX_ATTEMPTS = 5;
export const INITIALIZATION_FAILED_TEXT = 'unable to initialize APF bootstrap configuration';

export interface FlowcontrolBootstrapDeps {
  flowSchemas: GenericStore;
  priorityLevels: GenericStore;
  log: Logger;
  /** Overrides of the Kubernetes timings (tests). */
  timing?: { initialRetryMs?: number; initialTimeoutMs?: number; resyncMs?: number };
}

interface Kind {
  name: 'FlowSchema' | 'PriorityLevelConfiguration';
  store: GenericStore;
  build(b: BootstrapObject): ApiObject;
}

/** strconv.ParseBool: the only spellings Go accepts; anything else is "not a boolean". */
export function parseGoBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/**
 * Suggested objects follow the annotation when it is a boolean; otherwise they are updated only
 * while never edited (generation 1), so operator changes survive (ensurer/strategy.go shouldUpdateSpec).
 */
function shouldUpdateSpec(current: ApiObject): boolean {
  const parsed = parseGoBool(current.metadata.annotations?.[AUTO_UPDATE_ANNOTATION]);
  return parsed ?? current.metadata.generation === 1;
}

/** The object to write, or undefined when `current` is already as it should be. */
export function planUpdate(current: ApiObject, wanted: ApiObject, mandatory: boolean): ApiObject | undefined {
  const autoUpdateSpec = mandatory || shouldUpdateSpec(current);
  const updateAnnotation = parseGoBool(current.metadata.annotations?.[AUTO_UPDATE_ANNOTATION]) !== autoUpdateSpec;
  const specChanged = autoUpdateSpec && !specsEqual(wanted['spec'], current['spec']);
  if (!updateAnnotation && !specChanged) return undefined;
  const next = structuredClone(current);
  if (updateAnnotation)
    next.metadata.annotations = { ...next.metadata.annotations, [AUTO_UPDATE_ANNOTATION]: String(autoUpdateSpec) };
  if (specChanged) next['spec'] = structuredClone(wanted['spec']);
  return next;
}

/** Go decodes an absent bool as false (clusterScope is omitempty), so false and absent compare equal. */
function withoutFalse(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutFalse);
  if (!isPlainObject(v)) return v;
  return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === false ? [] : [[k, withoutFalse(x)]])));
}

/** equality.Semantic.DeepEqual of the typed specs, as upstream's HasSpecChanged compares them. */
function specsEqual(a: unknown, b: unknown): boolean {
  return semanticEqual(withoutFalse(a), withoutFalse(b));
}

function statusCode(err: unknown): number | undefined {
  return err instanceof StatusError ? err.code : undefined;
}

export class FlowcontrolBootstrap {
  readonly #log: Logger;
  readonly #flowSchemas: Kind;
  readonly #priorityLevels: Kind;
  readonly #timing: Required<NonNullable<FlowcontrolBootstrapDeps['timing']>>;
  #timer: NodeJS.Timeout | undefined;
  #wake: (() => void) | undefined;
  #running = false;
  #stopped = false;

  constructor(deps: FlowcontrolBootstrapDeps) {
    this.#log = deps.log;
    this.#flowSchemas = { name: 'FlowSchema', store: deps.flowSchemas, build: flowSchemaObject };
    this.#priorityLevels = {
      name: 'PriorityLevelConfiguration',
      store: deps.priorityLevels,
      build: priorityLevelObject,
    };
    this.#timing = {
      initialRetryMs: deps.timing?.initialRetryMs ?? INITIAL_RETRY_MS,
      initialTimeoutMs: deps.timing?.initialTimeoutMs ?? INITIAL_TIMEOUT_MS,
      resyncMs: deps.timing?.resyncMs ?? RESYNC_INTERVAL_MS,
    };
  }

  /**
   * One pass, in Kubernetes 1.26's order: suggested PLC, suggested FS, mandatory PLC, mandatory FS, then obsolete
   * objects. Priority levels go first so a fresh cluster's FlowSchemas never reference a missing one (no Dangling).
   */
  async ensure(): Promise<void> {
    await this.#ensureAll(this.#priorityLevels, SUGGESTED_PRIORITY_LEVELS, false);
    await this.#ensureAll(this.#flowSchemas, SUGGESTED_FLOW_SCHEMAS, false);
    await this.#ensureAll(this.#priorityLevels, MANDATORY_PRIORITY_LEVELS, true);
    await this.#ensureAll(this.#flowSchemas, MANDATORY_FLOW_SCHEMAS, true);
    await this.#removeObsolete(this.#flowSchemas, BOOTSTRAP_FLOW_SCHEMA_NAMES);
    await this.#removeObsolete(this.#priorityLevels, BOOTSTRAP_PRIORITY_LEVEL_NAMES);
  }

  /**
   * Ensures now, retrying every second for up to five minutes (then rejects with Kubernetes' post-start
   * hook text), and afterwards re-ensures once a minute until stop().
   */
  async start(): Promise<void> {
    this.#stopped = false;
    const deadline = Date.now() + this.#timing.initialTimeoutMs;
    for (;;) {
      if (this.#stopped) return;
      try {
        await this.ensure();
        break;
      } catch (err) {
        this.#log.error({ err }, 'APF bootstrap ensurer ran into error, will retry later');
        if (Date.now() >= deadline) throw new Error(INITIALIZATION_FAILED_TEXT, { cause: err });
        await this.#sleep(this.#timing.initialRetryMs);
      }
    }
    if (this.#stopped) return;
    this.#timer = setInterval(() => void this.#periodic(), this.#timing.resyncMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#wake?.();
  }

  async #periodic(): Promise<void> {
    // A slow etcd must not stack runs on top of each other.
    if (this.#running || this.#stopped) return;
    this.#running = true;
    try {
      await this.ensure();
    } catch (err) {
      this.#log.error({ err }, 'APF bootstrap ensurer ran into error, will retry later');
    } finally {
      this.#running = false;
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Every object is tried even when one fails, so one bad object does not block the rest. */
  async #ensureAll(kind: Kind, objects: readonly BootstrapObject[], mandatory: boolean): Promise<void> {
    const errors: unknown[] = [];
    for (const b of objects) {
      try {
        await this.#ensureOne(kind, b, mandatory);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0)
      throw new AggregateError(errors, `failed ensuring ${mandatory ? 'mandatory' : 'suggested'} ${kind.name} objects`);
  }

  async #ensureOne(kind: Kind, b: BootstrapObject, mandatory: boolean): Promise<void> {
    const wanted = kind.build(b);
    // Compared after defaulting, like upstream (the specs are already in defaulted form).
    kind.store.strategy.applyDefaults(wanted);
    for (let attempt = 1; ; attempt++) {
      try {
        const current = await this.#getOrUndefined(kind, b.name);
        if (current === undefined) {
          await kind.store.create('', structuredClone(wanted), {
            dryRun: false,
            transform: trackedAs(APF_CONFIG_PRODUCER_MANAGER, kind.store.definition),
          });
          this.#log.info({ kind: kind.name, name: b.name, mandatory }, 'created APF bootstrap object');
          return;
        }
        if (planUpdate(current, wanted, mandatory) === undefined) return;
        let wrote = false;
        // The decision is re-made on whatever is stored when the compare-and-swap runs, so a concurrent writer's change is judged, not overwritten.
        await kind.store.patch(
          '',
          b.name,
          (latest) => {
            const next = planUpdate(latest, wanted, mandatory);
            wrote = next !== undefined;
            return next ?? latest;
          },
          { dryRun: false, transform: trackedAs(APF_CONFIG_PRODUCER_MANAGER, kind.store.definition) },
        );
        if (wrote) this.#log.info({ kind: kind.name, name: b.name, mandatory }, 'updated APF bootstrap object');
        return;
      } catch (err) {
        // 409 AlreadyExists/Conflict: another replica got there first; 404: deleted under us. Re-read and re-check.
        const code = statusCode(err);
        if ((code !== 409 && code !== 404) || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  async #getOrUndefined(kind: Kind, name: string): Promise<ApiObject | undefined> {
    try {
      return await kind.store.get('', name);
    } catch (err) {
      if (statusCode(err) === 404) return undefined;
      throw err;
    }
  }

  /** Objects carrying the annotation whose names left the bootstrap set are deleted, but only while it says "true". */
  async #removeObsolete(kind: Kind, keep: ReadonlySet<string>): Promise<void> {
    const { items } = await kind.store.list('', LIST_EVERYTHING);
    for (const item of items) {
      const name = item.metadata.name ?? '';
      if (
        keep.has(name) ||
        !isPlainObject(item.metadata.annotations) ||
        !Object.hasOwn(item.metadata.annotations, AUTO_UPDATE_ANNOTATION)
      )
        continue;
      await this.#removeOne(kind, name);
    }
  }

  async #removeOne(kind: Kind, name: string): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const current = await this.#getOrUndefined(kind, name);
      if (current === undefined) return;
      const value = current.metadata.annotations?.[AUTO_UPDATE_ANNOTATION];
      if (value === undefined) return;
      const autoUpdate = parseGoBool(value);
      if (autoUpdate === undefined) {
        // Needs an operator; retrying would not help.
        this.#log.error(
          { kind: kind.name, name, value },
          `Skipping deletion of the ${kind.name}: unexpected annotation value, expected a boolean`,
        );
        return;
      }
      if (!autoUpdate) return;
      try {
        // Precondition: an operator flipping the annotation to "false" meanwhile wins.
        await kind.store.delete(
          '',
          name,
          { preconditions: { resourceVersion: current.metadata.resourceVersion ?? '' } },
          { dryRun: false },
        );
        this.#log.info({ kind: kind.name, name }, 'deleted obsolete APF bootstrap object');
        return;
      } catch (err) {
        const code = statusCode(err);
        if (code === 404) return;
        if (code !== 409) throw err;
      }
    }
  }
}

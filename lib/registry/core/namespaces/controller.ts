// The namespace controller, in-process: empties terminating namespaces, then drops the `orch` finalizer.
import type { Logger } from 'pino';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { StatusError } from '../../../apimachinery/errors';
import { NAMESPACE_FINALIZER } from '../../../apis/core/well-known-names';
import type { GenericStore } from '../../generic/store';
import { LIST_EVERYTHING } from '../../generic/list';
import { WorkQueue } from '../../../controllers/work-queue';
import { Informer } from '../../../controllers/informer';
import { updateDeletionConditions, type RemainingContent } from './deletion-conditions';
import { KUBE_CONTROLLER_MANAGER, trackedAs } from '../../generic/internal-field-manager';
import { referenceTo, type EventRecorder } from '../events/recorder';

/** Terminating namespaces are re-examined this often, so work left by a crashed replica is finished. */
const RESYNC_INTERVAL_MS = 5000;
const CLEANUP_PAGE_SIZE = 500;
const CONTENT_REMAINING_RECHECK_MS = 1000;
const CLEANUP_CONCURRENCY = 16;

export interface NamespaceControllerDeps {
  namespaces: GenericStore;
  /** The `finalize` view of the namespace store (only spec.finalizers change). */
  finalize: GenericStore;
  /** The `status` view of the namespace store, for the deletion conditions. */
  status: GenericStore;
  /** Every namespaced resource store whose objects live in namespaces. */
  namespacedStores: () => GenericStore[];
  log: Logger;
  /** Told about every namespace change seen on the watch (other replicas' writes included). */
  onNamespaceChange?(name: string): void;
  /** Records the deletion's progress as events on the namespace. */
  recorder?: EventRecorder;
  /** Whether this replica deletes the content of terminating namespaces now (the leader of the controllers' election); default always. */
  cleans?(): boolean;
}

/** The deletion conditions that report remaining work, recorded as events when they change. */
const PROGRESS_CONDITIONS = new Set(['NamespaceContentRemaining', 'NamespaceFinalizersRemaining']);

function specFinalizers(ns: ApiObject): string[] {
  const spec = ns['spec'] as { finalizers?: unknown } | undefined;
  return Array.isArray(spec?.finalizers) ? spec.finalizers.filter((f): f is string => typeof f === 'string') : [];
}

export class NamespaceController {
  readonly #deps: NamespaceControllerDeps;
  readonly #queue = new WorkQueue(
    (name) => this.#sync(name),
    (name, err) => {
      // Every replica runs this controller: the one that loses the race finds the namespace already gone.
      if (err instanceof StatusError && err.code === 404) return;
      this.#deps.log.warn({ err, namespace: name }, 'namespace cleanup failed; will retry');
    },
    () => this.#stopped,
  );
  readonly #informer: Informer;
  #stopped = false;

  constructor(deps: NamespaceControllerDeps) {
    this.#deps = deps;
    // Terminating namespaces are re-examined at each resync, so work left by a crashed replica is finished.
    this.#informer = new Informer(deps.namespaces, {
      log: deps.log,
      resource: 'namespaces',
      resyncPeriodMs: RESYNC_INTERVAL_MS,
    });
    const seen = (ns: ApiObject): void => {
      if (ns.metadata.deletionTimestamp) this.enqueue(ns.metadata.name ?? '');
    };
    this.#informer.addHandler({
      add: (ns) => {
        this.#deps.onNamespaceChange?.(ns.metadata.name ?? '');
        seen(ns);
      },
      update: (old, ns) => {
        if (old !== ns) this.#deps.onNamespaceChange?.(ns.metadata.name ?? '');
        seen(ns);
      },
      delete: (ns) => this.#deps.onNamespaceChange?.(ns.metadata.name ?? ''),
    });
  }

  /** Reacts to namespaces starting to terminate (informer), and re-examines them periodically to recover missed work. */
  start(): void {
    void this.#informer.start();
  }

  stop(): void {
    this.#stopped = true;
    void this.#informer.stop();
  }

  /** Asks for `name` to be processed soon (called right after a namespace starts terminating). */
  enqueue(name: string): void {
    if (this.#deps.cleans && !this.#deps.cleans()) return;
    this.#queue.add(name);
  }

  /** Picks up every terminating namespace now (this replica just became the one that cleans). */
  resyncNow(): void {
    this.#informer.resync();
  }

  async #sync(name: string): Promise<void> {
    let ns: ApiObject;
    try {
      ns = await this.#deps.namespaces.get('', name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp || !specFinalizers(ns).includes(NAMESPACE_FINALIZER)) return;
    const remaining: RemainingContent = { byResource: new Map(), byFinalizer: new Map() };
    for (const store of this.#deps.namespacedStores()) {
      const left = await this.#deleteContent(store, name);
      if (left.length > 0)
        remaining.byResource.set(`${store.definition.resource}.${store.definition.group}`, left.length);
      for (const finalizer of left.flat())
        remaining.byFinalizer.set(finalizer, (remaining.byFinalizer.get(finalizer) ?? 0) + 1);
    }
    // Like the deleter, record progress in status.conditions whenever it changed (also once all content is gone).
    let changed: unknown[] | undefined;
    await this.#deps.status.patch(
      '',
      name,
      (current) => {
        const status = (current['status'] ?? {}) as Record<string, unknown>;
        const conditions = updateDeletionConditions(status['conditions'], remaining);
        changed = conditions;
        return conditions ? { ...current, status: { ...status, conditions } } : current;
      },
      { dryRun: false, transform: trackedAs(KUBE_CONTROLLER_MANAGER, this.#deps.status.definition, 'status') },
    );
    this.#recordProgress(ns, changed);
    // Objects held by finalizers keep the namespace; look again soon, as Kubernetes requeues with an estimate.
    if (remaining.byResource.size > 0) {
      setTimeout(() => this.enqueue(name), CONTENT_REMAINING_RECHECK_MS).unref();
      return;
    }
    await this.#deps.finalize.patch(
      '',
      name,
      (current) => {
        const spec = (current['spec'] ?? {}) as Record<string, unknown>;
        return {
          ...current,
          spec: { ...spec, finalizers: specFinalizers(current).filter((f) => f !== NAMESPACE_FINALIZER) },
        };
      },
      { dryRun: false, transform: trackedAs(KUBE_CONTROLLER_MANAGER, this.#deps.finalize.definition, 'finalize') },
    );
    this.#deps.log.info({ namespace: name }, 'namespace finalized');
    this.#deps.recorder?.record(
      referenceTo(ns, 'v1', 'Namespace'),
      'Normal',
      'NamespaceFinalized',
      'Finalize',
      'All content removed; the namespace finalizer was removed',
    );
  }

  /** One event per remaining-work condition that is True after a change (a namespace's deletion progress). */
  #recordProgress(ns: ApiObject, conditions: unknown[] | undefined): void {
    const recorder = this.#deps.recorder;
    if (!recorder || !conditions) return;
    for (const c of conditions as Array<Record<string, unknown>>) {
      if (!PROGRESS_CONDITIONS.has(String(c['type'])) || c['status'] !== 'True') continue;
      recorder.record(
        referenceTo(ns, 'v1', 'Namespace'),
        'Normal',
        String(c['reason']),
        'Delete',
        String(c['message']),
      );
    }
  }

  /**
   * Deletes everything of one resource in the namespace, a page at a time so that memory stays bounded, and
   * returns the finalizers of each object left (held by finalizers). Deletes are idempotent, so a replica that
   * crashes midway leaves work any replica's resync finishes.
   */
  async #deleteContent(store: GenericStore, namespace: string): Promise<string[][]> {
    const remaining: string[][] = [];
    let continueToken = '';
    do {
      const page = await store.list(namespace, { ...LIST_EVERYTHING, limit: CLEANUP_PAGE_SIZE, continueToken });
      const live = page.items.filter((item) => !item.metadata.deletionTimestamp);
      remaining.push(
        ...page.items.filter((item) => item.metadata.deletionTimestamp).map((item) => item.metadata.finalizers ?? []),
      );
      for (let i = 0; i < live.length; i += CLEANUP_CONCURRENCY) {
        const outcomes = await Promise.all(
          live.slice(i, i + CLEANUP_CONCURRENCY).map((item) =>
            store.delete(namespace, item.metadata.name ?? '', {}, { dryRun: false }).catch((err: unknown) => {
              if (err instanceof StatusError && err.code === 404) return undefined;
              throw err;
            }),
          ),
        );
        for (const o of outcomes) if (o?.kind === 'terminating') remaining.push(o.object.metadata.finalizers ?? []);
      }
      continueToken = page.continue ?? '';
    } while (continueToken !== '');
    return remaining;
  }
}

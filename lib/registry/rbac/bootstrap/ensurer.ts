// Creates and reconciles the bootstrap ClusterRoles and ClusterRoleBindings at start-up (kube-apiserver's
// rbac/bootstrap-roles post-start hook): missing objects are created; objects whose auto-update annotation is not
// "false" get missing labels, annotations, rules, aggregation selectors and subjects added (a union: nothing removed).
import type { Logger } from 'pino';
import { StatusError } from '../../../apimachinery/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { semanticEqual } from '../../../apimachinery/validation/semantic-equal';
import type { GenericStore } from '../../generic/store';
import { KUBE_APISERVER_MANAGER, trackedAs } from '../../generic/internal-field-manager';
import {
  AUTO_UPDATE_ANNOTATION,
  BOOTSTRAP_CLUSTER_ROLES,
  BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
  clusterRoleBindingObject,
  clusterRoleObject,
} from './policy';

const RETRY_MS = 1000;
const MAX_ATTEMPTS = 5;
export const RBAC_BOOTSTRAP_TIMEOUT_MS = 30_000;

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Entries of `wanted` that `existing` lacks (semantic equality). */
function missing(existing: unknown[], wanted: unknown[]): unknown[] {
  return wanted.filter((w) => !existing.some((e) => semanticEqual(e, w)));
}

/** The reconciled object, or undefined when `current` needs nothing (or is protected by autoupdate=false). */
function reconcile(current: ApiObject, wanted: ApiObject, listFields: readonly string[]): ApiObject | undefined {
  if (current.metadata.annotations?.[AUTO_UPDATE_ANNOTATION] === 'false') return undefined;
  const next = structuredClone(current);
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    const merged = { ...wanted.metadata[field], ...current.metadata[field] };
    if (!semanticEqual(merged, current.metadata[field] ?? {})) {
      next.metadata[field] = merged;
      changed = true;
    }
  }
  for (const field of listFields) {
    const [outer, inner] = field.split('.');
    const read = (o: ApiObject): unknown[] =>
      inner === undefined
        ? list(o[outer ?? ''])
        : list(isPlainObject(o[outer ?? '']) ? (o[outer ?? ''] as Record<string, unknown>)[inner] : undefined);
    const add = missing(read(current), read(wanted));
    if (add.length === 0) continue;
    changed = true;
    if (inner === undefined) next[outer ?? ''] = [...read(current), ...add];
    else
      next[outer ?? ''] = {
        ...(isPlainObject(next[outer ?? '']) ? (next[outer ?? ''] as object) : {}),
        [inner]: [...read(current), ...add],
      };
  }
  return changed ? next : undefined;
}

export interface RbacBootstrapDeps {
  clusterRoles: GenericStore;
  clusterRoleBindings: GenericStore;
  log: Logger;
}

export class RbacBootstrap {
  #stopped = false;
  constructor(private readonly deps: RbacBootstrapDeps) {}

  /** Ensures every bootstrap object, retrying each second until it succeeds, the timeout passes or stop() is called. */
  async start(timeoutMs = RBAC_BOOTSTRAP_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.ensure();
        return;
      } catch (err) {
        if (this.#stopped) return;
        this.deps.log.error({ err }, 'RBAC bootstrap policy could not be reconciled; retrying');
        if (Date.now() >= deadline) throw new Error('unable to initialize RBAC bootstrap policy', { cause: err });
        await new Promise((r) => setTimeout(r, RETRY_MS).unref());
      }
    }
  }

  stop(): void {
    this.#stopped = true;
  }

  async ensure(): Promise<void> {
    for (const role of BOOTSTRAP_CLUSTER_ROLES) {
      // An aggregated role's rules are the aggregation controller's: only its selectors are reconciled here.
      await this.#ensureOne(
        this.deps.clusterRoles,
        clusterRoleObject(role),
        role.aggregateFrom === undefined
          ? ['rules', 'aggregationRule.clusterRoleSelectors']
          : ['aggregationRule.clusterRoleSelectors'],
      );
    }
    for (const binding of BOOTSTRAP_CLUSTER_ROLE_BINDINGS)
      await this.#ensureOne(this.deps.clusterRoleBindings, clusterRoleBindingObject(binding), ['subjects']);
  }

  async #ensureOne(store: GenericStore, wanted: ApiObject, listFields: readonly string[]): Promise<void> {
    store.strategy.applyDefaults(wanted);
    const name = wanted.metadata.name ?? '';
    const transform = trackedAs(KUBE_APISERVER_MANAGER, store.definition);
    for (let attempt = 1; ; attempt++) {
      if (this.#stopped) return;
      try {
        const current = await store.get('', name).catch((err: unknown) => {
          if (err instanceof StatusError && err.code === 404) return undefined;
          throw err;
        });
        if (current === undefined) {
          await store.create('', structuredClone(wanted), { dryRun: false, transform });
          this.deps.log.info({ kind: wanted.kind, name }, 'created RBAC bootstrap object');
          return;
        }
        if (reconcile(current, wanted, listFields) === undefined) return;
        await store.patch('', name, (latest) => reconcile(latest, wanted, listFields) ?? latest, {
          dryRun: false,
          transform,
        });
        this.deps.log.info({ kind: wanted.kind, name }, 'reconciled RBAC bootstrap object');
        return;
      } catch (err) {
        const code = err instanceof StatusError ? err.code : undefined;
        if ((code !== 409 && code !== 404) || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }
}

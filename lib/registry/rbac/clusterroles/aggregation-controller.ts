// ClusterRole aggregation (kube-controller-manager's clusterrole-aggregation controller): an aggregated ClusterRole's
// rules are the rules of every other ClusterRole its aggregationRule selects, in name order, without duplicates.
import type { Logger } from 'pino';
import { StatusError } from '../../../apimachinery/errors';
import type { FieldError } from '../../../apimachinery/field/errors';
import { FieldPath } from '../../../apimachinery/field/path';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { semanticEqual } from '../../../apimachinery/validation/semantic-equal';
import { labelSelectorAsSelector, readLabelSelector } from '../../../apis/apps/label-selector';
import type { GenericStore } from '../../generic/store';
import { KUBE_CONTROLLER_MANAGER, trackedAs } from '../../generic/internal-field-manager';

const SYNC_DEBOUNCE_MS = 20;

function byName(a: ApiObject, b: ApiObject): number {
  const an = a.metadata.name ?? '';
  const bn = b.metadata.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** The rules `role` aggregates from `all`, or undefined when it has no aggregationRule. */
export function aggregatedRules(role: ApiObject, all: readonly ApiObject[]): unknown[] | undefined {
  const rule = role['aggregationRule'];
  if (!isPlainObject(rule)) return undefined;
  const rules: unknown[] = [];
  const selectors = Array.isArray(rule['clusterRoleSelectors']) ? rule['clusterRoleSelectors'] : [];
  const sorted = [...all].sort(byName);
  selectors.forEach((value, i) => {
    const errs: FieldError[] = [];
    const selector = readLabelSelector(errs, FieldPath.root('clusterRoleSelectors').index(i), value);
    const matcher =
      selector === undefined || typeof selector !== 'object' ? undefined : labelSelectorAsSelector(selector);
    if (!matcher) return;
    for (const other of sorted) {
      if (other.metadata.name === role.metadata.name || !matcher.matches(other.metadata.labels)) continue;
      for (const r of Array.isArray(other['rules']) ? other['rules'] : [])
        if (!rules.some((have) => semanticEqual(have, r))) rules.push(r);
    }
  });
  return rules;
}

export interface AggregationDeps {
  store: GenericStore;
  /** The ClusterRoles as currently known (a watch-fed cache). */
  clusterRoles: () => readonly ApiObject[];
  log: Logger;
}

export class ClusterRoleAggregation {
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #again = false;
  #stopped = false;
  constructor(private readonly deps: AggregationDeps) {}

  /** Call on every ClusterRole change; syncs are batched and never overlap. */
  changed(): void {
    if (this.#stopped || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#sync();
    }, SYNC_DEBOUNCE_MS);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }

  async #sync(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    try {
      const all = this.deps.clusterRoles();
      for (const role of all) {
        if (this.#stopped) return;
        const rules = aggregatedRules(role, all);
        if (rules === undefined || semanticEqual(rules, Array.isArray(role['rules']) ? role['rules'] : [])) continue;
        await this.#write(role.metadata.name ?? '', all);
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'ClusterRole aggregation failed; retrying on the next change');
    } finally {
      this.#running = false;
      if (this.#again) {
        this.#again = false;
        this.changed();
      }
    }
  }

  async #write(name: string, all: readonly ApiObject[]): Promise<void> {
    try {
      await this.deps.store.patch(
        '',
        name,
        (latest) => {
          const rules = aggregatedRules(latest, all);
          if (rules === undefined) return latest;
          return { ...latest, rules };
        },
        { dryRun: false, transform: trackedAs(KUBE_CONTROLLER_MANAGER, this.deps.store.definition) },
      );
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
  }
}

// The webhook configurations every request is checked against, kept current from a list and a watch of both
// kinds (the watch cache feeds it, so a change made through any replica takes effect here within milliseconds).
import type { Logger } from 'pino';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import type { GenericStore } from '../../../registry/generic/store';
import { LIST_EVERYTHING } from '../../../registry/generic/list';
import type { WatchHandle } from '../../../storage/storage';
import type { ResourceRegistry } from '../../../registry/resource-registry';
import { ADMISSIONREGISTRATION_GROUP } from '../../../apis/admissionregistration/register';

const RESTART_DELAY_MS = 500;

/** One webhook of a configuration, with the configuration's name (for ordering and metrics). */
export interface Webhook {
  configuration: string;
  /** Position of the webhook in its configuration. */
  index: number;
  spec: Record<string, unknown>;
}

class ConfigurationSet {
  readonly #storeOf: () => GenericStore;
  readonly #log: Logger;
  readonly #objects = new Map<string, ApiObject>();
  #sorted: Webhook[] = [];
  #watch: WatchHandle | undefined;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(store: () => GenericStore, log: Logger) {
    this.#storeOf = store;
    this.#log = log;
  }

  get webhooks(): readonly Webhook[] {
    return this.#sorted;
  }

  async start(): Promise<void> {
    if (this.#stopped) return;
    try {
      const store = this.#storeOf();
      const listed = await store.list('', LIST_EVERYTHING);
      this.#objects.clear();
      for (const obj of listed.items) this.#objects.set(obj.metadata.name ?? '', obj);
      this.#rebuild();
      this.#watch = await store.watch('', Number(listed.resourceVersion), {
        event: (event) => {
          const name = event.object.metadata.name ?? '';
          if (event.type === 'DELETED') this.#objects.delete(name);
          else this.#objects.set(name, event.object);
          this.#rebuild();
        },
        error: (err) => this.#restart(err),
      });
    } catch (err) {
      this.#restart(err);
    }
  }

  #restart(err: unknown): void {
    if (this.#stopped) return;
    this.#log.warn({ err }, 'webhook configuration watch ended; restarting');
    this.#timer = setTimeout(() => void this.start(), RESTART_DELAY_MS);
    this.#timer.unref();
  }

  /** Configurations in name order, each webhook in its order (as the generic webhook source sorts them). */
  #rebuild(): void {
    const names = [...this.#objects.keys()].sort();
    this.#sorted = names.flatMap((configuration) => {
      const hooks = this.#objects.get(configuration)?.['webhooks'];
      return Array.isArray(hooks)
        ? hooks.filter(isPlainObject).map((spec, index) => ({ configuration, index, spec }))
        : [];
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#watch?.cancel();
  }
}

/** The two configuration stores of a registry built later (the admission is built before the registry). */
export function lazyWebhookStores(registry: () => ResourceRegistry | undefined): {
  mutating: () => GenericStore;
  validating: () => GenericStore;
} {
  const store = (resource: string) => (): GenericStore => {
    const served = registry()?.lookup(ADMISSIONREGISTRATION_GROUP, 'v1', resource);
    if (!served) throw new Error(`${resource}.${ADMISSIONREGISTRATION_GROUP}/v1 is not served`);
    return served.store;
  };
  return { mutating: store('mutatingwebhookconfigurations'), validating: store('validatingwebhookconfigurations') };
}

export class WebhookSource {
  readonly mutating: ConfigurationSet;
  readonly validating: ConfigurationSet;

  constructor(stores: { mutating: () => GenericStore; validating: () => GenericStore }, log: Logger) {
    this.mutating = new ConfigurationSet(stores.mutating, log);
    this.validating = new ConfigurationSet(stores.validating, log);
  }

  start(): Promise<void> {
    return Promise.all([this.mutating.start(), this.validating.start()]).then(() => undefined);
  }

  async stop(): Promise<void> {
    await Promise.all([this.mutating.stop(), this.validating.stop()]);
  }
}

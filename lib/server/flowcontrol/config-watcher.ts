// Keeps a compiled Classifier current with the stored FlowSchemas and priority levels: list, then etcd watches.
import type { Logger } from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { GenericStore } from '../../registry/generic/store';
import { Informer, onAnyChange } from '../../controllers/informer';
import { compileClassifier, FALLBACK_CLASSIFIER, type Classifier } from './classifier';

/** Bursts of changes (the bootstrap maintainer writes a dozen objects) are compiled once. */
const RECOMPILE_DEBOUNCE_MS = 5;

export interface FlowcontrolConfigDeps {
  flowSchemas: GenericStore;
  priorityLevels: GenericStore;
  log: Logger;
}

/**
 * The APF configuration in effect. Until both resources were listed once, `classifier` is the fallback holding only
 * the mandatory stand-ins (everyone but `system:masters` goes to `catch-all`, empty UIDs).
 */
export class FlowcontrolConfig {
  readonly #log: Logger;
  readonly #flowSchemas: Informer;
  readonly #priorityLevels: Informer;
  #classifier: Classifier = FALLBACK_CLASSIFIER;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  readonly #listeners: Array<(priorityLevels: readonly ApiObject[]) => void> = [];

  constructor(deps: FlowcontrolConfigDeps) {
    this.#log = deps.log;
    this.#flowSchemas = new Informer(deps.flowSchemas, { log: deps.log, resource: 'flowschemas' });
    this.#priorityLevels = new Informer(deps.priorityLevels, {
      log: deps.log,
      resource: 'prioritylevelconfigurations',
    });
    for (const informer of [this.#flowSchemas, this.#priorityLevels])
      informer.addHandler(onAnyChange(() => this.#scheduleRecompile()));
  }

  /** Reads both resources and starts watching them. Resolves after the first attempt; failures are retried in the background. */
  async start(): Promise<void> {
    await Promise.all([this.#flowSchemas.start(), this.#priorityLevels.start()]);
    if (this.loaded) this.#recompile();
  }

  /** Stops watching; resolves once the watches are cancelled (the classifier keeps its last state). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await Promise.all([this.#flowSchemas.stop(), this.#priorityLevels.stop()]);
  }

  /** True once both resources were listed (the classifier then reflects stored objects). */
  get loaded(): boolean {
    return this.#flowSchemas.hasSynced() && this.#priorityLevels.hasSynced();
  }

  get classifier(): Classifier {
    return this.#classifier;
  }

  /** Called with the stored priority levels each time the configuration is recompiled (the dispatcher follows it). */
  onChange(listener: (priorityLevels: readonly ApiObject[]) => void): void {
    this.#listeners.push(listener);
    if (this.loaded) listener([...this.#priorityLevels.objects.values()]);
  }

  #scheduleRecompile(): void {
    if (this.#stopped || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#recompile();
    }, RECOMPILE_DEBOUNCE_MS);
    this.#timer.unref();
  }

  #recompile(): void {
    if (this.#stopped || !this.loaded) return;
    try {
      const priorityLevels = [...this.#priorityLevels.objects.values()];
      this.#classifier = compileClassifier([...this.#flowSchemas.objects.values()], priorityLevels);
      for (const listener of this.#listeners) listener(priorityLevels);
    } catch (err) {
      // compileClassifier does not throw on odd objects; keep the previous classifier if it ever does.
      this.#log.error({ err }, 'flowcontrol classifier compilation failed; keeping the previous one');
    }
  }
}

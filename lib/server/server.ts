// ApiServer: connects etcd (embedded or given), assembles storage, registry, controllers and HTTP, and shuts down gracefully.
import { createServer as createHttpServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Etcd3 } from 'etcd3';
import { newEtcdClient } from '../storage/etcd/client';
import type { Logger } from 'pino';
import { EtcdStorage } from '../storage/etcd/store';
import { Compactor } from '../storage/etcd/compactor';
import type { Storage } from '../storage/storage';
import { buildRegistry } from '../registry/install';
import type { ResourceRegistry } from '../registry/resource-registry';
import type { GenericStore } from '../registry/generic/store';
import { NamespaceLifecycle } from '../registry/core/namespaces/lifecycle-admission';
import { startControllers, type RunningControllers } from './controllers';
import { handleWatch } from '../endpoints/handlers/watch';
import type { ServerOptions } from './options/options';
import { startEmbeddedEtcd, type EmbeddedEtcd } from './embedded-etcd';
import { buildRequestListener } from './handler-chain';
import { ensureAuditLogFile, openAuditLog } from './filters/audit';
import { ApiServerMetrics } from './metrics/metrics';
import { flagCheck, pingCheck, withGracePeriod, withTimeout, type HealthCheck } from './healthz/healthz';

const ETCD_CHECK_TIMEOUT_MS = 2000;
const ETCD_CONNECT_TIMEOUT_MS = 30_000;
const IN_FLIGHT_DRAIN_TIMEOUT_MS = 60_000;
const IDLE_SWEEP_MS = 200;

export class ApiServer {
  readonly registry: ResourceRegistry;
  readonly storage: Storage;
  readonly metrics: ApiServerMetrics;
  readonly #http: Server;
  readonly #log: Logger;
  readonly #client: Etcd3;
  readonly #embedded: EmbeddedEtcd | undefined;
  readonly #controllers: RunningControllers;
  readonly #compactor: Compactor | undefined;
  readonly #longRunning: Set<ServerResponse>;
  readonly #inFlight: { count: number };
  readonly #options: ServerOptions;
  #shuttingDown = false;

  private constructor(parts: {
    registry: ResourceRegistry;
    storage: Storage;
    metrics: ApiServerMetrics;
    http: Server;
    log: Logger;
    client: Etcd3;
    embedded: EmbeddedEtcd | undefined;
    controllers: RunningControllers;
    compactor: Compactor | undefined;
    longRunning: Set<ServerResponse>;
    inFlight: { count: number };
    options: ServerOptions;
  }) {
    this.registry = parts.registry;
    this.storage = parts.storage;
    this.metrics = parts.metrics;
    this.#http = parts.http;
    this.#log = parts.log;
    this.#client = parts.client;
    this.#embedded = parts.embedded;
    this.#controllers = parts.controllers;
    this.#compactor = parts.compactor;
    this.#longRunning = parts.longRunning;
    this.#inFlight = parts.inFlight;
    this.#options = parts.options;
  }

  /**
   * Starts etcd if embedded, waits for it, and listens. Resolves once the server accepts requests; when start-up
   * fails, whatever it started (embedded etcd, caches, controllers) is stopped before the error is thrown.
   */
  static async start(options: ServerOptions, log: Logger): Promise<ApiServer> {
    // Files first, as kube-apiserver applies these options before it touches storage: a bad path starts nothing.
    if (options.auditLogPath !== '' && options.auditLogPath !== '-') ensureAuditLogFile(options.auditLogPath);
    const tlsFiles = options.tls ? { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) } : undefined;
    const undo: Array<() => unknown> = [];
    try {
      return await ApiServer.#start(options, log, tlsFiles, undo);
    } catch (err) {
      for (const step of undo.reverse()) {
        try {
          await step();
        } catch (cleanupErr) {
          log.warn({ err: cleanupErr }, 'cleanup after failed start-up failed');
        }
      }
      throw err;
    }
  }

  static async #start(options: ServerOptions, log: Logger, tlsFiles: { cert: Buffer; key: Buffer } | undefined, undo: Array<() => unknown>): Promise<ApiServer> {
    const startedAt = Date.now();
    let embedded: EmbeddedEtcd | undefined;
    let etcdServers = options.etcdServers;
    if (etcdServers.length === 0) {
      embedded = await startEmbeddedEtcd(join(options.dataDir, 'etcd'), (line) => log.debug({ etcd: line }, 'embedded etcd output'));
      etcdServers = [embedded.clientUrl];
      log.info({ clientUrl: embedded.clientUrl, dataDir: options.dataDir }, 'embedded etcd started');
      const started = embedded;
      undo.push(() => started.stop());
    }
    const client = newEtcdClient(etcdServers, { dialTimeout: 5000 });
    undo.push(() => client.close());
    const storage = new EtcdStorage(client);
    await waitForEtcd(storage, log);

    let namespacesStore: () => GenericStore = () => {
      throw new Error('registry not built yet');
    };
    const admission = new NamespaceLifecycle(() => namespacesStore());
    const watchCache = options.watchCache ? { capacity: options.watchCache.capacity, minAgeMs: options.watchCache.windowMs, bookmarkIntervalMs: options.watchCache.bookmarkIntervalMs, consistentReads: options.featureGates['ConsistentListFromCache'] !== false, log: log.child({ component: 'watch-cache' }) } : undefined;
    const registry = buildRegistry(storage, options.etcdPrefix, options.featureGates, admission, watchCache, options.runtimeConfig);
    for (const cacher of registry.cachers()) cacher.start();
    undo.push(() => Promise.all(registry.cachers().map((c) => c.stop())));
    const namespaces = registry.lookup('', 'v1', 'namespaces');
    if (!namespaces) throw new Error('namespaces are not served');
    namespacesStore = () => namespaces.store;

    // Like kube-apiserver, every replica runs a compactor; they coordinate through etcd (--etcd-compaction-interval=0 opts out).
    const compactor = options.etcdCompactionIntervalMs > 0 ? new Compactor(client, options.etcdCompactionIntervalMs, log.child({ component: 'etcd-compactor' })) : undefined;
    compactor?.start();
    undo.push(() => compactor?.stop());
    const controllers = startControllers({ registry, client, etcdPrefix: options.etcdPrefix, admission, log });
    undo.push(() => controllers.stop());

    const metrics = new ApiServerMetrics({ showHidden: options.showHiddenMetricsForVersion !== '' });
    metrics.watchCaches(registry);
    const longRunning = new Set<ServerResponse>();
    const inFlight = { count: 0 };
    let server: ApiServer | undefined;
    const etcdCheck = withTimeout({ name: 'etcd', check: () => storage.ping() }, ETCD_CHECK_TIMEOUT_MS);
    const logCheck: HealthCheck = { name: 'log', check: async () => {} };
    const bootstrapCheck = flagCheck('poststarthook/bootstrap-controller', () => !controllers.namespacesBootstrapped(), 'not finished');
    const apfCheck = flagCheck('poststarthook/priority-and-fairness-config-producer', () => !controllers.flowcontrolBootstrapped(), 'not finished');
    const shutdownCheck = flagCheck('shutdown', () => server?.shuttingDown === true, 'process is shutting down');
    const health = {
      healthz: [pingCheck, logCheck, etcdCheck, bootstrapCheck, apfCheck],
      livez: [pingCheck, logCheck, ...[etcdCheck, bootstrapCheck, apfCheck].map((c) => withGracePeriod(c, startedAt, options.livezGracePeriodMs))],
      readyz: [pingCheck, logCheck, etcdCheck, bootstrapCheck, apfCheck, shutdownCheck],
    };

    const audit = options.auditLogPath ? openAuditLog(options.auditLogPath, log.child({ component: 'audit' })) : undefined;
    undo.push(() => audit?.close());
    const listener = buildRequestListener({
      ...(audit ? { audit } : {}),
      resources: { registry, features: { listChunking: options.featureGates['APIListChunking'] !== false, serverSideFieldValidation: options.featureGates['ServerSideFieldValidation'] !== false, watchList: options.featureGates['WatchList'] !== false }, watch: handleWatch },
      nonResource: { registry, health, metrics, serverAddress: () => `${options.bindAddress}:${server?.port ?? options.port}` },
      metrics,
      log,
      longRunning,
      inFlight,
      compressResponses: options.featureGates['APIResponseCompression'] !== false,
      // --feature-gates=APIPriorityAndFairness=false: no classification, no X-*-PF-* headers (kube-apiserver falls back to max-in-flight).
      ...(options.featureGates['APIPriorityAndFairness'] !== false ? { flowcontrol: controllers.flowcontrol } : {}),
    });
    const http = tlsFiles ? createHttpsServer(tlsFiles, listener) : createHttpServer(listener);
    http.keepAliveTimeout = 65_000;
    http.once('close', () => audit?.close());
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, options.bindAddress, () => {
        http.off('error', reject);
        resolve();
      });
    });
    undo.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    server = new ApiServer({
      registry,
      storage,
      metrics,
      http,
      log,
      client,
      embedded,
      controllers,
      compactor,
      longRunning,
      inFlight,
      options,
    });
    await controllers.ready;
    log.info({ address: options.bindAddress, port: server.port, tls: Boolean(options.tls) }, 'serving');
    return server;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  get port(): number {
    return (this.#http.address() as AddressInfo).port;
  }

  get url(): string {
    const host = this.#options.bindAddress.includes(':') ? `[${this.#options.bindAddress}]` : this.#options.bindAddress;
    return `${this.#options.tls ? 'https' : 'http'}://${host}:${this.port}`;
  }

  /** Graceful shutdown: readyz fails, wait the delay, stop accepting, finish in-flight requests, stop etcd if embedded. */
  async shutdown(): Promise<void> {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.#log.info({ delayMs: this.#options.shutdownDelayMs }, 'shutting down');
    if (this.#options.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, this.#options.shutdownDelayMs));
    const closed = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    this.#http.closeIdleConnections();
    // Watchers get a last BOOKMARK (when they asked for bookmarks) before their streams end.
    await Promise.all(this.registry.cachers().map((c) => c.stop()));
    this.#log.debug({ longRunning: this.#longRunning.size }, 'watch caches stopped; ending long-running requests');
    for (const res of this.#longRunning) res.end();
    // Keep-alive connections become idle when their last request finishes; once no request is in flight, whatever
    // is still open (a client that stopped reading an ended watch, say) holds no work and is closed.
    const idleSweep = setInterval(() => {
      if (this.#inFlight.count === 0) this.#http.closeAllConnections();
      else this.#http.closeIdleConnections();
    }, IDLE_SWEEP_MS);
    const drainTimer = setTimeout(() => this.#http.closeAllConnections(), IN_FLIGHT_DRAIN_TIMEOUT_MS);
    await closed;
    clearInterval(idleSweep);
    clearTimeout(drainTimer);
    this.#log.debug('HTTP server closed; stopping controllers');
    await this.#controllers.stop();
    await this.#compactor?.stop();
    this.#client.close();
    await this.#embedded?.stop();
    this.#log.info('shutdown complete');
  }
}

async function waitForEtcd(storage: Storage, log: Logger): Promise<void> {
  const deadline = Date.now() + ETCD_CONNECT_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      await storage.ping();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`etcd is not reachable: ${err instanceof Error ? err.message : String(err)}`);
      if (attempt === 1) log.warn({ err }, 'waiting for etcd');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

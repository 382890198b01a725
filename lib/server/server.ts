// ApiServer: connects etcd (embedded or given), assembles storage, registry, controllers and HTTP, and shuts down gracefully.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import cluster from 'node:cluster';
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import { featureEnabled } from './options/feature-gates';
import type { ServerOptions } from './options/options';
import type { Storage } from '../storage/storage';
import { Compactor } from '../storage/etcd/compactor';
import type { ResourceRegistry } from '../registry/resource-registry';
import { WebhookMetrics } from './admission/webhooks/metrics';
import { startControllers, type RunningControllers } from './controllers';
import { handleWatch } from '../endpoints/handlers/watch';
import type { ResourceRequestInfo } from '../endpoints/request-info';
import { ReviewRegistry } from '../endpoints/reviews';
import type { EmbeddedEtcd } from './embedded-etcd';
import { buildRequestListener } from './handler-chain';
import { openAuditLog } from './filters/audit';
import { ApiServerMetrics, labelEtcdRequestsByResource } from './metrics/metrics';
import { resourceDefinitions } from '../registry/install';
import { closeStalledHandshakes } from './start/plain-http-guard';
import { authorizeVerb } from './filters/authorization';
import { escalationGuard } from './authorization/rbac/escalation';
import { readStartFiles, type StartFiles } from './start/start-files';
import { connectEtcd } from './start/etcd-connection';
import { buildServedRegistry } from './start/served-registry';
import { healthChecks } from './start/health-checks';
import { overloadFilterOptions, overloadProtection } from './start/overload-protection';
import { authentication } from './start/authentication';
import { addAccessReviews, authorizerFor } from './start/authorization';
import { checkListenable, listen } from './start/listen';

const IN_FLIGHT_DRAIN_TIMEOUT_MS = 60_000;
const IDLE_SWEEP_MS = 200;

/** How long one clean-up step of a failed start may take: a step that hangs must not keep the start error from the operator. */
const CLEANUP_STEP_TIMEOUT_MS = 5_000;

/** Runs `step`, failing after CLEANUP_STEP_TIMEOUT_MS; the timer holds the process until then (a hung step holds nothing). */
async function withinCleanupTime(step: () => unknown): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      step(),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('clean-up step did not finish in time')), CLEANUP_STEP_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

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
    // A worker shares its primary's listener (node:cluster): only a process that binds the port itself checks it.
    if (cluster.isPrimary) await checkListenable(options.port, options.bindAddress);
    const files = readStartFiles(options, log);
    const undo: Array<() => unknown> = [];
    try {
      return await ApiServer.#start(options, log, files, undo);
    } catch (err) {
      for (const step of undo.reverse()) {
        try {
          await withinCleanupTime(step);
        } catch (cleanupErr) {
          log.warn({ err: cleanupErr }, 'cleanup after failed start-up failed');
        }
      }
      throw err;
    }
  }

  static async #start(
    options: ServerOptions,
    log: Logger,
    files: StartFiles,
    undo: Array<() => unknown>,
  ): Promise<ApiServer> {
    const startedAt = Date.now();
    labelEtcdRequestsByResource(resourceDefinitions({}));
    const { embedded, client, storage } = await connectEtcd(options, files.etcdCredentials, log, undo);
    const late: { server?: ApiServer } = {};
    const served = await buildServedRegistry(storage, options, log, undo);
    const { registry, admission } = served;

    // Like kube-apiserver, every replica runs a compactor; they coordinate through etcd (--etcd-compaction-interval=0 opts out).
    const compactor =
      options.etcdCompactionIntervalMs > 0
        ? new Compactor(client, options.etcdCompactionIntervalMs, log.child({ component: 'etcd-compactor' }))
        : undefined;
    compactor?.start();
    undo.push(() => compactor?.stop());
    const controllers = startControllers({ registry, client, etcdPrefix: options.etcdPrefix, admission, log });
    undo.push(() => controllers.stop());

    const metrics = new ApiServerMetrics({ showHidden: options.showHiddenMetricsForVersion !== '' });
    metrics.watchCaches(registry);
    served.setWebhookMetrics(new WebhookMetrics(metrics.registry));
    const longRunning = new Set<ServerResponse>();
    const inFlight = { count: 0 };
    const health = healthChecks({
      storage,
      controllers,
      startedAt,
      livezGracePeriodMs: options.livezGracePeriodMs,
      shuttingDown: () => late.server?.shuttingDown === true,
    });
    const protection = overloadProtection(options, controllers, metrics, undo);
    const audit = options.auditLogPath
      ? openAuditLog(options.auditLogPath, log.child({ component: 'audit' }))
      : undefined;
    undo.push(() => audit?.close());
    const reviews = new ReviewRegistry(registry);
    const { authorizer, reviewAuthorizer, resolver } = authorizerFor(options.authorizationModes, controllers);
    served.rbacGuard.target = escalationGuard(reviewAuthorizer, () => controllers.rbac.snapshot);
    addAccessReviews(reviews, reviewAuthorizer, resolver);
    const authenticator = authentication(options, files, controllers, registry, reviews);
    const listChunking = featureEnabled(options.featureGates, 'APIListChunking');
    const listener = buildRequestListener({
      authenticator,
      ...(authorizer ? { authorizer } : {}),
      ...(audit ? { audit } : {}),
      resources: {
        registry,
        features: {
          listChunking,
          serverSideFieldValidation: featureEnabled(options.featureGates, 'ServerSideFieldValidation'),
          watchList: featureEnabled(options.featureGates, 'WatchList'),
        },
        watch: handleWatch,
        reviews,
        ...(authorizer
          ? {
              authorizeAs: (req: IncomingMessage, info: ResourceRequestInfo, query: URLSearchParams, verb: string) =>
                authorizeVerb(authorizer, req, info, query, verb),
            }
          : {}),
      },
      nonResource: {
        registry,
        health,
        metrics,
        serverAddress: () => `${options.bindAddress}:${late.server?.port ?? options.port}`,
        ...(protection.kind === 'priority-and-fairness' ? { flowcontrolDump: protection.dump } : {}),
      },
      metrics,
      log,
      longRunning,
      inFlight,
      compressResponses: featureEnabled(options.featureGates, 'APIResponseCompression'),
      ...overloadFilterOptions(protection, controllers, registry, listChunking),
    });
    const http = await listen(listener, files.tlsFiles, options.port, options.bindAddress);
    http.once('close', () => audit?.close());
    undo.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const server = new ApiServer({
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
    late.server = server;
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
      closeStalledHandshakes(this.#http);
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

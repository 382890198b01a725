// ApiServer: connects etcd (embedded or given), assembles storage, registry, controllers and HTTP, and shuts down gracefully.
import { isVersionEnabled } from './options/runtime-config';
import { featureEnabled } from './options/feature-gates';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Etcd3 } from 'etcd3';
import { newEtcdClient } from '../storage/etcd/client';
import { readEtcdTlsFiles, type EtcdCredentials } from './etcd-tls';
import { setEtcdFailureLogger } from '../storage/etcd/failure-log';
import type { Logger } from 'pino';
import type { UserInfo } from '../apimachinery/user';
import { EtcdStorage } from '../storage/etcd/store';
import { Compactor } from '../storage/etcd/compactor';
import type { Storage } from '../storage/storage';
import { buildRegistry } from '../registry/install';
import type { ResourceRegistry } from '../registry/resource-registry';
import type { GenericStore } from '../registry/generic/store';
import { NamespaceLifecycle } from '../registry/core/namespaces/lifecycle-admission';
import { chainAdmission } from '../registry/generic/admission';
import { WebhookAdmission } from './admission/webhooks/dispatcher';
import { WebhookMetrics } from './admission/webhooks/metrics';
import { WebhookSource, lazyWebhookStores } from './admission/webhooks/source';
import { startControllers, type RunningControllers } from './controllers';
import { handleWatch } from '../endpoints/handlers/watch';
import { Dispatcher } from './flowcontrol/dispatcher';
import { serveDump } from './flowcontrol/debug-dump';
import { FlowcontrolMetrics } from './metrics/flowcontrol-metrics';
import { MaxInFlight } from './filters/max-in-flight';

/** Linux's default net.core.somaxconn since 5.4. */
const LISTEN_BACKLOG = 4096;
import type { ServerOptions } from './options/options';
import { startEmbeddedEtcd, type EmbeddedEtcd } from './embedded-etcd';
import { buildRequestListener } from './handler-chain';
import { ensureAuditLogFile, openAuditLog } from './filters/audit';
import { ApiServerMetrics } from './metrics/metrics';
import { loadTokenFile } from './authentication/token-file';
import { ServiceAccountTokens } from './authentication/service-account-tokens';
import { tokenRequestHandler } from './authentication/token-request';
import { tokenReview } from './authentication/token-review';
import { buildAuthenticator, staticTokens } from './authentication/authenticator';
import { goPathError } from './go-path-error';
import type { AuthorizationMode } from './options/authorization';
import {
  ALWAYS_ALLOW,
  ALWAYS_DENY,
  PRIVILEGED_GROUPS,
  unionAuthorizer,
  type Authorizer,
} from './authorization/authorizer';
import { RbacAuthorizer } from './authorization/rbac/authorizer';
import { authorizeVerb } from './filters/authorization';
import { ReviewRegistry } from '../endpoints/reviews';
import { DeferredWriteGuard } from '../registry/generic/write-guard';
import { escalationGuard } from './authorization/rbac/escalation';
import { accessReviews, type RulesResolver } from './authorization/reviews';
import { rulesResolverFor } from './authorization/rules-resolver';
import type { ResourceRequestInfo } from '../endpoints/request-info';
import { flagCheck, pingCheck, withGracePeriod, withTimeout, type HealthCheck } from './healthz/healthz';

interface TlsFiles {
  cert: Buffer;
  key: Buffer;
  clientCA?: Buffer;
}

/** What start-up reads from files before it touches storage. */
interface StartFiles {
  tlsFiles: TlsFiles | undefined;
  tokens: Map<string, UserInfo> | undefined;
  serviceAccountTokens: ServiceAccountTokens | undefined;
  etcdCredentials: EtcdCredentials | undefined;
}

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
    const tlsFiles: TlsFiles | undefined = options.tls
      ? { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) }
      : undefined;
    if (tlsFiles && options.authentication.clientCAFile !== '') {
      try {
        tlsFiles.clientCA = readFileSync(options.authentication.clientCAFile);
      } catch (err) {
        throw new Error(`unable to load client CA file "${options.authentication.clientCAFile}": ${goPathError(err)}`);
      }
    }
    const tokens =
      options.authentication.tokenAuthFile !== ''
        ? loadTokenFile(options.authentication.tokenAuthFile, log)
        : undefined;
    const serviceAccountTokens = options.serviceAccounts
      ? new ServiceAccountTokens(options.serviceAccounts)
      : undefined;
    const etcdCredentials = options.etcdTls ? readEtcdTlsFiles(options.etcdTls) : undefined;
    const undo: Array<() => unknown> = [];
    try {
      return await ApiServer.#start(options, log, { tlsFiles, tokens, serviceAccountTokens, etcdCredentials }, undo);
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

  static async #start(
    options: ServerOptions,
    log: Logger,
    files: StartFiles,
    undo: Array<() => unknown>,
  ): Promise<ApiServer> {
    const startedAt = Date.now();
    const { tlsFiles } = files;
    let embedded: EmbeddedEtcd | undefined;
    let etcdServers = options.etcdServers;
    if (etcdServers.length === 0) {
      embedded = await startEmbeddedEtcd(join(options.dataDir, 'etcd'), (line) =>
        log.debug({ etcd: line }, 'embedded etcd output'),
      );
      etcdServers = [embedded.clientUrl];
      log.info({ clientUrl: embedded.clientUrl, dataDir: options.dataDir }, 'embedded etcd started');
      const started = embedded;
      undo.push(() => started.stop());
    }
    setEtcdFailureLogger(log.child({ component: 'etcd' }));
    const client = newEtcdClient(etcdServers, {
      dialTimeout: 5000,
      ...(files.etcdCredentials && !embedded
        ? { credentials: files.etcdCredentials as { rootCertificate: Buffer } }
        : {}),
    });
    undo.push(() => client.close());
    const storage = new EtcdStorage(client);
    await waitForEtcd(storage, log);

    let namespacesStore: () => GenericStore = () => {
      throw new Error('registry not built yet');
    };
    const admission = new NamespaceLifecycle(() => namespacesStore());
    // Built later than the closures that read them (the webhook plugin is part of the admission the registry is built with).
    const late: { webhookRegistry?: ResourceRegistry; webhookMetrics?: WebhookMetrics; server?: ApiServer } = {};
    const webhookSource = new WebhookSource(
      lazyWebhookStores(() => late.webhookRegistry),
      log.child({ component: 'admission-webhooks' }),
    );
    const webhooks = new WebhookAdmission({
      source: webhookSource,
      registry: () => {
        if (!late.webhookRegistry) throw new Error('registry not built yet');
        return late.webhookRegistry;
      },
      metrics: () => late.webhookMetrics,
      serviceUrlTemplate: options.webhookServiceUrlTemplate,
      log: log.child({ component: 'admission-webhooks' }),
    });
    const watchCache = options.watchCache
      ? {
          capacity: options.watchCache.capacity,
          minAgeMs: options.watchCache.windowMs,
          bookmarkIntervalMs: options.watchCache.bookmarkIntervalMs,
          consistentReads: featureEnabled(options.featureGates, 'ConsistentListFromCache'),
          log: log.child({ component: 'watch-cache' }),
        }
      : undefined;
    const rbacGuard = new DeferredWriteGuard();
    const registry = buildRegistry(
      storage,
      options.etcdPrefix,
      options.featureGates,
      chainAdmission(admission, webhooks),
      watchCache,
      (group, version, resource) => isVersionEnabled(options.runtimeConfig, group, version, resource),
      { eventSeconds: Math.max(1, Math.round(options.eventTtlMs / 1000)) },
      rbacGuard,
    );
    late.webhookRegistry = registry;
    for (const cacher of registry.cachers()) cacher.start();
    undo.push(() => Promise.all(registry.cachers().map((c) => c.stop())));
    await webhookSource.start();
    undo.push(() => webhookSource.stop());
    const namespaces = registry.lookup('', 'v1', 'namespaces');
    if (!namespaces) throw new Error('namespaces are not served');
    namespacesStore = () => namespaces.store;

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
    late.webhookMetrics = new WebhookMetrics(metrics.registry);
    const longRunning = new Set<ServerResponse>();
    const inFlight = { count: 0 };
    const etcdCheck = withTimeout({ name: 'etcd', check: () => storage.ping() }, ETCD_CHECK_TIMEOUT_MS);
    const logCheck: HealthCheck = { name: 'log', check: async () => {} };
    const bootstrapCheck = flagCheck(
      'poststarthook/bootstrap-controller',
      () => !controllers.namespacesBootstrapped(),
      'not finished',
    );
    const apfCheck = flagCheck(
      'poststarthook/priority-and-fairness-config-producer',
      () => !controllers.flowcontrolBootstrapped(),
      'not finished',
    );
    const rbacCheck = flagCheck(
      'poststarthook/rbac/bootstrap-roles',
      () => !controllers.rbacBootstrapped(),
      'not finished',
    );
    const shutdownCheck = flagCheck('shutdown', () => late.server?.shuttingDown === true, 'process is shutting down');
    const health = {
      healthz: [pingCheck, logCheck, etcdCheck, bootstrapCheck, apfCheck, rbacCheck],
      livez: [
        pingCheck,
        logCheck,
        ...[etcdCheck, bootstrapCheck, apfCheck, rbacCheck].map((c) =>
          withGracePeriod(c, startedAt, options.livezGracePeriodMs),
        ),
      ],
      readyz: [pingCheck, logCheck, etcdCheck, bootstrapCheck, apfCheck, rbacCheck, shutdownCheck],
    };

    // API Priority and Fairness (or, with it off, the max-in-flight filter) as kube-apiserver 1.26 chooses.
    const apfEnabled =
      options.enablePriorityAndFairness && featureEnabled(options.featureGates, 'APIPriorityAndFairness');
    const apfMetrics = apfEnabled ? new FlowcontrolMetrics(metrics.registry) : undefined;
    const dispatcher = apfMetrics
      ? new Dispatcher({
          serverConcurrencyLimit: options.maxRequestsInflight + options.maxMutatingRequestsInflight,
          requestWaitLimitMs: options.requestTimeoutMs / 4,
          observer: apfMetrics,
        })
      : undefined;
    if (dispatcher) {
      controllers.flowcontrol.onChange((priorityLevels) => dispatcher.configure(priorityLevels));
      dispatcher.start();
      undo.push(() => dispatcher.stop());
    }
    const audit = options.auditLogPath
      ? openAuditLog(options.auditLogPath, log.child({ component: 'audit' }))
      : undefined;
    undo.push(() => audit?.close());
    const saTokens = files.serviceAccountTokens;
    const tokenAuthenticators = [
      ...(files.tokens ? [staticTokens(files.tokens)] : []),
      ...(saTokens
        ? [saTokens.authenticator((ns, name) => controllers.serviceAccounts.objects.get(`${ns}/${name}`))]
        : []),
    ];
    const authenticator = buildAuthenticator({
      anonymous: options.authentication.anonymous,
      clientCertificates: tlsFiles?.clientCA !== undefined,
      tokens: tokenAuthenticators,
    });
    const serviceAccountsServed = registry.lookup('', 'v1', 'serviceaccounts');
    if (saTokens && serviceAccountsServed)
      serviceAccountsServed.postSubresources = new Map([
        [
          'token',
          {
            handler: tokenRequestHandler(saTokens),
            group: 'authentication.k8s.io',
            version: 'v1',
            kind: 'TokenRequest',
          },
        ],
      ]);
    const { authorizer, reviewAuthorizer, resolver } = authorizerFor(options.authorizationModes, controllers);
    rbacGuard.target = escalationGuard(reviewAuthorizer, () => controllers.rbac.snapshot);
    const reviews = new ReviewRegistry();
    for (const review of accessReviews(reviewAuthorizer, resolver)) reviews.add(review);
    reviews.add(tokenReview(tokenAuthenticators, saTokens?.apiAudiences ?? []));
    const listener = buildRequestListener({
      authenticator,
      ...(authorizer ? { authorizer } : {}),
      ...(audit ? { audit } : {}),
      resources: {
        registry,
        features: {
          listChunking: featureEnabled(options.featureGates, 'APIListChunking'),
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
        ...(dispatcher
          ? { flowcontrolDump: (path: string, query: URLSearchParams) => serveDump(dispatcher, path, query) }
          : {}),
      },
      metrics,
      log,
      longRunning,
      inFlight,
      compressResponses: featureEnabled(options.featureGates, 'APIResponseCompression'),
      // APF off (flag or gate): no classification, no X-*-PF-* headers; kube-apiserver falls back to max-in-flight.
      ...(dispatcher && apfMetrics
        ? {
            flowcontrol: controllers.flowcontrol,
            priorityAndFairness: {
              dispatcher,
              metrics: apfMetrics,
              estimator: { registry, listChunking: featureEnabled(options.featureGates, 'APIListChunking') },
            },
          }
        : { maxInFlight: new MaxInFlight(options.maxRequestsInflight, options.maxMutatingRequestsInflight) }),
    });
    // With --client-ca-file the TLS server asks for (never requires) a client certificate and verifies it against
    // that CA; the authenticator reads the outcome, so a bad certificate is a 401 rather than a failed handshake.
    const http = tlsFiles
      ? createHttpsServer(
          {
            cert: tlsFiles.cert,
            key: tlsFiles.key,
            ...(tlsFiles.clientCA ? { ca: tlsFiles.clientCA, requestCert: true, rejectUnauthorized: false } : {}),
          },
          listener,
        )
      : createHttpServer(listener);
    http.keepAliveTimeout = 65_000;
    http.once('close', () => audit?.close());
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      // Go's listeners use the kernel's somaxconn as backlog (Node's default is 511): a burst of connections waits, not resets.
      http.listen(options.port, options.bindAddress, LISTEN_BACKLOG, () => {
        http.off('error', reject);
        resolve();
      });
    });
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

/**
 * The union of --authorization-mode's authorizers behind the system:masters one (what the reviews ask), and the same
 * for the request filter unless it is AlwaysAllow alone (nothing to check); plus the union of their rule lists.
 */
function authorizerFor(
  modes: readonly AuthorizationMode[],
  controllers: RunningControllers,
): { authorizer?: Authorizer; reviewAuthorizer: Authorizer; resolver: RulesResolver } {
  const byMode: Record<AuthorizationMode, Authorizer> = {
    AlwaysAllow: ALWAYS_ALLOW,
    AlwaysDeny: ALWAYS_DENY,
    RBAC: new RbacAuthorizer(() => controllers.rbac.snapshot),
  };
  const reviewAuthorizer = unionAuthorizer([PRIVILEGED_GROUPS, ...modes.map((m) => byMode[m])]);
  const resolver = rulesResolverFor(modes, () => controllers.rbac.snapshot);
  if (modes.length === 1 && modes[0] === 'AlwaysAllow') return { reviewAuthorizer, resolver };
  return { authorizer: reviewAuthorizer, reviewAuthorizer, resolver };
}

async function waitForEtcd(storage: Storage, log: Logger): Promise<void> {
  const deadline = Date.now() + ETCD_CONNECT_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      await storage.ping();
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`etcd is not reachable: ${err instanceof Error ? err.message : String(err)}`);
      if (attempt === 1) log.warn({ err }, 'waiting for etcd');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

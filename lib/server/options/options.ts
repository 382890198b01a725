// The server's command line: kube-apiserver flag names, defaults, and validation into ServerOptions.
import { availableParallelism } from 'node:os';
import type { FeatureGates } from './feature-gates';
import { parseFeatureGates } from './feature-gates';
import type { FlagDefinition } from './flag-set';
import { FlagError, parseFlags } from './flag-set';
import { parseDuration } from './duration';
import type { RuntimeConfig } from './runtime-config';
import { parseRuntimeConfig, validateRuntimeConfig } from './runtime-config';
import { servedVersions } from '../../registry/install';
import { validateShowHiddenMetricsVersion } from '../metrics/stability';
import { AUTHENTICATION_FLAGS, parseAuthenticationFlags, type AuthenticationOptions } from './authentication';
import { AUTHORIZATION_FLAGS, parseAuthorizationModes, type AuthorizationMode } from './authorization';
import { SERVICE_ACCOUNT_FLAGS, parseServiceAccountFlags, type ServiceAccountOptions } from './service-accounts';

export const FLAG_DEFINITIONS: readonly FlagDefinition[] = [
  { name: 'bind-address', kind: 'string', default: '127.0.0.1', usage: 'IP address to listen on' },
  {
    name: 'port',
    kind: 'int',
    default: '8080',
    usage: 'port to serve HTTP (or HTTPS with the TLS flags) on; 0 picks a free port and logs it',
  },
  {
    name: 'tls-cert-file',
    kind: 'string',
    default: '',
    usage: 'PEM certificate; with --tls-private-key-file the port serves HTTPS',
  },
  { name: 'tls-private-key-file', kind: 'string', default: '', usage: 'PEM private key matching --tls-cert-file' },
  {
    name: 'etcd-servers',
    kind: 'string',
    default: '',
    usage: 'comma-separated etcd URLs; when empty an embedded etcd is started with its data under --data-dir',
  },
  {
    name: 'etcd-cafile',
    kind: 'string',
    default: '',
    usage:
      "SSL Certificate Authority file used to secure etcd communication (verifies the members' serving certificates)",
  },
  {
    name: 'etcd-certfile',
    kind: 'string',
    default: '',
    usage: 'SSL certification file used to secure etcd communication (client certificate, with --etcd-keyfile)',
  },
  {
    name: 'etcd-keyfile',
    kind: 'string',
    default: '',
    usage: 'SSL key file used to secure etcd communication (key of --etcd-certfile)',
  },
  { name: 'etcd-prefix', kind: 'string', default: '/registry', usage: 'prefix of every key the server writes in etcd' },
  {
    name: 'event-ttl',
    kind: 'duration',
    default: '1h',
    usage: 'amount of time to retain events (each stored with an etcd lease of this TTL)',
  },
  {
    name: 'webhook-service-url-template',
    kind: 'string',
    default: 'https://{name}.{namespace}.svc:{port}{path}',
    usage:
      "URL an admission webhook's clientConfig.service is called at ({name}, {namespace}, {port}, {path} replaced; the TLS name checked stays <name>.<namespace>.svc); outside a cluster point it at a reachable host",
  },
  {
    name: 'etcd-compaction-interval',
    kind: 'duration',
    default: '5m',
    usage:
      'interval of compaction requests to etcd; replicas sharing an etcd compact once per interval in total; 0 disables compaction by this server',
  },
  {
    name: 'watch-cache',
    kind: 'bool',
    default: 'true',
    usage: 'serve watches and resourceVersion=0 reads from an in-memory cache per resource fed by one etcd watch',
  },
  {
    name: 'watch-cache-capacity',
    kind: 'int',
    default: '102400',
    usage:
      "most events each resource's watch cache holds (it keeps at least --watch-cache-window of history below this bound)",
  },
  {
    name: 'watch-cache-window',
    kind: 'duration',
    default: '5m',
    usage: 'history each watch cache keeps at least, for watches resuming from an older resourceVersion',
  },
  {
    name: 'watch-bookmark-interval',
    kind: 'duration',
    default: '1m',
    usage: 'how often watchers that allow bookmarks get a BOOKMARK event',
  },
  { name: 'data-dir', kind: 'string', default: './data', usage: 'directory of the embedded etcd data' },
  {
    name: 'livez-grace-period',
    kind: 'duration',
    default: '0s',
    usage: 'time after start during which /livez checks other than ping and log pass',
  },
  {
    name: 'shutdown-delay-duration',
    kind: 'duration',
    default: '0s',
    usage: 'time to keep serving after a shutdown signal while /readyz fails',
  },
  {
    name: 'feature-gates',
    kind: 'string',
    default: '',
    usage:
      'comma-separated Name=true|false pairs (APIListChunking, ServerSideFieldValidation, HPAScaleToZero, APIPriorityAndFairness, …)',
  },
  {
    name: 'max-requests-inflight',
    kind: 'int',
    default: '400',
    usage:
      "the most non-mutating requests in flight at a time (0: no limit); with priority and fairness, this plus --max-mutating-requests-inflight is the server's concurrency limit shared among priority levels",
  },
  {
    name: 'max-mutating-requests-inflight',
    kind: 'int',
    default: '200',
    usage: 'the most mutating requests in flight at a time (0: no limit); see --max-requests-inflight',
  },
  {
    name: 'enable-priority-and-fairness',
    kind: 'bool',
    default: 'true',
    usage:
      'queue and reject requests by API Priority and Fairness (needs the APIPriorityAndFairness gate); false falls back to the max-in-flight limits',
  },
  {
    name: 'request-timeout',
    kind: 'duration',
    default: '1m0s',
    usage:
      'request timeout of kube-apiserver; here it sets how long a request may wait in a priority-and-fairness queue (a quarter of it)',
  },
  {
    name: 'runtime-config',
    kind: 'string',
    default: '',
    usage:
      'comma-separated key=value pairs enabling or disabling API versions: <group>/<version>=false, <group>/<version>/<resource>=false, api/all=false|true (api/v1 is the core group)',
  },
  {
    name: 'audit-log-path',
    kind: 'string',
    default: '',
    usage:
      'write one audit event (level Metadata) per request as a JSON line to this file; - means stdout; empty disables',
  },
  {
    name: 'show-hidden-metrics-for-version',
    kind: 'string',
    default: '',
    usage:
      'the previous minor version (1.25) for which to show hidden metrics; only the previous minor version is allowed',
  },
  {
    name: 'workers',
    kind: 'string',
    default: '1',
    usage:
      'number of worker processes serving the port, each a full replica with its own etcd client and watch caches; auto means one per CPU',
  },
  {
    name: 'log-level',
    kind: 'string',
    default: 'info',
    usage: 'one of trace, debug, info, warn, error, fatal, silent',
  },
  ...AUTHENTICATION_FLAGS,
  ...AUTHORIZATION_FLAGS,
  ...SERVICE_ACCOUNT_FLAGS,
  {
    name: 'logging-format',
    kind: 'string',
    default: '',
    usage: 'text (one readable line per event) or json; empty: text when stdout is a terminal, json otherwise',
  },
];

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

export interface ServerOptions {
  bindAddress: string;
  port: number;
  tls?: { certFile: string; keyFile: string };
  etcdServers: string[];
  /** --etcd-cafile, --etcd-certfile, --etcd-keyfile (absent: plain connections unless a URL is https, then system CAs). */
  etcdTls?: EtcdTlsFiles;
  etcdPrefix: string;
  /** 0: this server never compacts etcd's history. */
  etcdCompactionIntervalMs: number;
  /** --event-ttl: events expire this long after their last write. */
  eventTtlMs: number;
  /** --webhook-service-url-template: where a webhook's service reference is called. */
  webhookServiceUrlTemplate: string;
  /** undefined: no watch cache (--watch-cache=false). */
  watchCache?: { capacity: number; windowMs: number; bookmarkIntervalMs: number };
  dataDir: string;
  livezGracePeriodMs: number;
  shutdownDelayMs: number;
  featureGates: FeatureGates;
  /** --runtime-config, validated against the served versions. */
  runtimeConfig: RuntimeConfig;
  /** --audit-log-path ('' = no audit log, '-' = stdout). */
  auditLogPath: string;
  /** --show-hidden-metrics-for-version ('' = hidden metrics stay hidden). */
  showHiddenMetricsForVersion: string;
  logLevel: string;
  /** --max-requests-inflight and --max-mutating-requests-inflight. */
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /** --enable-priority-and-fairness (the APIPriorityAndFairness gate must be on too). */
  enablePriorityAndFairness: boolean;
  requestTimeoutMs: number;
  authentication: AuthenticationOptions;
  /** --authorization-mode, in order. */
  authorizationModes: AuthorizationMode[];
  /** Service account tokens (absent: no TokenRequest, no service account token authentication). */
  serviceAccounts?: ServiceAccountOptions;
  /** --workers: processes serving the port (1 = this process serves, no cluster). */
  workers: number;
  /** --feature-gates as given (for the start-up warnings about GA and deprecated gates). */
  featureGatesText: string;
  /** --logging-format: '' picks text on a terminal and json otherwise. */
  loggingFormat: '' | 'text' | 'json';
}

export interface EtcdTlsFiles {
  /** '' : the system's CAs. */
  caFile: string;
  /** '' (with keyFile ''): no client certificate. */
  certFile: string;
  keyFile: string;
}

function etcdTlsFlags(values: Map<string, string>): EtcdTlsFiles | undefined {
  const tls = {
    caFile: flagValue(values, 'etcd-cafile'),
    certFile: flagValue(values, 'etcd-certfile'),
    keyFile: flagValue(values, 'etcd-keyfile'),
  };
  if ((tls.certFile === '') !== (tls.keyFile === ''))
    throw new FlagError('--etcd-certfile and --etcd-keyfile must be given together');
  return tls.caFile === '' && tls.certFile === '' ? undefined : tls;
}

function nonNegativeIntFlag(values: Map<string, string>, name: string): number {
  const text = flagValue(values, name);
  if (!/^-?\d+$/.test(text))
    throw new FlagError(
      `invalid argument ${JSON.stringify(text)} for "--${name}" flag: strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  const value = Number(text);
  if (value < 0) throw new FlagError(`--${name} can not be negative value`);
  return value;
}

function runtimeConfigFlag(text: string): RuntimeConfig {
  let config: RuntimeConfig;
  try {
    config = parseRuntimeConfig(text);
  } catch (err) {
    throw new FlagError(
      `invalid argument ${JSON.stringify(text)} for "--runtime-config" flag: ${(err as Error).message}`,
    );
  }
  const errors = validateRuntimeConfig(config, servedVersions());
  if (errors.length > 0) throw new FlagError(errors.join(', '));
  return config;
}

export type ParsedCommandLine = { help: true } | { help: false; options: ServerOptions };

function flagValue(values: Map<string, string>, name: string): string {
  return values.get(name) ?? '';
}

function durationFlag(values: Map<string, string>, name: string): number {
  try {
    const ms = parseDuration(flagValue(values, name));
    if (ms < 0) throw new Error('must not be negative');
    return ms;
  } catch (err) {
    throw new FlagError(
      `invalid argument ${JSON.stringify(flagValue(values, name))} for "--${name}" flag: ${(err as Error).message}`,
    );
  }
}

function workersFlag(text: string): number {
  if (text === 'auto') return availableParallelism();
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new FlagError(
      `invalid argument ${JSON.stringify(text)} for "--workers" flag: must be a positive integer or auto`,
    );
  return Number(text);
}

/** Parses and validates the command line; throws FlagError with a message fit for the terminal. */
export function parseCommandLine(args: readonly string[]): ParsedCommandLine {
  const { values, help } = parseFlags(args, FLAG_DEFINITIONS);
  if (help) return { help: true };
  const portText = flagValue(values, 'port');
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new FlagError(
      `invalid argument ${JSON.stringify(portText)} for "--port" flag: must be an integer between 0 and 65535`,
    );
  const certFile = flagValue(values, 'tls-cert-file');
  const keyFile = flagValue(values, 'tls-private-key-file');
  if ((certFile === '') !== (keyFile === ''))
    throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  const etcdServers = flagValue(values, 'etcd-servers')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const url of etcdServers) {
    if (!/^https?:\/\/[^/]+\/?$/.test(url))
      throw new FlagError(
        `invalid argument ${JSON.stringify(url)} for "--etcd-servers" flag: expected URLs such as http://127.0.0.1:2379`,
      );
  }
  const etcdPrefix = flagValue(values, 'etcd-prefix');
  if (!etcdPrefix.startsWith('/'))
    throw new FlagError(`invalid argument ${JSON.stringify(etcdPrefix)} for "--etcd-prefix" flag: must start with /`);
  const logLevel = flagValue(values, 'log-level');
  if (!LOG_LEVELS.includes(logLevel))
    throw new FlagError(
      `invalid argument ${JSON.stringify(logLevel)} for "--log-level" flag: must be one of ${LOG_LEVELS.join(', ')}`,
    );
  const loggingFormat = flagValue(values, 'logging-format');
  if (loggingFormat !== '' && loggingFormat !== 'text' && loggingFormat !== 'json') {
    throw new FlagError(
      `invalid argument ${JSON.stringify(loggingFormat)} for "--logging-format" flag: format: Unsupported value: ${JSON.stringify(loggingFormat)}: supported values: "json", "text"`,
    );
  }
  let featureGates: FeatureGates;
  try {
    featureGates = parseFeatureGates(flagValue(values, 'feature-gates'));
  } catch (err) {
    throw new FlagError(
      `invalid argument ${JSON.stringify(flagValue(values, 'feature-gates'))} for "--feature-gates" flag: ${(err as Error).message}`,
    );
  }
  const showHiddenMetricsForVersion = flagValue(values, 'show-hidden-metrics-for-version');
  const showHiddenError = validateShowHiddenMetricsVersion(showHiddenMetricsForVersion);
  if (showHiddenError !== undefined) throw new FlagError(showHiddenError);
  const options: ServerOptions = {
    bindAddress: flagValue(values, 'bind-address'),
    port,
    etcdServers,
    etcdPrefix: etcdPrefix.replace(/\/+$/, ''),
    etcdCompactionIntervalMs: durationFlag(values, 'etcd-compaction-interval'),
    eventTtlMs: durationFlag(values, 'event-ttl'),
    webhookServiceUrlTemplate: flagValue(values, 'webhook-service-url-template'),
    dataDir: flagValue(values, 'data-dir'),
    livezGracePeriodMs: durationFlag(values, 'livez-grace-period'),
    shutdownDelayMs: durationFlag(values, 'shutdown-delay-duration'),
    featureGates,
    runtimeConfig: runtimeConfigFlag(flagValue(values, 'runtime-config')),
    auditLogPath: flagValue(values, 'audit-log-path'),
    showHiddenMetricsForVersion,
    logLevel,
    maxRequestsInflight: nonNegativeIntFlag(values, 'max-requests-inflight'),
    maxMutatingRequestsInflight: nonNegativeIntFlag(values, 'max-mutating-requests-inflight'),
    enablePriorityAndFairness: flagValue(values, 'enable-priority-and-fairness') === 'true',
    requestTimeoutMs: durationFlag(values, 'request-timeout'),
    authentication: parseAuthenticationFlags(values, certFile !== ''),
    authorizationModes: parseAuthorizationModes(flagValue(values, 'authorization-mode')),
    workers: workersFlag(flagValue(values, 'workers')),
    loggingFormat,
    featureGatesText: flagValue(values, 'feature-gates'),
  };
  if (options.enablePriorityAndFairness && options.maxRequestsInflight + options.maxMutatingRequestsInflight <= 0) {
    throw new FlagError(
      '--max-requests-inflight plus --max-mutating-requests-inflight must be positive when --enable-priority-and-fairness is true',
    );
  }
  if (certFile !== '') options.tls = { certFile, keyFile };
  const etcdTls = etcdTlsFlags(values);
  if (etcdTls) options.etcdTls = etcdTls;
  const serviceAccounts = parseServiceAccountFlags(values);
  if (serviceAccounts) options.serviceAccounts = serviceAccounts;
  if (flagValue(values, 'watch-cache') === 'true') {
    const capacityText = flagValue(values, 'watch-cache-capacity');
    if (!/^\d+$/.test(capacityText) || Number(capacityText) < 1)
      throw new FlagError(
        `invalid argument ${JSON.stringify(capacityText)} for "--watch-cache-capacity" flag: must be a positive integer`,
      );
    const bookmarkIntervalMs = durationFlag(values, 'watch-bookmark-interval');
    if (bookmarkIntervalMs === 0)
      throw new FlagError('invalid argument "0s" for "--watch-bookmark-interval" flag: must be positive');
    options.watchCache = {
      capacity: Number(capacityText),
      windowMs: durationFlag(values, 'watch-cache-window'),
      bookmarkIntervalMs,
    };
  }
  return { help: false, options };
}

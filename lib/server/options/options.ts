// The server's command line: kube-apiserver flag names, defaults, and validation into ServerOptions.
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import type { FeatureGates } from './feature-gates';
import { parseFeatureGates } from './feature-gates';
import { FlagError, parseFlags } from './flag-set';
import { FLAG_DEFINITIONS } from './flag-definitions';
import { parseDuration } from './duration';
import type { RuntimeConfig } from './runtime-config';
import { parseRuntimeConfig, validateRuntimeConfig } from './runtime-config';
import { servedVersions } from '../../registry/install';
import { validateShowHiddenMetricsVersion } from '../metrics/stability';
import { parseAuthenticationFlags, type AuthenticationOptions } from './authentication';
import { parseAuthorizationModes, type AuthorizationMode } from './authorization';
import { parseServiceAccountFlags, type ServiceAccountOptions } from './service-accounts';

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

/** ServerRunOptions.Validate's texts for the negative durations kube-apiserver refuses (server_run_options.go). */
const NEGATIVE_DURATION_TEXTS: Record<string, string> = {
  'livez-grace-period': '--livez-grace-period can not be a negative value',
  'request-timeout': '--request-timeout can not be negative value',
  'shutdown-delay-duration': '--shutdown-delay-duration can not be negative value',
};

function durationFlag(values: Map<string, string>, name: string): number {
  const text = flagValue(values, name);
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (err) {
    throw new FlagError(`invalid argument ${JSON.stringify(text)} for "--${name}" flag: ${(err as Error).message}`);
  }
  if (ms < 0)
    throw new FlagError(
      NEGATIVE_DURATION_TEXTS[name] ??
        `invalid argument ${JSON.stringify(text)} for "--${name}" flag: must not be negative`,
    );
  return ms;
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
  // --port is parsed as pflag parses an int; its range as kube-apiserver's --secure-port (0 here picks a free port).
  const port = Number(flagValue(values, 'port'));
  if (port < 0 || port > 65535) throw new FlagError(`--port ${port} must be between 0 and 65535, inclusive`);
  const bindAddress = flagValue(values, 'bind-address');
  if (isIP(bindAddress.trim()) === 0)
    throw new FlagError(
      `invalid argument ${JSON.stringify(bindAddress)} for "--bind-address" flag: failed to parse IP: ${JSON.stringify(bindAddress)}`,
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
    bindAddress: bindAddress.trim(),
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

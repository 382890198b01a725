// The server's flags: kube-apiserver's names, kinds, defaults and usage texts (`--help` prints them in this order).
import type { FlagDefinition } from './flag-set';
import { AUTHENTICATION_FLAGS } from './authentication';
import { AUTHORIZATION_FLAGS } from './authorization';
import { SERVICE_ACCOUNT_FLAGS } from './service-accounts';

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

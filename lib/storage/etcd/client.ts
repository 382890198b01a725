// The etcd client as the apiserver needs it:
// - no 4 MiB cap on responses (grpc-js' default), since an unpaged list of a large collection is one range response
//   (kube-apiserver lifts the limit the same way);
// - fault handling that never resends a write that may have reached etcd and never refuses to try a member
//   (fault-handling.ts), in place of etcd3's retry-everything policy and circuit breaker;
// - unary calls require a leader (etcd's `hasleader` metadata, as etcd's Go client sends with WithRequireLeader): a
//   member cut off from its cluster answers `etcdserver: no leader` at once, before handling the request, instead of
//   holding a request until etcd's 7 s request timeout. Watch streams do not require one, so they keep running on a
//   member while the cluster elects a leader;
// - keepalive pings as kube-apiserver sets them (30 s, 10 s timeout), and reconnects with capped backoff;
// - an HTTP/2 flow-control window of 16 MiB per connection and stream (grpc-go grows its windows to that size by
//   measuring the link; Node's default is 64 KiB): etcd sends the next page of a paged list while this process is busy
//   with the last one, instead of 64 KiB and then waiting for a WINDOW_UPDATE from the busy event loop;
// - watch responses decoded straight into what etcd3 reads (watch-stream.ts).
import { Etcd3, type IOptions } from 'etcd3';
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { faultHandlingFor } from './fault-handling';
import { decodeWatchesDirectly } from './watch-stream';

const REQUIRE_LEADER_KEY = 'hasleader';
const KEEPALIVE_TIME_MS = 30_000;
const KEEPALIVE_TIMEOUT_MS = 10_000;
const RECONNECT_BACKOFF_FIRST_MS = 100;
const RECONNECT_BACKOFF_MAX_MS = 2_000;
const FLOW_CONTROL_WINDOW_BYTES = 16 << 20;

const requireLeaderForUnaryCalls: Interceptor = (options, nextCall) =>
  new InterceptingCall(nextCall(options), {
    start(metadata, listener, next) {
      if (!options.method_definition.requestStream && !options.method_definition.responseStream)
        metadata.set(REQUIRE_LEADER_KEY, 'true');
      next(metadata, listener);
    },
  });

export function newEtcdClient(hosts: string | string[], options: Omit<IOptions, 'hosts'> = {}): Etcd3 {
  const hostList = typeof hosts === 'string' ? [hosts] : hosts;
  const grpcOptions = {
    'grpc.keepalive_time_ms': KEEPALIVE_TIME_MS,
    'grpc.keepalive_timeout_ms': KEEPALIVE_TIMEOUT_MS,
    'grpc.initial_reconnect_backoff_ms': RECONNECT_BACKOFF_FIRST_MS,
    'grpc.max_reconnect_backoff_ms': RECONNECT_BACKOFF_MAX_MS,
    'grpc-node.flow_control_window': FLOW_CONTROL_WINDOW_BYTES,
    ...options.grpcOptions,
    'grpc.max_receive_message_length': -1,
    'grpc.max_send_message_length': -1,
    // grpc-js takes client interceptors from the options its service clients are constructed with.
    interceptors: [requireLeaderForUnaryCalls],
  };
  const client = new Etcd3({
    ...options,
    hosts: hostList,
    grpcOptions: grpcOptions as IOptions['grpcOptions'],
    faultHandling: { ...faultHandlingFor(hostList), ...options.faultHandling } as IOptions['faultHandling'],
  });
  decodeWatchesDirectly(client);
  return client;
}

// etcd failures as the etcd3 client raises them (grpc-js errors cast by etcd3), their class, and the Status each becomes.
import { castGrpcError, ClientClosedError } from 'etcd3';
import { BrokenCircuitError } from 'cockatiel';
import {
  classifyEtcdError,
  toStorageError,
  unknownOutcome,
  etcdErrorText,
  MemberSkippedError,
  type EtcdFailureClass,
} from './etcd-errors';
import { toStatusError } from '../../registry/generic/storage-errors';
import { StatusError } from '../../apimachinery/errors';

/** An error as grpc-js rejects a call with (`<code> <NAME>: <details>`, numeric code), cast by etcd3 as it does. */
function grpcError(code: number, name: string, details: string): Error {
  return castGrpcError(Object.assign(new Error(`${code} ${name}: ${details}`), { code, details }));
}

const HPA = { group: 'autoscaling', resource: 'horizontalpodautoscalers' };

describe('classifying etcd failures', () => {
  it.each<[string, Error, EtcdFailureClass]>([
    [
      'no connection (member down)',
      grpcError(
        14,
        'UNAVAILABLE',
        'No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2379.',
      ),
      'not-sent',
    ],
    [
      'channel closed before the call started',
      grpcError(14, 'UNAVAILABLE', 'Channel closed before call started'),
      'not-sent',
    ],
    ['stream refused (HTTP/2 REFUSED_STREAM)', grpcError(14, 'UNAVAILABLE', 'Stream refused by server'), 'not-sent'],
    ['member without leader (hasleader required)', grpcError(14, 'UNAVAILABLE', 'etcdserver: no leader'), 'not-sent'],
    ['raft dropped the proposal', grpcError(2, 'UNKNOWN', 'raft proposal dropped'), 'not-sent'],
    ['apply backlog', grpcError(8, 'RESOURCE_EXHAUSTED', 'etcdserver: too many requests'), 'not-sent'],
    ['etcd request timeout', grpcError(14, 'UNAVAILABLE', 'etcdserver: request timed out'), 'timeout'],
    [
      'timeout after a leader failure',
      grpcError(14, 'UNAVAILABLE', 'etcdserver: request timed out, possibly due to previous leader failure'),
      'timeout',
    ],
    [
      'timeout after a lost connection',
      grpcError(14, 'UNAVAILABLE', 'etcdserver: request timed out, possibly due to connection lost'),
      'timeout',
    ],
    ['gRPC Unknown context deadline exceeded', grpcError(2, 'UNKNOWN', 'context deadline exceeded'), 'timeout'],
    ['client deadline', grpcError(4, 'DEADLINE_EXCEEDED', 'Deadline exceeded after 2.001s'), 'timeout'],
    ['connection dropped mid-call', grpcError(14, 'UNAVAILABLE', 'Connection dropped'), 'interrupted'],
    ['connection reset mid-call', grpcError(14, 'UNAVAILABLE', 'read ECONNRESET'), 'interrupted'],
    ['leader changed', grpcError(14, 'UNAVAILABLE', 'etcdserver: leader changed'), 'interrupted'],
    ['server stopped', grpcError(14, 'UNAVAILABLE', 'etcdserver: server stopped'), 'interrupted'],
    ['call cancelled', grpcError(1, 'CANCELLED', 'Call cancelled'), 'interrupted'],
    ['compacted', grpcError(11, 'OUT_OF_RANGE', 'etcdserver: mvcc: required revision has been compacted'), 'compacted'],
    [
      'future revision',
      grpcError(11, 'OUT_OF_RANGE', 'etcdserver: mvcc: required revision is a future revision'),
      'future-revision',
    ],
    ['request too large', grpcError(3, 'INVALID_ARGUMENT', 'etcdserver: request is too large'), 'rejected'],
    ['client closed', new ClientClosedError('KV'), 'closed'],
    ['member skipped by the client policy', new MemberSkippedError('http://127.0.0.1:2379'), 'not-sent'],
    ['a circuit breaker (etcd3 default policy)', new BrokenCircuitError(), 'not-sent'],
    ['a programming error', new TypeError('x is undefined'), 'rejected'],
  ])('%s', (_what, err, cls) => {
    expect(classifyEtcdError(err)).toBe(cls);
  });
});

describe('the Status an etcd failure becomes', () => {
  const status = (err: unknown, operation: 'get' | 'create' = 'get'): unknown => {
    const mapped = toStatusError(toStorageError(err, '/registry/autoscaling/horizontalpodautoscalers/ns/web'), {
      resource: HPA,
      name: 'web',
      operation,
    });
    return mapped instanceof StatusError ? { ...mapped.status, reported: mapped.reported } : mapped;
  };

  it('etcd timing out is 504 Timeout with etcd text, without Retry-After', () => {
    expect(status(grpcError(14, 'UNAVAILABLE', 'etcdserver: request timed out'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Timeout: etcdserver: request timed out',
      reason: 'Timeout',
      code: 504,
      reported: true,
    });
    expect(status(grpcError(2, 'UNKNOWN', 'context deadline exceeded'))).toMatchObject({
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: context deadline exceeded',
    });
  });

  it.each([
    grpcError(14, 'UNAVAILABLE', 'No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2379.'),
    grpcError(14, 'UNAVAILABLE', 'etcdserver: no leader'),
    grpcError(14, 'UNAVAILABLE', 'Connection dropped'),
    new BrokenCircuitError(),
    new ClientClosedError('KV'),
  ])(
    'etcd unreachable (%s) is 500 ServerTimeout with retryAfterSeconds 2, as InterpretGetError/InterpretCreateError answer',
    (err) => {
      expect(status(err, 'create')).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'The create operation against horizontalpodautoscalers.autoscaling could not be completed at this time, please try again.',
        reason: 'ServerTimeout',
        details: { name: 'create', group: 'autoscaling', kind: 'horizontalpodautoscalers', retryAfterSeconds: 2 },
        code: 500,
        reported: true,
      });
    },
  );

  it('a write whose outcome stays unknown is 504 Timeout saying so', () => {
    const lost = toStatusError(unknownOutcome(grpcError(14, 'UNAVAILABLE', 'Connection dropped'), '/k'), {
      resource: HPA,
      name: 'web',
      operation: 'update',
    }) as StatusError;
    expect(lost.status).toMatchObject({
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: the write may or may not have been applied: Connection dropped',
    });
    const timedOut = toStatusError(
      unknownOutcome(grpcError(14, 'UNAVAILABLE', 'etcdserver: request timed out'), '/k'),
      { resource: HPA, name: 'web', operation: 'create' },
    ) as StatusError;
    expect(timedOut.status).toMatchObject({
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: etcdserver: request timed out',
    });
    expect(timedOut.status.details).toBeUndefined();
  });

  it("a compacted revision is 410 Expired; etcd's refusals are 1.26's reason-less 500 with etcd's text", () => {
    expect(
      status(grpcError(11, 'OUT_OF_RANGE', 'etcdserver: mvcc: required revision has been compacted')),
    ).toMatchObject({ code: 410, reason: 'Expired' });
    for (const [code, name, text] of [
      [3, 'INVALID_ARGUMENT', 'etcdserver: request is too large'],
      [8, 'RESOURCE_EXHAUSTED', 'etcdserver: mvcc: database space exceeded'],
    ] as const) {
      const refused = toStorageError(grpcError(code, name, text), '/k');
      expect(refused).toBeInstanceOf(StatusError);
      expect((refused as StatusError).status).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: text,
        code: 500,
      });
    }
    const bug = new TypeError('x is undefined');
    expect(toStorageError(bug, '/k')).toBe(bug);
  });

  it('drops the gRPC code prefix from texts', () => {
    expect(etcdErrorText(grpcError(14, 'UNAVAILABLE', 'etcdserver: no leader'))).toBe('etcdserver: no leader');
  });
});

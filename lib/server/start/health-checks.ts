// The checks behind /healthz, /livez and /readyz, as kube-apiserver registers them.
import type { Storage } from '../../storage/storage';
import type { RunningControllers } from '../controllers';
import { flagCheck, pingCheck, rateLimited, withGracePeriod, withTimeout, type HealthCheck } from '../healthz/healthz';

const ETCD_CHECK_TIMEOUT_MS = 2000;

export interface HealthChecks {
  healthz: HealthCheck[];
  livez: HealthCheck[];
  readyz: HealthCheck[];
}

/** Livez gives the post-start hooks and etcd `livezGracePeriodMs` after `startedAt`; readyz also fails while shutting down. */
export function healthChecks(parts: {
  storage: Storage;
  controllers: RunningControllers;
  startedAt: number;
  livezGracePeriodMs: number;
  shuttingDown: () => boolean;
}): HealthChecks {
  const { controllers } = parts;
  // One etcd request per half the timeout at most, the checks in between reusing its outcome (as kube-apiserver).
  const etcdCheck = rateLimited(
    withTimeout({ name: 'etcd', check: () => parts.storage.ping() }, ETCD_CHECK_TIMEOUT_MS),
    ETCD_CHECK_TIMEOUT_MS / 2,
    new Error('etcd client connection not yet established'),
  );
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
  const shutdownCheck = flagCheck('shutdown', parts.shuttingDown, 'process is shutting down');
  const checks = [etcdCheck, bootstrapCheck, apfCheck, rbacCheck];
  return {
    healthz: [pingCheck, logCheck, ...checks],
    livez: [pingCheck, logCheck, ...checks.map((c) => withGracePeriod(c, parts.startedAt, parts.livezGracePeriodMs))],
    readyz: [pingCheck, logCheck, ...checks, shutdownCheck],
  };
}

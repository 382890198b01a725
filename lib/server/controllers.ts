// The in-process controllers: every replica bootstraps namespaces and APF objects (idempotent, like kube-apiserver's
// post-start hooks) and invalidates its namespace cache; leader-only: FlowSchema status, namespace cleanup, GC.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry';
import { FLOWCONTROL_GROUP } from '../registry/install';
import { NamespaceController } from '../registry/core/namespaces/controller';
import { bootstrapNamespaces } from '../registry/core/namespaces/bootstrap';
import type { NamespaceLifecycle } from '../registry/core/namespaces/lifecycle-admission';
import { applyNamespaceDefaults } from '../apis/core/v1/defaults';
import { FlowcontrolBootstrap } from '../registry/flowcontrol/bootstrap/ensurer';
import { DanglingConditionController } from '../registry/flowcontrol/dangling-controller';
import { LeaderElection } from './leader-election';
import { FlowcontrolConfig } from './flowcontrol/config-watcher';
import { GarbageCollector } from '../registry/generic/garbage-collector';

/** Lease of the controllers' election: a killed leader's work moves within this plus one 2 s retry (under 15 s). */
const CONTROLLERS_LEASE_SECONDS = 10;

export interface ControllerDeps {
  registry: ResourceRegistry;
  client: Etcd3;
  etcdPrefix: string;
  admission: NamespaceLifecycle;
  log: Logger;
}

export interface RunningControllers {
  /** The built-in namespaces exist (post-start hook `bootstrap-controller`). */
  namespacesBootstrapped(): boolean;
  /** The APF configuration objects exist (post-start hook `priority-and-fairness-config-producer`). */
  flowcontrolBootstrapped(): boolean;
  /** The APF classifier, kept current from the FlowSchema and PriorityLevelConfiguration objects. */
  flowcontrol: FlowcontrolConfig;
  /** Resolves once the built-in namespaces and the APF configuration exist (or the latter gave up, logged). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

function served(registry: ResourceRegistry, group: string, version: string, resource: string): ServedResource {
  const s = registry.lookup(group, version, resource);
  if (!s) throw new Error(`${resource}.${group}/${version} is not served`);
  return s;
}

export function startControllers(deps: ControllerDeps): RunningControllers {
  const { registry, log } = deps;
  const namespaces = served(registry, '', 'v1', 'namespaces');
  const flowSchemas = served(registry, FLOWCONTROL_GROUP, 'v1beta3', 'flowschemas');
  const priorityLevels = served(registry, FLOWCONTROL_GROUP, 'v1beta3', 'prioritylevelconfigurations');

  // Like kube-controller-manager, one replica at a time cleans terminating namespaces and collects garbage.
  const controllersElection = new LeaderElection(deps.client, `${deps.etcdPrefix}/orch-leader-election/controllers`, `${hostname()}_${randomUUID()}`, log.child({ election: 'controllers' }), CONTROLLERS_LEASE_SECONDS);
  const namespaceController = new NamespaceController({
    cleans: () => controllersElection.isLeader,
    namespaces: namespaces.store,
    finalize: namespaces.putSubresources.get('finalize') ?? namespaces.store,
    status: namespaces.statusStore ?? namespaces.store,
    namespacedStores: () => registry.all().filter((s) => s.definition.strategy.namespaced).map((s) => s.store),
    log: log.child({ controller: 'namespace' }),
    onNamespaceChange: (name) => deps.admission.invalidate(name),
  });
  namespaceController.start();
  let namespacesDone = false;
  const stopNamespaceBootstrap = bootstrapNamespaces(namespaces.store, applyNamespaceDefaults, log).then((stop) => {
    namespacesDone = true;
    return stop;
  });

  const apf = new FlowcontrolBootstrap({ flowSchemas: flowSchemas.store, priorityLevels: priorityLevels.store, log: log.child({ controller: 'apf-bootstrap' }) });
  let apfDone = false;
  const apfStarted = apf.start().then(
    () => {
      apfDone = true;
    },
    (err: unknown) => log.error({ err }, 'APF bootstrap configuration could not be ensured'),
  );

  // One replica at a time maintains FlowSchema status; the key lives outside every resource prefix.
  const dangling = new DanglingConditionController({
    flowSchemas: flowSchemas.store,
    flowSchemaStatus: flowSchemas.statusStore ?? flowSchemas.store,
    priorityLevels: priorityLevels.store,
    log: log.child({ controller: 'apf-dangling' }),
  });
  const election = new LeaderElection(deps.client, `${deps.etcdPrefix}/orch-leader-election/apf-config-consumer`, `${hostname()}_${randomUUID()}`, log.child({ election: 'apf-config-consumer' }));
  election.start(
    () => dangling.start(),
    () => dangling.stop(),
  );

  // A collector instance per leadership term (a stopped one does not restart).
  let garbageCollector: GarbageCollector | undefined;
  let collectorStopped: Promise<void> = Promise.resolve();
  controllersElection.start(
    () => {
      log.info('leading the controllers: namespace cleanup and garbage collection run on this replica');
      namespaceController.resyncNow();
      const gc = new GarbageCollector(registry.all().map((s) => s.store), log.child({ controller: 'garbage-collector' }));
      garbageCollector = gc;
      void collectorStopped.then(() => {
        if (garbageCollector === gc) gc.start();
      });
    },
    () => {
      log.info('no longer leading the controllers');
      const gc = garbageCollector;
      garbageCollector = undefined;
      if (gc) collectorStopped = gc.stop();
    },
  );

  const flowcontrol = new FlowcontrolConfig({ flowSchemas: flowSchemas.store, priorityLevels: priorityLevels.store, log: log.child({ controller: 'apf-config' }) });
  const flowcontrolLoaded = flowcontrol.start();

  return {
    flowcontrol,
    namespacesBootstrapped: () => namespacesDone,
    flowcontrolBootstrapped: () => apfDone,
    ready: Promise.all([stopNamespaceBootstrap, apfStarted, flowcontrolLoaded]).then(() => undefined),
    stop: async () => {
      namespaceController.stop();
      apf.stop();
      dangling.stop();
      await flowcontrol.stop();
      await controllersElection.stop();
      await collectorStopped;
      (await stopNamespaceBootstrap)();
      // Before the etcd client closes, so the lease is revoked and another replica takes over at once.
      await election.stop();
    },
  };
}

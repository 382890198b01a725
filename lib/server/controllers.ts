// The in-process controllers: every replica bootstraps namespaces and APF objects (idempotent, like kube-apiserver's
// post-start hooks) and invalidates its namespace cache; leader-only: FlowSchema status, namespace cleanup, GC.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry';
import { EVENTS_GROUP } from '../apis/events/register';
import { FLOWCONTROL_GROUP } from '../apis/flowcontrol/register';
import { EventRecorder } from '../registry/core/events/recorder';
import { APF_CONFIG_CONSUMER_MANAGER, KUBE_CONTROLLER_MANAGER } from '../registry/generic/internal-field-manager';
import { NamespaceController } from '../registry/core/namespaces/controller';
import { bootstrapNamespaces } from '../registry/core/namespaces/bootstrap';
import type { NamespaceLifecycle } from '../registry/core/namespaces/lifecycle-admission';
import { applyNamespaceDefaults } from '../apis/core/v1/defaults';
import { FlowcontrolBootstrap } from '../registry/flowcontrol/bootstrap/ensurer';
import { DanglingConditionController } from '../registry/flowcontrol/dangling-controller';
import { LeaderElection } from './leader-election';
import { FlowcontrolConfig } from './flowcontrol/config-watcher';
import { GarbageCollector } from '../registry/generic/garbage-collector';
import { RBAC_GROUP } from '../apis/rbac/types';
import { PolicyCache } from './authorization/rbac/policy-cache';
import { Informer } from '../controllers/informer';
import { RbacBootstrap } from '../registry/rbac/bootstrap/ensurer';
import { ClusterRoleAggregation } from '../registry/rbac/clusterroles/aggregation-controller';

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
  /** The RBAC bootstrap roles and bindings exist (post-start hook `rbac/bootstrap-roles`). */
  rbacBootstrapped(): boolean;
  /** Roles, ClusterRoles and bindings in memory, kept current by watches (the RBAC authorizer reads it). */
  rbac: PolicyCache;
  /** Service accounts in memory from a watch: a service account token is valid only while its account exists. */
  serviceAccounts: Informer;
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

  // The recorder writes through events.orch.io/v1; with that version disabled (--runtime-config), through core v1.
  const events = registry.lookup(EVENTS_GROUP, 'v1', 'events') ?? served(registry, '', 'v1', 'events');
  const recorder = (controller: string, manager: string): EventRecorder =>
    new EventRecorder(events.store, controller, log.child({ recorder: controller }), manager);
  const namespaceEvents = recorder('namespace-controller', KUBE_CONTROLLER_MANAGER);
  const apfEvents = recorder('api-priority-and-fairness-config-consumer', APF_CONFIG_CONSUMER_MANAGER);

  // Like kube-controller-manager, one replica at a time cleans terminating namespaces and collects garbage.
  const controllersElection = new LeaderElection(
    deps.client,
    `${deps.etcdPrefix}/orch-leader-election/controllers`,
    `${hostname()}_${randomUUID()}`,
    log.child({ election: 'controllers' }),
    CONTROLLERS_LEASE_SECONDS,
  );
  const namespaceController = new NamespaceController({
    recorder: namespaceEvents,
    cleans: () => controllersElection.isLeader,
    namespaces: namespaces.store,
    finalize: namespaces.putSubresources.get('finalize') ?? namespaces.store,
    status: namespaces.statusStore ?? namespaces.store,
    namespacedStores: () =>
      registry
        .all()
        .filter((s) => s.definition.strategy.namespaced)
        .map((s) => s.store),
    log: log.child({ controller: 'namespace' }),
    onNamespaceChange: (name) => deps.admission.invalidate(name),
  });
  namespaceController.start();
  let namespacesDone = false;
  const stopNamespaceBootstrap = bootstrapNamespaces(namespaces.store, applyNamespaceDefaults, log).then((stop) => {
    namespacesDone = true;
    return stop;
  });

  const apf = new FlowcontrolBootstrap({
    flowSchemas: flowSchemas.store,
    priorityLevels: priorityLevels.store,
    log: log.child({ controller: 'apf-bootstrap' }),
  });
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
    recorder: apfEvents,
  });
  const election = new LeaderElection(
    deps.client,
    `${deps.etcdPrefix}/orch-leader-election/apf-config-consumer`,
    `${hostname()}_${randomUUID()}`,
    log.child({ election: 'apf-config-consumer' }),
  );
  // The consumer starts once the bootstrap's first pass is over (done or given up), so a fresh cluster's FlowSchemas
  // are first seen with their priority levels: no Dangling events for the bootstrap's own creation order.
  let stopping = false;
  void apfStarted.then(() => {
    if (!stopping)
      election.start(
        () => dangling.start(),
        () => dangling.stop(),
      );
  });

  // A collector instance per leadership term (a stopped one does not restart).
  let garbageCollector: GarbageCollector | undefined;
  let collectorStopped: Promise<void> = Promise.resolve();
  controllersElection.start(
    () => {
      log.info('leading the controllers: namespace cleanup and garbage collection run on this replica');
      namespaceController.resyncNow();
      const gc = new GarbageCollector(
        registry.all().map((s) => s.store),
        log.child({ controller: 'garbage-collector' }),
      );
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

  const rbac = new PolicyCache(
    {
      roles: served(registry, RBAC_GROUP, 'v1', 'roles').store,
      clusterRoles: served(registry, RBAC_GROUP, 'v1', 'clusterroles').store,
      roleBindings: served(registry, RBAC_GROUP, 'v1', 'rolebindings').store,
      clusterRoleBindings: served(registry, RBAC_GROUP, 'v1', 'clusterrolebindings').store,
    },
    log.child({ controller: 'rbac-cache' }),
  );
  const aggregation = new ClusterRoleAggregation({
    store: served(registry, RBAC_GROUP, 'v1', 'clusterroles').store,
    clusterRoles: () => rbac.clusterRoleObjects(),
    log: log.child({ controller: 'clusterrole-aggregation' }),
  });
  rbac.onChange(() => aggregation.changed());
  const rbacLoaded = rbac.start();
  const serviceAccounts = new Informer(served(registry, '', 'v1', 'serviceaccounts').store, {
    log: log.child({ controller: 'serviceaccount-cache' }),
    resource: 'serviceaccounts',
  });
  const serviceAccountsLoaded = serviceAccounts.start();
  const rbacBootstrap = new RbacBootstrap({
    clusterRoles: served(registry, RBAC_GROUP, 'v1', 'clusterroles').store,
    clusterRoleBindings: served(registry, RBAC_GROUP, 'v1', 'clusterrolebindings').store,
    log: log.child({ controller: 'rbac-bootstrap' }),
  });
  let rbacDone = false;
  const rbacStarted = rbacBootstrap.start().then(
    () => {
      rbacDone = true;
    },
    (err: unknown) => log.error({ err }, 'RBAC bootstrap policy could not be ensured'),
  );

  const flowcontrol = new FlowcontrolConfig({
    flowSchemas: flowSchemas.store,
    priorityLevels: priorityLevels.store,
    log: log.child({ controller: 'apf-config' }),
  });
  const flowcontrolLoaded = flowcontrol.start();

  return {
    flowcontrol,
    namespacesBootstrapped: () => namespacesDone,
    flowcontrolBootstrapped: () => apfDone,
    rbac,
    serviceAccounts,
    rbacBootstrapped: () => rbacDone,
    ready: Promise.all([
      stopNamespaceBootstrap,
      apfStarted,
      flowcontrolLoaded,
      rbacLoaded,
      rbacStarted,
      serviceAccountsLoaded,
    ]).then(() => undefined),
    stop: async () => {
      stopping = true;
      await serviceAccounts.stop();
      rbacBootstrap.stop();
      aggregation.stop();
      await rbac.stop();
      namespaceController.stop();
      namespaceEvents.stop();
      apfEvents.stop();
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

// The RBAC policy of one replica: Roles, ClusterRoles and their bindings kept in memory from watches (no etcd read per
// request), indexed by namespace and subject so a check looks at only the bindings that name the user or its groups.
import type { Logger } from 'pino';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { roleRefOf, rulesOf, subjectsOf, type RoleRef, type Subject } from '../../../apis/rbac/types';
import type { GenericStore } from '../../../registry/generic/store';
import { Informer, onAnyChange } from '../../../controllers/informer';
import { compileRule, subjectKey, type CompiledRule } from './rules';

/** Changes are indexed in batches; well under the 1 s in which a role change must take effect. */
const REINDEX_DEBOUNCE_MS = 10;

export interface PolicyStores {
  roles: GenericStore;
  clusterRoles: GenericStore;
  roleBindings: GenericStore;
  clusterRoleBindings: GenericStore;
}

export interface IndexedBinding {
  /** `namespace/name` or `name` */
  key: string;
  namespace: string;
  roleRef: RoleRef;
  /** Index key → the first subject found under it, as RBAC's reasons describe it (`User "bob"`), in subject order. */
  subjects: Map<string, string>;
}

/** describeSubject of plugin/pkg/auth/authorizer/rbac: a service account as `name/namespace`. */
function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount')
    return `${subject.kind} "${subject.name}/${subject.namespace || bindingNamespace}"`;
  return `${subject.kind} "${subject.name}"`;
}

/** The binding as an allowing reason names it: `RoleBinding "name/namespace" of ClusterRole "view" to User "bob"`. */
export function describeBinding(binding: IndexedBinding, userKeys: ReadonlySet<string>): string {
  const [kind, name] =
    binding.namespace === ''
      ? ['ClusterRoleBinding', binding.key]
      : ['RoleBinding', `${binding.key.slice(binding.namespace.length + 1)}/${binding.namespace}`];
  // appliesTo: the binding's first subject that is the user.
  let subject = '';
  for (const [key, described] of binding.subjects)
    if (userKeys.has(key)) {
      subject = described;
      break;
    }
  return `${kind} "${name}" of ${binding.roleRef.kind} "${binding.roleRef.name}" to ${subject}`;
}

/** Bindings by subject key (`u:<user>`, `g:<group>`). */
type SubjectIndex = Map<string, IndexedBinding[]>;

export interface PolicySnapshot {
  clusterRoles: ReadonlyMap<string, CompiledRule[]>;
  /** `namespace/name` → rules */
  roles: ReadonlyMap<string, CompiledRule[]>;
  clusterRoleBindings: SubjectIndex;
  /** namespace → its RoleBindings by subject */
  roleBindings: ReadonlyMap<string, SubjectIndex>;
}

const EMPTY: PolicySnapshot = {
  clusterRoles: new Map(),
  roles: new Map(),
  clusterRoleBindings: new Map(),
  roleBindings: new Map(),
};

function indexBinding(index: SubjectIndex, obj: ApiObject): void {
  const namespace = obj.metadata.namespace ?? '';
  const binding: IndexedBinding = {
    key: namespace === '' ? (obj.metadata.name ?? '') : `${namespace}/${obj.metadata.name ?? ''}`,
    namespace,
    roleRef: roleRefOf(obj),
    subjects: new Map(),
  };
  for (const subject of subjectsOf(obj)) {
    const key = subjectKey(subject, namespace);
    if (key !== undefined && !binding.subjects.has(key)) binding.subjects.set(key, describeSubject(subject, namespace));
  }
  for (const key of binding.subjects.keys()) {
    const list = index.get(key);
    if (list) list.push(binding);
    else index.set(key, [binding]);
  }
}

function compileRoles(objects: Iterable<[string, ApiObject]>): Map<string, CompiledRule[]> {
  const out = new Map<string, CompiledRule[]>();
  for (const [key, obj] of objects) out.set(key, rulesOf(obj).map(compileRule));
  return out;
}

export function buildSnapshot(
  roles: Iterable<[string, ApiObject]>,
  clusterRoles: Iterable<[string, ApiObject]>,
  roleBindings: Iterable<ApiObject>,
  clusterRoleBindings: Iterable<ApiObject>,
): PolicySnapshot {
  const crbIndex: SubjectIndex = new Map();
  for (const obj of clusterRoleBindings) indexBinding(crbIndex, obj);
  const rbIndex = new Map<string, SubjectIndex>();
  for (const obj of roleBindings) {
    const ns = obj.metadata.namespace ?? '';
    let index = rbIndex.get(ns);
    if (!index) rbIndex.set(ns, (index = new Map()));
    indexBinding(index, obj);
  }
  return {
    roles: compileRoles(roles),
    clusterRoles: compileRoles(clusterRoles),
    clusterRoleBindings: crbIndex,
    roleBindings: rbIndex,
  };
}

export class PolicyCache {
  readonly #collections: Informer[];
  readonly #roles: Informer;
  readonly #clusterRoles: Informer;
  readonly #roleBindings: Informer;
  readonly #clusterRoleBindings: Informer;
  readonly #listeners: Array<() => void> = [];
  #snapshot: PolicySnapshot = EMPTY;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(stores: PolicyStores, log: Logger) {
    const changed = (): void => this.#scheduleReindex();
    this.#roles = new Informer(stores.roles, { log, resource: 'roles' });
    this.#clusterRoles = new Informer(stores.clusterRoles, { log, resource: 'clusterRoles' });
    this.#roleBindings = new Informer(stores.roleBindings, { log, resource: 'roleBindings' });
    this.#clusterRoleBindings = new Informer(stores.clusterRoleBindings, { log, resource: 'clusterRoleBindings' });
    this.#collections = [this.#roles, this.#clusterRoles, this.#roleBindings, this.#clusterRoleBindings];
    for (const informer of this.#collections) informer.addHandler(onAnyChange(changed));
  }

  /** Lists everything once and starts watching; resolves after the first attempt (failures are retried). */
  async start(): Promise<void> {
    await Promise.all(this.#collections.map((c) => c.start()));
    this.#reindex();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await Promise.all(this.#collections.map((c) => c.stop()));
  }

  get loaded(): boolean {
    return this.#collections.every((c) => c.hasSynced());
  }

  get snapshot(): PolicySnapshot {
    return this.#snapshot;
  }

  /** The ClusterRoles as stored (the aggregation controller reads them). */
  clusterRoleObjects(): ApiObject[] {
    return [...this.#clusterRoles.objects.values()];
  }

  /** Called after each re-index. */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  #scheduleReindex(): void {
    if (this.#stopped || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#reindex();
    }, REINDEX_DEBOUNCE_MS);
    this.#timer.unref();
  }

  #reindex(): void {
    if (this.#stopped) return;
    this.#snapshot = buildSnapshot(
      this.#roles.objects,
      this.#clusterRoles.objects,
      this.#roleBindings.objects.values(),
      this.#clusterRoleBindings.objects.values(),
    );
    for (const listener of this.#listeners) listener();
  }
}

// NamespaceLifecycle admission: no content in missing or terminating namespaces; protected namespaces stay.
import { forbidden, notFound, StatusError } from '../../../apimachinery/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { Admission } from '../../generic/admission';
import type { GenericStore } from '../../generic/store';
import type { ResourceDefinition } from '../../rest/resource';

/** Namespaces the server refuses to delete (kube-apiserver's immortal namespaces). */
export const PROTECTED_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);
/** A namespace seen to exist is trusted this long before it is read again. */
const EXISTS_CACHE_MS = 1000;

export class NamespaceLifecycle implements Admission {
  readonly #namespaces: () => GenericStore;
  readonly #seen = new Map<string, { phase: string; at: number }>();

  /** `namespaces` is resolved lazily because the namespace store is built with this admission. */
  constructor(namespaces: () => GenericStore) {
    this.#namespaces = namespaces;
  }

  async admitCreate(definition: ResourceDefinition, namespace: string, obj: ApiObject): Promise<void> {
    if (!definition.strategy.namespaced || namespace === '') return;
    const phase = await this.#phaseOf(namespace);
    if (phase === 'Terminating') {
      const name = obj.metadata.name || obj.metadata.generateName || 'Unknown';
      const err = forbidden(
        definition,
        name,
        `unable to create new content in namespace ${namespace} because it is being terminated`,
      );
      err.status.details = {
        ...err.status.details,
        causes: [
          {
            reason: 'NamespaceTerminating' as never,
            message: `namespace ${namespace} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      };
      throw err;
    }
  }

  async admitDelete(definition: ResourceDefinition, _namespace: string, name: string): Promise<void> {
    if (definition.group === '' && definition.resource === 'namespaces' && PROTECTED_NAMESPACES.has(name)) {
      throw forbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
    }
  }

  afterWrite(definition: ResourceDefinition, obj: ApiObject): void {
    if (definition.group === '' && definition.resource === 'namespaces') this.invalidate(obj.metadata.name ?? '');
  }

  /** Forget what is cached about a namespace (it was just deleted or changed). */
  invalidate(namespace: string): void {
    this.#seen.delete(namespace);
  }

  async #phaseOf(namespace: string): Promise<string> {
    const cached = this.#seen.get(namespace);
    if (cached && Date.now() - cached.at < EXISTS_CACHE_MS) return cached.phase;
    let ns: ApiObject;
    try {
      ns = await this.#namespaces().get('', namespace);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404)
        throw notFound({ group: '', resource: 'namespaces' }, namespace);
      throw err;
    }
    const status = ns['status'] as { phase?: unknown } | undefined;
    const phase = ns.metadata.deletionTimestamp
      ? 'Terminating'
      : typeof status?.phase === 'string'
        ? status.phase
        : 'Active';
    this.#seen.set(namespace, { phase, at: Date.now() });
    return phase;
  }
}

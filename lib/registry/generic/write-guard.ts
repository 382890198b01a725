// A per-resource check of who writes what, run by the store where upstream's policy-based storages run theirs
// (RBAC escalation prevention): on create before validation, on update after it. Writes without a user are the
// server's own (bootstrap, controllers) and are not checked.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { UserInfo } from '../../apimachinery/user';
import type { ResourceDefinition } from '../rest/resource';

export interface WriteGuard {
  /** Throws a StatusError (403) to refuse the write. */
  admitWrite(def: ResourceDefinition, namespace: string, obj: ApiObject, user: UserInfo): void;
}

/** A guard whose implementation is set once the server has built what it needs (the authorizer is built after the registry). */
export class DeferredWriteGuard implements WriteGuard {
  target: WriteGuard | undefined;

  admitWrite(def: ResourceDefinition, namespace: string, obj: ApiObject, user: UserInfo): void {
    this.target?.admitWrite(def, namespace, obj, user);
  }
}

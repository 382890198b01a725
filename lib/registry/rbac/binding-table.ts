// RoleBinding / ClusterRoleBinding printer columns (pkg/printers/internalversion printRoleBinding, printClusterRoleBinding).
import type { ApiObject } from '../../apimachinery/meta/types';
import { roleRefOf, subjectsOf, GROUP_KIND, SERVICE_ACCOUNT_KIND, USER_KIND } from '../../apis/rbac/types';
import { formatAge } from '../rest/age';
import type { TableConvertor } from '../rest/table';
import { ageColumn, nameColumn, stringColumn } from '../rest/table';

/** rbac.SubjectsStrings: users, groups and `namespace/name` service accounts, for display. */
function subjectStrings(obj: ApiObject): { users: string[]; groups: string[]; serviceAccounts: string[] } {
  const out = { users: [] as string[], groups: [] as string[], serviceAccounts: [] as string[] };
  for (const s of subjectsOf(obj)) {
    if (s.kind === SERVICE_ACCOUNT_KIND) out.serviceAccounts.push(`${s.namespace ?? ''}/${s.name}`);
    else if (s.kind === USER_KIND) out.users.push(s.name);
    else if (s.kind === GROUP_KIND) out.groups.push(s.name);
  }
  return out;
}

/** `noun` is `roleBinding` or `clusterRoleBinding`, as the wide columns' descriptions say. */
export function bindingTable(noun: string, roleRefDoc: string): TableConvertor {
  return {
    columns: [
      nameColumn,
      stringColumn('Role', roleRefDoc),
      ageColumn,
      stringColumn('Users', `Users in the ${noun}`, 1),
      stringColumn('Groups', `Groups in the ${noun}`, 1),
      stringColumn('ServiceAccounts', `ServiceAccounts in the ${noun}`, 1),
    ],
    cells(obj: ApiObject, now: Date): unknown[] {
      const ref = roleRefOf(obj);
      const { users, groups, serviceAccounts } = subjectStrings(obj);
      return [
        obj.metadata.name ?? '',
        `${ref.kind}/${ref.name}`,
        formatAge(obj.metadata.creationTimestamp, now),
        users.join(', '),
        groups.join(', '),
        serviceAccounts.join(', '),
      ];
    },
  };
}

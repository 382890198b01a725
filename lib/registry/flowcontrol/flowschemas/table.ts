// FlowSchema printer columns, as kube-apiserver 1.26 prints them (pkg/printers/internalversion).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { formatAge } from '../../rest/age';
import type { TableConvertor } from '../../rest/table';
import { ageColumn, nameColumn, stringColumn } from '../../rest/table';

// Descriptions are the SwaggerDoc texts of k8s.io/api v0.26 flowcontrol/v1beta3 (Name and Age: ../../rest/table).
const PRIORITY_LEVEL_REFERENCE_NAME_DOC =
  '`name` is the name of the priority level configuration being referenced Required.';
const MATCHING_PRECEDENCE_DOC =
  '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.';
const DISTINGUISHER_METHOD_DOC =
  '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.';
const MISSING_PL_DOC = 'references a broken or non-existent PriorityLevelConfiguration';

const DANGLING_CONDITION = 'Dangling';

function field(value: unknown, key: string): unknown {
  return isPlainObject(value) ? value[key] : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** MissingPL: the Dangling condition's status, `?` until the server has written one. */
function missingPriorityLevel(status: unknown): string {
  const conditions = field(status, 'conditions');
  if (!Array.isArray(conditions)) return '?';
  const dangling = conditions.find((c) => field(c, 'type') === DANGLING_CONDITION);
  return dangling === undefined ? '?' : text(field(dangling, 'status'));
}

export const flowSchemaTable: TableConvertor = {
  columns: [
    nameColumn,
    stringColumn('PriorityLevel', PRIORITY_LEVEL_REFERENCE_NAME_DOC),
    // Declared as a string column while the cell is an integer, as upstream does.
    stringColumn('MatchingPrecedence', MATCHING_PRECEDENCE_DOC),
    stringColumn('DistinguisherMethod', DISTINGUISHER_METHOD_DOC),
    ageColumn,
    stringColumn('MissingPL', MISSING_PL_DOC),
  ],
  cells(obj: ApiObject, now: Date): unknown[] {
    const spec = obj.spec;
    const precedence = field(spec, 'matchingPrecedence');
    const method = field(spec, 'distinguisherMethod');
    return [
      text(obj.metadata.name),
      text(field(field(spec, 'priorityLevelConfiguration'), 'name')),
      typeof precedence === 'number' ? precedence : 0,
      isPlainObject(method) ? text(method.type) : '<none>',
      formatAge(obj.metadata.creationTimestamp, now),
      missingPriorityLevel(obj.status),
    ];
  },
  // printFlowSchemaList sorts rows into matching order: matchingPrecedence, then name.
  order: (objects) => [...objects].sort(byMatchingOrder),
};

function precedenceOf(obj: ApiObject): number {
  const p = field(obj.spec, 'matchingPrecedence');
  return typeof p === 'number' ? p : 0;
}

function byMatchingOrder(a: ApiObject, b: ApiObject): number {
  const byPrecedence = precedenceOf(a) - precedenceOf(b);
  if (byPrecedence !== 0) return byPrecedence;
  const an = text(a.metadata.name);
  const bn = text(b.metadata.name);
  return an < bn ? -1 : an > bn ? 1 : 0;
}

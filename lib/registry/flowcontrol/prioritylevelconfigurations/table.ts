// PriorityLevelConfiguration printer columns, as kube-apiserver 1.26 prints them (pkg/printers/internalversion).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { numberAt } from '../../../apimachinery/validation/untrusted-json';
import { formatAge } from '../../rest/age';
import type { TableConvertor } from '../../rest/table';
import { ageColumn, nameColumn, stringColumn } from '../../rest/table';

// Descriptions are the SwaggerDoc texts of k8s.io/api v0.26 flowcontrol/v1beta3 (Name and Age: ../../rest/table).
const TYPE_DOC =
  '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.';
const NOMINAL_CONCURRENCY_SHARES_DOC =
  "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server's concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[limited priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other Limited priority level. This field has a default value of 30.";
const QUEUES_DOC =
  '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.';
const HAND_SIZE_DOC =
  "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.";
const QUEUE_LENGTH_LIMIT_DOC =
  '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.';

const NONE = '<none>';

function field(value: unknown, key: string): unknown {
  return isPlainObject(value) ? value[key] : undefined;
}

export const priorityLevelConfigurationTable: TableConvertor = {
  // All declared as string columns, although the numeric cells are integers, as upstream does.
  columns: [
    nameColumn,
    stringColumn('Type', TYPE_DOC),
    stringColumn('NominalConcurrencyShares', NOMINAL_CONCURRENCY_SHARES_DOC),
    stringColumn('Queues', QUEUES_DOC),
    stringColumn('HandSize', HAND_SIZE_DOC),
    stringColumn('QueueLengthLimit', QUEUE_LENGTH_LIMIT_DOC),
    ageColumn,
  ],
  cells(obj: ApiObject, now: Date): unknown[] {
    const spec = obj.spec;
    const type = field(spec, 'type');
    const limited = field(spec, 'limited');
    let shares: unknown = NONE;
    let queues: unknown = NONE;
    let handSize: unknown = NONE;
    let queueLengthLimit: unknown = NONE;
    // Exempt levels have no limits and Reject levels no queues: those cells stay <none>.
    if (isPlainObject(limited)) {
      shares = numberAt(limited, 'nominalConcurrencyShares');
      const queuing = field(limited.limitResponse, 'queuing');
      if (isPlainObject(queuing)) {
        queues = numberAt(queuing, 'queues');
        handSize = numberAt(queuing, 'handSize');
        queueLengthLimit = numberAt(queuing, 'queueLengthLimit');
      }
    }
    const name = obj.metadata.name;
    return [
      typeof name === 'string' ? name : '',
      typeof type === 'string' ? type : '',
      shares,
      queues,
      handSize,
      queueLengthLimit,
      formatAge(obj.metadata.creationTimestamp, now),
    ];
  },
};

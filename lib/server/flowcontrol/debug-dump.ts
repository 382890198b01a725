// /debug/api_priority_and_fairness/dump_{priority_levels,queues,requests}: Kubernetes 1.26's text tables (rows of
// ",\t"-separated cells aligned as Go's text/tabwriter with minwidth 8, padding 1, blanks).
import type { Dispatcher } from './dispatcher';
import type { PriorityLevelState } from './priority-level';
import { apiVersionOf } from '../../apimachinery/schema/group-version';

const MIN_WIDTH = 8;
const PADDING = 1;

/** Aligns rows the way tabwriter.NewWriter(w, 8, 0, 1, ' ', 0) does for rows of equal cell counts. */
export function tabulate(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (let j = 0; j < row.length - 1; j++)
      widths[j] = Math.max(widths[j] ?? MIN_WIDTH, (row[j] ?? '').length + 1 + PADDING);
  }
  return rows
    .map((row) =>
      row.map((cell, j) => (j < row.length - 1 ? `${cell},`.padEnd(widths[j] ?? MIN_WIDTH) : cell)).join(''),
    )
    .map((line) => `${line}\n`)
    .join('');
}

function byName(dispatcher: Dispatcher): PriorityLevelState[] {
  return dispatcher.levels().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** R values as Kubernetes prints SeatSeconds: 8 decimals and `ss`. */
function seatSeconds(value: number): string {
  return `${Math.max(value, 0).toFixed(8)}ss`;
}

/** Go's time.Duration String for small durations given in milliseconds. */
export function goDuration(ms: number): string {
  const ns = Math.round(ms * 1e6);
  if (ns === 0) return '0s';
  const trim = (value: number, unit: string): string => `${value.toFixed(9).replace(/\.?0+$/, '')}${unit}`;
  if (ns < 1000) return `${ns}ns`;
  if (ns < 1e6) return trim(ns / 1e3, 'µs');
  if (ns < 1e9) return trim(ns / 1e6, 'ms');
  return trim(ns / 1e9, 's');
}

/** RFC3339Nano in UTC (trailing zeros of the fraction dropped) of a performance.now() reading. */
function rfc3339Nano(monotonicMs: number): string {
  const epochMs = performance.timeOrigin + monotonicMs;
  const whole = Math.floor(epochMs / 1000);
  const fraction = Math.round((epochMs / 1000 - whole) * 1e9);
  const base = new Date(whole * 1000).toISOString().slice(0, 19);
  const digits = String(fraction).padStart(9, '0').replace(/0+$/, '');
  return `${base}${digits === '' ? '' : `.${digits}`}Z`;
}

export function dumpPriorityLevels(dispatcher: Dispatcher): string {
  const rows: string[][] = [
    ['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests'],
  ];
  for (const level of byName(dispatcher)) {
    const qs = level.queues;
    if (!qs) {
      rows.push([level.name, '<none>', '<none>', '<none>', '<none>', '<none>']);
      continue;
    }
    const active = qs.queues.filter((q) => q.waiting.length > 0).length;
    rows.push([
      level.name,
      String(active),
      String(qs.idle),
      String(level.quiescing),
      String(qs.totRequestsWaiting),
      String(qs.totRequestsExecuting),
    ]);
  }
  return tabulate(rows);
}

export function dumpQueues(dispatcher: Dispatcher): string {
  const rows: string[][] = [
    [
      'PriorityLevelName',
      'Index',
      'PendingRequests',
      'ExecutingRequests',
      'SeatsInUse',
      'NextDispatchR',
      'InitialSeatsSum',
      'MaxSeatsSum',
      'TotalWorkSum',
    ],
  ];
  for (const level of byName(dispatcher)) {
    const qs = level.queues;
    if (!qs) {
      rows.push([level.name, '<none>', '<none>', '<none>', '<none>', '<none>', '<none>', '<none>', '<none>']);
      continue;
    }
    qs.queues.forEach((q, i) => {
      rows.push([
        level.name,
        String(i),
        String(q.waiting.length),
        String(q.executing),
        String(q.seatsInUse),
        seatSeconds(q.nextDispatchR),
        String(q.initialSeatsSum),
        String(q.maxSeatsSum),
        seatSeconds(q.totalWorkSum),
      ]);
    });
  }
  return tabulate(rows);
}

export function dumpRequests(dispatcher: Dispatcher, includeRequestDetails: boolean): string {
  const header = [
    'PriorityLevelName',
    'FlowSchemaName',
    'QueueIndex',
    'RequestIndexInQueue',
    'FlowDistingsher',
    'ArriveTime',
    'InitialSeats',
    'FinalSeats',
    'AdditionalLatency',
  ];
  if (includeRequestDetails)
    header.push('UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource');
  const rows: string[][] = [header];
  for (const level of byName(dispatcher)) {
    level.queues?.queues.forEach((q, iq) => {
      q.waiting.forEach((r, ir) => {
        const row = [
          level.name,
          r.flowSchema,
          String(iq),
          String(ir),
          r.distinguisher,
          rfc3339Nano(r.arrivalMs),
          String(r.work.initialSeats),
          String(r.work.finalSeats),
          goDuration(r.work.additionalLatencyMs),
        ];
        if (includeRequestDetails) {
          const info = r.details?.info;
          const group = info?.apiGroup ?? '';
          const version = info?.apiVersion ?? '';
          row.push(
            r.details?.user.name ?? '',
            info?.verb ?? '',
            info?.path ?? '',
            info?.namespace ?? '',
            info?.name ?? '',
            apiVersionOf({ group, version }),
            info?.resource ?? '',
            info?.subresource ?? '',
          );
        }
        rows.push(row);
      });
    });
  }
  return tabulate(rows);
}

/** Serves the three dump paths; undefined for any other path. */
export function serveDump(dispatcher: Dispatcher, path: string, query: URLSearchParams): string | undefined {
  switch (path) {
    case '/debug/api_priority_and_fairness/dump_priority_levels':
      return dumpPriorityLevels(dispatcher);
    case '/debug/api_priority_and_fairness/dump_queues':
      return dumpQueues(dispatcher);
    case '/debug/api_priority_and_fairness/dump_requests':
      return dumpRequests(dispatcher, (query.get('includeRequestDetails') ?? '') !== '');
    default:
      return undefined;
  }
}

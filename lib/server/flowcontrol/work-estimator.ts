// APF work estimation as in Kubernetes 1.26 (util/flowcontrol/request): LISTs by the objects they touch, writes by
// the watchers their event reaches, everything else one seat.
import type { RequestInfo } from '../../endpoints/request-info';
import type { ResourceRegistry } from '../../registry/resource-registry';
import type { WorkEstimate } from './fairqueuing/request';

export const MINIMUM_SEATS = 1;
export const MAXIMUM_SEATS = 10;
const OBJECTS_PER_SEAT = 100;
const WATCHES_PER_SEAT = 10;
/** Time each watcher is assumed to spend on one event (eventAdditionalDuration). */
const EVENT_ADDITIONAL_MS = 5;

const ONE_SEAT: WorkEstimate = Object.freeze({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
const MAX_SEATS: WorkEstimate = Object.freeze({ initialSeats: MAXIMUM_SEATS, finalSeats: 0, additionalLatencyMs: 0 });
/** Estimates of LISTs by seat count, shared (estimates are read-only). */
const LIST_SEATS: readonly WorkEstimate[] = Array.from({ length: MAXIMUM_SEATS + 1 }, (_, i) =>
  Object.freeze({ initialSeats: Math.max(i, MINIMUM_SEATS), finalSeats: 0, additionalLatencyMs: 0 }),
);

export interface EstimatorDeps {
  registry: ResourceRegistry;
  /** APIListChunking: a `limit` bounds what a list reads. */
  listChunking: boolean;
}

export function estimateWork(deps: EstimatorDeps, info: RequestInfo, query: URLSearchParams): WorkEstimate {
  if (!info.isResourceRequest) return ONE_SEAT;
  switch (info.verb) {
    case 'list':
      return estimateList(deps, info.apiGroup, info.apiVersion, info.resource, query);
    case 'create':
    case 'update':
    case 'patch':
    case 'delete':
      // Creating a service account token produces no event.
      if (info.resource === 'serviceaccounts' && info.subresource === 'token') return ONE_SEAT;
      return estimateMutating(deps, info.apiGroup, info.apiVersion, info.resource);
    default:
      return ONE_SEAT;
  }
}

function cacherOf(deps: EstimatorDeps, group: string, version: string, resource: string) {
  return deps.registry.lookup(group, version, resource)?.cacher;
}

function estimateList(
  deps: EstimatorDeps,
  group: string,
  version: string,
  resource: string,
  query: URLSearchParams,
): WorkEstimate {
  const count = cacherOf(deps, group, version, resource)?.objectCount;
  if (count === undefined) return ONE_SEAT; // unknown count
  const limitText = query.get('limit');
  const limitValue = limitText === null ? 0 : Number(limitText);
  if (!Number.isInteger(limitValue)) return MAX_SEATS; // options that do not parse
  const resourceVersion = query.get('resourceVersion') ?? '';
  const fromStorage =
    resourceVersion === '' ||
    (deps.listChunking && ((query.get('continue') ?? '') !== '' || (limitValue > 0 && resourceVersion !== '0'))) ||
    query.get('resourceVersionMatch') === 'Exact';
  const limit = deps.listChunking && limitValue > 0 && limitValue < count ? limitValue : count;
  let objects: number;
  if (!fromStorage) objects = count;
  else if ((query.get('fieldSelector') ?? '') !== '' || (query.get('labelSelector') ?? '') !== '')
    objects = count + limit;
  else objects = 2 * limit;
  const seats = Math.min(MAXIMUM_SEATS, Math.max(MINIMUM_SEATS, Math.ceil(objects / OBJECTS_PER_SEAT)));
  return LIST_SEATS[seats] ?? ONE_SEAT;
}

function estimateMutating(deps: EstimatorDeps, group: string, version: string, resource: string): WorkEstimate {
  const watchers = cacherOf(deps, group, version, resource)?.watcherCount ?? 0;
  if (watchers < WATCHES_PER_SEAT) return ONE_SEAT;
  const finalSeats = Math.ceil(watchers / WATCHES_PER_SEAT);
  const finalWorkSeatMs = finalSeats * EVENT_ADDITIONAL_MS;
  const capped = Math.min(finalSeats, MAXIMUM_SEATS);
  return { initialSeats: 1, finalSeats: capped, additionalLatencyMs: finalWorkSeatMs / capped };
}

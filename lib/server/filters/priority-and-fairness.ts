// The API Priority and Fairness filter (filters/priority-and-fairness.go as in 1.26): estimate the request's seats,
// let its priority level admit, queue or reject it, and give the seats back when it is done (a watch: once its
// initial events are out).
import type { ServerResponse } from 'node:http';
import type { RequestInfo } from '../../endpoints/request-info';
import { onWatchInitialized } from '../../endpoints/handlers/watch-init-signal';
import type { Classification, RequestDigest } from '../flowcontrol/classifier';
import type { Dispatcher, ExemptTicket } from '../flowcontrol/dispatcher';
import { FqRequest } from '../flowcontrol/fairqueuing/request';
import { estimateWork, type EstimatorDeps } from '../flowcontrol/work-estimator';
import type { FlowcontrolMetrics } from '../metrics/flowcontrol-metrics';
import { writeTooManyRequests } from './too-many-requests';

export interface PriorityAndFairness {
  dispatcher: Dispatcher;
  metrics: FlowcontrolMetrics;
  estimator: EstimatorDeps;
}

/**
 * true: serve the request now; false: it was answered (429) or its client left; a promise of either when it waits
 * in a queue. The caller has set the PF headers already, so a 429 carries them.
 */
export function admitRequest(
  apf: PriorityAndFairness,
  res: ServerResponse,
  classification: Classification,
  digest: RequestDigest,
  query: URLSearchParams,
): boolean | Promise<boolean> {
  const info = digest.info;
  const work = estimateWork(apf.estimator, info, query);
  const ticket = apf.dispatcher.admit(classification, work, digest);
  const level = classification.priorityLevel.name;
  const flowSchema = classification.flowSchema.name;
  if (typeof ticket === 'string') {
    writeTooManyRequests(res);
    return false;
  }
  if (!(ticket instanceof FqRequest) || ticket.state === 'executing') {
    execute(apf, res, ticket, info, level, flowSchema, undefined);
    return true;
  }
  const arrived = performance.now();
  return new Promise<boolean>((resolve) => {
    const leave = (): void => apf.dispatcher.finish(ticket);
    res.once('close', leave);
    ticket.onDecision = (dispatched) => {
      res.off('close', leave);
      const waited = (performance.now() - arrived) / 1000;
      if (!dispatched) {
        apf.metrics.rejectedAfterWait(level, flowSchema, waited);
        if (ticket.rejectReason !== 'cancelled') writeTooManyRequests(res);
        resolve(false);
        return;
      }
      execute(apf, res, ticket, info, level, flowSchema, waited);
      resolve(true);
    };
  });
}

function execute(
  apf: PriorityAndFairness,
  res: ServerResponse,
  ticket: ExemptTicket | FqRequest,
  info: RequestInfo,
  level: string,
  flowSchema: string,
  waited: number | undefined,
): void {
  const seats = ticket instanceof FqRequest ? ticket.maxSeats : 1;
  apf.metrics.dispatchedRequest(level, flowSchema, seats, waited);
  const started = performance.now();
  const watch = info.isResourceRequest && info.verb === 'watch';
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    apf.dispatcher.finish(ticket);
    apf.metrics.executed(level, flowSchema, watch, (performance.now() - started) / 1000);
  };
  if (watch) onWatchInitialized(res, release);
  res.once('close', release);
}

// The API Priority and Fairness filter (filters/priority-and-fairness.go as in 1.26): estimate the request's seats,
// let its priority level admit, queue or reject it, and give the seats back when it is done (a watch: once its
// initial events are out). A request whose seats are free takes a synchronous path that allocates one small record
// (no closure, no promise); only a request that waits in a queue gets a promise.
import type { ServerResponse } from 'node:http';
import { onWatchInitialized } from '../../endpoints/handlers/watch-init-signal';
import type { Classification, RequestDigest } from '../flowcontrol/classifier';
import type { Dispatcher, ExemptTicket } from '../flowcontrol/dispatcher';
import { FqRequest } from '../flowcontrol/fairqueuing/request';
import { estimateWork, type EstimatorDeps } from '../flowcontrol/work-estimator';
import type { FlowcontrolMetrics, FlowMetrics } from '../metrics/flowcontrol-metrics';
import { writeTooManyRequests } from './too-many-requests';
import { requestKind, type InflightWatermarks, type RequestKind } from '../metrics/inflight-watermark';

export interface PriorityAndFairness {
  dispatcher: Dispatcher;
  metrics: FlowcontrolMetrics;
  estimator: EstimatorDeps;
  /** apiserver_current_inflight_requests / _inqueue_requests: executing and waiting requests by kind. */
  watermarks?: InflightWatermarks;
}

/** A dispatched request until its seats are given back. */
class Execution {
  #released = false;

  constructor(
    readonly apf: PriorityAndFairness,
    readonly ticket: ExemptTicket | FqRequest,
    readonly flow: FlowMetrics,
    readonly watch: boolean,
    readonly startMs: number,
    readonly kind: RequestKind,
  ) {}

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.apf.watermarks?.executing.note(this.kind, -1);
    this.apf.dispatcher.finish(this.ticket);
    this.apf.metrics.executed(this.flow, this.watch, (performance.now() - this.startMs) / 1000);
  }
}

const EXECUTION = Symbol('apf-execution');
type Tracked = ServerResponse & { [EXECUTION]?: Execution };

/** One listener for every response: releases the seats of the execution the response carries. */
function releaseOnClose(this: Tracked): void {
  this[EXECUTION]?.release();
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
  const work = estimateWork(apf.estimator, digest.info, query);
  const flow = apf.metrics.flow(classification.priorityLevel.name, classification.flowSchema.name);
  const ticket = apf.dispatcher.admit(classification, work, digest, flow);
  if (typeof ticket === 'string') {
    writeTooManyRequests(res);
    return false;
  }
  if (!(ticket instanceof FqRequest)) {
    execute(apf, res, ticket, digest, flow, performance.now(), undefined);
    return true;
  }
  if (ticket.state === 'executing') {
    execute(apf, res, ticket, digest, flow, ticket.startMs, undefined);
    return true;
  }
  return waitInQueue(apf, res, ticket, digest, flow);
}

function waitInQueue(
  apf: PriorityAndFairness,
  res: ServerResponse,
  ticket: FqRequest,
  digest: RequestDigest,
  flow: FlowMetrics,
): Promise<boolean> {
  const kind = requestKind(digest.info.verb);
  apf.watermarks?.waiting.note(kind, 1);
  return new Promise<boolean>((resolve) => {
    const leave = (): void => apf.dispatcher.finish(ticket);
    res.once('close', leave);
    ticket.onDecision = (dispatched) => {
      apf.watermarks?.waiting.note(kind, -1);
      res.off('close', leave);
      const waited = (performance.now() - ticket.arrivalMs) / 1000;
      if (!dispatched) {
        apf.metrics.rejectedAfterWait(flow, waited);
        if (ticket.rejectReason !== 'cancelled') writeTooManyRequests(res);
        resolve(false);
        return;
      }
      execute(apf, res, ticket, digest, flow, ticket.startMs, waited);
      resolve(true);
    };
  });
}

function execute(
  apf: PriorityAndFairness,
  res: Tracked,
  ticket: ExemptTicket | FqRequest,
  digest: RequestDigest,
  flow: FlowMetrics,
  startMs: number,
  waited: number | undefined,
): void {
  apf.metrics.dispatched(flow, ticket instanceof FqRequest ? ticket.maxSeats : 1, waited);
  const watch = digest.info.isResourceRequest && digest.info.verb === 'watch';
  const kind = requestKind(digest.info.verb);
  apf.watermarks?.executing.note(kind, 1);
  const execution = new Execution(apf, ticket, flow, watch, startMs, kind);
  res[EXECUTION] = execution;
  if (watch) onWatchInitialized(res, () => execution.release());
  res.on('close', releaseOnClose);
}

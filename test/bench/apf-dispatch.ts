// The dispatcher's own cost per request, in process: classify, admit into global-default (1.26 bootstrap levels,
// seats free) and finish, with metrics, against the same loop without admission; and the filter as the handler
// chain runs it on a real ServerResponse (PF headers, admission, release on 'close'), against a loop that only
// makes and closes the response. Prints ns/op.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Registry } from 'prom-client';
import { parseRequestInfo } from '../../lib/endpoints/request-info';
import { ANONYMOUS, compileClassifier } from '../../lib/server/flowcontrol/classifier';
import { Dispatcher } from '../../lib/server/flowcontrol/dispatcher';
import { FqRequest } from '../../lib/server/flowcontrol/fairqueuing/request';
import { setPriorityAndFairnessHeaders } from '../../lib/server/flowcontrol/headers';
import { bootstrapFlowSchemas, bootstrapPriorityLevels } from '../../lib/server/flowcontrol/testing/bootstrap-config';
import { admitRequest } from '../../lib/server/filters/priority-and-fairness';
import { FlowcontrolMetrics } from '../../lib/server/metrics/flowcontrol-metrics';
import { ResourceRegistry } from '../../lib/registry/resource-registry';

const OPS = Number(process.env['BENCH_OPS'] ?? 1_000_000);

export interface DispatchFigures {
  classifyNs: number;
  dispatchNs: number;
  /** Classify + headers + admitRequest + release on 'close' on a real ServerResponse, minus the bare response. */
  filterNs: number;
}

function time(ops: number, body: () => void): number {
  for (let i = 0; i < ops / 10; i++) body();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) body();
  return Number(process.hrtime.bigint() - t0) / ops;
}

export function measureDispatch(): DispatchFigures {
  const classifier = compileClassifier(bootstrapFlowSchemas(), bootstrapPriorityLevels());
  const metrics = new FlowcontrolMetrics(new Registry());
  const dispatcher = new Dispatcher({ serverConcurrencyLimit: 600, requestWaitLimitMs: 15_000, observer: metrics });
  dispatcher.configure(bootstrapPriorityLevels());
  const query = new URLSearchParams();
  const digest = {
    user: ANONYMOUS,
    info: parseRequestInfo('GET', '/apis/apps/v1/namespaces/default/deployments/web', query),
  };
  const work = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
  const classifyNs = time(OPS, () => {
    classifier.classify(digest);
  });
  const dispatchNs = time(OPS, () => {
    const c = classifier.classify(digest);
    const ticket = dispatcher.admit(c, work, digest);
    if (typeof ticket === 'string') throw new Error(`rejected: ${ticket}`);
    const flow = metrics.flow(c.priorityLevel.name, c.flowSchema.name);
    if (ticket instanceof FqRequest) metrics.dispatched(flow, ticket.maxSeats, undefined);
    dispatcher.finish(ticket);
    metrics.executed(flow, false, 0.001);
  });
  const apf = { dispatcher, metrics, estimator: { registry: new ResourceRegistry(), listChunking: true } };
  const socket = new Socket();
  const request = new IncomingMessage(socket);
  const filterOps = OPS / 4;
  const bare = time(filterOps, () => {
    const res = new ServerResponse(request);
    res.emit('close');
  });
  const filter = time(filterOps, () => {
    const res = new ServerResponse(request);
    const c = classifier.classify(digest);
    setPriorityAndFairnessHeaders(res, c);
    if (admitRequest(apf, res, c, digest, query) !== true) throw new Error('not admitted at once');
    res.emit('close');
  });
  socket.destroy();
  return { classifyNs, dispatchNs, filterNs: filter - bare };
}

if (require.main === module) {
  const { classifyNs, dispatchNs, filterNs } = measureDispatch();
  process.stdout.write(
    `classify: ${classifyNs.toFixed(0)} ns/op; classify + admit + finish + metrics: ${dispatchNs.toFixed(0)} ns/op (dispatch ${(dispatchNs - classifyNs).toFixed(0)} ns); filter on a ServerResponse (classify, headers, admit, release): ${filterNs.toFixed(0)} ns/op\n`,
  );
}

// The dispatcher's own cost per request, in process: classify, admit into global-default (1.26 bootstrap levels,
// seats free) and finish, with metrics, against the same loop without admission. Prints ns/op.
import { Registry } from 'prom-client';
import { parseRequestInfo } from '../../lib/endpoints/request-info';
import { ANONYMOUS, compileClassifier } from '../../lib/server/flowcontrol/classifier';
import { Dispatcher } from '../../lib/server/flowcontrol/dispatcher';
import { FqRequest } from '../../lib/server/flowcontrol/fairqueuing/request';
import { bootstrapFlowSchemas, bootstrapPriorityLevels } from '../../lib/server/flowcontrol/testing/bootstrap-config';
import { FlowcontrolMetrics } from '../../lib/server/metrics/flowcontrol-metrics';

const OPS = Number(process.env['BENCH_OPS'] ?? 1_000_000);

export function measureDispatch(): { classifyNs: number; dispatchNs: number } {
  const classifier = compileClassifier(bootstrapFlowSchemas(), bootstrapPriorityLevels());
  const metrics = new FlowcontrolMetrics(new Registry());
  const dispatcher = new Dispatcher({ serverConcurrencyLimit: 600, requestWaitLimitMs: 15_000, observer: metrics });
  dispatcher.configure(bootstrapPriorityLevels());
  const digest = {
    user: ANONYMOUS,
    info: parseRequestInfo('GET', '/apis/apps/v1/namespaces/default/deployments/web', new URLSearchParams()),
  };
  const work = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
  const time = (body: () => void): number => {
    for (let i = 0; i < OPS / 10; i++) body();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < OPS; i++) body();
    return Number(process.hrtime.bigint() - t0) / OPS;
  };
  const classifyNs = time(() => {
    classifier.classify(digest);
  });
  const dispatchNs = time(() => {
    const c = classifier.classify(digest);
    const ticket = dispatcher.admit(c, work, digest);
    if (typeof ticket === 'string') throw new Error(`rejected: ${ticket}`);
    if (ticket instanceof FqRequest)
      metrics.dispatchedRequest(c.priorityLevel.name, c.flowSchema.name, ticket.maxSeats, undefined);
    dispatcher.finish(ticket);
    metrics.executed(c.priorityLevel.name, c.flowSchema.name, false, 0.001);
  });
  return { classifyNs, dispatchNs };
}

if (require.main === module) {
  const { classifyNs, dispatchNs } = measureDispatch();
  process.stdout.write(
    `classify: ${classifyNs.toFixed(0)} ns/op; classify + admit + finish + metrics: ${dispatchNs.toFixed(0)} ns/op (dispatch ${(dispatchNs - classifyNs).toFixed(0)} ns)\n`,
  );
}

// API Priority and Fairness, or with it off (flag or gate) the max-in-flight filter, as kube-apiserver 1.26 chooses.
import type { ServerOptions } from '../options/options';
import { featureEnabled } from '../options/feature-gates';
import type { RunningControllers } from '../controllers';
import type { ResourceRegistry } from '../../registry/resource-registry';
import { Dispatcher } from '../flowcontrol/dispatcher';
import { serveDump } from '../flowcontrol/debug-dump';
import { FlowcontrolMetrics } from '../metrics/flowcontrol-metrics';
import type { ApiServerMetrics } from '../metrics/metrics';
import { MaxInFlight } from '../filters/max-in-flight';
import { InflightWatermarks } from '../metrics/inflight-watermark';

export type OverloadProtection =
  | {
      kind: 'priority-and-fairness';
      dispatcher: Dispatcher;
      metrics: FlowcontrolMetrics;
      watermarks: InflightWatermarks;
      dump: (path: string, query: URLSearchParams) => ReturnType<typeof serveDump>;
    }
  | { kind: 'max-in-flight'; maxInFlight: MaxInFlight };

/** Builds and starts the dispatcher (reconfigured by the flowcontrol controller) or the max-in-flight filter. */
export function overloadProtection(
  options: ServerOptions,
  controllers: RunningControllers,
  metrics: ApiServerMetrics,
  undo: Array<() => unknown>,
): OverloadProtection {
  const apfEnabled =
    options.enablePriorityAndFairness && featureEnabled(options.featureGates, 'APIPriorityAndFairness');
  const watermarks = new InflightWatermarks(metrics.registry, apfEnabled);
  undo.push(() => watermarks.stop());
  if (!apfEnabled)
    return {
      kind: 'max-in-flight',
      maxInFlight: new MaxInFlight(
        options.maxRequestsInflight,
        options.maxMutatingRequestsInflight,
        watermarks.executing,
      ),
    };
  const apfMetrics = new FlowcontrolMetrics(metrics.registry);
  const dispatcher = new Dispatcher({
    serverConcurrencyLimit: options.maxRequestsInflight + options.maxMutatingRequestsInflight,
    requestWaitLimitMs: options.requestTimeoutMs / 4,
    observer: apfMetrics,
  });
  controllers.flowcontrol.onChange((priorityLevels) => dispatcher.configure(priorityLevels));
  dispatcher.start();
  undo.push(() => dispatcher.stop());
  return {
    kind: 'priority-and-fairness',
    dispatcher,
    metrics: apfMetrics,
    watermarks,
    dump: (path, query) => serveDump(dispatcher, path, query),
  };
}

/** The handler chain's part of it: APF's classification and dispatch, or the max-in-flight filter. */
export function overloadFilterOptions(
  protection: OverloadProtection,
  controllers: RunningControllers,
  registry: ResourceRegistry,
  listChunking: boolean,
) {
  // APF off: no classification, no X-*-PF-* headers; kube-apiserver falls back to max-in-flight.
  if (protection.kind === 'max-in-flight') return { maxInFlight: protection.maxInFlight };
  return {
    flowcontrol: controllers.flowcontrol,
    priorityAndFairness: {
      dispatcher: protection.dispatcher,
      metrics: protection.metrics,
      watermarks: protection.watermarks,
      estimator: { registry, listChunking },
    },
  };
}

// The admission webhook metrics of kube-apiserver 1.26 (k8s.io/apiserver/pkg/admission/metrics), with its names,
// labels, buckets and stability levels.
import { Counter, Histogram, Registry } from 'prom-client';
import { annotatedHelp } from '../../metrics/stability';

/** `admit` for mutating webhooks, `validating` for validating ones (the type label). */
export type WebhookType = 'admit' | 'validating';

export class WebhookMetrics {
  readonly duration: Histogram<'name' | 'type' | 'operation' | 'rejected'>;
  readonly rejections: Counter<'name' | 'type' | 'operation' | 'error_type' | 'rejection_code'>;
  readonly requests: Counter<'name' | 'type' | 'operation' | 'code' | 'rejected'>;

  constructor(registry: Registry = new Registry()) {
    this.duration = new Histogram({
      name: 'apiserver_admission_webhook_admission_duration_seconds',
      help: annotatedHelp(
        'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
        { stability: 'STABLE' },
      ),
      labelNames: ['name', 'type', 'operation', 'rejected'],
      buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5],
      registers: [registry],
    });
    this.rejections = new Counter({
      name: 'apiserver_admission_webhook_rejection_count',
      help: annotatedHelp(
        'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
        { stability: 'ALPHA' },
      ),
      labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
      registers: [registry],
    });
    this.requests = new Counter({
      name: 'apiserver_admission_webhook_request_total',
      help: annotatedHelp(
        'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
        { stability: 'ALPHA' },
      ),
      labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
      registers: [registry],
    });
  }

  /** One call: its latency, outcome and HTTP code (0 when no response arrived). */
  observe(
    name: string,
    type: WebhookType,
    operation: string,
    seconds: number,
    outcome: {
      rejected: boolean;
      code: number;
      errorType?: 'calling_webhook_error' | 'apiserver_internal_error';
      rejectionCode?: number;
    },
  ): void {
    const rejected = String(outcome.rejected);
    const code = String(Math.min(outcome.code, 600));
    this.duration.labels(name, type, operation, rejected).observe(seconds);
    this.requests.labels(name, type, operation, code, rejected).inc();
    if (outcome.errorType) this.rejections.labels(name, type, operation, outcome.errorType, '0').inc();
    else if (outcome.rejected)
      this.rejections
        .labels(name, type, operation, 'no_error', String(Math.min(outcome.rejectionCode ?? 0, 600)))
        .inc();
  }
}

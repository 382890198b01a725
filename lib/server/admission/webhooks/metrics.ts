// The admission webhook metrics of kube-apiserver 1.26 (k8s.io/apiserver/pkg/admission/metrics), with its names,
// labels, buckets and stability levels.
import { Counter, Histogram, Registry } from 'prom-client';
import { annotatedHelp } from '../../metrics/stability';

/** `admit` for mutating webhooks, `validating` for validating ones (the type label). */
export type WebhookType = 'admit' | 'validating';
/** The error_type label of a rejection. */
export type RejectionErrorType = 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

export class WebhookMetrics {
  readonly duration: Histogram<'name' | 'type' | 'operation' | 'rejected'>;
  readonly rejections: Counter<'name' | 'type' | 'operation' | 'error_type' | 'rejection_code'>;
  readonly requests: Counter<'name' | 'type' | 'operation' | 'code' | 'rejected'>;
  readonly failOpens: Counter<'name' | 'type'>;

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
    this.failOpens = new Counter({
      name: 'apiserver_admission_webhook_fail_open_count',
      help: annotatedHelp(
        'Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).',
        { stability: 'ALPHA' },
      ),
      labelNames: ['name', 'type'],
      registers: [registry],
    });
  }

  /** ObserveWebhook: one call's latency and HTTP code (codes above 600 counted as 600). */
  observe(name: string, type: WebhookType, operation: string, seconds: number, rejected: boolean, code: number): void {
    this.duration.labels(name, type, operation, String(rejected)).observe(seconds);
    this.requests.labels(name, type, operation, String(Math.min(code, 600)), String(rejected)).inc();
  }

  /** ObserveWebhookRejection: a call that failed the request, why, and the code it failed with. */
  rejection(name: string, type: WebhookType, operation: string, errorType: RejectionErrorType, code: number): void {
    this.rejections.labels(name, type, operation, errorType, String(Math.min(code, 600))).inc();
  }

  /** ObserveWebhookFailOpen: a failed call ignored under `failurePolicy: Ignore`. */
  failOpen(name: string, type: WebhookType): void {
    this.failOpens.labels(name, type).inc();
  }
}

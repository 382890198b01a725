// One constructor per Status reason, with the Kubernetes 1.26 message formats
// (k8s.io/apimachinery pkg/api/errors/errors.go).
export { StatusError, isStatusError } from './status-error';
export type { Status, StatusCause, StatusDetails, StatusReason, CauseType } from './status';
export * from './constructors';

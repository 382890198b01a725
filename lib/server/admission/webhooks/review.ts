// The AdmissionReview exchanged with one webhook: the first version of its admissionReviewVersions this server
// speaks (v1, v1beta1) names the review it is sent, and its answer is checked as kube-apiserver 1.26 checks it
// (k8s.io/apiserver/pkg/admission/plugin/webhook/request: CreateAdmissionObjects, VerifyAdmissionResponse).
import { isPlainObject } from '../../../apimachinery/meta/types';

export type ReviewVersion = 'v1' | 'v1beta1';

const KNOWN_VERSIONS: readonly string[] = ['v1', 'v1beta1'] satisfies ReviewVersion[];
/** The group real webhook libraries read and write; the spec's own name is accepted in answers too. */
const WIRE_GROUP = 'admission.k8s.io';
const ORCH_GROUP = 'admission.orch.io';

export const NO_KNOWN_REVIEW_VERSION =
  'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)';

/** The first version of `admissionReviewVersions` this server can send; undefined when it knows none of them. */
export function reviewVersionOf(hook: Record<string, unknown>): ReviewVersion | undefined {
  const versions = Array.isArray(hook['admissionReviewVersions']) ? hook['admissionReviewVersions'] : [];
  return versions.find((v): v is ReviewVersion => typeof v === 'string' && KNOWN_VERSIONS.includes(v));
}

export function reviewOf(version: ReviewVersion, request: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'AdmissionReview', apiVersion: `${WIRE_GROUP}/${version}`, request };
}

/** What an answer says, once checked. */
export interface VerifiedResponse {
  allowed: boolean;
  /** base64 of a patch, with its type (JSONPatch is pinned for a v1beta1 patch without one). */
  patch?: { data: string; type: string };
  status: unknown;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** Go's GroupVersionKind.String() of an answer's apiVersion and kind. */
function gvkText(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? `/${apiVersion}, Kind=${kind}` : `${apiVersion}, Kind=${kind}`;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The answer checked against the request it answers: the response, or the error text Kubernetes gives. */
export function verifyResponse(
  version: ReviewVersion,
  uid: string,
  mutating: boolean,
  body: unknown,
): VerifiedResponse | { error: string } {
  const review = isPlainObject(body) ? body : {};
  const response = isPlainObject(review['response']) ? review['response'] : undefined;
  if (!response) return { error: 'webhook response was absent' };
  const patchData = text(response['patch']);
  const hasPatchType = response['patchType'] !== undefined && response['patchType'] !== null;
  if (version === 'v1') {
    if (text(response['uid']) !== uid)
      return { error: `expected response.uid="${uid}", got "${text(response['uid'])}"` };
    const apiVersion = text(review['apiVersion']);
    const kind = text(review['kind']);
    if ((apiVersion !== `${WIRE_GROUP}/v1` && apiVersion !== `${ORCH_GROUP}/v1`) || kind !== 'AdmissionReview') {
      return {
        error: `expected webhook response of ${WIRE_GROUP}/v1, Kind=AdmissionReview, got ${gvkText(apiVersion, kind)}`,
      };
    }
    if (mutating) {
      if (patchData !== '' && !hasPatchType)
        return { error: 'webhook returned response.patch but not response.patchType' };
      if (patchData === '' && hasPatchType)
        return { error: 'webhook returned response.patchType but not response.patch' };
      if (hasPatchType && text(response['patchType']) === '')
        return { error: `webhook returned invalid response.patchType of ""` };
    } else {
      if (patchData !== '') return { error: 'validating webhook may not return response.patch' };
      if (hasPatchType) return { error: 'validating webhook may not return response.patchType' };
    }
  }
  // v1beta1 answers were never checked for uid, kind or patchType; a patch is taken as a JSON patch.
  const patchType = version === 'v1' ? text(response['patchType']) : 'JSONPatch';
  const warnings = Array.isArray(response['warnings'])
    ? response['warnings'].filter((w): w is string => typeof w === 'string')
    : [];
  const annotations = isPlainObject(response['auditAnnotations']) ? response['auditAnnotations'] : {};
  return {
    allowed: response['allowed'] === true,
    ...(mutating && patchData !== '' ? { patch: { data: patchData, type: patchType } } : {}),
    status: response['status'],
    warnings,
    auditAnnotations: Object.fromEntries(
      Object.entries(annotations).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
  };
}

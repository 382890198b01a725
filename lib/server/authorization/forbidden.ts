// The 403 of a denied request, worded as kube-apiserver's responsewriters.Forbidden.
import { forbidden, forbiddenNonResource, type StatusError } from '../../apimachinery/errors';
import { goQuote } from '../../apimachinery/field/errors';
import type { Attributes } from './attributes';

/** The sanitizer of upstream's message: `&`, `<`, `>` HTML-escaped. */
function sanitize(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function forbiddenMessage(a: Attributes): string {
  const user = goQuote(a.user.name);
  if (!a.isResourceRequest) return `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  const resource = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  const where = a.namespace !== '' ? `in the namespace ${goQuote(a.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)} ${where}`;
}

export function forbiddenError(a: Attributes, reason: string): StatusError {
  const message = sanitize(forbiddenMessage(a));
  const text = reason === '' ? message : `${message}: ${reason}`;
  if (!a.isResourceRequest) return forbiddenNonResource(text);
  return forbidden({ group: a.apiGroup, resource: a.resource }, a.name, text);
}

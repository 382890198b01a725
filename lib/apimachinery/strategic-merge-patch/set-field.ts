// Setting a key of a decoded JSON object as an own property, so `__proto__` from a request stays a plain key.

/** `obj[key] = value`, except that it never invokes the `__proto__` setter. */
export function setField(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

// One reusable ReverseWriter for encoders: a body is written into it and copied out, so no encode allocates per field.
import { ReverseWriter } from './reverse-writer';

/** A scratch buffer that grew past this is dropped after use rather than kept for the process' lifetime. */
const MAX_RETAINED_BYTES = 8 * 1024 * 1024;

let scratch = new ReverseWriter();
let busy = false;

/** Runs `write` on the reset scratch writer and returns a copy of its bytes (responses outlive the next encode). */
export function encodeWith(write: (w: ReverseWriter) => void): Buffer {
  // A nested call (an encoder that needs another body first) gets its own writer instead of resetting the outer one.
  if (busy) {
    const own = new ReverseWriter();
    write(own);
    return own.finish();
  }
  const w = scratch;
  w.reset();
  busy = true;
  try {
    write(w);
    return w.finish();
  } finally {
    busy = false;
    if (w.length > MAX_RETAINED_BYTES) scratch = new ReverseWriter();
  }
}

import "server-only";

/**
 * What a parsed JSON value costs on V8's heap, estimated from above: the response cache bounds itself by this
 * (a count of entries says nothing when one balance-sheet answer is 7 MB and another 2 kB).
 *
 * The model is V8's on 64-bit without pointer compression (Node's default): every slot is 8 bytes; an object is a
 * header plus a slot per property (names are interned and shared: not counted); an array a header, a backing store
 * header and a slot per element; a string a header plus one byte per character (two when it needs UTF-16); a
 * number outside the small-integer range a 16-byte box. Measured against the heap on answers shaped like ours, it
 * errs high by 10-30 %, the side a budget should err on; JSON's length is no guide (12 % under on number-heavy
 * statements, 50 % over on string-heavy rows).
 *
 * The walk stops as soon as the total passes `limit`, so sizing a 7 MB answer against a 2 MB limit reads 2 MB of
 * it, not all of it. A value reached twice (shared, or a cycle) is counted once.
 */

const OBJECT_BYTES = 32;
const ARRAY_BYTES = 48;
const STRING_BYTES = 16;
const BOXED_NUMBER_BYTES = 16;
const SLOT_BYTES = 8;
const SMI_LIMIT = 2 ** 30;
const WIDE_CHAR = /[^\u0000-\u00ff]/;

export function estimateBytes(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop();
    switch (typeof v) {
      case "string":
        total += STRING_BYTES + v.length * (WIDE_CHAR.test(v) ? 2 : 1);
        break;
      case "number":
        if (!Number.isInteger(v) || Math.abs(v) >= SMI_LIMIT) total += BOXED_NUMBER_BYTES;
        break;
      case "bigint":
        total += BOXED_NUMBER_BYTES + SLOT_BYTES * Math.ceil(v.toString(16).length / 16);
        break;
      case "object": {
        if (v === null || seen.has(v)) break;
        seen.add(v);
        if (ArrayBuffer.isView(v)) {
          total += OBJECT_BYTES + v.byteLength;
        } else if (Array.isArray(v)) {
          total += ARRAY_BYTES + SLOT_BYTES * v.length;
          for (const item of v as unknown[]) stack.push(item);
        } else {
          const values = Object.values(v);
          total += OBJECT_BYTES + SLOT_BYTES * values.length;
          for (const item of values) stack.push(item);
        }
        break;
      }
      default:
        // booleans, undefined: a slot already counted by their parent.
        break;
    }
  }
  return total;
}

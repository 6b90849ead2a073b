import "server-only";
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashes: `scrypt$N$r$p$salt$hash` (salt and hash base64url). The same format is written by
 * `scripts/user.mjs`; parameters travel with each hash so they can be raised later without invalidating old ones.
 * N = 2^15, r = 8 (32 MiB per check, ~50–100 ms): slow for a guesser, bearable behind a login rate limit.
 */

export const SCRYPT_DEFAULTS = { N: 1 << 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

function scryptAsync(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const maxmem = (N: number, r: number) => 128 * N * r + 16 * 1024 * 1024;

export async function hashPassword(password: string, params = SCRYPT_DEFAULTS): Promise<string> {
  const salt = randomBytes(params.saltLength);
  const key = await scryptAsync(password, salt, params.keyLength, {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: maxmem(params.N, params.r),
  });
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join(
    "$",
  );
}

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

/** Bounds keep a tampered users file from making one login cost gigabytes or minutes. */
export function parseHash(encoded: string): Parsed | null {
  const parts = encoded.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (!Number.isInteger(N) || N < 2 || N > 1 << 20 || (N & (N - 1)) !== 0) return null;
  if (!Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return null;
  const salt = Buffer.from(parts[4] ?? "", "base64url");
  const key = Buffer.from(parts[5] ?? "", "base64url");
  if (salt.length < 8 || key.length < 16 || key.length > 128) return null;
  return { N, r, p, salt, key };
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parseHash(encoded);
  if (!parsed) return false;
  const key = await scryptAsync(password, parsed.salt, parsed.key.length, {
    N: parsed.N,
    r: parsed.r,
    p: parsed.p,
    maxmem: maxmem(parsed.N, parsed.r),
  });
  return timingSafeEqual(key, parsed.key);
}

let dummy: Promise<string> | undefined;

/** Spends the time of a real check, so an unknown user name is not told apart from a wrong password by timing. */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummy ??= hashPassword("callroom-dummy-password");
  await verifyPassword(password, await dummy);
  return false;
}

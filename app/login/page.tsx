import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { safeNextPath, SESSION_COOKIE } from "@/server/auth/session";
import { getRuntime } from "@/server/runtime";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/**
 * The sign-in page: a plain HTML form posting to `/api/session`, so it works before (and without) JavaScript and
 * needs no inline script under the CSP. The route answers 303 back here with `?error=` or on to `?next=` (a
 * same-origin relative path only: anything else becomes `/`).
 */

const ERRORS: Record<string, string> = {
  invalid_credentials: "Wrong user name or password.",
  rate_limited: "Too many failed sign-ins. Wait a few minutes, then try again.",
  unavailable:
    "Sign-in is not available right now. Ask the administrator to check the server's configuration.",
};

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = safeNextPath(first(params.next));
  const errorCode = first(params.error);
  const error = errorCode ? (ERRORS[errorCode] ?? ERRORS.unavailable) : undefined;
  const { auth: sessions } = getRuntime();
  const auth = sessions.state();
  if (auth.enabled && (await sessions.readSessionUser((await cookies()).get(SESSION_COOKIE)?.value, auth)))
    redirect(next);

  const input =
    "h-8 w-full rounded border border-line bg-canvas px-2 text-[13px] outline-none focus-visible:ring-2 focus-visible:ring-focus aria-[invalid=true]:border-neg";
  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-xs">
        <h1 className="mb-1 flex items-center gap-1.5 text-lg font-semibold tracking-tight">
          <span aria-hidden className="bg-accent inline-block size-2.5 rounded-full" />
          Callroom
        </h1>
        {auth.enabled ? (
          <>
            <p className="text-muted mb-4 text-[13px]">Sign in to see live calls and market data.</p>
            <form method="post" action="/api/session" className="flex flex-col gap-3" noValidate={false}>
              <input type="hidden" name="next" value={next} />
              {error ? (
                <p
                  id="login-error"
                  role="alert"
                  className="border-neg bg-neg-soft text-fg rounded border px-2 py-1.5 text-[13px]"
                >
                  {error}
                </p>
              ) : null}
              <label className="flex flex-col gap-1 text-[13px] font-medium">
                User name
                <input
                  className={input}
                  name="username"
                  autoComplete="username"
                  required
                  maxLength={64}
                  autoFocus
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "login-error" : undefined}
                />
              </label>
              <label className="flex flex-col gap-1 text-[13px] font-medium">
                Password
                <input
                  className={input}
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                  maxLength={1024}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "login-error" : undefined}
                />
              </label>
              <button
                type="submit"
                className="border-accent bg-accent text-canvas focus-visible:ring-focus inline-flex h-8 items-center justify-center rounded border px-3 text-[13px] font-medium hover:opacity-90 focus-visible:ring-2 focus-visible:outline-none"
              >
                Sign in
              </button>
            </form>
          </>
        ) : (
          <p className="text-muted text-[13px]">
            This server is open for local use; no sign-in is needed.{" "}
            <a className="text-accent underline" href={next}>
              Go to the dashboard
            </a>
          </p>
        )}
      </div>
    </main>
  );
}

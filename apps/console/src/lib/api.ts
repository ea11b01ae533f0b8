/** A problem+json answer of the gateway, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export interface Session {
  tenantId: string;
}

/**
 * The signed-in tenant, remembered so that a new tab paints the tenant's cached words at once.
 * Not a credential: the session itself is the gateway's HttpOnly cookie, which no script reads
 * and every tab shares. Keyed under the tenant prefix, so leaving the console clears it
 * (tenant-storage.ts).
 */
export const tenantHint = {
  key: "orderline-console:tenant:signed-in",
  read(): string | null {
    return localStorage.getItem(this.key);
  },
  write(tenantId: string): void {
    localStorage.setItem(this.key, tenantId);
  },
};

const problemOf = async (response: Response): Promise<ApiError> => {
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return new ApiError(
    response.status,
    typeof body.code === "string" ? body.code : "http_error",
    typeof body.detail === "string" ? body.detail : `HTTP ${response.status}`,
    body,
  );
};

const send = async (path: string, init: RequestInit): Promise<Response> => {
  try {
    return await fetch(path, init);
  } catch (cause) {
    throw new ApiError(0, "network", cause instanceof Error ? cause.message : String(cause));
  }
};

interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Signs in to a server session: the gateway answers with an HttpOnly cookie (Path=/v1) that the
 * browser sends with every later call of every tab; nothing here holds a credential.
 */
export const startSession = async (email: string, password: string): Promise<void> => {
  const response = await send("/v1/auth/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw await problemOf(response);
};

/** What proves the second factor at sign-in: the app's code or a recovery code. */
export type SecondFactorProof = { code: string } | { recovery_code: string };

/**
 * The second step of a sign-in for a user with two-step sign-in: the challenge the password step
 * answered (401 second_factor_required) and a code; the gateway then sets the session cookie.
 */
export const finishSession = async (challenge: string, proof: SecondFactorProof): Promise<void> => {
  const response = await send("/v1/auth/session/second-factor", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ challenge, ...proof }),
  });
  if (!response.ok) throw await problemOf(response);
};

/** Signs out: the gateway ends the session at once (every instance) and clears the cookie. */
export const endSession = async (): Promise<void> => {
  await send("/v1/auth/session", { method: "DELETE" }).catch(() => undefined);
};

/** The signed-in user's profile, or null when this browser has no open session. */
export const probeSession = async <T>(): Promise<T | null> => {
  const response = await send("/v1/user/profile", { method: "GET" }).catch(() => undefined);
  if (!response?.ok) return null;
  return ((await response.json()) as { data: T }).data;
};

/**
 * Calls the tenant API; the browser adds the session cookie. A 401 means the session is over
 * (signed out in another tab, ended by an admin, timed out): `onSignedOut` leaves the console.
 * A 403 two_factor_enrolment_required calls `onEnrolmentDue`.
 */
export const createApi = (onSignedOut: () => void, onEnrolmentDue: () => void = () => {}) => {
  /**
   * Nothing to renew: the server session slides with use. Kept for callers that retry once
   * after a 401 (downloads), which then meet the same 401.
   */
  const refresh = async (): Promise<void> => {};

  const request = async <T>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> => {
    const response = await send(path, {
      method,
      headers: {
        ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    if (response.status === 401) {
      onSignedOut();
      throw await problemOf(response);
    }
    if (!response.ok && response.status !== 304) {
      const problem = await problemOf(response);
      // The tenant now requires two-step sign-in of this user: the console shows its set-up.
      if (problem.code === "two_factor_enrolment_required") onEnrolmentDue();
      throw problem;
    }
    // 204, 304 and an accepted 202 carry no body.
    const text = response.status === 204 || response.status === 304 ? "" : await response.text();
    const body = (text === "" ? undefined : JSON.parse(text)) as T;
    return { status: response.status, body, headers: response.headers };
  };

  return { request, refresh };
};

export type Api = ReturnType<typeof createApi>;

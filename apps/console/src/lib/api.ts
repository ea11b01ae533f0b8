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
  token: string;
  /** Unix seconds. */
  expiredAt: number;
  tenantId: string;
}

/** Where the session lives between reloads: this tab only (sessionStorage), never a cookie. */
export const sessionStore = {
  key: "orderline-console:session",
  read(): Session | null {
    try {
      const value = JSON.parse(sessionStorage.getItem(this.key) ?? "null") as Session | null;
      return value && typeof value.token === "string" && typeof value.tenantId === "string"
        ? value
        : null;
    } catch {
      return null;
    }
  },
  write(session: Session): void {
    sessionStorage.setItem(this.key, JSON.stringify(session));
  },
  clear(): void {
    sessionStorage.removeItem(this.key);
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

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** Signs in; answers the token and its expiry. */
export const login = async (email: string, password: string) => {
  const response = await send("/v1/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw await problemOf(response);
  return (await response.json()) as { token: string; expired_at: number };
};

/**
 * Calls the tenant API with the session's token. A `401 token_expired` refreshes the token once
 * (one refresh for concurrent calls: each token refreshes only once) and retries; any other 401
 * ends the session through `onSignedOut`.
 */
export const createApi = (onSignedOut: () => void) => {
  let refreshing: Promise<Session> | undefined;

  const refresh = (): Promise<Session> => {
    refreshing ??= (async () => {
      const current = sessionStore.read();
      if (!current) throw new ApiError(401, "signed_out", "not signed in");
      const response = await send("/v1/auth/refresh", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: current.token }),
      });
      if (!response.ok) throw await problemOf(response);
      const { token, expired_at } = (await response.json()) as {
        token: string;
        expired_at: number;
      };
      const next = { ...current, token, expiredAt: expired_at };
      sessionStore.write(next);
      return next;
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  const request = async <T>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> => {
    const attempt = () => {
      const session = sessionStore.read();
      return send(path, {
        method,
        headers: {
          ...(session ? { authorization: `Bearer ${session.token}` } : {}),
          ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    };
    let response = await attempt();
    if (response.status === 401) {
      const problem = await problemOf(response.clone());
      if (problem.code === "token_expired") {
        try {
          await refresh();
          response = await attempt();
        } catch {
          // Refresh refused: handled below as a signed-out session.
        }
      }
    }
    if (response.status === 401) {
      sessionStore.clear();
      onSignedOut();
      throw await problemOf(response);
    }
    if (!response.ok && response.status !== 304) throw await problemOf(response);
    // 204, 304 and an accepted 202 carry no body.
    const text = response.status === 204 || response.status === 304 ? "" : await response.text();
    const body = (text === "" ? undefined : JSON.parse(text)) as T;
    return { status: response.status, body, headers: response.headers };
  };

  return { request, refresh };
};

export type Api = ReturnType<typeof createApi>;

/**
 * The console's session cookie. `HttpOnly`: no script reads it. `Secure`: never sent over plain
 * HTTP to a remote host (browsers count http://localhost and 127.0.0.1 as secure, so local
 * development works). `SameSite=Strict`: no other site's page makes the browser send it.
 * `Path=/v1`: sent with the tenant API calls the console makes and nowhere else on the origin
 * (not with the partner API, /api/v1, nor with the console's files); see docs/decisions.md.
 * No Max-Age: it goes when the browser closes; the server's own limits end it earlier.
 */
export const SESSION_COOKIE = "orderline_session";

const ATTRIBUTES = "Path=/v1; HttpOnly; Secure; SameSite=Strict";

export const sessionCookie = (secret: string): string =>
  `${SESSION_COOKIE}=${secret}; ${ATTRIBUTES}`;

/** Tells the browser to drop the cookie (signed out, or a session the server no longer has). */
export const clearedSessionCookie = (): string => `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;

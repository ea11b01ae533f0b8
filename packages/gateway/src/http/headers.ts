import { ApiError } from "../problems/api-error.js";

export type HeaderBag = Record<string, string | string[] | undefined>;

/** The token of an `Authorization: Bearer <token>` header; `what` names where tokens come from. */
export function bearerTokenOf(headers: HeaderBag, what: string): string {
  const authorization = single(headers, "authorization");
  if (authorization === undefined || authorization.trim() === "") {
    throw new ApiError("token_missing", `Send ${what} as 'Authorization: Bearer <token>'.`);
  }
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) {
    throw new ApiError(
      "token_invalid",
      "The Authorization header must have the form 'Bearer <token>'.",
    );
  }
  return match[1];
}

/** The first value of a header that may repeat. */
export function single(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

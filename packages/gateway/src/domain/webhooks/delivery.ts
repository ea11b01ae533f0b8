import { type LookupAddress, lookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { addressRefusal, type PrivateAddressPolicy, urlRefusal } from "./address-guard.js";

/** What one POST to a receiver came to. */
export interface DeliveryResult {
  ok: boolean;
  /** The receiver's HTTP status; null when none arrived (refused, unreachable, timed out). */
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** Response bytes read at most (and then dropped): receivers only have to acknowledge. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * What a partner (attempt list, test send) and its tenant read when the address policy refuses a
 * receiver or its name does not resolve: the same words for both, and never the address a name
 * resolved to or the resolver's error, which would make the gateway a DNS oracle for the network
 * it runs in (which internal names exist, where they point). The operator's log keeps the detail
 * (`onRefused`).
 */
export const ADDRESS_POLICY_REFUSAL =
  "the receiver's host name does not resolve to an address the address policy allows";

class RefusedAddressError extends Error {
  readonly code = "EWEBHOOKADDRESS";
  constructor(
    readonly host: string,
    /** Why, with the address: for the operator only. */
    readonly detail: string,
  ) {
    super(ADDRESS_POLICY_REFUSAL);
  }
}

class UnresolvedHostError extends Error {
  readonly code = "EWEBHOOKUNRESOLVED";
  constructor(
    readonly host: string,
    /** The resolver's own message: for the operator only. */
    readonly detail: string,
  ) {
    super(ADDRESS_POLICY_REFUSAL);
  }
}

/**
 * dns.lookup that refuses, at connect time, a host resolving to an address the policy refuses:
 * the URL was checked when it was saved, but its name may resolve elsewhere now (DNS
 * rebinding). Any refused address among the answers refuses the host.
 */
function guardedLookup(
  policy: PrivateAddressPolicy,
  resolve: typeof lookup = lookup,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(new UnresolvedHostError(hostname, error.message), "", 0);
      const refusal = addresses
        .map((a) => addressRefusal(a.address, policy))
        .find((r) => r !== undefined);
      if (refusal !== undefined || addresses.length === 0) {
        const reason = refusal ?? "it has no address";
        return callback(new RefusedAddressError(hostname, reason), "", 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses as [LookupAddress];
      return callback(null, first.address, first.family);
    });
  };
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
};

export interface Sender {
  /** POSTs `body` with `headers` to `url`; never rejects, never follows a redirect. */
  post(url: string, body: string, headers: Record<string, string>): Promise<DeliveryResult>;
  close(): void;
}

/**
 * The outbound side of delivery: keep-alive agents whose every new connection goes through the
 * address guard, one deadline for the whole exchange, a bounded response read and no redirects
 * (a 3xx is a failed attempt: the receiver's URL is what the partner registered).
 */
export function createSender(options: {
  policy: PrivateAddressPolicy;
  timeoutMs: number;
  maxSockets: number;
  now?: () => number;
  /** The resolver behind the guard (tests stand in a DNS that answers what they need). */
  resolve?: typeof lookup;
  /** Told why a receiver was refused, with the address (the operator's log). */
  onRefused?: (host: string, detail: string) => void;
}): Sender {
  const clock = options.now ?? (() => performance.now());
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets,
    lookup: guardedLookup(options.policy, options.resolve),
  };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

  const post = (url: string, body: string, headers: Record<string, string>) =>
    new Promise<DeliveryResult>((resolve) => {
      const started = clock();
      let deadline: NodeJS.Timeout | undefined;
      const finish = (status: number | null, error: string | null) => {
        clearTimeout(deadline);
        const ok = error === null && status !== null && status >= 200 && status < 300;
        resolve({ ok, status, error, durationMs: Math.round(clock() - started) });
      };
      // The URL was checked when saved; the policy may be stricter now, and an IP literal
      // never reaches the lookup above.
      const refusal = urlRefusal(url, options.policy);
      if (refusal !== undefined) {
        options.onRefused?.(hostOf(url), refusal);
        return finish(null, ADDRESS_POLICY_REFUSAL);
      }
      const target = new URL(url);
      const client = target.protocol === "https:" ? https : http;
      const request = client.request(target, {
        method: "POST",
        agent: target.protocol === "https:" ? agents.https : agents.http,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      });
      deadline = setTimeout(
        () => request.destroy(new Error(`timed out after ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      let settled = false;
      const settle = (status: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        finish(status, error);
      };
      request.on("error", (error) => {
        if (error instanceof RefusedAddressError || error instanceof UnresolvedHostError)
          options.onRefused?.(error.host, error.detail);
        settle(null, error.message);
      });
      request.on("response", (response) => {
        const status = response.statusCode ?? null;
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () =>
          settle(
            status,
            status !== null && status >= 200 && status < 300
              ? null
              : `the receiver answered ${status}${status !== null && status >= 300 && status < 400 ? " (redirects are not followed)" : ""}`,
          );
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      });
      request.end(body);
    });

  return {
    post,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

import type { FastifyInstance, FastifyRequest } from "fastify";
import { type TextFaultAt, textFaultsIn } from "../lib/text.js";
import { ApiError } from "../problems/api-error.js";
import { routeConfigOf } from "./route-config.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Which body strings may hold line breaks and tabs, by their path of property names and
     * array indexes; every other string is one line.
     */
    multilineText?: (path: readonly string[]) => boolean;
  }
}

/**
 * The headers the API reads. They carry ids, tokens, signatures, timestamps and tags, all
 * US-ASCII by nature, so a byte over 0x7f there is a mistake (Node hands such bytes over as
 * Latin-1 characters). Headers the API does not read never reach a store and are left alone.
 */
const READ_HEADERS = [
  "authorization",
  "x-client-id",
  "x-timestamp",
  "x-signature",
  "idempotency-key",
  "accept-language",
  "if-none-match",
  "content-type",
] as const;

const PRINTABLE_ASCII = /^[\t\x20-\x7e]*$/;

type Location = "params" | "querystring" | "headers" | "body";

function refuse(location: Location, faults: TextFaultAt[]): ApiError {
  const [first] = faults;
  const more = faults.length > 1 ? ` (and ${faults.length - 1} more)` : "";
  return new ApiError(
    "text_invalid",
    `${location} ${first?.pointer} ${first?.message}${more}. Send text as UTF-8 without control characters.`,
    { errors: faults.map((fault) => ({ in: location, ...fault })) },
  );
}

function headerFaults(request: FastifyRequest): TextFaultAt[] {
  const faults: TextFaultAt[] = [];
  for (const name of READ_HEADERS) {
    const raw = request.headers[name];
    for (const value of Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) {
      if (!PRINTABLE_ASCII.test(value)) {
        faults.push({
          pointer: name,
          message: "holds a character outside printable US-ASCII",
        });
      }
    }
  }
  return faults;
}

/**
 * Path parameters, query parameters and the headers the API reads are checked as soon as the
 * route is known, before authentication and before any store is asked.
 */
function checkRequestLine(request: FastifyRequest): void {
  const params = textFaultsIn(request.params ?? {});
  if (params.length > 0) throw refuse("params", params);
  const query = textFaultsIn(request.query ?? {});
  if (query.length > 0) throw refuse("querystring", query);
  const headers = headerFaults(request);
  if (headers.length > 0) throw refuse("headers", headers);
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/** The declared charset, when the Content-Type names one that is not UTF-8. */
function foreignCharset(contentType: string | undefined): string | undefined {
  const charset = CHARSET.exec(contentType ?? "")?.[1]?.toLowerCase();
  return charset === undefined || charset === "utf-8" || charset === "utf8" ? undefined : charset;
}

/**
 * What a JSON text must hold for a string in it to break the text rule: an escape (JSON takes
 * C0 controls and lone surrogates in strings only escaped), DEL or a C1 control (JSON takes
 * those raw), or a surrogate (raw only in text not decoded from bytes; a pair matches too).
 * Without any, walking the parsed body finds nothing: about 1 % of a signed create's CPU.
 */
const MAY_BREAK_TEXT_RULE = /[\\\x7f-\x9f\ud800-\udfff]/;

const utf8 = new TextDecoder("utf-8", { fatal: true });
const REPLACEMENT = /\ufffd/;

/**
 * Which values hold the bytes that are not UTF-8, found by decoding leniently (each bad
 * sequence becomes U+FFFD) and looking for that character; none when the JSON does not parse.
 */
function undecodable(raw: Buffer): TextFaultAt[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch {
    return [];
  }
  return textFaultsIn(parsed, undefined, (value) =>
    REPLACEMENT.test(value) ? "holds bytes that are not UTF-8" : undefined,
  );
}

/** Each JSON request's body as received, decoded (the replay guard's copy of a version 1 body). */
const bodyTexts = new WeakMap<FastifyRequest, string>();

export const bodyTextOf = (request: FastifyRequest): string | undefined => bodyTexts.get(request);

/**
 * JSON bodies: the declared charset must be UTF-8 (or none), the bytes valid UTF-8, and every
 * string in the parsed body (property names too) must keep the text rule. Fastify's own parser
 * does the JSON part, with its prototype-poisoning protection.
 */
function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "buffer" },
    (request: FastifyRequest, raw: Buffer | string, done) => {
      const charset = foreignCharset(request.headers["content-type"]);
      if (charset !== undefined) {
        done(
          new ApiError(
            "unsupported_media_type",
            `The body is declared as charset=${charset.slice(0, 40)}; send it as UTF-8 ('Content-Type: application/json').`,
          ),
          undefined,
        );
        return;
      }
      let text: string;
      try {
        text = typeof raw === "string" ? raw : utf8.decode(raw);
      } catch {
        const faults = undecodable(raw as Buffer);
        const where = faults[0] ? ` (at ${faults[0].pointer})` : "";
        done(
          new ApiError(
            "encoding_invalid",
            `The body holds bytes that are not valid UTF-8${where}; send JSON encoded as UTF-8.`,
            faults.length > 0 ? { errors: faults.map((f) => ({ in: "body", ...f })) } : {},
          ),
          undefined,
        );
        return;
      }
      bodyTexts.set(request, text);
      parseJson(request, text, (error, body) => {
        if (error) return done(error, undefined);
        const faults = MAY_BREAK_TEXT_RULE.test(text)
          ? textFaultsIn(body, routeConfigOf(request).multilineText)
          : [];
        if (faults.length > 0) return done(refuse("body", faults), undefined);
        done(null, body);
      });
    },
  );
}

/** Installs the text rule on every route registered after this call. */
export function installTextBoundary(app: FastifyInstance): void {
  installJsonParser(app);
  app.addHook("onRequest", (request, _reply, done) => {
    try {
      checkRequestLine(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}

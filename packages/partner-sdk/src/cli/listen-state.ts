import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { StreamEvent } from "../lib/event-stream.js";
import { newListenSecret } from "../listen.js";
import { type CliIo, UsageError } from "./io.js";

/** How many forwarded events the state file keeps for `events resend`. */
export const KEPT_EVENTS = 200;

/** What `listen` keeps between runs, per partner and gateway on this machine. */
export interface ListenState {
  /** The signing secret of every run: the receiver is configured once. */
  secret: string;
  /** Everything up to this id was forwarded (or passed): where the next run resumes. */
  last_event_id: string | null;
  /** The receiver of the last run (the default of `events resend`). */
  forward_to: string | null;
  /** The last forwarded events, newest last, for `events resend`. */
  events: StreamEvent[];
}

/**
 * The state file: `--state FILE`, else one per client id and gateway under
 * `$ORDERLINE_STATE_DIR`, `$XDG_STATE_HOME/orderline` or `~/.local/state/orderline`.
 */
export function listenStatePath(
  io: CliIo,
  explicit: string | undefined,
  clientId: string,
  baseUrl: string,
): string {
  if (explicit !== undefined) return resolve(io.cwd, explicit);
  const root =
    io.env.ORDERLINE_STATE_DIR ||
    join(io.env.XDG_STATE_HOME || join(io.env.HOME || homedir(), ".local", "state"), "orderline");
  const gateway = createHash("sha256").update(baseUrl.replace(/\/+$/, "")).digest("hex");
  const name = `${clientId.replace(/[^A-Za-z0-9_-]/g, "_")}-${gateway.slice(0, 12)}.json`;
  return join(root, "listen", name);
}

/** The state in `file`; a new one (with a new secret) when there is none yet. */
export function readListenState(file: string): ListenState {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { secret: newListenSecret(), last_event_id: null, forward_to: null, events: [] };
    throw new UsageError(`Cannot read the listen state ${file}: ${(error as Error).message}`);
  }
  try {
    const state = JSON.parse(text) as ListenState;
    if (typeof state.secret !== "string" || !state.secret.startsWith("whsec_")) throw new Error();
    return {
      secret: state.secret,
      last_event_id: typeof state.last_event_id === "string" ? state.last_event_id : null,
      forward_to: typeof state.forward_to === "string" ? state.forward_to : null,
      events: Array.isArray(state.events) ? state.events : [],
    };
  } catch {
    throw new UsageError(
      `The listen state ${file} is not one listen wrote; remove it (a new signing secret is made) or pass another --state.`,
    );
  }
}

/**
 * Writes `state` to `file`, readable by its owner only (it holds the signing secret), whole or
 * not at all: a crash mid-write leaves the previous state.
 */
export function writeListenState(file: string, state: ListenState): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** `state` with `event` kept for `events resend` (the newest KEPT_EVENTS). */
export function withForwarded(state: ListenState, event: StreamEvent): ListenState {
  const events = [...state.events.filter((e) => e.id !== event.id), event].slice(-KEPT_EVENTS);
  return { ...state, last_event_id: event.id, events };
}

/**
 * The last resort of a shutdown: `close` (finish the requests in flight, stop the webhook
 * worker, close the store) normally ends well before `seconds`, and the process with it. When
 * the store hangs, closing its connections waits for a server that does not answer, and even a
 * finished close can leave their sockets holding the process open. At the deadline the process
 * exits anyway, before the orchestrator's SIGKILL (Kubernetes waits 30 s): with code 1 and a
 * message if `close` had not finished, code 0 if only sockets were left. Nothing acknowledged
 * is lost by it: an order is answered 201 only once its commit returned, and what is still in
 * flight was not acknowledged.
 */
export async function closeWithin(
  close: () => Promise<void>,
  seconds: number,
  exit: (code: number, message: string) => void,
): Promise<void> {
  let closed = false;
  const deadline = setTimeout(() => {
    exit(
      closed ? 0 : 1,
      closed
        ? `Stopped, but connections to the store were still open after ${seconds} s (GATEWAY_SHUTDOWN_TIMEOUT_SECONDS); exiting.`
        : `Shutdown did not finish within ${seconds} s (GATEWAY_SHUTDOWN_TIMEOUT_SECONDS); exiting with the store not answering or work still in flight.`,
    );
  }, seconds * 1000);
  try {
    await close();
    closed = true;
  } finally {
    // Still armed, but no longer what keeps the process alive: a process with nothing left
    // exits at once; one held open by a dead store's sockets, at the deadline.
    deadline.unref();
  }
}

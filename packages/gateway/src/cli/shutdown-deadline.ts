/**
 * The last resort of a shutdown: `close` (finish the requests in flight, stop the webhook
 * worker, close the store) normally ends well before `seconds`; when the store hangs it never
 * would, since closing a pooled connection waits for the server. Past the deadline the process
 * exits anyway, before the orchestrator's SIGKILL (Kubernetes waits 30 s). Nothing
 * acknowledged is lost by it: an order is answered 201 only once its commit returned, and what
 * is still in flight was not acknowledged.
 */
export async function closeWithin(
  close: () => Promise<void>,
  seconds: number,
  onOverrun: (message: string) => void,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<"overrun">((resolve) => {
    timer = setTimeout(() => resolve("overrun"), seconds * 1000);
  });
  try {
    const outcome = await Promise.race([close().then(() => "closed" as const), overrun]);
    if (outcome === "overrun")
      onOverrun(
        `Shutdown did not finish within ${seconds} s (GATEWAY_SHUTDOWN_TIMEOUT_SECONDS); exiting with the store still not answering or work still in flight.`,
      );
  } finally {
    clearTimeout(timer);
  }
}

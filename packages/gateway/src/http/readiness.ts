/**
 * Whether this instance still wants traffic. After SIGTERM it first only says no on `/ready`
 * (every request is still served), so load balancers that probe `/ready` take it out of rotation
 * before the drain starts answering 503 `shutting_down` (graceful-close.ts).
 */
export class Readiness {
  #leaving = false;

  /** From now on `/ready` answers 503; nothing else changes. */
  leave(): void {
    this.#leaving = true;
  }

  get leaving(): boolean {
    return this.#leaving;
  }
}

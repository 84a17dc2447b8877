/**
 * Long work done in one go (an import of thousands of files on the embedded store, whose queries
 * settle as microtasks) would keep the event loop from sockets and timers, health checks
 * included, until it ends. A pacer gives the loop a turn once `budgetMs` of work has passed since
 * the last one: call it between steps; it costs a clock read when no turn is due.
 */
export type Pacer = () => Promise<void>;

export function createPacer(budgetMs = 20): Pacer {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < budgetMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}

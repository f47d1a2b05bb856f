/** Deadlock detected, serialization failure: the transaction lost to a concurrent one and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);

/** Runs `attempt`, again after a short random pause when it lost to a concurrent transaction (`tries` times at most). */
export async function withRetry<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= tries || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * i));
    }
  }
}

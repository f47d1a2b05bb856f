/**
 * Polls `condition` every 20 ms until it gives a truthy value, and returns that value: for what a
 * service does in the background or in real time. Fails after `timeoutMs`, naming `what`.
 */
export async function eventually<T>(
  condition: () => Promise<T | undefined | false> | T | undefined | false,
  what = 'the condition',
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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

/**
 * `eventually` for what takes real seconds: timelapse frames taken a second apart, videos made by
 * ffmpeg, service processes started again. Generous, for a loaded machine.
 */
export const inRealTime = <T>(condition: () => Promise<T | undefined | false> | T | undefined | false, what: string) =>
  eventually(condition, what, 40_000);

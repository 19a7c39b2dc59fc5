/** Polls `probe` every `everyMs` until it returns true; throws after `ms`, naming `what`. */
export async function until(what: string, probe: () => Promise<boolean>, ms = 60_000, everyMs = 100): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${ms} ms waiting until ${what}`);
}

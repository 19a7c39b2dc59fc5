/**
 * The API key the dashboard sends when the server requires one (API_KEY_REQUIRED): asked for once,
 * kept in this browser's localStorage and sent as `x-api-key` on every request of the page.
 */

/** The localStorage item holding the key. */
export const API_KEY_ITEM = 'eumarket.apiKey';
/** The request header carrying the key (the server's API_KEY_HEADER). */
export const API_KEY_HEADER = 'x-api-key';

/** The stored key, or null (none stored, or storage unavailable). */
export function storedKey(): string | null {
  try {
    return localStorage.getItem(API_KEY_ITEM);
  } catch {
    return null;
  }
}

/** Stores the key (trimmed) for the next requests and visits. */
export function storeKey(key: string): void {
  localStorage.setItem(API_KEY_ITEM, key.trim());
}

/** The header to add to a request: the stored key, or nothing. */
export function keyHeaders(): Record<string, string> {
  const key = storedKey();
  return key ? { [API_KEY_HEADER]: key } : {};
}

/**
 * Shows the key form (the server answered 401: no key, or an unknown or revoked one) with the
 * server's reason; a submitted key is stored and the page reloads with it.
 */
export function askForKey(doc: Document, reason: string): void {
  const form = doc.getElementById('key-form') as HTMLFormElement | null;
  const input = doc.getElementById('api-key') as HTMLInputElement | null;
  if (!form || !input) return;
  const why = doc.getElementById('key-reason');
  if (why) why.textContent = storedKey() ? `The stored key was refused: ${reason}` : 'This server requires an API key.';
  form.hidden = false;
  doc.body.dataset.state = 'key';
  input.focus();
  form.onsubmit = (e) => {
    e.preventDefault();
    if (!input.value.trim()) return;
    storeKey(input.value);
    doc.defaultView?.location.reload();
  };
}

/**
 * The map's hour: the slider over the range's hours up to the server's current hour, its label in
 * the view's time zone, and the play button that steps the slider an hour at a time.
 */
import { readSelection } from './controls.js';
import { HOUR_MS, type Range } from './data.js';
import { instants, type Scope } from './fetch.js';
import type { ScopeReader } from './scope.js';
import { zoneName } from './time.js';

/** Time between two hours while playing, ms. */
export const PLAY_STEP_MS = 800;

/** The hours the slider offers, UTC ms: those of the range (in its zone) up to the hour of `nowMs` (UTC ms), at least one. */
export function mapHours(scope: Scope, nowMs: number): Range {
  const range = instants(scope);
  return {
    from: range.from,
    to: Math.max(range.from + HOUR_MS, Math.min(range.to, Math.floor(nowMs / HOUR_MS) * HOUR_MS + HOUR_MS)),
  };
}

/** The map's hour (UTC ms) among `hours`: `hourMs` when inside them, else the last one. */
export const keptHour = (hourMs: number | null, hours: Range): number =>
  hourMs === null || hourMs < hours.from || hourMs >= hours.to ? hours.to - HOUR_MS : hourMs;

/** The map's hour as the URL's `t` (ISO 8601 UTC without milliseconds), null for none. */
export const hourParam = (hourMs: number | null): string | null =>
  hourMs === null ? null : new Date(hourMs).toISOString().replace('.000Z', 'Z');

/** The map's hour and its controls. */
export interface MapPlayback {
  /** The map's hour, UTC ms (null: the range's latest). */
  hour(): number | null;
  /** Sets the map's hour, UTC ms (from the URL). */
  setHour(hourMs: number | null): void;
  /** Sets the slider and its label for the map's hour in `scope` (kept when inside the range); returns that hour and its label. */
  place(scope: Scope): { hourMs: number; label: string };
}

/** The page's elements of the map's hour. */
export interface PlaybackControls {
  readonly form: HTMLFormElement;
  readonly slider: HTMLInputElement;
  readonly play: HTMLButtonElement;
  readonly label: HTMLElement;
}

/** Wires the slider and the play button; `onHour` runs when the user (or playing) moves the hour. */
export function createPlayback(
  controls: PlaybackControls,
  scope: ScopeReader,
  now: () => number,
  onHour: () => void,
): MapPlayback {
  const { form, slider, play, label } = controls;
  let hourMs: number | null = null;
  const hourFormat = () =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zoneName(readSelection(form).tz),
      dateStyle: 'medium',
      timeStyle: 'short',
    });
  const place = (view: Scope): { hourMs: number; label: string } => {
    const hours = mapHours(view, now());
    const count = (hours.to - hours.from) / HOUR_MS;
    const at = keptHour(hourMs, hours);
    hourMs = at;
    slider.max = String(count - 1);
    slider.value = String((at - hours.from) / HOUR_MS);
    const text = `${hourFormat().format(at)} ${zoneName(view.tz)}`;
    label.textContent = text;
    slider.setAttribute('aria-valuetext', text);
    return { hourMs: at, label: text };
  };
  const showHour = (index: number) => {
    const view = scope.current();
    if (!view) return;
    hourMs = mapHours(view, now()).from + index * HOUR_MS;
    onHour();
  };
  slider.addEventListener('input', () => showHour(Number(slider.value)));
  let playing: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    clearInterval(playing);
    playing = undefined;
    play.textContent = 'Play';
    play.setAttribute('aria-pressed', 'false');
  };
  play.addEventListener('click', () => {
    if (playing) return stop();
    play.textContent = 'Pause';
    play.setAttribute('aria-pressed', 'true');
    playing = setInterval(() => {
      const next = Number(slider.value) + 1;
      if (next > Number(slider.max)) return stop();
      slider.value = String(next);
      showHour(next);
    }, PLAY_STEP_MS);
  });
  return { hour: () => hourMs, setHour: (ms) => (hourMs = ms), place };
}

/**
 * Where each zone's code label goes beside its marker on the map, so no two labels overlap and no
 * label covers another zone's marker. Greedy candidate placement (Imhof's positions: above, below,
 * right, left, then the corners): the most crowded markers choose first; each takes its first
 * candidate that hits nothing placed, else the one that overlaps least. All lengths are the map's
 * SVG user units (its viewBox), so the placement holds at any drawn width. Pure.
 */

/** A marker to label: its centre and its label's text. */
export interface LabelSite {
  readonly code: string;
  readonly x: number;
  readonly y: number;
  readonly text: string;
}

/** A label's offset from its marker's centre (the text's baseline point) and its text anchor. */
export interface LabelPlace {
  readonly dx: number;
  readonly dy: number;
  readonly anchor: 'start' | 'middle' | 'end';
}

/** A box in user units. */
export interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** Label metrics at the map's 11-unit bold label font: an upper bound of a glyph's advance, the cap height, the descent. */
export const LABEL_FONT = { advance: 7.4, ascent: 8.5, descent: 2.5 } as const;
/** The marker's radius plus its stroke, user units. */
export const MARKER_RADIUS = 10.5;

const CANDIDATES: readonly LabelPlace[] = [
  { dx: 0, dy: -13, anchor: 'middle' },
  { dx: 0, dy: 21, anchor: 'middle' },
  { dx: 13, dy: 4, anchor: 'start' },
  { dx: -13, dy: 4, anchor: 'end' },
  { dx: 11, dy: -11, anchor: 'start' },
  { dx: -11, dy: -11, anchor: 'end' },
  { dx: 11, dy: 19, anchor: 'start' },
  { dx: -11, dy: 19, anchor: 'end' },
];

/** The box of `text` placed at `place` beside a marker at (x, y). */
export function labelBox(x: number, y: number, text: string, place: LabelPlace): Box {
  const w = text.length * LABEL_FONT.advance;
  const left = place.anchor === 'start' ? 0 : place.anchor === 'middle' ? -w / 2 : -w;
  const bx = x + place.dx + left;
  const by = y + place.dy;
  return { x0: bx, y0: by - LABEL_FONT.ascent, x1: bx + w, y1: by + LABEL_FONT.descent };
}

/** The square around a marker (its circle's bounding box). */
export const markerBox = (x: number, y: number): Box => ({
  x0: x - MARKER_RADIUS,
  y0: y - MARKER_RADIUS,
  x1: x + MARKER_RADIUS,
  y1: y + MARKER_RADIUS,
});

/** The area two boxes share, square units. */
export function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Markers within this distance of a site count as its crowd, user units. */
const CROWD_RADIUS = 60;

/** The area of `box` outside `frame`, square units. */
function outside(box: Box, frame: Box): number {
  return (box.x1 - box.x0) * (box.y1 - box.y0) - overlap(box, frame);
}

/** A place for every site's label, by code, each kept inside `frame` (the map's viewBox) where it can be. */
export function placeLabels(sites: readonly LabelSite[], frame: Box): Map<string, LabelPlace> {
  const markers = sites.map((s) => markerBox(s.x, s.y));
  const crowd = (s: LabelSite) =>
    sites.filter((o) => o !== s && Math.hypot(o.x - s.x, o.y - s.y) < CROWD_RADIUS).length;
  const order = [...sites].sort((a, b) => crowd(b) - crowd(a) || a.code.localeCompare(b.code));
  const placed: Box[] = [];
  const places = new Map<string, LabelPlace>();
  for (const site of order) {
    let best = {
      place: CANDIDATES[0]!,
      cost: Number.POSITIVE_INFINITY,
      box: labelBox(site.x, site.y, site.text, CANDIDATES[0]!),
    };
    for (const place of CANDIDATES) {
      const box = labelBox(site.x, site.y, site.text, place);
      const cost =
        [...markers, ...placed].reduce((sum, other) => sum + overlap(box, other), 0) + 10 * outside(box, frame);
      if (cost < best.cost) best = { place, cost, box };
      if (cost === 0) break;
    }
    placed.push(best.box);
    places.set(site.code, best.place);
  }
  return places;
}

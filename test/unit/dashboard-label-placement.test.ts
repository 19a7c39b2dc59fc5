import { describe, expect, it } from 'vitest';
import { labelBox, markerBox, overlap, placeLabels } from '../../src/dashboard/label-placement.js';

/** Markers as crowded as the map's Alps and Baltic corners (user units, 800 x 620 map). */
const CLUSTER = [
  { code: 'DK_1', x: 476, y: 398, text: 'DK 1' },
  { code: 'DK_2', x: 509, y: 412, text: 'DK 2' },
  { code: 'SE_4', x: 529, y: 398, text: 'SE 4' },
  { code: 'CH', x: 457, y: 583, text: 'CH' },
  { code: 'IT_NORD', x: 480, y: 605, text: 'IT NORD' },
  { code: 'AT', x: 541, y: 565, text: 'AT' },
  { code: 'SI', x: 546, y: 593, text: 'SI' },
  { code: 'HR', x: 562, y: 608, text: 'HR' },
  { code: 'HU', x: 606, y: 567, text: 'HU' },
  { code: 'SK', x: 604, y: 538, text: 'SK' },
];

/** The map's viewBox. */
const FRAME = { x0: 0, y0: 0, x1: 800, y1: 620 };

describe('map label placement', () => {
  it('puts a lone label above its marker', () => {
    expect(placeLabels([{ code: 'FR', x: 100, y: 100, text: 'FR' }], FRAME).get('FR')).toEqual({
      dx: 0,
      dy: -13,
      anchor: 'middle',
    });
  });

  it('keeps every label of a crowded cluster off every other label and every marker', () => {
    const places = placeLabels(CLUSTER, FRAME);
    const boxes = CLUSTER.map((s) => labelBox(s.x, s.y, s.text, places.get(s.code)!));
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) expect(overlap(a, b)).toBe(0);
      for (const s of CLUSTER) expect(overlap(a, markerBox(s.x, s.y)), `${CLUSTER[i]!.code} on ${s.code}`).toBe(0);
    }
  });

  it('keeps a label at the edge of the map inside it', () => {
    const place = placeLabels([{ code: 'IT_SICI', x: 400, y: 612, text: 'IT SICI' }], FRAME).get('IT_SICI')!;
    const box = labelBox(400, 612, 'IT SICI', place);
    expect(box.y1).toBeLessThanOrEqual(FRAME.y1);
    expect(box.y0).toBeGreaterThanOrEqual(FRAME.y0);
  });

  it('moves a label that would cover a neighbour above it', () => {
    const places = placeLabels(
      [
        { code: 'A', x: 100, y: 100, text: 'A' },
        { code: 'B', x: 100, y: 82, text: 'B' },
      ],
      FRAME,
    );
    expect(places.get('A')?.dy).not.toBe(-13);
  });
});

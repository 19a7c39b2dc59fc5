/**
 * The map of Europe: country outlines (world-atlas, bundled), every catalogue zone as a labelled
 * marker coloured by its price at the chosen hour, every border as a line between zone markers
 * coloured by its flow type with an arrow in the direction of flow. SVG, so each zone and border is
 * an element with an `aria-label` and a `<title>` naming its code.
 */
import { geoBounds, geoConicConformal, geoPath } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries50m from 'world-atlas/countries-50m.json' with { type: 'json' };
import { FLOW_COLOURS, FLOW_LABELS } from './charts.js';
import { priceColour } from './colours.js';
import { placeLabels } from './label-placement.js';
import type { FlowTypeName } from './data.js';
import { COUNTRY_ZONE, EUROPE_BOUNDS, ZONE_CENTROIDS } from './geo.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 800;
const HEIGHT = 620;

/** A border's flow at one hour: from the exporting zone to the importing one, MW. */
export interface MapFlow {
  readonly border: string;
  readonly from: string;
  readonly to: string;
  readonly type: FlowTypeName;
  readonly mw: number;
}

/** What the map shows for one hour. */
export interface MapHour {
  readonly label: string;
  readonly prices: ReadonlyMap<string, number>;
  readonly flows: ReadonlyMap<string, MapFlow>;
}

/** The drawn map; `show` recolours it for an hour. */
export interface EuropeMap {
  show(hour: MapHour): void;
}

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

const inEurope = (f: Feature): boolean => {
  const [[w, s], [e, n]] = geoBounds(f);
  return e >= EUROPE_BOUNDS[0][0] && w <= EUROPE_BOUNDS[1][0] && n >= EUROPE_BOUNDS[0][1] && s <= EUROPE_BOUNDS[1][1];
};

function europeCountries(): Feature<Geometry, { name: string }>[] {
  const topo = countries50m as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const all = feature(topo, topo.objects.countries) as FeatureCollection<Geometry, { name: string }>;
  return all.features.filter(inEurope);
}

function labelled<T extends SVGElement>(node: T, label: string): T {
  node.setAttribute('aria-label', label);
  const title = node.querySelector('title') ?? node.appendChild(svg('title', {}));
  title.textContent = label;
  return node;
}

/** A selectable map element: click, Enter or Space runs `pick`. */
function pickable<T extends SVGElement>(node: T, pick: () => void): T {
  node.setAttribute('role', 'button');
  node.setAttribute('tabindex', '0');
  node.addEventListener('click', pick);
  node.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      pick();
    }
  });
  return node;
}

/** Handlers of clicks on the map. */
export interface MapPicks {
  zone(code: string): void;
  border(key: string): void;
}

/** Draws the map of `zones` and `borders` (keys `A->B`) into `host`. */
export function drawMap(
  host: HTMLElement,
  zones: readonly { code: string; name: string }[],
  borders: readonly string[],
  picks: MapPicks,
): EuropeMap {
  const box: Feature = {
    type: 'Feature',
    properties: {},
    geometry: {
      type: 'MultiPoint',
      coordinates: [
        [...EUROPE_BOUNDS[0]],
        [...EUROPE_BOUNDS[1]],
        [EUROPE_BOUNDS[0][0], EUROPE_BOUNDS[1][1]],
        [EUROPE_BOUNDS[1][0], EUROPE_BOUNDS[0][1]],
      ],
    },
  };
  const projection = geoConicConformal()
    .rotate([-12, 0])
    .parallels([40, 65])
    .fitExtent(
      [
        [8, 8],
        [WIDTH - 8, HEIGHT - 8],
      ],
      box,
    )
    .clipExtent([
      [0, 0],
      [WIDTH, HEIGHT],
    ]);
  const path = geoPath(projection);
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: 'europe',
    role: 'group',
    'aria-label': 'Map of the bidding zones of Europe',
  });
  const land = svg('g', { class: 'countries', 'aria-hidden': 'true' });
  const countryPaths = new Map<string, SVGPathElement[]>();
  for (const c of europeCountries()) {
    const zone = COUNTRY_ZONE[String(c.id)];
    const p = svg('path', { d: path(c) ?? '', class: zone ? 'country zone-country' : 'country' });
    if (zone) countryPaths.set(zone, [...(countryPaths.get(zone) ?? []), p]);
    land.append(p);
  }
  const at = (code: string): [number, number] | null => {
    const c = ZONE_CENTROIDS[code];
    return c ? projection([c[0], c[1]]) : null;
  };
  const lines = svg('g', { class: 'borders' });
  const borderNodes = new Map<string, SVGGElement>();
  for (const key of borders) {
    const [a, b] = key.split('->');
    const pa = a ? at(a) : null;
    const pb = b ? at(b) : null;
    if (!a || !b || !pa || !pb) continue;
    const g = pickable(svg('g', { class: 'border', 'data-border': key, 'data-type': 'none' }), () => picks.border(key));
    g.append(svg('line', { x1: pa[0], y1: pa[1], x2: pb[0], y2: pb[1] }), svg('path', { class: 'arrow', d: '' }));
    borderNodes.set(key, labelled(g, `Border ${a} – ${b}`));
    lines.append(g);
  }
  const markers = svg('g', { class: 'zones' });
  const zoneNodes = new Map<string, SVGGElement>();
  const sites = zones.flatMap((z) => {
    const p = at(z.code);
    return p ? [{ code: z.code, x: p[0], y: p[1], text: z.code.replace('_', ' ') }] : [];
  });
  const places = placeLabels(sites, { x0: 0, y0: 0, x1: WIDTH, y1: HEIGHT });
  for (const z of zones) {
    const p = at(z.code);
    const place = places.get(z.code);
    if (!p || !place) continue;
    const g = pickable(
      svg('g', { class: 'zone', 'data-zone': z.code, transform: `translate(${p[0].toFixed(1)} ${p[1].toFixed(1)})` }),
      () => picks.zone(z.code),
    );
    g.append(
      svg('circle', { r: 9 }),
      Object.assign(svg('text', { x: place.dx, y: place.dy, 'text-anchor': place.anchor }), {
        textContent: z.code.replace('_', ' '),
      }),
    );
    zoneNodes.set(z.code, labelled(g, `${z.code} ${z.name}`));
    markers.append(g);
  }
  root.append(land, lines, markers);
  host.replaceChildren(root);
  const names = new Map(zones.map((z) => [z.code, z.name]));

  return {
    show(hour) {
      const values = [...hour.prices.values()];
      const min = Math.min(...values);
      const max = Math.max(...values);
      for (const [code, g] of zoneNodes) {
        const price = hour.prices.get(code);
        const fill = price === undefined ? '' : priceColour(price, min, max);
        g.dataset.price = price === undefined ? '' : price.toFixed(2);
        g.classList.toggle('no-data', price === undefined);
        g.querySelector('circle')?.style.setProperty('fill', fill || null);
        for (const p of countryPaths.get(code) ?? []) p.style.setProperty('fill', fill || null);
        labelled(
          g,
          `${code} ${names.get(code) ?? ''}: ${price === undefined ? 'no price data' : `${price.toFixed(2)} EUR/MWh`} at ${hour.label}`,
        );
      }
      for (const [key, g] of borderNodes) drawFlow(g, key, hour.flows.get(key), hour.label);
    },
  };
}

function drawFlow(g: SVGGElement, key: string, flow: MapFlow | undefined, label: string): void {
  const line = g.querySelector('line');
  const arrow = g.querySelector('path.arrow');
  if (!line || !arrow) return;
  const [a, b] = key.split('->');
  g.dataset.type = flow ? flow.type : 'none';
  g.dataset.mw = flow ? String(Math.round(flow.mw)) : '';
  line.style.setProperty('stroke', flow ? FLOW_COLOURS[flow.type] : null);
  line.style.setProperty('stroke-width', flow ? (1.5 + Math.min(4, flow.mw / 1000)).toFixed(1) : null);
  if (!flow || flow.mw === 0) {
    arrow.setAttribute('d', '');
    labelled(
      g,
      `Border ${a} – ${b}: ${flow ? `no flow, ${FLOW_LABELS[flow.type].toLowerCase()}` : 'no flow data'} at ${label}`,
    );
    return;
  }
  const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((n) => Number(line.getAttribute(n)));
  const forward = flow.from === a;
  const [sx, sy, ex, ey] = forward ? [x1, y1, x2, y2] : [x2, y2, x1, y1];
  const mx = ((sx ?? 0) + (ex ?? 0)) / 2;
  const my = ((sy ?? 0) + (ey ?? 0)) / 2;
  const angle = Math.atan2((ey ?? 0) - (sy ?? 0), (ex ?? 0) - (sx ?? 0));
  const pt = (r: number, da: number) =>
    `${(mx + r * Math.cos(angle + da)).toFixed(1)},${(my + r * Math.sin(angle + da)).toFixed(1)}`;
  arrow.setAttribute('d', `M${pt(7, 0)}L${pt(7, 2.5)}L${pt(7, -2.5)}Z`);
  (arrow as SVGPathElement).style.setProperty('fill', FLOW_COLOURS[flow.type]);
  labelled(
    g,
    `Border ${a} – ${b}: ${Math.round(flow.mw)} MW from ${flow.from} to ${flow.to}, ${FLOW_LABELS[flow.type].toLowerCase()}, at ${label}`,
  );
}
